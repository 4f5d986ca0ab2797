// The stream-version-2 normal (SPEC section 2, docs/stream.md "normal_"): the coefficient
// table against an independent high-precision quantile, the transform's symmetry and tail,
// the distributions' formula, and the statistics of 2^24 normals drawn shard by shard.
// Every expectation is a property (a contract bound or a statistical bound), none is a
// value recorded from the code's output.
//
// Reference quantile: z = -Phi^-1(q) by Newton iteration on Phi(-z) = q in long double,
//   z <- z + (erfc(z / sqrt2) / 2 - q) / phi(z)          (q <= 1/4)
//   z <- z + ((1/2 - q) - erf(z / sqrt2) / 2) / phi(z)     (q > 1/4; 1/2 - q exact)
// from a start of its own (a crude rational approximation), iterated until the correction
// is below 1e-17 relative; its error is then that of erfcl/erfl (a few long double ulps,
// about 1e-18), far below the float (2 ulp) and double (4 ulp) contracts. The double checks
// need a long double with at least 64 mantissa bits and are skipped where it has fewer.

#include <gtest/gtest.h>

#include "TestSpace.hpp"

#include <KokkosDTensor_Rng.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <impl/KokkosDTensor_FillDispatch.hpp>
#include <impl/KokkosDTensor_NormalQuantile.hpp>
#include <vector>

namespace kdt = KokkosDTensor;
using namespace KokkosDTensor::Impl;

namespace {

constexpr bool long_double_is_precise = LDBL_MANT_DIG >= 64;

// -Phi^-1(q) for q in (0, 1/2], q exact in long double.
long double quantile_reference(long double q) {
  if (q == 0.5L) return 0.0L;
  const long double inv_sqrt2 = 0.707106781186547524400844362104849039L;
  const long double inv_sqrt2pi = 0.398942280401432677939946059934381868L;
  // Start: Abramowitz-Stegun 26.2.23 (|error| < 4.5e-4), independent of the table.
  const long double t = std::sqrt(-2.0L * std::log(q));
  long double z = t - (2.515517L + 0.802853L * t + 0.010328L * t * t) /
                          (1.0L + 1.432788L * t + 0.189269L * t * t + 0.001308L * t * t * t);
  for (int it = 0; it < 50; ++it) {
    const long double phi = inv_sqrt2pi * std::exp(-0.5L * z * z);
    const long double g = q <= 0.25L ? 0.5L * std::erfc(z * inv_sqrt2) - q
                                     : (0.5L - q) - 0.5L * std::erf(z * inv_sqrt2);
    const long double d = g / phi;
    z += d;
    if (std::fabs(d) <= 1e-17L * std::fabs(z)) break;
  }
  return z;
}

// |value - ref| in units of the last place of the correctly rounded ref (in T).
template <class T>
double ulps(T value, long double ref) {
  const T rounded = static_cast<T>(ref);
  const T ulp =
      std::nextafter(std::fabs(rounded), std::numeric_limits<T>::infinity()) - std::fabs(rounded);
  return static_cast<double>(std::fabs(static_cast<long double>(value) - ref) / ulp);
}

// Checks |z| = P(q) against the reference: T = float within 2 ulp where |z| >= 1/16 and
// 1e-6 absolute below; T = double within 4 ulp. Returns the worst ulp error.
template <class T>
double check_q(T q, const char* where, double& worst_abs) {
  const T z = normal_magnitude_from_q(q);
  const long double ref = quantile_reference(static_cast<long double>(q));
  if (sizeof(T) == 4 && ref < 0.0625L) {
    const double abs_err = static_cast<double>(std::fabs(static_cast<long double>(z) - ref));
    worst_abs = std::max(worst_abs, abs_err);
    EXPECT_LE(abs_err, 1e-6) << where << " q = " << std::hexfloat << q;
    return 0;
  }
  const double e = ulps(z, ref);
  EXPECT_LE(e, sizeof(T) == 4 ? 2.0 : 4.0)
      << where << " q = " << std::hexfloat << q << " z = " << z << std::defaultfloat
      << " ref = " << static_cast<double>(ref);
  return e;
}

// Every segment (e, k): q = 2^e (1 + k / S) (its first point), the midpoint
// 2^e (1 + (k + 1/2) / S), the last value of T below the next segment, and q = 1/2.
template <class T>
void check_table() {
  constexpr int S = sizeof(T) == 4 ? 16 : 4;
  constexpr int e_min = sizeof(T) == 4 ? NormalTableF32::e_min : NormalTableF64::e_min;
  double worst = 0, worst_abs = 0;
  int points = 0;
  for (int e = e_min; e <= -2; ++e) {
    for (int k = 0; k < S; ++k) {
      const T first = std::ldexp(T(1) + T(k) / S, e);
      const T mid = std::ldexp(T(1) + (T(k) + T(0.5)) / S, e);
      const T next = std::ldexp(T(1) + T(k + 1) / S, e);  // k + 1 = S: 2^(e+1)
      const T last = std::nextafter(next, T(0));
      for (const T q : {first, mid, last}) {
        worst = std::max(worst, check_q(q, "segment", worst_abs));
        ++points;
      }
    }
  }
  EXPECT_EQ(normal_magnitude_from_q(T(0.5)), T(0));
  std::printf(
      "normal v2 %s table: %d segment points, max %.3f ulp (float: where |z| >= 1/16), max abs "
      "%.2e (float: |z| < 1/16)\n",
      sizeof(T) == 4 ? "float" : "double", points, worst, worst_abs);
}

TEST(NormalV2, FloatTableAgainstQuantile) { check_table<float>(); }

TEST(NormalV2, DoubleTableAgainstQuantile) {
  if (!long_double_is_precise) GTEST_SKIP() << "long double has fewer than 64 mantissa bits";
  check_table<double>();
}

TEST(NormalV2, SignSymmetry) {
  for (std::uint64_t i = 0; i < 200000; ++i) {
    const std::uint32_t w = stream_word(7, i), w1 = stream_word(8, i);
    const float a = normal_from_word(w & 0x7fffffffu), b = normal_from_word(w | 0x80000000u);
    EXPECT_EQ(float_to_bits(a) ^ 0x80000000u, float_to_bits(b)) << w;
    EXPECT_FALSE(std::signbit(a)) << w;
    const double c = normal_from_words(w & 0x7fffffffu, w1),
                 d = normal_from_words(w | 0x80000000u, w1);
    ASSERT_EQ(double_to_bits(c) ^ 0x8000000000000000ull, double_to_bits(d)) << w << " " << w1;
    ASSERT_FALSE(std::signbit(c)) << w;
  }
  // q = 1/2 (all magnitude bits set) gives +0 and -0.
  EXPECT_EQ(float_to_bits(normal_from_word(0x7fffffffu)), 0u);
  EXPECT_EQ(float_to_bits(normal_from_word(0xffffffffu)), 0x80000000u);
  EXPECT_EQ(double_to_bits(normal_from_words(0x7fffffffu, 0xffffffffu)), 0ull);
  EXPECT_EQ(double_to_bits(normal_from_words(0xffffffffu, 0xffffffffu)), 0x8000000000000000ull);
}

// The copy of the double table that the GPU team kernel keeps in shared memory
// (copy_normal_table_f64, split over 1, 3 or 256 threads) gives normal_from_words' bits, over
// every segment edge of the double table and a pseudo-random sample.
TEST(NormalV2, SharedTableCopyGivesTheSameBits) {
  std::vector<std::uint64_t> xs = {0ull, ~0ull, 0x7fffffffffffffffull};
  for (std::uint32_t e = 0; e < 64; ++e)
    for (std::uint32_t k = 0; k < 4; ++k) {
      const unsigned __int128 edge = (static_cast<unsigned __int128>(1) << e) * (4 + k) / 4;
      for (int d = -2; d <= 2; ++d) {
        const unsigned __int128 m = edge + d;
        if (m >= 1 && m < (static_cast<unsigned __int128>(1) << 64))
          xs.push_back(static_cast<std::uint64_t>(m / 2));
      }
    }
  for (std::uint64_t i = 0; i < 100000; ++i)
    xs.push_back(static_cast<std::uint64_t>(stream_word(11, i)) << 32 | stream_word(12, i));
  for (int threads : {1, 3, 256}) {
    std::vector<double> copy(normal_table_f64_doubles, -1.0);
    for (int t = 0; t < threads; ++t) copy_normal_table_f64(copy.data(), t, threads);
    for (std::size_t i = 0; i < xs.size(); ++i) {
      const std::uint64_t x = xs[i] ^ (i % 2 ? 0x8000000000000000ull : 0ull);
      const auto w0 = static_cast<std::uint32_t>(x >> 32), w1 = static_cast<std::uint32_t>(x);
      ASSERT_EQ(double_to_bits(normal_from_words(w0, w1, copy.data())),
                double_to_bits(normal_from_words(w0, w1)))
          << "x " << x << ", " << threads << " threads";
    }
  }
}

// The float table's shared-memory layout (NormalTableF32Shared: the hot entries eight times
// interleaved, then the whole table), filled by 1, 3 or 1024 threads, gives normal_from_word's
// bits for every lane, over every segment edge and a pseudo-random sample of words.
TEST(NormalV2, SharedFloatLayoutGivesTheSameBits) {
  using L = NormalTableF32Shared;
  std::vector<std::uint32_t> words = {0u, 0x7fffffffu, 0x80000000u, 0xffffffffu};
  for (std::uint32_t e = 0; e < 32; ++e)
    for (std::uint32_t k = 0; k < 16; ++k) {
      const std::uint64_t edge = (1ull << e) + (static_cast<std::uint64_t>(k) << e) / 16;
      for (int d = -2; d <= 2; ++d) {
        const std::int64_t m = static_cast<std::int64_t>(edge) + d;
        if (m >= 1 && m < (1ll << 32)) words.push_back(static_cast<std::uint32_t>(m / 2));
      }
    }
  for (std::uint64_t i = 0; i < 100000; ++i) words.push_back(stream_word(13, i));
  for (int threads : {1, 3, 1024}) {
    std::vector<float> layout(L::floats, -1.0f);
    for (int t = 0; t < threads; ++t) L::fill(layout.data(), t, threads);
    for (int i = 0; i < L::floats; ++i) ASSERT_NE(layout[i], -1.0f) << i;
    for (std::size_t i = 0; i < words.size(); ++i) {
      const std::uint32_t w = words[i] ^ (i % 2 ? 0x80000000u : 0u);
      for (int lane = 0; lane < L::copies; ++lane)
        ASSERT_EQ(float_to_bits(L::normal(w, layout.data(), lane)),
                  float_to_bits(normal_from_word(w)))
            << "word " << w << " lane " << lane << ", " << threads << " threads";
    }
  }
}

TEST(NormalV2, Tail) {
  // q = 2^-33: words 0 and 0x80000000; -Phi^-1(2^-33) = 6.3379577545...
  const float z = normal_from_word(0u);
  EXPECT_NEAR(z, 6.338, 5e-4);
  EXPECT_LE(ulps(z, quantile_reference(0x1p-33L)), 2.0);
  EXPECT_EQ(normal_from_word(0x80000000u), -z);
  // Nothing beyond it: q >= 2^-33 for every word.
  EXPECT_EQ(normal_q_from_word(0u), 0x1p-33f);
  EXPECT_EQ(normal_q_from_word(0x7fffffffu), 0.5f);
  // double: q = 2^-65, z = 9.1552937...
  EXPECT_EQ(normal_q_from_words(0u, 0u), 0x1p-65);
  const double zd = normal_from_words(0u, 0u);
  EXPECT_NEAR(zd, 9.1553, 1e-3);
  if (long_double_is_precise) EXPECT_LE(ulps(zd, quantile_reference(0x1p-65L)), 4.0);
}

// Normal<T>::element(w0, w1) = fma(std, z, mean), LogNormal = exp of it, and normal_ on a
// View gives element L the words offset + w L .. offset + w L + w - 1 (w = 1 float, 2 double).
TEST(NormalV2, DistributionsUseTheTransform) {
  const auto nf = make_normal<float>(0.25, 3.5, "t");
  const auto nd = make_normal<double>(-1.5, 0.75, "t");
  const auto lf = make_log_normal<float>(0.5, 0.5, "t");
  const auto ld = make_log_normal<double>(0.5, 0.5, "t");
  static_assert(Normal<float>::words_per_element == 1 && Normal<double>::words_per_element == 2,
                "words");
  for (std::uint64_t i = 0; i < 10000; ++i) {
    const std::uint32_t w0 = stream_word(3, 2 * i), w1 = stream_word(3, 2 * i + 1);
    EXPECT_EQ(float_to_bits(nf.element(w0, w0, 0.f)),
              float_to_bits(portable_fma(3.5f, normal_from_word(w0), 0.25f)));
    EXPECT_EQ(double_to_bits(nd.element(w0, w1, 0.)),
              double_to_bits(portable_fma(0.75, normal_from_words(w0, w1), -1.5)));
    EXPECT_EQ(float_to_bits(lf.element(w0, w0, 0.f)),
              float_to_bits(portable_exp(portable_fma(0.5f, normal_from_word(w0), 0.5f))));
    EXPECT_EQ(double_to_bits(ld.element(w0, w1, 0.)),
              double_to_bits(portable_exp(portable_fma(0.5, normal_from_words(w0, w1), 0.5))));
  }
  const std::uint64_t seed = 99, offset = 40;
  const int n = 1001;
  Kokkos::View<float*, TestSpace> f("f", n);
  Kokkos::View<double*, TestSpace> d("d", n);
  kdt::Generator gf(seed), gd(seed);
  gf.set_state({seed, offset});
  gd.set_state({seed, offset});
  kdt::normal_(f, 0.25, 3.5, gf);
  kdt::normal_(d, -1.5, 0.75, gd);
  EXPECT_EQ(gf.get_state().offset, offset + 1004);
  EXPECT_EQ(gd.get_state().offset, offset + 2004);
  auto hf = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f);
  auto hd = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d);
  for (int L = 0; L < n; ++L) {
    EXPECT_EQ(float_to_bits(hf(L)),
              float_to_bits(nf.element(stream_word(seed, offset + L), 0u, 0.f)));
    EXPECT_EQ(double_to_bits(hd(L)),
              double_to_bits(nd.element(stream_word(seed, offset + 2 * L),
                                        stream_word(seed, offset + 2 * L + 1), 0.)));
  }
}

// ---- statistics of 2^24 normals ------------------------------------------------------------

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// P(K > lambda) of the Kolmogorov distribution.
double kolmogorov_p(double lambda) {
  if (lambda < 0.2) return 1.0;
  double p = 0;
  for (int k = 1; k < 100; ++k)
    p += (k % 2 ? 2.0 : -2.0) * std::exp(-2.0 * k * k * lambda * lambda);
  return std::min(1.0, std::max(0.0, p));
}

// P(chi2_df > x), Wilson-Hilferty (relative error well below 1% of p at df = 999).
double chi2_p(double x, double df) {
  const double v = 2.0 / (9.0 * df);
  const double z = (std::cbrt(x / df) - (1.0 - v)) / std::sqrt(v);
  return 0.5 * std::erfc(z / std::sqrt(2.0));
}

// The global [4096, 4096] tensor (2^24 elements) as the four shards of a 2x2 mesh, each
// filled through Impl::fill_random with its box (what a DTensor op does on each rank), then
// gathered in row-major order.
template <class T>
std::vector<double> sharded_normals(std::uint64_t seed, std::uint64_t offset) {
  constexpr std::int64_t G = 4096, H = G / 2;
  const auto dist = make_normal<T>(0, 1, "t");
  std::vector<double> x(static_cast<std::size_t>(G * G));
  Kokkos::View<T**, Kokkos::LayoutRight, TestSpace> shard("shard", H, H);
  for (int r = 0; r < 2; ++r) {
    for (int c = 0; c < 2; ++c) {
      GlobalBox box;
      box.rank = 2;
      box.global_extent[0] = box.global_extent[1] = G;
      box.origin[0] = r * H;
      box.origin[1] = c * H;
      fill_random(TestSpace(), shard, dist, kdt::RNGState{seed, offset}, box);
      auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), shard);
      for (std::int64_t i = 0; i < H; ++i)
        for (std::int64_t j = 0; j < H; ++j)
          x[static_cast<std::size_t>((r * H + i) * G + c * H + j)] = static_cast<double>(h(i, j));
    }
  }
  return x;
}

template <class T>
void check_statistics(std::uint64_t seed, std::uint64_t offset) {
  std::vector<double> x = sharded_normals<T>(seed, offset);
  const double n = static_cast<double>(x.size());
  const char* type = sizeof(T) == 4 ? "float" : "double";
  // Moments (sums in long double) and their standard errors for a standard normal sample.
  long double s1 = 0;
  for (const double v : x) s1 += v;
  const double mean = static_cast<double>(s1 / n);
  long double s2 = 0, s3 = 0, s4 = 0;
  for (const double v : x) {
    const long double d = v - mean, d2 = d * d;
    s2 += d2;
    s3 += d2 * d;
    s4 += d2 * d2;
  }
  const double var = static_cast<double>(s2 / (n - 1));
  const double m2 = static_cast<double>(s2 / n);
  const double skew = static_cast<double>(s3 / n) / std::pow(m2, 1.5);
  const double kurt = static_cast<double>(s4 / n) / (m2 * m2) - 3.0;  // excess
  const double se_mean = 1 / std::sqrt(n), se_var = std::sqrt(2 / n);
  const double se_skew = std::sqrt(6 / n), se_kurt = std::sqrt(24 / n);
  EXPECT_LE(std::fabs(mean), 4 * se_mean) << type;
  EXPECT_LE(std::fabs(var - 1), 4 * se_var) << type;
  EXPECT_LE(std::fabs(skew), 4 * se_skew) << type;
  EXPECT_LE(std::fabs(kurt), 4 * se_kurt) << type;
  // Tails beyond 3, 4, 5 sigma (both sides).
  double tail_z[3];
  for (int k = 3; k <= 5; ++k) {
    const double p = std::erfc(k / std::sqrt(2.0));
    const double count = static_cast<double>(
        std::count_if(x.begin(), x.end(), [k](double v) { return std::fabs(v) > k; }));
    const double se = std::sqrt(n * p * (1 - p));
    tail_z[k - 3] = (count - n * p) / se;
    EXPECT_LE(std::fabs(count - n * p), 4 * se)
        << type << " beyond " << k << " sigma: " << count << " expected " << n * p;
  }
  // Chi-square on 1000 equiprobable bins (bin of x: floor(1000 Phi(x))).
  std::vector<double> bins(1000, 0.0);
  for (const double v : x) {
    const int b = std::min(999, static_cast<int>(1000 * normal_cdf(v)));
    bins[b] += 1;
  }
  double chi2 = 0;
  const double expected = n / 1000;
  for (const double b : bins) chi2 += (b - expected) * (b - expected) / expected;
  const double p_chi2 = chi2_p(chi2, 999);
  EXPECT_GT(p_chi2, 0.001) << type << " chi2 = " << chi2;
  // Kolmogorov-Smirnov, counting equal values together.
  std::sort(x.begin(), x.end());
  double d = 0;
  for (std::size_t i = 0; i < x.size();) {
    std::size_t j = i;
    while (j < x.size() && x[j] == x[i]) ++j;
    const double f = normal_cdf(x[i]);
    d = std::max(d, std::max(j / n - f, f - i / n));
    i = j;
  }
  const double p_ks = kolmogorov_p(std::sqrt(n) * d);
  EXPECT_GT(p_ks, 0.001) << type << " D = " << d;
  std::printf(
      "normal v2 %s, 2^24 sharded normals (seed %llu offset %llu): mean %+.3f SE, var-1 %+.3f SE, "
      "skew %+.3f SE, "
      "excess kurtosis %+.3f SE; beyond 3/4/5 sigma %+.2f/%+.2f/%+.2f SE; chi2(999) %.1f p %.3f; "
      "KS sqrt(n)D %.3f "
      "p %.3f\n",
      type, static_cast<unsigned long long>(seed), static_cast<unsigned long long>(offset),
      mean / se_mean, (var - 1) / se_var, skew / se_skew, kurt / se_kurt, tail_z[0], tail_z[1],
      tail_z[2], chi2, p_chi2, std::sqrt(n) * d, p_ks);
}

TEST(NormalV2, StatisticsFloat) { check_statistics<float>(20240611, 0); }
TEST(NormalV2, StatisticsDouble) { check_statistics<double>(20240612, 1ull << 40); }

}  // namespace
