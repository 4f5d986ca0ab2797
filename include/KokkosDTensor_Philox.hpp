#ifndef KOKKOSDTENSOR_PHILOX_HPP
#define KOKKOSDTENSOR_PHILOX_HPP

// The random stream of SPEC section 2 (docs/stream.md): the Philox4x32-10 block function
// and the transforms from 32-bit words to values.
//
// Word W of the stream of `seed` is lane W % 4 of
//   philox4x32_10(counter = {lo32(W/4), hi32(W/4), 0, 0}, key = {lo32(seed), hi32(seed)}),
// the word cuRAND's curand() returns after curand_init(seed, 0, W, &state).
//
// Everything here is plain KOKKOS_INLINE_FUNCTION code with no MPI and no allocation.
// Transforms use only exact integer arithmetic, conversions, comparisons and the
// project's portable math functions (KokkosDTensor_PortableMath.hpp: portable_mul,
// portable_div, ... are the correctly rounded operations that no compiler flag changes on
// a device, portable_log, portable_sqrt, ... the elementary functions); every
// multiply-add is an explicit portable_fma and no expression has the form a * b + c, so
// that a compiler that contracts (nvcc does by default) cannot change a result: Serial,
// OpenMP, Threads and CUDA give the same bits.

#include <KokkosDTensor_PortableMath.hpp>
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

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
// stream order: word[4 * l + j] is word j of block first_block + l. Written lane-parallel so that the
// compiler vectorises it (SSE2 pmuludq, AVX2 vpmuludq: 32x32->64-bit products of
// 2, 4 or 8 lanes per instruction); same words as stream_block. Not for device code.
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

// ---- words to uniform floating-point values ------------------------------------------

// Two words as one 64-bit word: w0 (the lower-numbered word of the stream) is the high half.
KOKKOS_INLINE_FUNCTION std::uint64_t join_words(std::uint32_t w0, std::uint32_t w1) {
  return (static_cast<std::uint64_t>(w0) << 32) | w1;
}

// float in [0, 1): (word >> 8) * 2^-24 (exact).
KOKKOS_INLINE_FUNCTION float uniform01_float(std::uint32_t word) {
  return portable_mul(static_cast<float>(word >> 8), 0x1p-24f);
}

// float in (0, 1]: ((word >> 8) + 1) * 2^-24 (exact); for logarithms.
KOKKOS_INLINE_FUNCTION float uniform01_open_float(std::uint32_t word) {
  return portable_mul(static_cast<float>((word >> 8) + 1u), 0x1p-24f);
}

// double in [0, 1): ((w0 << 32 | w1) >> 11) * 2^-53 (exact).
KOKKOS_INLINE_FUNCTION double uniform01_double(std::uint32_t w0, std::uint32_t w1) {
  return portable_mul(static_cast<double>(join_words(w0, w1) >> 11), 0x1p-53);
}

// double in (0, 1]: (((w0 << 32 | w1) >> 11) + 1) * 2^-53 (exact); for logarithms.
KOKKOS_INLINE_FUNCTION double uniform01_open_double(std::uint32_t w0, std::uint32_t w1) {
  return portable_mul(static_cast<double>((join_words(w0, w1) >> 11) + 1u), 0x1p-53);
}

// The floating-point type a distribution computes in: float for outputs of at most 32
// bits (one word per element), double for 64-bit outputs (two words per element).
template <class T>
using transform_real_t = typename std::conditional<(sizeof(T) > 4), double, float>::type;

// Uniform in [0, 1) of the compute type from the element's words (w1 unused for float).
KOKKOS_INLINE_FUNCTION void uniform01(std::uint32_t w0, std::uint32_t /*w1*/, float& u) {
  u = uniform01_float(w0);
}
KOKKOS_INLINE_FUNCTION void uniform01(std::uint32_t w0, std::uint32_t w1, double& u) {
  u = uniform01_double(w0, w1);
}
// Uniform in (0, 1] of the compute type from the element's words (w1 unused for float).
KOKKOS_INLINE_FUNCTION void uniform01_open(std::uint32_t w0, std::uint32_t /*w1*/, float& u) {
  u = uniform01_open_float(w0);
}
KOKKOS_INLINE_FUNCTION void uniform01_open(std::uint32_t w0, std::uint32_t w1, double& u) {
  u = uniform01_open_double(w0, w1);
}

// ---- transforms with parameters --------------------------------------------------------

// uniform_(from, to): fma(u, range, from) with range = to - from (rounded once, on the
// host), then min(., below_to) where below_to is the largest value of R below `to`.
// The result lies in [from, to): u * range >= 0 and rounding is monotone, so the fma is
// >= from; the min removes the values that rounding pushed up to `to`.
template <class R>
KOKKOS_INLINE_FUNCTION R uniform_from_to(R u, R from, R range, R below_to) {
  const R value = portable_fma(u, range, from);
  return value < below_to ? value : below_to;
}

// Box-Muller: from u1 in (0, 1] and u2 in [0, 1),
//   r = sqrt(-2 log u1),  z0 = r cos(2 pi u2),  z1 = r sin(2 pi u2).
// u1 and u2 are grid points (multiples of 2^-24 resp. 2^-53), so the log and sincospi are
// the special-case-free forms of portable_log and portable_sincospi (same bits, fewer
// instructions: normal_ is instruction-bound on GPUs).
template <class R>
KOKKOS_INLINE_FUNCTION void box_muller(R u1, R u2, R& z0, R& z1) {
  const R radius = portable_sqrt(portable_mul(R(-2), log_normal_positive(u1)));
  R sine, cosine;
  sincospi_of_unit_multiple(portable_mul(R(2), u2), &sine, &cosine);
  z0 = portable_mul(radius, cosine);
  z1 = portable_mul(radius, sine);
}

// Bernoulli: true with probability threshold / 2^32 (one word) or threshold / 2^53 (two
// words, compared as (w0 << 32 | w1) >> 11). threshold = floor(p * 2^32) resp.
// floor(p * 2^53), computed on the host; success iff (word value) * 2^-bits < p exactly.
// 64-bit comparison, so p = 1 (threshold 2^32 resp. 2^53) always succeeds.
KOKKOS_INLINE_FUNCTION bool bernoulli_word(std::uint32_t word, std::uint64_t threshold) {
  return static_cast<std::uint64_t>(word) < threshold;
}
KOKKOS_INLINE_FUNCTION bool bernoulli_words(std::uint32_t w0, std::uint32_t w1,
                                            std::uint64_t threshold) {
  return (join_words(w0, w1) >> 11) < threshold;
}

// High 64 bits of the 128-bit product a * b, in portable integer arithmetic.
KOKKOS_INLINE_FUNCTION std::uint64_t mul_high_64(std::uint64_t a, std::uint64_t b) {
  const std::uint64_t a_lo = a & 0xFFFFFFFFu, a_hi = a >> 32;
  const std::uint64_t b_lo = b & 0xFFFFFFFFu, b_hi = b >> 32;
  const std::uint64_t lo_lo = a_lo * b_lo;
  const std::uint64_t hi_lo = a_hi * b_lo;
  const std::uint64_t lo_hi = a_lo * b_hi;
  const std::uint64_t hi_hi = a_hi * b_hi;
  const std::uint64_t middle = (lo_lo >> 32) + (hi_lo & 0xFFFFFFFFu) + (lo_hi & 0xFFFFFFFFu);
  return hi_hi + (hi_lo >> 32) + (lo_hi >> 32) + (middle >> 32);
}

// randint in [low, low + range) with range in [1, 2^32]: low + ((range * word) >> 32).
// Each value is hit by floor or ceil of 2^32 / range words: its probability differs from
// 1 / range by less than 2^-32 (relative bias below range / 2^32). Arithmetic modulo 2^64.
KOKKOS_INLINE_FUNCTION std::uint64_t randint_word(std::uint32_t word, std::uint64_t low,
                                                  std::uint64_t range) {
  return low + ((range * word) >> 32);
}
// randint in [low, low + range) with range in [1, 2^64 - 1]:
// low + mulhi64(range, w0 << 32 | w1); probability within 2^-64 of 1 / range.
KOKKOS_INLINE_FUNCTION std::uint64_t randint_words(std::uint32_t w0, std::uint32_t w1,
                                                   std::uint64_t low, std::uint64_t range) {
  return low + mul_high_64(range, join_words(w0, w1));
}

// Exponential with rate lambd from u in (0, 1]: -log(u) / lambd (>= 0; u = 1 gives 0).
template <class R>
KOKKOS_INLINE_FUNCTION R exponential_from_uniform(R u, R lambd) {
  return portable_div(-portable_log(u), lambd);
}

// ceil for x >= 0 (or NaN): exact, without libm. Values >= 2^52 (double) or 2^23 (float)
// are already integers.
KOKKOS_INLINE_FUNCTION double ceil_nonnegative(double x) {
  if (!(x < 0x1p52)) return x;
  const double truncated = static_cast<double>(static_cast<std::int64_t>(x));
  return truncated < x ? portable_add(truncated, 1.0) : truncated;
}
KOKKOS_INLINE_FUNCTION float ceil_nonnegative(float x) {
  if (!(x < 0x1p23f)) return x;
  const float truncated = static_cast<float>(static_cast<std::int32_t>(x));
  return truncated < x ? portable_add(truncated, 1.0f) : truncated;
}

// Geometric (number of Bernoulli(p) trials up to the first success, >= 1) from u in
// (0, 1], as PyTorch: ceil(log(u) / log1p(-p)), here max(1, .) so that u = 1 gives 1.
// log1p_minus_p = log1p(-p) < 0, computed on the host (portable_log1p_host).
template <class R>
KOKKOS_INLINE_FUNCTION R geometric_from_uniform(R u, R log1p_minus_p) {
  const R trials = ceil_nonnegative(portable_div(portable_log(u), log1p_minus_p));
  return trials > R(1) ? trials : R(1);
}

// Truncated normal by inverse CDF (PyTorch nn.init.trunc_normal_): from u in [0, 1),
//   v = fma(u, erf_hi - erf_lo, erf_lo)  (uniform in [erf_lo, erf_hi)),
//   x = fma(erfinv(v), std * sqrt(2), mean), clamped to [a, b],
// where erf_lo = erf((a - mean) / (std sqrt 2)), erf_hi = erf((b - mean) / (std sqrt 2))
// and scale = std * sqrt(2) come from the host.
template <class R>
KOKKOS_INLINE_FUNCTION R trunc_normal_from_uniform(R u, R erf_lo, R erf_width, R scale, R mean, R a,
                                                   R b) {
  const R v = portable_fma(u, erf_width, erf_lo);
  const R x = portable_fma(portable_erfinv(v), scale, mean);
  const R above_a = x < a ? a : x;
  return above_a > b ? b : above_a;
}

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
