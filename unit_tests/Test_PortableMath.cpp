// Accuracy and portability of include/KokkosDTensor_PortableMath.hpp.
//  - Each function against a long double reference over its whole input range (floats: a
//    sweep of every 2039th bit pattern, about 10^6 points covering every exponent, plus
//    special values; doubles: 10^6 random bit patterns plus structured points), asserting the
//    maximum error in ulps stays within the bound documented in docs/portable_math.md.
//  - Special values (zeros, subnormals, infinities, NaN, +-1 for erfinv).
//  - Host and default-execution-space results are bit-identical (on a GPU build this is the
//    host/device agreement check).
//  - Where built (GCC/Clang on x86-64 host builds), a second copy compiled with
//    -ffp-contract=fast -mfma gives the same bits: no compiler contraction can change them.

#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <impl/KokkosDTensor_PortableMath.hpp>
#include <impl/KokkosDTensor_Transforms.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace kdt = KokkosDTensor;

namespace kdt_test {
#if defined(KOKKOSDTENSOR_TEST_CONTRACTED)
bool contracted_copy_uses_fma();
void eval_all_contracted(const float* x, std::size_t n, float* out);
void eval_all_contracted(const double* x, std::size_t n, double* out);
#endif
}  // namespace kdt_test

namespace {

using kdt::Impl::portable_erf;
using kdt::Impl::portable_erfinv;
using kdt::Impl::portable_exp;
using kdt::Impl::portable_log;
using kdt::Impl::portable_sincospi;
using kdt::Impl::portable_sqrt;

// Documented bounds (docs/portable_math.md), in ulps of the correctly rounded result.
constexpr double kLogBound = 1.0;
constexpr double kExpBound = 1.0;
constexpr double kSinCosPiBound = 1.0;
constexpr double kErfBound = 2.0;
constexpr double kErfinvBound = 3.0;

const long double kPi = 3.141592653589793238462643383279502884L;

// The ulp of format T in the binade of |ref| (subnormal spacing below the normal range).
template <class T>
long double ulp_of(long double ref) {
  constexpr int digits = std::numeric_limits<T>::digits;
  constexpr int emin = std::numeric_limits<T>::min_exponent - 1;
  int e = emin;
  if (ref != 0) {
    std::frexp(std::fabs(ref), &e);
    e -= 1;
  }
  if (e < emin) e = emin;
  return std::ldexp(1.0L, e - (digits - 1));
}

// Error of `got` in ulps of the exact value `ref`; 1e30 for a wrong special value.
template <class T>
long double ulp_error(T got, long double ref) {
  if (std::isnan(ref)) return std::isnan(got) ? 0 : 1e30L;
  const long double maxv = std::numeric_limits<T>::max();
  if (std::isinf(got) || std::isinf(ref)) {
    // An exact value beyond max + ulp/2 rounds to infinity.
    const bool ref_overflows = std::fabs(ref) >= maxv + ulp_of<T>(maxv) / 2;
    return (std::isinf(got) && ref_overflows && (got > 0) == (ref > 0)) ? 0 : 1e30L;
  }
  return std::fabs(static_cast<long double>(got) - ref) / ulp_of<T>(ref);
}

template <class T>
void ref_sincospi(T x, long double* s, long double* c) {
  const long double xl = x;
  const long double j = std::nearbyint(2 * xl);
  const long double r = xl - j / 2;  // exact
  long long q = static_cast<long long>(std::fmod(j, 4.0L));
  if (q < 0) q += 4;
  const long double sr = std::sin(kPi * r), cr = std::cos(kPi * r);
  long double sv = (q & 1) ? cr : sr, cv = (q & 1) ? sr : cr;
  if (q & 2) sv = -sv;
  if ((q + 1) & 2) cv = -cv;
  *s = sv;
  *c = cv;
}

// erfinv(x) by Newton's method in long double from the double-precision function; near
// |x| = 1 it solves erfc(y) = 1 - |x| (1 - |x| is exact), so the reference stays accurate.
long double ref_erfinv(long double x) {
  const long double ax = std::fabs(x);
  if (ax >= 1)
    return ax == 1 ? std::copysign(std::numeric_limits<long double>::infinity(), x)
                   : std::numeric_limits<long double>::quiet_NaN();
  if (ax == 0) return x;
  long double y = std::fabs(static_cast<long double>(portable_erfinv(static_cast<double>(ax))));
  if (!(y > 0) || !std::isfinite(y)) y = 1;
  for (int it = 0; it < 4; ++it) {
    const long double d = 2.0L / std::sqrt(kPi) * std::exp(-y * y);
    const long double f = ax < 0.5L ? std::erf(y) - ax : (1.0L - ax) - std::erfc(y);
    y -= f / d;
  }
  return std::copysign(y, x);
}

template <class T>
T from_bits(typename std::conditional<sizeof(T) == 4, std::uint32_t, std::uint64_t>::type u) {
  T x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

// Every 2039th positive float bit pattern (finite), both signs when asked, plus specials.
std::vector<float> float_sweep(bool both_signs) {
  std::vector<float> xs;
  for (std::uint64_t u = 1; u < 0x7f800000u; u += 2039) {
    const float x = from_bits<float>(static_cast<std::uint32_t>(u));
    xs.push_back(x);
    if (both_signs) xs.push_back(-x);
  }
  for (float x : {0.0f, 1.0f, 0x1p-149f, 0x1p-126f, 0x1.fffffcp-127f, 0x1.fffffep127f, 0.5f, 2.0f,
                  0x1.fffffep-1f, 0x1.000002p+0f, 0.25f, 0.75f, 1.5f}) {
    xs.push_back(x);
    if (both_signs) xs.push_back(-x);
  }
  return xs;
}

// 10^6 random double bit patterns (finite), both signs when asked, plus specials.
std::vector<double> double_random_bits(bool both_signs, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> xs;
  while (xs.size() < 1000000) {
    const double x = std::fabs(from_bits<double>(rng()));
    if (!std::isfinite(x)) continue;
    xs.push_back(both_signs && (rng() & 1) ? -x : x);
  }
  for (double x : {0.0, 1.0, 0x1p-1074, 0x1p-1022, 0x1.fffffffffffffp-1023, 0x1.fffffffffffffp1023,
                   0.5, 2.0, 0x1.fffffffffffffp-1, 0x1.0000000000001p+0}) {
    xs.push_back(x);
    if (both_signs) xs.push_back(-x);
  }
  return xs;
}

std::vector<double> uniform_doubles(double lo, double hi, std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<double> xs(n);
  for (auto& x : xs) x = u(rng);
  return xs;
}

struct MaxError {
  long double ulps = 0;
  long double at = 0;
  void add(long double e, long double x) {
    if (e > ulps || std::isnan(e)) {
      ulps = std::isnan(e) ? 1e30L : e;
      at = x;
    }
  }
  // Prints the measured maximum (the numbers quoted in docs/portable_math.md).
  void report(const char* what) const {
    std::printf("[ measured ] %s: %s\n", what, where().c_str());
  }
  std::string where() const {
    std::ostringstream out;
    out.precision(21);
    out << "max error " << static_cast<double>(ulps) << " ulp at x = " << at;
    return out.str();
  }
};

// ---- accuracy ---------------------------------------------------------------------------

TEST(PortableMath, LogFloatWholeRange) {
  MaxError m;
  for (float x : float_sweep(false)) {
    if (x > 0) m.add(ulp_error(portable_log(x), std::log(static_cast<long double>(x))), x);
  }
  for (std::uint32_t k = 0; k < 100000; ++k) {  // every float in [1 - 2^-8, 1 + 2^-8) region edges
    const float a = from_bits<float>(0x3f800000u + k), b = from_bits<float>(0x3f800000u - k);
    m.add(ulp_error(portable_log(a), std::log(static_cast<long double>(a))), a);
    m.add(ulp_error(portable_log(b), std::log(static_cast<long double>(b))), b);
  }
  m.report("LogFloatWholeRange");
  EXPECT_LE(m.ulps, kLogBound) << m.where();
}

TEST(PortableMath, LogDoubleWholeRange) {
  MaxError m;
  for (double x : double_random_bits(false, 1)) {
    if (x > 0) m.add(ulp_error(portable_log(x), std::log(static_cast<long double>(x))), x);
  }
  for (double x : uniform_doubles(0.5, 2.0, 200000, 2)) {
    m.add(ulp_error(portable_log(x), std::log(static_cast<long double>(x))), x);
  }
  for (int k = 1; k < 200000; ++k) {
    for (double x : {1.0 + k * 0x1p-52, 1.0 - k * 0x1p-53}) {
      m.add(ulp_error(portable_log(x), std::log(static_cast<long double>(x))), x);
    }
  }
  m.report("LogDoubleWholeRange");
  EXPECT_LE(m.ulps, kLogBound) << m.where();
}

TEST(PortableMath, ExpFloatWholeRange) {
  MaxError m;
  for (float x : float_sweep(true)) {
    if (x > -110.0f && x < 100.0f)
      m.add(ulp_error(portable_exp(x), std::exp(static_cast<long double>(x))), x);
  }
  for (double xd : uniform_doubles(-104.0, 89.0, 500000, 3)) {
    const float x = static_cast<float>(xd);
    m.add(ulp_error(portable_exp(x), std::exp(static_cast<long double>(x))), x);
  }
  m.report("ExpFloatWholeRange");
  EXPECT_LE(m.ulps, kExpBound) << m.where();
}

TEST(PortableMath, ExpDoubleWholeRange) {
  MaxError m;
  for (double x : double_random_bits(true, 4)) {
    if (std::fabs(x) < 750)
      m.add(ulp_error(portable_exp(x), std::exp(static_cast<long double>(x))), x);
  }
  for (double x : uniform_doubles(-746.0, 710.0, 1000000, 5)) {
    m.add(ulp_error(portable_exp(x), std::exp(static_cast<long double>(x))), x);
  }
  m.report("ExpDoubleWholeRange");
  EXPECT_LE(m.ulps, kExpBound) << m.where();
}

template <class T>
void add_sincospi(MaxError& ms, MaxError& mc, T x) {
  T s, c;
  long double rs, rc;
  portable_sincospi(x, &s, &c);
  ref_sincospi(x, &rs, &rc);
  ms.add(ulp_error(s, rs), x);
  mc.add(ulp_error(c, rc), x);
}

TEST(PortableMath, SinCosPiFloatWholeRange) {
  MaxError ms, mc;
  for (float x : float_sweep(true)) add_sincospi(ms, mc, x);
  for (double xd : uniform_doubles(0.0, 2.0, 500000, 6))
    add_sincospi(ms, mc, static_cast<float>(xd));
  ms.report("SinCosPiFloatWholeRange sin");
  EXPECT_LE(ms.ulps, kSinCosPiBound) << "sin: " << ms.where();
  mc.report("SinCosPiFloatWholeRange cos");
  EXPECT_LE(mc.ulps, kSinCosPiBound) << "cos: " << mc.where();
}

TEST(PortableMath, SinCosPiDoubleWholeRange) {
  MaxError ms, mc;
  for (double x : double_random_bits(true, 7)) add_sincospi(ms, mc, x);
  for (double x : uniform_doubles(0.0, 2.0, 1000000, 8)) add_sincospi(ms, mc, x);
  ms.report("SinCosPiDoubleWholeRange sin");
  EXPECT_LE(ms.ulps, kSinCosPiBound) << "sin: " << ms.where();
  mc.report("SinCosPiDoubleWholeRange cos");
  EXPECT_LE(mc.ulps, kSinCosPiBound) << "cos: " << mc.where();
}

TEST(PortableMath, ErfFloatWholeRange) {
  MaxError m;
  for (float x : float_sweep(true))
    m.add(ulp_error(portable_erf(x), std::erf(static_cast<long double>(x))), x);
  for (double xd : uniform_doubles(-4.5, 4.5, 500000, 9)) {
    const float x = static_cast<float>(xd);
    m.add(ulp_error(portable_erf(x), std::erf(static_cast<long double>(x))), x);
  }
  m.report("ErfFloatWholeRange");
  EXPECT_LE(m.ulps, kErfBound) << m.where();
}

TEST(PortableMath, ErfDoubleWholeRange) {
  MaxError m;
  for (double x : double_random_bits(true, 10))
    m.add(ulp_error(portable_erf(x), std::erf(static_cast<long double>(x))), x);
  for (double x : uniform_doubles(-6.5, 6.5, 1000000, 11)) {
    m.add(ulp_error(portable_erf(x), std::erf(static_cast<long double>(x))), x);
  }
  m.report("ErfDoubleWholeRange");
  EXPECT_LE(m.ulps, kErfBound) << m.where();
}

TEST(PortableMath, ErfinvFloatWholeRange) {
  MaxError m;
  for (float x : float_sweep(true)) {
    if (std::fabs(x) < 1) m.add(ulp_error(portable_erfinv(x), ref_erfinv(x)), x);
  }
  for (std::uint32_t k = 1; k <= 200000; ++k) {  // the floats just below 1: 1 - k 2^-24
    const float x = 1.0f - static_cast<float>(k) * 0x1p-24f;
    m.add(ulp_error(portable_erfinv(x), ref_erfinv(x)), x);
    m.add(ulp_error(portable_erfinv(-x), ref_erfinv(-x)), -x);
  }
  m.report("ErfinvFloatWholeRange");
  EXPECT_LE(m.ulps, kErfinvBound) << m.where();
}

TEST(PortableMath, ErfinvDoubleWholeRange) {
  MaxError m;
  for (double x : uniform_doubles(-1.0, 1.0, 600000, 12))
    m.add(ulp_error(portable_erfinv(x), ref_erfinv(x)), x);
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int i = 0; i < 300000; ++i) {  // 1 - u 2^-k, k = 0..52: every tail scale
    const double x = 1.0 - std::ldexp(u(rng), -(i % 53));
    if (x < 1.0) m.add(ulp_error(portable_erfinv(x), ref_erfinv(x)), x);
  }
  for (int i = 0; i < 100000; ++i) {  // small |x| on every scale
    const double x = std::ldexp(u(rng), -(i % 1000));
    m.add(ulp_error(portable_erfinv(x), ref_erfinv(x)), x);
  }
  m.report("ErfinvDoubleWholeRange");
  EXPECT_LE(m.ulps, kErfinvBound) << m.where();
}

TEST(PortableMath, SqrtIsCorrectlyRounded) {
  for (float x : float_sweep(false)) {
    ASSERT_EQ(portable_sqrt(x), std::sqrt(x)) << x;
  }
  for (double x : double_random_bits(false, 14)) {
    ASSERT_EQ(portable_sqrt(x), std::sqrt(x)) << x;
  }
}

// ---- special values ---------------------------------------------------------------------

template <class T>
void check_special_values() {
  const T inf = std::numeric_limits<T>::infinity();
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const T denorm_min = std::numeric_limits<T>::denorm_min();
  EXPECT_EQ(portable_log(T(0)), -inf);
  EXPECT_EQ(portable_log(-T(0)), -inf);
  EXPECT_TRUE(std::isnan(portable_log(T(-1))));
  EXPECT_TRUE(std::isnan(portable_log(-inf)));
  EXPECT_TRUE(std::isnan(portable_log(nan)));
  EXPECT_EQ(portable_log(inf), inf);
  EXPECT_EQ(portable_log(T(1)), T(0));
  EXPECT_LE(ulp_error(portable_log(denorm_min), std::log(static_cast<long double>(denorm_min))),
            kLogBound);

  EXPECT_EQ(portable_exp(T(0)), T(1));
  EXPECT_EQ(portable_exp(-T(0)), T(1));
  EXPECT_EQ(portable_exp(-inf), T(0));
  EXPECT_EQ(portable_exp(inf), inf);
  EXPECT_EQ(portable_exp(T(1000)), inf);
  EXPECT_EQ(portable_exp(T(-1000)), T(0));
  EXPECT_TRUE(std::isnan(portable_exp(nan)));
  // The largest T below ln(max) gives a finite result, the next one overflows.
  T below = static_cast<T>(std::log(static_cast<long double>(std::numeric_limits<T>::max())));
  if (static_cast<long double>(below) >
      std::log(static_cast<long double>(std::numeric_limits<T>::max())))
    below = std::nextafter(below, T(0));
  EXPECT_TRUE(std::isfinite(portable_exp(below)));
  EXPECT_EQ(portable_exp(std::nextafter(below, inf)), inf);

  for (int n = -8; n <= 8; ++n) {  // integers and half-integers are exact
    T s, c;
    portable_sincospi(T(n), &s, &c);
    EXPECT_EQ(s, T(0)) << n;
    EXPECT_EQ(c, (n % 2 == 0) ? T(1) : T(-1)) << n;
    portable_sincospi(T(n) + T(0.5), &s, &c);
    EXPECT_EQ(s, ((n % 2 + 2) % 2 == 0) ? T(1) : T(-1)) << n;
    EXPECT_EQ(c, T(0)) << n;
  }
  {
    T s, c;
    portable_sincospi(T(0.25), &s, &c);
    EXPECT_LE(ulp_error(s, std::sqrt(0.5L)), kSinCosPiBound);
    EXPECT_LE(ulp_error(c, std::sqrt(0.5L)), kSinCosPiBound);
    portable_sincospi(std::numeric_limits<T>::max(), &s, &c);  // an even integer
    EXPECT_EQ(s, T(0));
    EXPECT_EQ(c, T(1));
    portable_sincospi(inf, &s, &c);
    EXPECT_TRUE(std::isnan(s) && std::isnan(c));
    portable_sincospi(nan, &s, &c);
    EXPECT_TRUE(std::isnan(s) && std::isnan(c));
  }

  EXPECT_EQ(portable_erf(T(0)), T(0));
  EXPECT_EQ(portable_erf(inf), T(1));
  EXPECT_EQ(portable_erf(-inf), T(-1));
  EXPECT_EQ(portable_erf(T(10)), T(1));
  EXPECT_TRUE(std::isnan(portable_erf(nan)));
  EXPECT_EQ(portable_erf(denorm_min),
            static_cast<T>(std::erf(static_cast<long double>(denorm_min))));

  EXPECT_EQ(portable_erfinv(T(0)), T(0));
  EXPECT_EQ(portable_erfinv(T(1)), inf);
  EXPECT_EQ(portable_erfinv(T(-1)), -inf);
  EXPECT_TRUE(std::isnan(portable_erfinv(T(1.5))));
  EXPECT_TRUE(std::isnan(portable_erfinv(-inf)));
  EXPECT_TRUE(std::isnan(portable_erfinv(nan)));
  const T below_one = T(1) - std::numeric_limits<T>::epsilon() / 2;
  EXPECT_LE(ulp_error(portable_erfinv(below_one), ref_erfinv(below_one)), kErfinvBound);
}

TEST(PortableMath, SpecialValuesFloat) { check_special_values<float>(); }
TEST(PortableMath, SpecialValuesDouble) { check_special_values<double>(); }

// ---- host versus the default execution space ---------------------------------------------

template <class T>
bool same_bits(T a, T b) {
  if (std::isnan(a) && std::isnan(b)) return true;  // NaN payloads are not promised
  return std::memcmp(&a, &b, sizeof a) == 0;
}

template <class T>
std::vector<T> agreement_inputs() {
  std::vector<T> xs;
  std::mt19937_64 rng(99);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 0; i < 40000; ++i) {
    xs.push_back(static_cast<T>(u(rng)));                  // erfinv, sincospi
    xs.push_back(static_cast<T>(std::ldexp(u(rng), 3)));   // erf, exp
    xs.push_back(static_cast<T>(std::ldexp(u(rng), 10)));  // exp to overflow/underflow
    using U = typename std::conditional<sizeof(T) == 4, std::uint32_t, std::uint64_t>::type;
    const T x = from_bits<T>(static_cast<U>(rng()));
    xs.push_back(std::isfinite(x) ? std::fabs(x) : T(2));  // log over every exponent
  }
  const T inf = std::numeric_limits<T>::infinity();
  for (T x : {T(0), -T(0), T(1), T(-1), inf, -inf, std::numeric_limits<T>::quiet_NaN(),
              std::numeric_limits<T>::denorm_min(), std::numeric_limits<T>::min(),
              std::numeric_limits<T>::max(), T(0.5), T(0.25), T(1.5)}) {
    xs.push_back(x);
  }
  return xs;
}

// 7 results per input: log, exp, sinpi, cospi, erf, erfinv, sqrt.
template <class T>
KOKKOS_INLINE_FUNCTION void eval_one(T x, T* out) {
  T s, c;
  portable_sincospi(x, &s, &c);
  out[0] = portable_log(x);
  out[1] = portable_exp(x);
  out[2] = s;
  out[3] = c;
  out[4] = portable_erf(x);
  out[5] = portable_erfinv(x);
  out[6] = portable_sqrt(x);
}

template <class T>
struct EvalFunctor {
  Kokkos::View<const T*> x;
  Kokkos::View<T**, Kokkos::LayoutRight> out;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    T r[7];
    eval_one(x(i), r);
    for (int k = 0; k < 7; ++k) out(i, k) = r[k];
  }
};

template <class T>
void check_host_device_agreement() {
  const std::vector<T> xs = agreement_inputs<T>();
  const int n = static_cast<int>(xs.size());
  Kokkos::View<T*> x("x", n);
  auto x_host = Kokkos::create_mirror_view(x);
  for (int i = 0; i < n; ++i) x_host(i) = xs[i];
  Kokkos::deep_copy(x, x_host);
  Kokkos::View<T**, Kokkos::LayoutRight> out("out", n, 7);
  Kokkos::parallel_for("PortableMathAgreement", Kokkos::RangePolicy<>(0, n),
                       EvalFunctor<T>{x, out});
  auto out_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  const char* names[7] = {"log", "exp", "sinpi", "cospi", "erf", "erfinv", "sqrt"};
  int mismatches = 0;
  for (int i = 0; i < n && mismatches < 10; ++i) {
    T r[7];
    eval_one(xs[i], r);
    for (int k = 0; k < 7; ++k) {
      if (!same_bits(r[k], out_host(i, k))) {
        ++mismatches;
        ADD_FAILURE() << names[k] << "(" << xs[i] << "): host " << r[k] << ", "
                      << Kokkos::DefaultExecutionSpace::name() << " " << out_host(i, k);
      }
    }
  }
}

TEST(PortableMath, HostAndDefaultExecutionSpaceGiveIdenticalBitsFloat) {
  check_host_device_agreement<float>();
}
TEST(PortableMath, HostAndDefaultExecutionSpaceGiveIdenticalBitsDouble) {
  check_host_device_agreement<double>();
}

// ---- the special-case-free forms that box_muller uses ------------------------------------

// Box-Muller's log argument u1 = (k + 1) 2^-24 and angle 2 u2 = k 2^-23 (float: every k in
// [0, 2^24)); double: (k + 1) 2^-53 and k 2^-52 for k near both ends and scattered between.
// Over those grids log_normal_positive and sincospi_of_unit_multiple must give exactly the
// bits of portable_log and portable_sincospi.
template <class T>
void check_box_muller_forms(std::uint64_t k) {
  const T unit = sizeof(T) == 4 ? T(0x1p-24) : T(0x1p-53);
  const T u1 = static_cast<T>(k + 1) * unit;
  const T x = static_cast<T>(k) * (2 * unit);
  T s0, c0, s1, c1;
  portable_sincospi(x, &s0, &c0);
  kdt::Impl::sincospi_of_unit_multiple(x, &s1, &c1);
  const T l0 = portable_log(u1), l1 = kdt::Impl::log_normal_positive(u1);
  if (!same_bits(l0, l1) || !same_bits(s0, s1) || !same_bits(c0, c1)) {
    FAIL() << "k = " << k << ": log " << l0 << " vs " << l1 << ", sinpi " << s0 << " vs " << s1
           << ", cospi " << c0 << " vs " << c1;
  }
}

TEST(PortableMath, BoxMullerFormsEqualTheGeneralFunctionsFloat) {
  for (std::uint64_t k = 0; k < (std::uint64_t(1) << 24); ++k) {
    check_box_muller_forms<float>(k);
    if (HasFatalFailure()) return;
  }
}

TEST(PortableMath, BoxMullerFormsEqualTheGeneralFunctionsDouble) {
  const std::uint64_t count = std::uint64_t(1) << 53;
  std::mt19937_64 rng(7);
  for (std::uint64_t i = 0; i < (std::uint64_t(1) << 20); ++i) {
    for (std::uint64_t k : {i, count - 1 - i, rng() % count, (count / 4) * (i % 4) + (i >> 3)}) {
      check_box_muller_forms<double>(k);
      if (HasFatalFailure()) return;
    }
  }
}

// ---- contraction immunity -----------------------------------------------------------------

#if defined(KOKKOSDTENSOR_TEST_CONTRACTED)
template <class T>
void check_contracted_copy() {
  const std::vector<T> xs = agreement_inputs<T>();
  std::vector<T> got(7 * xs.size());
  kdt_test::eval_all_contracted(xs.data(), xs.size(), got.data());
  int mismatches = 0;
  for (std::size_t i = 0; i < xs.size() && mismatches < 10; ++i) {
    T r[7];
    eval_one(xs[i], r);
    for (int k = 0; k < 7; ++k) {
      if (!same_bits(r[k], got[7 * i + k])) {
        ++mismatches;
        ADD_FAILURE() << "function " << k << " at x = " << xs[i] << ": default build " << r[k]
                      << ", -ffp-contract=fast -mfma build " << got[7 * i + k];
      }
    }
  }
}
TEST(PortableMath, ContractionDoesNotChangeBits) {
  if (!__builtin_cpu_supports("fma")) GTEST_SKIP() << "CPU has no FMA instructions";
  ASSERT_TRUE(kdt_test::contracted_copy_uses_fma());
  check_contracted_copy<float>();
  check_contracted_copy<double>();
}
#endif

}  // namespace
