#ifndef KOKKOSDTENSOR_IMPL_PORTABLEMATH_HPP
#define KOKKOSDTENSOR_IMPL_PORTABLEMATH_HPP

// Portable elementary functions for the random-number transforms (SPEC section 2):
// log, exp, sqrt, sincospi, erf and erfinv in float and double that give the SAME BITS on
// every Kokkos backend (Serial, OpenMP, Threads, CUDA, HIP, ...), whatever the compiler.
//
// How: every function is a fixed sequence of correctly rounded IEEE operations
// (+, -, *, /, sqrt, fma), integer/bit operations and comparisons; no backend libm, no
// lookup tables, no loops with data-dependent trip counts. The rules (docs/portable_math.md):
//  - every multiply-add is an explicit portable_fma; no product is ever added to anything,
//    so no compiler can contract a*b+c into an fma on one backend and not on another;
//  - on CUDA/HIP device code every +, -, *, /, sqrt goes through the __f*_rn / __d*_rn
//    intrinsics, which nvcc never contracts and which --use_fast_math does not change;
//  - host code must not be built with -ffast-math (checked below: it allows reassociation).
// The polynomial coefficients are minimax-style (Chebyshev) fits made for this project with
// mpmath; the measured maximum errors, in ulps, are in docs/portable_math.md and are
// asserted by unit_tests/Test_PortableMath.cpp.

#include <Kokkos_Macros.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>

#if defined(__FAST_MATH__) && !defined(KOKKOSDTENSOR_ALLOW_FAST_MATH)
#error \
    "KokkosDTensor: host code built with -ffast-math cannot give the portable random stream (reassociation changes the bits); build without it, or define KOKKOSDTENSOR_ALLOW_FAST_MATH to accept different bits"
#endif

#if defined(__CUDA_ARCH__) || (defined(__HIP_DEVICE_COMPILE__) && __HIP_DEVICE_COMPILE__)
#define KOKKOSDTENSOR_IMPL_DEVICE_INTRINSICS 1
#else
#define KOKKOSDTENSOR_IMPL_DEVICE_INTRINSICS 0
#endif

namespace KokkosDTensor {
namespace Impl {

// ---- correctly rounded, never-contracted basic operations ---------------------------

// Fused multiply-add with one rounding. On the host, std::fma is exact everywhere; build
// host code with FMA enabled (-mfma, -march=x86-64-v3 or newer) for speed, otherwise the
// C library does it in a function call (glibc picks the FMA instruction at run time when the
// CPU has one).
KOKKOS_INLINE_FUNCTION float portable_fma(float a, float b, float c) {
#if KOKKOSDTENSOR_IMPL_DEVICE_INTRINSICS
  return ::fmaf(a, b, c);
#elif defined(__FMA__) && (defined(__GNUC__) || defined(__clang__))
  return __builtin_fmaf(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}
KOKKOS_INLINE_FUNCTION double portable_fma(double a, double b, double c) {
#if KOKKOSDTENSOR_IMPL_DEVICE_INTRINSICS
  return ::fma(a, b, c);
#elif defined(__FMA__) && (defined(__GNUC__) || defined(__clang__))
  return __builtin_fma(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}

#if KOKKOSDTENSOR_IMPL_DEVICE_INTRINSICS
KOKKOS_INLINE_FUNCTION float portable_add(float a, float b) { return __fadd_rn(a, b); }
KOKKOS_INLINE_FUNCTION double portable_add(double a, double b) { return __dadd_rn(a, b); }
KOKKOS_INLINE_FUNCTION float portable_sub(float a, float b) { return __fsub_rn(a, b); }
KOKKOS_INLINE_FUNCTION double portable_sub(double a, double b) { return __dsub_rn(a, b); }
KOKKOS_INLINE_FUNCTION float portable_mul(float a, float b) { return __fmul_rn(a, b); }
KOKKOS_INLINE_FUNCTION double portable_mul(double a, double b) { return __dmul_rn(a, b); }
KOKKOS_INLINE_FUNCTION float portable_div(float a, float b) { return __fdiv_rn(a, b); }
KOKKOS_INLINE_FUNCTION double portable_div(double a, double b) { return __ddiv_rn(a, b); }
#else
KOKKOS_INLINE_FUNCTION float portable_add(float a, float b) { return a + b; }
KOKKOS_INLINE_FUNCTION double portable_add(double a, double b) { return a + b; }
KOKKOS_INLINE_FUNCTION float portable_sub(float a, float b) { return a - b; }
KOKKOS_INLINE_FUNCTION double portable_sub(double a, double b) { return a - b; }
KOKKOS_INLINE_FUNCTION float portable_mul(float a, float b) { return a * b; }
KOKKOS_INLINE_FUNCTION double portable_mul(double a, double b) { return a * b; }
KOKKOS_INLINE_FUNCTION float portable_div(float a, float b) { return a / b; }
KOKKOS_INLINE_FUNCTION double portable_div(double a, double b) { return a / b; }
#endif

// Correctly rounded square root (IEEE 754 requires it of every conforming sqrt).
KOKKOS_INLINE_FUNCTION float portable_sqrt(float x) {
#if KOKKOSDTENSOR_IMPL_DEVICE_INTRINSICS
  return __fsqrt_rn(x);
#else
  return std::sqrt(x);
#endif
}
KOKKOS_INLINE_FUNCTION double portable_sqrt(double x) {
#if KOKKOSDTENSOR_IMPL_DEVICE_INTRINSICS
  return __dsqrt_rn(x);
#else
  return std::sqrt(x);
#endif
}

// ---- bit access ---------------------------------------------------------------------

KOKKOS_INLINE_FUNCTION std::uint32_t float_to_bits(float x) {
#if KOKKOSDTENSOR_IMPL_DEVICE_INTRINSICS
  return static_cast<std::uint32_t>(__float_as_uint(x));
#else
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
#endif
}
KOKKOS_INLINE_FUNCTION float bits_to_float(std::uint32_t u) {
#if KOKKOSDTENSOR_IMPL_DEVICE_INTRINSICS
  return __uint_as_float(u);
#else
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
#endif
}
KOKKOS_INLINE_FUNCTION std::uint64_t double_to_bits(double x) {
#if KOKKOSDTENSOR_IMPL_DEVICE_INTRINSICS
  return static_cast<std::uint64_t>(__double_as_longlong(x));
#else
  std::uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
#endif
}
KOKKOS_INLINE_FUNCTION double bits_to_double(std::uint64_t u) {
#if KOKKOSDTENSOR_IMPL_DEVICE_INTRINSICS
  return __longlong_as_double(static_cast<long long>(u));
#else
  double x;
  std::memcpy(&x, &u, sizeof x);
  return x;
#endif
}

KOKKOS_INLINE_FUNCTION float portable_abs(float x) {
  return bits_to_float(float_to_bits(x) & 0x7fffffffu);
}
KOKKOS_INLINE_FUNCTION double portable_abs(double x) {
  return bits_to_double(double_to_bits(x) & 0x7fffffffffffffffull);
}
// |magnitude| with the sign of `sign`.
KOKKOS_INLINE_FUNCTION float portable_copysign(float magnitude, float sign) {
  return bits_to_float((float_to_bits(magnitude) & 0x7fffffffu) |
                       (float_to_bits(sign) & 0x80000000u));
}
KOKKOS_INLINE_FUNCTION double portable_copysign(double magnitude, double sign) {
  return bits_to_double((double_to_bits(magnitude) & 0x7fffffffffffffffull) |
                        (double_to_bits(sign) & 0x8000000000000000ull));
}

// 2^k for k in [-126, 127] (float) / [-1022, 1023] (double).
KOKKOS_INLINE_FUNCTION float pow2_float(int k) {
  return bits_to_float(static_cast<std::uint32_t>(k + 127) << 23);
}
KOKKOS_INLINE_FUNCTION double pow2_double(int k) {
  return bits_to_double(static_cast<std::uint64_t>(k + 1023) << 52);
}

// Round to the nearest integer, ties to even, for every float/double (exact).
KOKKOS_INLINE_FUNCTION float portable_rint(float v) {
  const float a = portable_abs(v);
  const float r = portable_sub(portable_add(a, 0x1p23f), 0x1p23f);
  return a < 0x1p23f ? portable_copysign(r, v) : v;
}
KOKKOS_INLINE_FUNCTION double portable_rint(double v) {
  const double a = portable_abs(v);
  const double r = portable_sub(portable_add(a, 0x1p52), 0x1p52);
  return a < 0x1p52 ? portable_copysign(r, v) : v;
}

// Horner's rule with explicit fma: horner(x, c0, c1, ..., cn) = (((c0 x + c1) x + ...) x + cn).
template <class T>
KOKKOS_INLINE_FUNCTION T horner_step(T acc, T) {
  return acc;
}
template <class T, class... Rest>
KOKKOS_INLINE_FUNCTION T horner_step(T acc, T x, T c, Rest... rest) {
  return horner_step(portable_fma(acc, x, c), x, rest...);
}
template <class T, class... Rest>
KOKKOS_INLINE_FUNCTION T horner(T x, T c0, Rest... rest) {
  return horner_step(c0, x, rest...);
}

KOKKOS_INLINE_FUNCTION float float_nan() { return bits_to_float(0x7fc00000u); }
KOKKOS_INLINE_FUNCTION double double_nan() { return bits_to_double(0x7ff8000000000000ull); }
KOKKOS_INLINE_FUNCTION float float_inf() { return bits_to_float(0x7f800000u); }
KOKKOS_INLINE_FUNCTION double double_inf() { return bits_to_double(0x7ff0000000000000ull); }

// ---- log ----------------------------------------------------------------------------

// Natural logarithm. x = 2^e * m with m in [2/3, 4/3) (subnormals are scaled by 2^23 first),
// f = m - 1 (exact), log1p(f) = f + f^2 (-1/2 + f g(f)) with a degree-8 fit g on [-1/3, 1/3],
// log(x) = e ln2 + log1p(f) with ln2 split in two. log(+-0) = -inf, log(x<0) = NaN,
// log(+inf) = +inf, log(NaN) = NaN.
// log(xs) - e_shift ln2 for a normal positive finite xs: the arithmetic of portable_log
// without its special cases (also what box_muller calls, for u in [2^-24, 1]).
KOKKOS_FORCEINLINE_FUNCTION float log_normal_positive(float xs, int e_shift = 0) {
  const std::uint32_t bits = float_to_bits(xs);
  const std::int32_t e = static_cast<std::int32_t>(bits - 0x3f2aaaabu) >> 23;  // 2/3 rounded up
  const float m = bits_to_float(bits - (static_cast<std::uint32_t>(e) << 23));
  const float f = portable_sub(m, 1.0f);
  const float g =
      horner(f, 0x1.d01f96p-4f, -0x1.fcd61ap-4f, 0x1.bf1a08p-4f, -0x1.f7579cp-4f, 0x1.24b290p-3f,
             -0x1.557838p-3f, 0x1.999954p-3f, -0x1.ffffb6p-3f, 0x1.555556p-2f);
  const float t = portable_fma(g, f, -0.5f);
  const float f2 = portable_mul(f, f);
  const float p = portable_fma(t, f2, f);
  const float ef = static_cast<float>(e - e_shift);
  return portable_fma(ef, 0x1.62e430p-1f, portable_fma(ef, -0x1.05c610p-29f, p));
}
KOKKOS_INLINE_FUNCTION float portable_log(float x) {
  const bool tiny = x < 0x1p-126f;
  const float r = log_normal_positive(tiny ? portable_mul(x, 0x1p23f) : x, tiny ? 23 : 0);
  if (x > 0.0f && x <= 0x1.fffffep127f) return r;
  if (x == 0.0f) return -float_inf();
  return x < 0.0f ? float_nan() : portable_add(x, x);  // +inf -> +inf, NaN -> NaN
}

// x = 2^e * m with m in [sqrt(1/2), sqrt(2)) (subnormals scaled by 2^54), f = m - 1,
// s = f / (2 + f), log1p(f) = f - f^2/2 + s (f^2/2 + R(s^2)) with a degree-7 fit
// R(z)/z on [0, 0.0295] (the fdlibm scheme with our own coefficients, every step fused).
KOKKOS_FORCEINLINE_FUNCTION double log_normal_positive(double xs, int e_shift = 0) {
  const std::uint64_t bits = double_to_bits(xs);
  const std::int64_t e =
      static_cast<std::int64_t>(bits - 0x3fe6a09e667f3bcdull) >> 52;  // sqrt(1/2) rounded up
  const double m = bits_to_double(bits - (static_cast<std::uint64_t>(e) << 52));
  const double f = portable_sub(m, 1.0);
  const double s = portable_div(f, portable_add(2.0, f));
  const double z = portable_mul(s, s);
  const double R =
      portable_mul(z, horner(z, 0x1.2b5900de53b32p-3, 0x1.39fe51a7c18f9p-3, 0x1.7462b51cb66b1p-3,
                             0x1.c71c62e3f11e6p-3, 0x1.2492492df281ap-2, 0x1.99999999952d7p-2,
                             0x1.5555555555558p-1));
  const double hf = portable_mul(0.5, f);
  const double ed = static_cast<double>(e - e_shift);
  const double t1 = portable_fma(hf, f, R);                                       // f^2/2 + R
  const double u = portable_fma(s, t1, portable_mul(ed, 0x1.abc9e3b39803fp-56));  // + e ln2_lo
  const double v = portable_fma(hf, f, -u);                                       // f^2/2 - u
  const double w = portable_sub(f, v);
  return portable_fma(ed, 0x1.62e42fefa39efp-1, w);
}
KOKKOS_INLINE_FUNCTION double portable_log(double x) {
  const bool tiny = x < 0x1p-1022;
  const double r = log_normal_positive(tiny ? portable_mul(x, 0x1p54) : x, tiny ? 54 : 0);
  if (x > 0.0 && x <= 0x1.fffffffffffffp1023) return r;
  if (x == 0.0) return -double_inf();
  return x < 0.0 ? double_nan() : portable_add(x, x);
}

// ---- exp ----------------------------------------------------------------------------

// exp(x) = 2^k exp(r), k = rint(x / ln2), r = x - k ln2 (Cody-Waite, first step exact),
// exp(r) = (1 + r) + r^2 g(r) with 1 + r kept exactly as a sum of two, g a degree-4 (float) /
// degree-9 (double) fit g on
// [-ln2/2, ln2/2]. 2^k is applied in two exact power-of-two factors so the only rounding
// of the scaling is the final one (gradual underflow is correctly rounded).
// The helper returns exp(r) and k for callers that need the unscaled parts.
KOKKOS_INLINE_FUNCTION float exp_reduced(float xc, int* k) {
  const float t = portable_fma(xc, 0x1.715476p+0f, 0x1.8p23f);
  const float kf = portable_sub(t, 0x1.8p23f);
  const float r1 = portable_fma(kf, -0x1.62e430p-1f, xc);  // exact
  const float r = portable_fma(kf, 0x1.05c610p-29f, r1);
  const float g =
      horner(r, 0x1.6d117cp-10f, 0x1.120be2p-7f, 0x1.555518p-5f, 0x1.5554dcp-3f, 0x1.000000p-1f);
  *k = static_cast<int>(kf);
  // 1 + r + r^2 g: hi + lo = 1 + r exactly (Fast2Sum), then one final rounding.
  const float hi = portable_add(1.0f, r);
  const float lo = portable_add(portable_sub(1.0f, hi), r);
  return portable_add(hi, portable_fma(portable_mul(r, r), g, lo));
}
KOKKOS_INLINE_FUNCTION double exp_reduced(double xc, int* k) {
  const double t = portable_fma(xc, 0x1.71547652b82fep+0, 0x1.8p52);
  const double kf = portable_sub(t, 0x1.8p52);
  const double r1 = portable_fma(kf, -0x1.62e42fefa39efp-1, xc);  // exact
  const double r = portable_fma(kf, -0x1.abc9e3b39803fp-56, r1);
  const double g = horner(r, 0x1.af390ba7e6f47p-26, 0x1.2891d4ffbb0f9p-22, 0x1.71de0d85293b8p-19,
                          0x1.a019b8ca26fcfp-16, 0x1.a01a01a7cebcdp-13, 0x1.6c16c1789d1d7p-10,
                          0x1.11111111109a6p-7, 0x1.5555555553d37p-5, 0x1.5555555555556p-3,
                          0x1.0000000000001p-1);
  *k = static_cast<int>(kf);
  const double hi = portable_add(1.0, r);
  const double lo = portable_add(portable_sub(1.0, hi), r);
  return portable_add(hi, portable_fma(portable_mul(r, r), g, lo));
}

// exp(x): overflow (x > 88.72 / 709.78) -> +inf, underflow -> subnormal or +0,
// exp(-inf) = +0, exp(NaN) = NaN.
KOKKOS_INLINE_FUNCTION float portable_exp(float x) {
  float xc = x > -104.0f ? x : -104.0f;  // NaN goes here too; fixed below
  xc = xc < 89.0f ? xc : 89.0f;
  int k;
  const float e = exp_reduced(xc, &k);
  const int a = k >> 1;  // k in [-150, 129]: a, k - a in [-75, 65]
  const float r = portable_mul(portable_mul(e, pow2_float(a)), pow2_float(k - a));
  return x == x ? r : portable_add(x, x);
}
KOKKOS_INLINE_FUNCTION double portable_exp(double x) {
  double xc = x > -746.0 ? x : -746.0;
  xc = xc < 710.0 ? xc : 710.0;
  int k;
  const double e = exp_reduced(xc, &k);
  const int a = k >> 1;  // k in [-1077, 1025]: a, k - a in [-539, 513]
  const double r = portable_mul(portable_mul(e, pow2_double(a)), pow2_double(k - a));
  return x == x ? r : portable_add(x, x);
}

// ---- sincospi -----------------------------------------------------------------------

// sin(pi x) and cos(pi x). Exact reduction x = j/2 + r, |r| <= 1/4, quadrant j mod 4;
// sin(pi r) = r pi_hi + (r pi_lo + r^3 h(r^2)), cos(pi r) = 1 - pi^2 r^2 / 2 + r^4 k2(r^2)
// summed with the rounding error of the leading step recovered by an fma; h, k2 degree-3/2
// (float) and 6/6 (double) fits on r^2 in [0, 1/16]. Arguments with |x| >= 2^24 (float) or
// 2^53 (double) are even integers: sin = +-0, cos = 1. Infinite or NaN x gives NaN for both.
// A zero result is +0 or -0 by the same rule on every backend (sign not otherwise promised).
// The part after the reduction: sin(pi (r + q/2)) and cos(pi (r + q/2)) for |r| <= 1/4.
// MayBeTiny: r may be below 2^-90 (float) / 2^-900 (double) without being 0 (callers
// whose r is 0 or larger skip that scaling; for r = 0 both give the same bits).
template <bool MayBeTiny>
KOKKOS_FORCEINLINE_FUNCTION void sincospi_reduced(float r, int q, float* s, float* c) {
  const float z = portable_mul(r, r);
  const float h = horner(z, 0x1.4cb74ap-4f, -0x1.32ce1ep-1f, 0x1.466bc2p+1f, -0x1.4abbcep+2f);
  // Tiny r (subnormal results) is scaled by 2^64 so that r pi_lo does not underflow.
  const bool tiny = MayBeTiny && portable_abs(r) < 0x1p-90f;
  const float rr = tiny ? portable_mul(r, 0x1p64f) : r;
  const float srs = portable_fma(
      rr, 0x1.921fb6p+1f, portable_fma(rr, -0x1.777a5cp-24f, portable_mul(portable_mul(rr, z), h)));
  const float sr = tiny ? portable_mul(srs, 0x1p-64f) : srs;
  // cos(pi r) = 1 + c1 r^2 + r^4 k2(r^2), c1 = -pi^2/2 = c1_hi + c1_lo, r^2 = z + zl exactly;
  // t = 1 + c1_hi z rounded, e1 its exact rounding error, so the sum t + (e1 + rest) is
  // good to about half an ulp.
  const float k2 = horner(z, 0x1.db6466p-3f, -0x1.55cb98p+0f, 0x1.03c1eap+2f);
  const float zl = portable_fma(r, r, -z);
  const float t = portable_fma(z, -0x1.3bd3ccp+2f, 1.0f);
  const float e1 = portable_fma(z, -0x1.3bd3ccp+2f, portable_sub(1.0f, t));
  const float rest = portable_fma(
      zl, -0x1.3bd3ccp+2f, portable_fma(z, -0x1.37c8bcp-23f, portable_mul(portable_mul(z, z), k2)));
  const float cr = portable_add(t, portable_add(e1, rest));
  const float sv = (q & 1) ? cr : sr;
  const float cv = (q & 1) ? sr : cr;
  *s = (q & 2) ? -sv : sv;
  *c = ((q + 1) & 2) ? -cv : cv;
}
template <bool MayBeTiny>
KOKKOS_FORCEINLINE_FUNCTION void sincospi_reduced(double r, int q, double* s, double* c) {
  const double z = portable_mul(r, r);
  const double h = horner(z, -0x1.6cc564dff8a7ap-16, 0x1.e8f036889ff68p-12, -0x1.e3074d25df4e9p-8,
                          0x1.50783486fab1cp-4, -0x1.32d2cce62b872p-1, 0x1.466bc6775aae1p+1,
                          -0x1.4abbce625be53p+2);
  const bool tiny = MayBeTiny && portable_abs(r) < 0x1p-900;
  const double rr = tiny ? portable_mul(r, 0x1p200) : r;
  const double srs =
      portable_fma(rr, 0x1.921fb54442d18p+1,
                   portable_fma(rr, 0x1.1a62633145c07p-53, portable_mul(portable_mul(rr, z), h)));
  const double sr = tiny ? portable_mul(srs, 0x1p-200) : srs;
  const double k2 = horner(z, 0x1.1e744f3979516p-18, -0x1.b6de8b5d63c46p-14, 0x1.f9d38708329fcp-10,
                           -0x1.a6d1f2a086a1fp-6, 0x1.e1f506891ae94p-3, -0x1.55d3c7e3cbff7p+0,
                           0x1.03c1f081b5ac4p+2);
  const double zl = portable_fma(r, r, -z);
  const double t = portable_fma(z, -0x1.3bd3cc9be45dep+2, 1.0);
  const double e1 = portable_fma(z, -0x1.3bd3cc9be45dep+2, portable_sub(1.0, t));
  const double rest =
      portable_fma(zl, -0x1.3bd3cc9be45dep+2,
                   portable_fma(z, -0x1.692b71366cc04p-52, portable_mul(portable_mul(z, z), k2)));
  const double cr = portable_add(t, portable_add(e1, rest));
  const double sv = (q & 1) ? cr : sr;
  const double cv = (q & 1) ? sr : cr;
  *s = (q & 2) ? -sv : sv;
  *c = ((q + 1) & 2) ? -cv : cv;
}

KOKKOS_INLINE_FUNCTION void portable_sincospi(float x, float* s, float* c) {
  const float ax = portable_abs(x);
  const float xs = ax < 0x1p24f ? x : portable_copysign(0.0f, x);
  const float j = portable_rint(portable_mul(2.0f, xs));  // |j| <= 2^25, exact
  const float r = portable_fma(j, -0.5f, xs);             // exact, |r| <= 1/4
  float sv, cv;
  sincospi_reduced<true>(r, static_cast<int>(j) & 3, &sv, &cv);
  const bool finite = ax <= 0x1.fffffep127f;
  *s = finite ? sv : float_nan();
  *c = finite ? cv : float_nan();
}
KOKKOS_INLINE_FUNCTION void portable_sincospi(double x, double* s, double* c) {
  const double ax = portable_abs(x);
  const double xs = ax < 0x1p53 ? x : portable_copysign(0.0, x);
  const double j = portable_rint(portable_mul(2.0, xs));  // |j| <= 2^54, exact
  const double r = portable_fma(j, -0.5, xs);
  double sv, cv;
  sincospi_reduced<true>(r, static_cast<int>(static_cast<std::int64_t>(j) & 3), &sv, &cv);
  const bool finite = ax <= 0x1.fffffffffffffp1023;
  *s = finite ? sv : double_nan();
  *c = finite ? cv : double_nan();
}

// portable_sincospi(x) for x in [0, 2) a multiple of 2^-23 (float) / 2^-52 (double), such
// as Box-Muller's 2 u2: the same bits without the special cases. rint(2x) is the integer
// part of t = 2x + 2^23 (2^52), whose low bits are the quadrant; r is 0 or at least 2^-23.
KOKKOS_FORCEINLINE_FUNCTION void sincospi_of_unit_multiple(float x, float* s, float* c) {
  const float t = portable_add(portable_mul(2.0f, x), 0x1p23f);
  const float r = portable_fma(portable_sub(t, 0x1p23f), -0.5f, x);
  sincospi_reduced<false>(r, static_cast<int>(float_to_bits(t) & 3u), s, c);
}
KOKKOS_FORCEINLINE_FUNCTION void sincospi_of_unit_multiple(double x, double* s, double* c) {
  const double t = portable_add(portable_mul(2.0, x), 0x1p52);
  const double r = portable_fma(portable_sub(t, 0x1p52), -0.5, x);
  sincospi_reduced<false>(r, static_cast<int>(double_to_bits(t) & 3u), s, c);
}

// ---- erf ----------------------------------------------------------------------------

// erf(x): |x| < 1: x (2/sqrt(pi))_hi + (x (2/sqrt(pi))_lo + x^3 P1(x^2)); 1 <= |x|: 1 - exp(Q(|x|))
// with Q a fit of log(erfc) on [1, 3.95] (float; one piece) or [1, 3] and [3, 5.95] (double);
// beyond that erf = +-1 exactly (|x| is clamped, erfc there is below half an ulp of 1). The final 1
// - exp(Q) is one fused operation on the unscaled parts of exp, never a product followed by a
// subtraction.
KOKKOS_INLINE_FUNCTION float portable_erf(float x) {
  const float ax = portable_abs(x);
  float r;
  if (ax < 1.0f) {
    const float z = portable_mul(x, x);
    const float p1 = horner(z, 0x1.5f75bcp-14f, -0x1.abeb6cp-11f, 0x1.551642p-8f, -0x1.b81a20p-6f,
                            0x1.ce2ebcp-4f, -0x1.812746p-2f);
    const float tail = portable_mul(portable_mul(x, z), p1);
    r = portable_fma(x, 0x1.20dd76p+0f, portable_fma(x, -0x1.f7ac92p-25f, tail));
  } else {
    const float a = ax < 3.95f ? ax : 3.95f;  // NaN too; fixed below
    const float t = portable_sub(a, 2.5f);
    const float q =
        horner(t, 0x1.bd27b0p-20f, -0x1.be0e56p-17f, 0x1.43daaap-14f, -0x1.b89acep-12f,
               0x1.1bd280p-9f, -0x1.63cf80p-7f, -0x1.e3460ap-1f, -0x1.569252p+2f, -0x1.f3a2dcp+2f);
    int k;
    const float e = exp_reduced(q, &k);  // q in [-17.5, -1.8]: k in [-26, -2]
    r = portable_copysign(portable_fma(-e, pow2_float(k), 1.0f), x);
    r = x == x ? r : portable_add(x, x);
  }
  return r;
}
KOKKOS_INLINE_FUNCTION double portable_erf(double x) {
  const double ax = portable_abs(x);
  double r;
  if (ax < 1.0) {
    const double z = portable_mul(x, x);
    const double p1 =
        horner(z, 0x1.0f873f737d5e1p-34, -0x1.3c1d9d4b58363p-30, 0x1.f8d431816c408p-27,
               -0x1.5f3931a22d29fp-23, 0x1.b9e232ab7adf7p-20, -0x1.f4d21ef4dba56p-17,
               0x1.f9a324dd956b9p-14, -0x1.c02db3f4710f6p-11, 0x1.565bcd0e43432p-8,
               -0x1.b82ce312882f6p-6, 0x1.ce2f21a042bd7p-4, -0x1.812746b0379e7p-2);
    const double tail = portable_mul(portable_mul(x, z), p1);
    r = portable_fma(x, 0x1.20dd750429b6dp+0, portable_fma(x, 0x1.1ae3a914fed80p-56, tail));
  } else {
    double q;
    if (ax < 3.0) {
      const double t = portable_sub(ax, 2.0);
      q = horner(t, -0x1.a57af4e424143p-37, 0x1.6906dd4044277p-35, -0x1.228fdced98ff2p-35,
                 -0x1.30f1d2a8c67fcp-32, 0x1.59e5db13f8434p-29, -0x1.df8671007fd0dp-27,
                 0x1.f0b17a1e037ffp-25, -0x1.73ed050e80937p-23, 0x1.b54989c7931a9p-23,
                 0x1.06047c859968ap-19, -0x1.5b656f6a49b34p-16, 0x1.1bc3a5ea99d71p-13,
                 -0x1.7ffcfb46f09b8p-11, 0x1.d406b373d0393p-9, -0x1.0dc3b5fb10b64p-6,
                 -0x1.d8f5dece923b1p-1, -0x1.1ac3258a8dc2cp+2, -0x1.575b329b1f516p+2);
    } else {
      const double a = ax < 5.95 ? ax : 5.95;  // NaN too; fixed below
      const double t = portable_sub(a, 4.5);
      q = horner(t, 0x1.d2690c739f9adp-44, -0x1.7bbf016cc1fb4p-43, -0x1.a503d3637199dp-39,
                 0x1.43bec48c39189p-35, -0x1.7de5878bd5702p-32, 0x1.92f4f4cca2accp-29,
                 -0x1.8929a8cd6215ap-26, 0x1.6bf982c55a999p-23, -0x1.44e26bb6c8affp-20,
                 0x1.1aee9e8c2009ep-17, -0x1.e66570331df0cp-15, 0x1.a2d63492a6819p-12,
                 -0x1.725005efa83abp-9, -0x1.f4ebfb0d69f31p-1, -0x1.26cbfdc25f72dp+3,
                 -0x1.6598a6a606f4dp+4);
    }
    int k;
    const double e = exp_reduced(q, &k);  // q in [-37.5, -1.8]: k in [-55, -2]
    r = portable_copysign(portable_fma(-e, pow2_double(k), 1.0), x);
    r = x == x ? r : portable_add(x, x);
  }
  return r;
}

// ---- erfinv -------------------------------------------------------------------------

// erfinv(x) for x in (-1, 1) (the scheme of M. Giles, "Approximating the erfinv function",
// with our own fits): w = -log(1 - x^2) with 1 - x^2 one fused (correctly rounded) step;
// erfinv(x) = x P(w) where P is a fit in w - c for small w and in sqrt(w) - c in the tails.
// erfinv(+-1) = +-inf, |x| > 1 or NaN -> NaN. For |x| < 1, 1 - x^2 >= 2^-24 is normal and
// finite, so the log's special cases are skipped (log_normal_positive, the same bits); for
// other x, P is unused.
KOKKOS_INLINE_FUNCTION float portable_erfinv(float x) {
  const float w = -log_normal_positive(portable_fma(-x, x, 1.0f));
  float p;
  if (w < 5.0f) {
    const float t = portable_sub(w, 2.5f);
    p = horner(t, -0x1.32e60ep-27f, 0x1.90e8acp-26f, 0x1.f6a6f8p-22f, -0x1.d0eda0p-19f,
               -0x1.4db186p-18f, 0x1.c9e970p-13f, -0x1.48650cp-10f, -0x1.11c506p-8f, 0x1.f91e8ap-3f,
               0x1.805c5ep+0f);
  } else {
    const float t = portable_sub(portable_sqrt(w), 3.0f);
    p = horner(t, 0x1.0b565cp-13f, -0x1.4e5612p-12f, -0x1.33e522p-14f, 0x1.8828b2p-10f,
               -0x1.d67114p-9f, 0x1.7472e8p-8f, -0x1.f49ee8p-8f, 0x1.358440p-7f, 0x1.006dc6p+0f,
               0x1.6a9efcp+1f);
  }
  const float ax = portable_abs(x);
  if (ax < 1.0f) return portable_mul(x, p);
  if (ax == 1.0f) return portable_copysign(float_inf(), x);
  return float_nan();
}
KOKKOS_INLINE_FUNCTION double portable_erfinv(double x) {
  const double w = -log_normal_positive(portable_fma(-x, x, 1.0));
  double p;
  if (w < 6.25) {
    const double t = portable_sub(w, 3.125);
    p = horner(t, 0x1.e9b8ae7230c25p-69, -0x1.5087a244b0f6cp-70, -0x1.9d290dd3bcb70p-62,
               0x1.536d397f9b9b1p-60, 0x1.1f4ba5de5dc3fp-56, -0x1.2c266176e7096p-53,
               -0x1.73898c37dc54ap-55, 0x1.db523eb040288p-48, -0x1.686642b67610ap-45,
               -0x1.6d9ec5e3ec6afp-44, 0x1.723527b7cff86p-39, -0x1.c89564c5d1004p-37,
               -0x1.dc3ee8b6c53ccp-35, 0x1.20f4e6bf074cfp-30, -0x1.1a9eb1bc8f0f0p-28,
               -0x1.f36ce4ae847fdp-26, 0x1.c6b4f890935ddp-22, -0x1.6e8a53f106129p-20,
               -0x1.d1d1f7ca4030fp-17, 0x1.879c2a20da432p-13, -0x1.84576948353e1p-11,
               -0x1.8b6c33114eeaep-8, 0x1.ebd80d9b13df9p-3, 0x1.a755e7c99ae86p+0);
  } else {
    const double v = portable_sqrt(w);
    if (v < 4.0) {
      const double t = portable_sub(v, 3.25);
      p = horner(t, -0x1.03765b5ec5c93p-26, 0x1.7f235c757454ep-31, 0x1.1969ef2a93940p-23,
                 -0x1.235ac6aaf025ep-22, -0x1.cfedcff902170p-26, 0x1.924ec74d8058bp-20,
                 -0x1.0b8068913d37bp-18, 0x1.88af4a1d56a98p-19, 0x1.a242f876789c6p-17,
                 -0x1.8cf0bea0971c6p-15, 0x1.1e6ab36be6c27p-14, 0x1.932d7684a6a52p-16,
                 -0x1.7448bc8217f18p-12, 0x1.f3cc552091e2bp-11, -0x1.ba9240d9b7431p-10,
                 0x1.468eeca71fc73p-9, -0x1.ebadabb9fd945p-9, 0x1.5ffcfe5b71831p-8,
                 0x1.0158a6d641d54p+0, 0x1.8abcc380d5a48p+1);
    } else {
      const double t = portable_sub(v, 5.0);
      p = horner(t, 0x1.6edf70d76ec8fp-38, -0x1.6927e3b78c381p-36, 0x1.3b2e4e86f33d3p-36,
                 0x1.349c870b2772ap-34, -0x1.a9b091082aa26p-32, 0x1.6971309ea43aep-30,
                 -0x1.e4c4e552d49b8p-29, 0x1.0cc7021c767c9p-27, -0x1.057250ebde40cp-26,
                 0x1.f286f0390e0aep-26, -0x1.22370fcc1d79bp-24, 0x1.ebe3371222de4p-23,
                 -0x1.0a90386bfc2a7p-20, 0x1.2fbcfd6199301p-18, -0x1.4a34903ab4d6bp-16,
                 0x1.3ebf4efb4f2afp-14, -0x1.c2f36aa16c077p-13, -0x1.22ea5df1ccc96p-13,
                 0x1.02a30d1fba10bp+0, 0x1.3664ddd1ad7fbp+2);
    }
  }
  const double ax = portable_abs(x);
  if (ax < 1.0) return portable_mul(x, p);
  if (ax == 1.0) return portable_copysign(double_inf(), x);
  return double_nan();
}

}  // namespace Impl
}  // namespace KokkosDTensor

#undef KOKKOSDTENSOR_IMPL_DEVICE_INTRINSICS

#endif
