#ifndef KOKKOSDTENSOR_IMPL_REDUCEDPRECISION_HPP
#define KOKKOSDTENSOR_IMPL_REDUCEDPRECISION_HPP

// The 16-bit floating formats of the random ops (SPEC section 2, "Reduced precision";
// docs/stream.md): IEEE binary16 (Kokkos::Experimental::half_t) and bfloat16
// (Kokkos::Experimental::bhalf_t). A 16-bit element is the float result of the same op,
// rounded once to nearest-even by the integer functions below, so every backend gives the
// same bits whatever its own conversion instructions do.
//
// Kokkos makes half_t and bhalf_t 16-bit types only with a GPU backend; elsewhere they are
// `float` (and Kokkos 3.4 has no bhalf_t), and then they are simply float here too.
// ReducedFloatFormat<T> says whether (and how) T is a 16-bit format.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstring>
#include <impl/KokkosDTensor_PortableMath.hpp>
#include <type_traits>
#if defined(__CUDACC__)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#endif

// Whether Kokkos' half_t / bhalf_t are 16-bit types in this build (0: float or absent).
#if defined(KOKKOS_HALF_T_IS_FLOAT) && !KOKKOS_HALF_T_IS_FLOAT
#define KOKKOSDTENSOR_HALF_T_IS_16BIT 1
#else
#define KOKKOSDTENSOR_HALF_T_IS_16BIT 0
#endif
#if defined(KOKKOS_BHALF_T_IS_FLOAT) && !KOKKOS_BHALF_T_IS_FLOAT
#define KOKKOSDTENSOR_BHALF_T_IS_16BIT 1
#else
#define KOKKOSDTENSOR_BHALF_T_IS_16BIT 0
#endif

namespace KokkosDTensor {
namespace Impl {

// ---- float <-> 16-bit bits, integer arithmetic only ------------------------------------

// The 16-bit quiet NaN of the float NaN with bits u: its sign, the payload's top bits.
KOKKOS_INLINE_FUNCTION std::uint16_t f16_quiet_nan_bits(std::uint32_t u) {
  return static_cast<std::uint16_t>(((u >> 16) & 0x8000u) | 0x7E00u | ((u >> 13) & 0x3FFu));
}
KOKKOS_INLINE_FUNCTION std::uint16_t bf16_quiet_nan_bits(std::uint32_t u) {
  return static_cast<std::uint16_t>((u >> 16) | 0x0040u);
}

// float to binary16, round to nearest even: overflow (|x| >= 65520) to infinity, results
// below 2^-14 subnormal, NaN to a quiet NaN of the same sign (payload's top bits kept).
KOKKOS_INLINE_FUNCTION std::uint16_t float_to_f16_bits(float x) {
  const std::uint32_t u = float_to_bits(x);
  const std::uint32_t sign = (u >> 16) & 0x8000u;
  const std::uint32_t a = u & 0x7FFFFFFFu;
  if (a > 0x7F800000u) return f16_quiet_nan_bits(u);
  if (a >= 0x477FF000u) return static_cast<std::uint16_t>(sign | 0x7C00u);  // 65520: tie to inf
  if (a >= 0x38800000u) {  // normal binary16: rebias the exponent, round away 13 bits
    const std::uint32_t rebased = a - 0x38000000u;
    return static_cast<std::uint16_t>(sign | ((rebased + 0xFFFu + ((rebased >> 13) & 1u)) >> 13));
  }
  if (a <= 0x33000000u) return static_cast<std::uint16_t>(sign);  // <= 2^-25: ties to +-0
  // Subnormal binary16: m = |x| / 2^-24 rounded to nearest even (m = 1024 is 2^-14).
  const std::uint32_t mantissa = (a & 0x7FFFFFu) | 0x800000u;
  const std::uint32_t shift = 126u - (a >> 23);  // 14 .. 24
  const std::uint32_t kept = mantissa >> shift;
  const std::uint32_t rest = mantissa & ((1u << shift) - 1u);
  const std::uint32_t half = 1u << (shift - 1u);
  const std::uint32_t up = rest > half || (rest == half && (kept & 1u)) ? 1u : 0u;
  return static_cast<std::uint16_t>(sign | (kept + up));
}

// float to bfloat16, round to nearest even: the carry of the rounding moves into the
// exponent (and to infinity past the largest bfloat16); subnormals stay subnormal; NaN
// to a quiet NaN of the same sign.
KOKKOS_INLINE_FUNCTION std::uint16_t float_to_bf16_bits(float x) {
  const std::uint32_t u = float_to_bits(x);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return bf16_quiet_nan_bits(u);
  return static_cast<std::uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

// binary16 to float, exactly (a NaN becomes the quiet NaN of the same sign and payload).
KOKKOS_INLINE_FUNCTION float f16_bits_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
#if defined(__CUDA_ARCH__)
  // The conversion instruction (exact for every half but NaN); a NaN as below, by a select.
  const float converted = __half2float(__ushort_as_half(h));
  return (h & 0x7FFFu) > 0x7C00u
             ? bits_to_float(sign | 0x7FC00000u | (static_cast<std::uint32_t>(h & 0x3FFu) << 13))
             : converted;
#else
  const std::uint32_t exponent = (h >> 10) & 0x1Fu;
  const std::uint32_t mantissa = h & 0x3FFu;
  if (exponent == 0x1Fu)
    return bits_to_float(sign | 0x7F800000u | (mantissa << 13) | (mantissa ? 0x400000u : 0u));
  if (exponent == 0) {
    // mantissa * 2^-24: an integer below 2^10 times a power of two, exact in float.
    const float magnitude = portable_mul(static_cast<float>(mantissa), 0x1p-24f);
    return bits_to_float(sign | float_to_bits(magnitude));
  }
  return bits_to_float(sign | ((exponent + 112u) << 23) | (mantissa << 13));
#endif
}

// bfloat16 to float, exactly (a NaN becomes the quiet NaN of the same sign and payload).
KOKKOS_INLINE_FUNCTION float bf16_bits_to_float(std::uint16_t h) {
  const std::uint32_t u = static_cast<std::uint32_t>(h) << 16;
  return bits_to_float((u & 0x7FFFFFFFu) > 0x7F800000u ? u | 0x400000u : u);
}

// ---- which types are 16-bit formats -------------------------------------------------------

// ReducedFloatFormat<T>: value is true for a 16-bit floating type, with bfloat16 saying
// which format. Specialised below for Kokkos' types where they are 16-bit; the tests
// specialise it for a private 16-bit type, so that the 16-bit kernels run in host builds.
template <class T, class Enable = void>
struct ReducedFloatFormat : std::false_type {};

#if KOKKOSDTENSOR_HALF_T_IS_16BIT
template <>
struct ReducedFloatFormat<Kokkos::Experimental::half_t> : std::true_type {
  static constexpr bool bfloat16 = false;
};
#endif
#if KOKKOSDTENSOR_BHALF_T_IS_16BIT
template <>
struct ReducedFloatFormat<Kokkos::Experimental::bhalf_t> : std::true_type {
  static constexpr bool bfloat16 = true;
};
#endif

template <class T>
KOKKOS_INLINE_FUNCTION constexpr bool is_reduced_float() {
  return ReducedFloatFormat<T>::value;
}

// Two bytes from `from` to `to` (memcpy, as Kokkos::bit_cast does, on the device too).
KOKKOS_INLINE_FUNCTION void copy_two_bytes(void* to, const void* from) {
#if KOKKOSDTENSOR_IMPL_DEVICE_INTRINSICS
  memcpy(to, from, 2);
#else
  std::memcpy(to, from, 2);
#endif
}

// The 16-bit value with bits `bits`, and the bits of a 16-bit value.
template <class T>
KOKKOS_INLINE_FUNCTION T reduced_from_bits(std::uint16_t bits) {
  static_assert(sizeof(T) == 2 && std::is_trivially_copyable<T>::value,
                "a 16-bit floating type is two trivially copyable bytes");
  T value;
  copy_two_bytes(&value, &bits);
  return value;
}
template <class T>
KOKKOS_INLINE_FUNCTION std::uint16_t reduced_to_bits(const T& value) {
  static_assert(sizeof(T) == 2 && std::is_trivially_copyable<T>::value,
                "a 16-bit floating type is two trivially copyable bytes");
  std::uint16_t bits;
  copy_two_bytes(&bits, &value);
  return bits;
}

// float to the bits of the 16-bit format of T (rounded once, to nearest even), and back.
// On NVIDIA devices by the conversion instruction, which rounds to nearest even as well:
// the same bits for every float but NaN, in one instruction instead of ~25, branch-free
// (docs/performance.md, "Reduced precision"). A NaN gets the integer functions' quiet NaN;
// MayBeNaN = false: the caller's float is never NaN, so the check is left out.
template <class T, bool MayBeNaN = true>
KOKKOS_INLINE_FUNCTION std::uint16_t round_to_reduced_bits(float x) {
#if defined(__CUDA_ARCH__)
  std::uint16_t rounded, quiet_nan = 0;
  if constexpr (ReducedFloatFormat<T>::bfloat16) {
    rounded = __bfloat16_as_ushort(__float2bfloat16_rn(x));
    if constexpr (MayBeNaN) quiet_nan = bf16_quiet_nan_bits(float_to_bits(x));
  } else {
    rounded = __half_as_ushort(__float2half_rn(x));
    if constexpr (MayBeNaN) quiet_nan = f16_quiet_nan_bits(float_to_bits(x));
  }
  if constexpr (MayBeNaN) return x == x ? rounded : quiet_nan;
  return rounded;
#else
  return ReducedFloatFormat<T>::bfloat16 ? float_to_bf16_bits(x) : float_to_f16_bits(x);
#endif
}
template <class T>
KOKKOS_INLINE_FUNCTION float reduced_bits_to_float(std::uint16_t bits) {
  return ReducedFloatFormat<T>::bfloat16 ? bf16_bits_to_float(bits) : f16_bits_to_float(bits);
}

// Four floats rounded as round_to_reduced_bits<T, MayBeNaN> rounds them. On NVIDIA devices a
// pair at a time: one conversion instruction gives both halves, packed as memory holds them
// (docs/performance.md, "Reduced precision"); a NaN there must be the one NaN the device's
// float arithmetic gives (0x7FFFFFFF), which converts to the integer functions' quiet NaN.
template <class T, bool MayBeNaN = false>
KOKKOS_INLINE_FUNCTION void round_four_to_reduced(const float (&x)[4], T (&out)[4]) {
#if defined(__CUDA_ARCH__)
  std::uint32_t pairs[2];
  for (int p = 0; p < 2; ++p) {
    if constexpr (ReducedFloatFormat<T>::bfloat16) {
      const __nv_bfloat162 two = __floats2bfloat162_rn(x[2 * p], x[2 * p + 1]);
      memcpy(&pairs[p], &two, 4);
    } else {
      const __half2 two = __floats2half2_rn(x[2 * p], x[2 * p + 1]);
      memcpy(&pairs[p], &two, 4);
    }
  }
  memcpy(out, pairs, 8);
#else
  for (int e = 0; e < 4; ++e)
    out[e] = reduced_from_bits<T>(round_to_reduced_bits<T, MayBeNaN>(x[e]));
#endif
}

// bfloat16 values scaled by 2^-24, a pair per multiply on NVIDIA devices: exact for the
// values of bf16 uniform_(0, 1) before its scale (integers below 2^24, rounded), so rounding
// the integer and then scaling gives the bits of rounding the scaled float.
template <class T>
KOKKOS_INLINE_FUNCTION void scale_bf16_by_2_pow_minus_24(T (&values)[4]) {
  static_assert(ReducedFloatFormat<T>::bfloat16, "scales bfloat16 values");
#if defined(__CUDA_ARCH__)
  std::uint32_t pairs[2];
  memcpy(pairs, values, 8);
  const std::uint32_t factors = 0x33803380u;  // 2^-24 in both halves
  for (int p = 0; p < 2; ++p) {
    __nv_bfloat162 a, b;
    memcpy(&a, &pairs[p], 4);
    memcpy(&b, &factors, 4);
    const __nv_bfloat162 scaled = __hmul2(a, b);
    memcpy(&pairs[p], &scaled, 4);
  }
  memcpy(values, pairs, 8);
#else
  for (int e = 0; e < 4; ++e)
    values[e] = reduced_from_bits<T>(
        round_to_reduced_bits<T>(reduced_bits_to_float<T>(reduced_to_bits(values[e])) * 0x1p-24f));
#endif
}

// The least float that rounds to the finite 16-bit value with bits `bits` (+0 for +0): a
// float x at most that value rounds to `bits` exactly when x >= it, as rounding is monotone
// (x != -0). The boundary is the midpoint to the next value down (exact in float), included
// when the tie goes to `bits` (an even pattern).
template <class T>
KOKKOS_INLINE_FUNCTION float least_float_rounding_to(std::uint16_t bits) {
  if (bits == 0) return 0.0f;
  const bool negative = (bits & 0x8000u) != 0;
  const float value = reduced_bits_to_float<T>(bits);
  float gap =
      value - reduced_bits_to_float<T>(static_cast<std::uint16_t>(negative ? bits + 1 : bits - 1));
  // The most negative finite value: the next value down is -infinity; the gap above it.
  if (!(gap < bits_to_float(0x7F800000u)))
    gap = reduced_bits_to_float<T>(static_cast<std::uint16_t>(bits - 1)) - value;
  const float middle = value - gap * 0.5f;
  if ((bits & 1u) == 0) return middle;
  return bits_to_float(float_to_bits(middle) + (negative ? 0xFFFFFFFFu : 1u));  // toward value
}

// T to float as an operand of float arithmetic: exact, but a NaN may become another NaN (on
// NVIDIA devices the conversion instruction alone; the arithmetic makes any NaN its own).
template <class T>
KOKKOS_INLINE_FUNCTION float reduced_to_float_operand(const T& value) {
#if defined(__CUDA_ARCH__)
  if constexpr (!ReducedFloatFormat<T>::bfloat16)
    return __half2float(__ushort_as_half(reduced_to_bits(value)));
#endif
  return reduced_bits_to_float<T>(reduced_to_bits(value));
}

// float to T rounded once, and T to float exactly, for a 16-bit T.
template <class T>
KOKKOS_INLINE_FUNCTION T round_to_reduced(float x) {
  return reduced_from_bits<T>(round_to_reduced_bits<T>(x));
}
template <class T>
KOKKOS_INLINE_FUNCTION float reduced_to_float(const T& value) {
  return reduced_bits_to_float<T>(reduced_to_bits(value));
}

// Each of four rounded values at or above the 16-bit value `threshold` (bits) replaced by
// `replacement` (bits): uniform_'s bound rule after rounding (rounding is monotone, so a
// float at or above the least float that rounds to `threshold` rounds at or above it). On
// NVIDIA devices a pair at a time: one packed compare and one select per pair instead of a
// compare and a select per element (docs/performance.md, "Reduced precision"). A threshold
// of +0: -0 compares equal to it but lies below it in the float rule, so the values are
// compared with their lowest bit set (-0 becomes the least negative value, +0 the least
// positive one, no value crosses zero). ThresholdMayBeZero = false (uniform_(0, 1), whose
// threshold is 1) drops that step.
template <class T, bool ThresholdMayBeZero = true>
KOKKOS_INLINE_FUNCTION void replace_at_or_above(T (&values)[4], std::uint16_t threshold,
                                                std::uint16_t replacement) {
  const std::uint16_t nudge = ThresholdMayBeZero && threshold == 0 ? 1 : 0;
#if defined(__CUDA_ARCH__)
  std::uint32_t pairs[2];
  memcpy(pairs, values, 8);
  const std::uint32_t thresholds = threshold * 0x10001u, replacements = replacement * 0x10001u;
  for (int p = 0; p < 2; ++p) {
    const std::uint32_t compared = pairs[p] | nudge * 0x10001u;
    std::uint32_t mask;
    if constexpr (ReducedFloatFormat<T>::bfloat16) {
      __nv_bfloat162 a, b;
      memcpy(&a, &compared, 4);
      memcpy(&b, &thresholds, 4);
      mask = __hge2_mask(a, b);
    } else {
      __half2 a, b;
      memcpy(&a, &compared, 4);
      memcpy(&b, &thresholds, 4);
      mask = __hge2_mask(a, b);
    }
    pairs[p] = (pairs[p] & ~mask) | (replacements & mask);
  }
  memcpy(values, pairs, 8);
#else
  const float at = reduced_bits_to_float<T>(threshold);
  for (int e = 0; e < 4; ++e) {
    const std::uint16_t compared = static_cast<std::uint16_t>(reduced_to_bits(values[e]) | nudge);
    if (reduced_bits_to_float<T>(compared) >= at) values[e] = reduced_from_bits<T>(replacement);
  }
#endif
}

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
