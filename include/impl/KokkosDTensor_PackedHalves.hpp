#ifndef KOKKOSDTENSOR_IMPL_PACKEDHALVES_HPP
#define KOKKOSDTENSOR_IMPL_PACKEDHALVES_HPP

// 2-byte values kept two to a 32-bit word in the device columns kernels
// (KokkosDTensor_FillColumns.hpp): a block's 4 values as 2 words, moved and paired by byte
// permutes (PRMT on CUDA) instead of one register and one select per value.

#include <Kokkos_Macros.hpp>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace KokkosDTensor {
namespace Impl {

// Whether the shifted kernel keeps a row's block of E = 4 two-byte values as 2 words (value
// 2 k in the low half of word k), for rows in pairs: its shift then moves words, and each
// column's vector is put together from pairs of rows' words. With every value in a register
// of its own, nvcc unpacked and packed each value around 9 selects a row's block.
template <class T, int E, int R>
struct packed_halves : std::integral_constant<bool, sizeof(T) == 2 && E == 4 && R % 2 == 0> {};

// A row's shift as the two byte selectors of select_halves: words moved by its bit 1, then
// halves by its bit 0. Opaque on devices: found once an item (nvcc found them again in every
// block from the shift, 4 instructions a row).
struct HalvesShift {
  std::uint32_t by_word;
  std::uint32_t by_half;
  KOKKOS_FORCEINLINE_FUNCTION explicit HalvesShift(const int shift)
      : by_word(shift & 2 ? 0x7654u : 0x3210u), by_half(shift & 1 ? 0x5432u : 0x3210u) {
#if defined(__CUDA_ARCH__)
    asm("" : "+r"(by_word), "+r"(by_half));
#endif
  }
  HalvesShift() = default;
};

// Bytes of the 8 of lo then hi as `selector` says (__byte_perm).
KOKKOS_FORCEINLINE_FUNCTION std::uint32_t permute_bytes(const std::uint32_t lo,
                                                        const std::uint32_t hi,
                                                        const std::uint32_t selector) {
#if defined(__CUDA_ARCH__)
  return __byte_perm(lo, hi, selector);
#else
  const std::uint64_t bytes = (static_cast<std::uint64_t>(hi) << 32) | lo;
  std::uint32_t out = 0;
  for (int k = 0; k < 4; ++k)
    out |= static_cast<std::uint32_t>((bytes >> (8 * ((selector >> (4 * k)) & 7))) & 0xffu)
           << (8 * k);
  return out;
#endif
}

// Values shift .. shift + 3 of a row's two blocks (carried, then next), each 2 words of
// packed halves, into `row`: 5 byte permutes.
KOKKOS_FORCEINLINE_FUNCTION void select_halves(const std::uint32_t (&carried)[2],
                                               const std::uint32_t (&next)[2],
                                               const HalvesShift& shift, std::uint32_t (&row)[2]) {
  const std::uint32_t w0 = permute_bytes(carried[0], carried[1], shift.by_word);
  const std::uint32_t w1 = permute_bytes(carried[1], next[0], shift.by_word);
  const std::uint32_t w2 = permute_bytes(next[0], next[1], shift.by_word);
  row[0] = permute_bytes(w0, w1, shift.by_half);
  row[1] = permute_bytes(w1, w2, shift.by_half);
}

// The low (High: high) halves of a and b as one word, a's in its low half.
template <bool High>
KOKKOS_FORCEINLINE_FUNCTION std::uint32_t pair_halves(const std::uint32_t a,
                                                      const std::uint32_t b) {
  return permute_bytes(a, b, High ? 0x7632u : 0x5410u);
}

// R rows' 4 values each (packed_halves) as 4 columns of R values: column e's rows 2 p and
// 2 p + 1 are one word.
template <class T, int R>
KOKKOS_FORCEINLINE_FUNCTION void transpose_halves(const std::uint32_t (&rows)[R][2],
                                                  T (&columns)[4][R]) {
  static_assert(sizeof(T) == 2 && R % 2 == 0, "pairs of 2-byte values");
  for (int p = 0; p < R / 2; ++p) {
    for (int k = 0; k < 2; ++k) {
      const std::uint32_t low = pair_halves<false>(rows[2 * p][k], rows[2 * p + 1][k]);
      const std::uint32_t high = pair_halves<true>(rows[2 * p][k], rows[2 * p + 1][k]);
      memcpy(&columns[2 * k][2 * p], &low, sizeof(low));
      memcpy(&columns[2 * k + 1][2 * p], &high, sizeof(high));
    }
  }
}

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
