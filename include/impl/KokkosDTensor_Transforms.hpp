#ifndef KOKKOSDTENSOR_IMPL_TRANSFORMS_HPP
#define KOKKOSDTENSOR_IMPL_TRANSFORMS_HPP

// The transforms from 32-bit stream words to values (SPEC section 2, docs/stream.md). Exact
// integer arithmetic, conversions, comparisons and the portable math functions only, every
// multiply-add an explicit portable_fma, so that every backend gives the same bits.

#include <cstdint>
#include <impl/KokkosDTensor_PortableMath.hpp>
#include <type_traits>

namespace KokkosDTensor {
namespace Impl {

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
