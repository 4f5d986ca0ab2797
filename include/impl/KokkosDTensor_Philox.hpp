#ifndef KOKKOSDTENSOR_IMPL_PHILOX_HPP
#define KOKKOSDTENSOR_IMPL_PHILOX_HPP

// The Philox4x32-10 block function of the random stream (SPEC section 2, docs/stream.md).
// Word W of the stream of `seed` is lane W % 4 of
//   philox4x32_10(counter = {lo32(W/4), hi32(W/4), 0, 0}, key = {lo32(seed), hi32(seed)}),
// the word cuRAND's curand() returns after curand_init(seed, 0, W, &state).

#include <Kokkos_Macros.hpp>
#include <cstdint>

namespace KokkosDTensor {
namespace Impl {

// ---- Philox4x32-10 -------------------------------------------------------------------

// Four 32-bit words: the output of one Philox block.
struct PhiloxBlock {
  std::uint32_t word[4];
};

// Philox4x32 constants (Salmon et al., SC'11; Random123 philox.h).
constexpr std::uint32_t philox_m0 = 0xD2511F53u;
constexpr std::uint32_t philox_m1 = 0xCD9E8D57u;
constexpr std::uint32_t philox_w0 = 0x9E3779B9u;  // golden ratio
constexpr std::uint32_t philox_w1 = 0xBB67AE85u;  // sqrt(3) - 1

// The round keys of a seed: round r (0..9) uses (k0 + r * philox_w0, k1 + r * philox_w1),
// (k0, k1) = (lo32(seed), hi32(seed)). The fill kernels compute it once on the host and
// carry it in the kernel's functor, so the schedule costs no instruction per block: on CUDA
// the functor lives in the kernel's constant parameter bank, so each `hi ^ c ^ key` is one
// LOP3 with a constant-bank operand.
struct PhiloxKeySchedule {
  std::uint32_t k0[10];
  std::uint32_t k1[10];
};

KOKKOS_INLINE_FUNCTION PhiloxKeySchedule philox_key_schedule(std::uint64_t seed) {
  PhiloxKeySchedule key;
  std::uint32_t k0 = static_cast<std::uint32_t>(seed), k1 = static_cast<std::uint32_t>(seed >> 32);
  for (int round = 0; round < 10; ++round) {
    key.k0[round] = k0;
    key.k1[round] = k1;
    k0 += philox_w0;
    k1 += philox_w1;
  }
  return key;
}

// Philox4x32 with 10 rounds: counter (c0, c1, c2, c3), round keys `key`.
KOKKOS_FORCEINLINE_FUNCTION PhiloxBlock philox4x32_10(std::uint32_t c0, std::uint32_t c1,
                                                      std::uint32_t c2, std::uint32_t c3,
                                                      const PhiloxKeySchedule& key) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#pragma unroll
#endif
  for (int round = 0; round < 10; ++round) {
    const std::uint64_t product0 = static_cast<std::uint64_t>(philox_m0) * c0;
    const std::uint64_t product1 = static_cast<std::uint64_t>(philox_m1) * c2;
    const std::uint32_t hi0 = static_cast<std::uint32_t>(product0 >> 32);
    const std::uint32_t lo0 = static_cast<std::uint32_t>(product0);
    const std::uint32_t hi1 = static_cast<std::uint32_t>(product1 >> 32);
    const std::uint32_t lo1 = static_cast<std::uint32_t>(product1);
    c0 = hi1 ^ c1 ^ key.k0[round];
    c1 = lo1;
    c2 = hi0 ^ c3 ^ key.k1[round];
    c3 = lo0;
  }
  PhiloxBlock block;
  block.word[0] = c0;
  block.word[1] = c1;
  block.word[2] = c2;
  block.word[3] = c3;
  return block;
}

// Philox4x32 with 10 rounds: counter (c0, c1, c2, c3), key (k0, k1).
KOKKOS_INLINE_FUNCTION PhiloxBlock philox4x32_10(std::uint32_t c0, std::uint32_t c1,
                                                 std::uint32_t c2, std::uint32_t c3,
                                                 std::uint32_t k0, std::uint32_t k1) {
  return philox4x32_10(c0, c1, c2, c3,
                       philox_key_schedule((static_cast<std::uint64_t>(k1) << 32) | k0));
}

// Block `block_index` of the stream of `seed`: words 4*block_index ... 4*block_index + 3.
KOKKOS_INLINE_FUNCTION PhiloxBlock stream_block(std::uint64_t seed, std::uint64_t block_index) {
  return philox4x32_10(static_cast<std::uint32_t>(block_index),
                       static_cast<std::uint32_t>(block_index >> 32), 0u, 0u,
                       static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32));
}

// Word `word_index` of the stream of `seed` (one Philox block per call: for tests and
// references; kernels work on whole blocks).
KOKKOS_INLINE_FUNCTION std::uint32_t stream_word(std::uint64_t seed, std::uint64_t word_index) {
  return stream_block(seed, word_index >> 2).word[word_index & 3u];
}

// Block (index_high << 32 | index_low) of the stream whose seed has the schedule `key`.
KOKKOS_FORCEINLINE_FUNCTION PhiloxBlock stream_block(const PhiloxKeySchedule& key,
                                                     std::uint32_t index_low,
                                                     std::uint32_t index_high) {
  return philox4x32_10(index_low, index_high, 0u, 0u, key);
}

// Block `block_index` of the stream whose seed has the schedule `key`.
KOKKOS_FORCEINLINE_FUNCTION PhiloxBlock stream_block(const PhiloxKeySchedule& key,
                                                     std::uint64_t block_index) {
  return stream_block(key, static_cast<std::uint32_t>(block_index),
                      static_cast<std::uint32_t>(block_index >> 32));
}

// Host only: the N consecutive blocks first_block, ..., first_block + N - 1 at once, in
// stream order: word[4 * l + j] is word j of block first_block + l. Written lane-parallel so that
// the compiler vectorises it (SSE2 pmuludq, AVX2 vpmuludq: 32x32->64-bit products of 2, 4 or 8
// lanes per instruction); same words as stream_block. Not for device code.
template <int N>
inline void philox4x32_10_batch(const PhiloxKeySchedule& key, std::uint64_t first_block,
                                std::uint32_t (&word)[4 * N]) {
  std::uint32_t c0[N], c1[N], c2[N], c3[N];
  for (int l = 0; l < N; ++l) {
    const std::uint64_t block = first_block + static_cast<std::uint64_t>(l);
    c0[l] = static_cast<std::uint32_t>(block);
    c1[l] = static_cast<std::uint32_t>(block >> 32);
    c2[l] = 0u;
    c3[l] = 0u;
  }
  for (int round = 0; round < 10; ++round) {
    const std::uint32_t k0 = key.k0[round], k1 = key.k1[round];
    for (int l = 0; l < N; ++l) {
      const std::uint64_t product0 = static_cast<std::uint64_t>(philox_m0) * c0[l];
      const std::uint64_t product1 = static_cast<std::uint64_t>(philox_m1) * c2[l];
      const std::uint32_t n0 = static_cast<std::uint32_t>(product1 >> 32) ^ c1[l] ^ k0;
      const std::uint32_t n2 = static_cast<std::uint32_t>(product0 >> 32) ^ c3[l] ^ k1;
      c1[l] = static_cast<std::uint32_t>(product1);
      c3[l] = static_cast<std::uint32_t>(product0);
      c0[l] = n0;
      c2[l] = n2;
    }
  }
  for (int l = 0; l < N; ++l) {
    word[4 * l + 0] = c0[l];
    word[4 * l + 1] = c1[l];
    word[4 * l + 2] = c2[l];
    word[4 * l + 3] = c3[l];
  }
}

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
