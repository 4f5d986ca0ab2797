// Statistical sanity of every distribution on 10^6 samples: mean, variance and the
// Kolmogorov-Smirnov statistic against the exact CDF, with bounds of about 5 standard
// errors (KS: sqrt(n) D < 2.5, exceeded with probability about 1e-5 by a correct
// generator). The samples are deterministic (fixed seeds), so these tests are stable;
// the bounds are what a correct generator meets with overwhelming probability.

#include <gtest/gtest.h>

#include "TestSpace.hpp"

#include <KokkosDTensor_Rng.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <impl/KokkosDTensor_FillDispatch.hpp>
#include <map>
#include <vector>

namespace kdt = KokkosDTensor;

namespace {

constexpr std::size_t sample_count = 1000000;
constexpr double sigmas = 5.0;

template <class T>
std::vector<double> samples_of(const Kokkos::View<T*, TestSpace>& view) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), view);
  std::vector<double> values(host.extent(0));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(host(i));
  return values;
}

struct Moments {
  double mean = 0, variance = 0;
};

Moments moments(const std::vector<double>& x) {
  Moments m;
  for (const double v : x) m.mean += v;
  m.mean /= x.size();
  for (const double v : x) m.variance += (v - m.mean) * (v - m.mean);
  m.variance /= (x.size() - 1);
  return m;
}

// sqrt(n) * sup |F_n - F|.
double ks_statistic(std::vector<double> x, const std::function<double(double)>& cdf) {
  std::sort(x.begin(), x.end());
  const double n = static_cast<double>(x.size());
  double d = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double f = cdf(x[i]);
    d = std::max(d, std::max((i + 1) / n - f, f - i / n));
  }
  return d * std::sqrt(n);
}

// Checks mean, variance (given the fourth central moment) and KS against cdf.
void check_continuous(const std::vector<double>& x, double mean, double variance,
                      double fourth_central, const std::function<double(double)>& cdf,
                      const char* name) {
  const double n = static_cast<double>(x.size());
  const Moments m = moments(x);
  EXPECT_NEAR(m.mean, mean, sigmas * std::sqrt(variance / n)) << name;
  EXPECT_NEAR(m.variance, variance, sigmas * std::sqrt((fourth_central - variance * variance) / n))
      << name;
  EXPECT_LT(ks_statistic(x, cdf), 2.5) << name;
}

template <class T>
void check_uniform(std::uint64_t seed) {
  Kokkos::View<T*, TestSpace> v("u", sample_count);
  kdt::Generator gen(seed);
  kdt::uniform_(v, -2, 3, gen);
  const auto x = samples_of(v);
  for (const double value : x) {
    ASSERT_GE(value, -2.0);
    ASSERT_LT(value, 3.0);
  }
  const double width = 5;
  check_continuous(
      x, 0.5, width * width / 12, std::pow(width, 4) / 80,
      [](double t) { return std::min(1.0, std::max(0.0, (t + 2) / 5)); }, "uniform");
}

TEST(Distributions, Uniform) {
  check_uniform<float>(1);
  check_uniform<double>(0x8000000000000123ull);
}

template <class T>
void check_normal(std::uint64_t seed) {
  Kokkos::View<T*, TestSpace> v("n", sample_count);
  kdt::Generator gen(seed);
  const double mean = 1.5, stddev = 2.0;
  kdt::normal_(v, mean, stddev, gen);
  const auto x = samples_of(v);
  check_continuous(
      x, mean, stddev * stddev, 3 * std::pow(stddev, 4),
      [&](double t) { return 0.5 * std::erfc(-(t - mean) / (stddev * std::sqrt(2.0))); }, "normal");
  // The two halves of the Box-Muller pairs separately (z0 = r cos, z1 = r sin).
  std::vector<double> even, odd;
  for (std::size_t i = 0; i < x.size(); ++i) (i % 2 ? odd : even).push_back(x[i]);
  const auto cdf = [&](double t) {
    return 0.5 * std::erfc(-(t - mean) / (stddev * std::sqrt(2.0)));
  };
  EXPECT_LT(ks_statistic(even, cdf), 2.5);
  EXPECT_LT(ks_statistic(odd, cdf), 2.5);
  // Pair members are uncorrelated.
  double cov = 0;
  for (std::size_t i = 0; i + 1 < x.size(); i += 2) cov += (x[i] - mean) * (x[i + 1] - mean);
  cov /= (x.size() / 2) * stddev * stddev;
  EXPECT_LT(std::abs(cov), sigmas / std::sqrt(x.size() / 2.0));
}

TEST(Distributions, Normal) {
  check_normal<float>(2);
  check_normal<double>(0x123456789ull);
}

template <class T>
void check_exponential(std::uint64_t seed) {
  Kokkos::View<T*, TestSpace> v("e", sample_count);
  kdt::Generator gen(seed);
  const double lambd = 2.5;
  kdt::exponential_(v, lambd, gen);
  const auto x = samples_of(v);
  for (const double value : x) ASSERT_GE(value, 0.0);
  check_continuous(
      x, 1 / lambd, 1 / (lambd * lambd), 9 / std::pow(lambd, 4),
      [&](double t) { return t <= 0 ? 0.0 : -std::expm1(-lambd * t); }, "exponential");
}

TEST(Distributions, Exponential) {
  check_exponential<float>(3);
  check_exponential<double>(4);
}

TEST(Distributions, LogNormal) {
  Kokkos::View<double*, TestSpace> v("ln", sample_count);
  kdt::Generator gen(5);
  const double mean = 0.2, stddev = 0.5;
  kdt::log_normal_(v, mean, stddev, gen);
  auto x = samples_of(v);
  for (auto& value : x) {
    ASSERT_GT(value, 0.0);
    value = std::log(value);
  }
  check_continuous(
      x, mean, stddev * stddev, 3 * std::pow(stddev, 4),
      [&](double t) { return 0.5 * std::erfc(-(t - mean) / (stddev * std::sqrt(2.0))); },
      "log of log_normal");
}

TEST(Distributions, TruncNormal) {
  for (const bool single : {true, false}) {
    std::vector<double> x;
    const double mean = 0.5, stddev = 1.0, a = -1.0, b = 2.0;
    kdt::Generator gen(6);
    if (single) {
      Kokkos::View<float*, TestSpace> v("t", sample_count);
      kdt::trunc_normal_(v, mean, stddev, a, b, gen);
      x = samples_of(v);
    } else {
      Kokkos::View<double*, TestSpace> v("t", sample_count);
      kdt::trunc_normal_(v, mean, stddev, a, b, gen);
      x = samples_of(v);
    }
    for (const double value : x) {
      ASSERT_GE(value, a);
      ASSERT_LE(value, b);
    }
    const auto phi = [](double t) { return 0.5 * std::erfc(-t / std::sqrt(2.0)); };
    const double alpha = (a - mean) / stddev, beta = (b - mean) / stddev;
    const double z = phi(beta) - phi(alpha);
    const double pdf_a = std::exp(-alpha * alpha / 2) / std::sqrt(2 * M_PI);
    const double pdf_b = std::exp(-beta * beta / 2) / std::sqrt(2 * M_PI);
    const double expected_mean = mean + stddev * (pdf_a - pdf_b) / z;
    const double expected_var =
        stddev * stddev *
        (1 + (alpha * pdf_a - beta * pdf_b) / z - std::pow((pdf_a - pdf_b) / z, 2));
    const Moments m = moments(x);
    EXPECT_NEAR(m.mean, expected_mean, sigmas * std::sqrt(expected_var / x.size()));
    EXPECT_NEAR(m.variance, expected_var, 0.01 * expected_var);
    EXPECT_LT(ks_statistic(x,
                           [&](double t) {
                             const double s = (std::min(std::max(t, a), b) - mean) / stddev;
                             return (phi(s) - phi(alpha)) / z;
                           }),
              2.5);
  }
}

template <class T>
void check_bernoulli(double p, std::uint64_t seed) {
  Kokkos::View<T*, TestSpace> v("b", sample_count);
  kdt::Generator gen(seed);
  kdt::bernoulli_(v, p, gen);
  const auto x = samples_of(v);
  double ones = 0;
  for (const double value : x) {
    ASSERT_TRUE(value == 0.0 || value == 1.0);
    ones += value;
  }
  const double n = static_cast<double>(x.size());
  if (p == 0 || p == 1) {
    EXPECT_EQ(ones, p * n);
  } else {
    EXPECT_NEAR(ones / n, p, sigmas * std::sqrt(p * (1 - p) / n)) << "p = " << p;
  }
}

TEST(Distributions, BernoulliFrequency) {
  for (const double p : {0.0, 0.01, 0.3, 0.5, 0.99, 1.0}) {
    check_bernoulli<float>(p, 7);
    check_bernoulli<std::int64_t>(p, 8);
  }
}

TEST(Distributions, DropoutKeepsTheMean) {
  const double p = 0.2;
  Kokkos::View<float*, TestSpace> v("d", sample_count);
  Kokkos::deep_copy(v, 1.0f);
  kdt::Generator gen(9);
  kdt::dropout_(v, p, gen);
  const auto x = samples_of(v);
  double kept = 0;
  for (const double value : x) {
    ASSERT_TRUE(value == 0.0 || value == static_cast<double>(static_cast<float>(1 / (1 - p))));
    kept += value != 0.0;
  }
  const double n = static_cast<double>(x.size());
  EXPECT_NEAR(kept / n, 1 - p, sigmas * std::sqrt(p * (1 - p) / n));
}

TEST(Distributions, RandintIsUniformOverItsRange) {
  // Chi-square over 10 values with 9 degrees of freedom: P(chi2 > 45) ~ 1e-6.
  Kokkos::View<std::int32_t*, TestSpace> v("r", sample_count);
  kdt::Generator gen(10);
  kdt::randint_(v, -3, 7, gen);
  std::map<int, double> counts;
  for (const double value : samples_of(v)) counts[static_cast<int>(value)] += 1;
  EXPECT_EQ(counts.size(), 10u);
  EXPECT_EQ(counts.begin()->first, -3);
  EXPECT_EQ(counts.rbegin()->first, 6);
  const double expected = sample_count / 10.0;
  double chi2 = 0;
  for (const auto& c : counts) chi2 += (c.second - expected) * (c.second - expected) / expected;
  EXPECT_LT(chi2, 45.0);

  Kokkos::View<std::int64_t*, TestSpace> w("w", sample_count);
  kdt::randint_(w, -(std::int64_t(1) << 40), std::int64_t(1) << 40, gen);
  const Moments m = moments(samples_of(w));
  const double half = std::ldexp(1.0, 40);
  EXPECT_NEAR(m.mean, 0.0, sigmas * half / std::sqrt(3.0 * sample_count));
}

TEST(Distributions, GeometricMean) {
  for (const double p : {0.5, 0.05}) {
    Kokkos::View<std::int64_t*, TestSpace> v("g", sample_count);
    kdt::Generator gen(11);
    kdt::geometric_(v, p, gen);
    const auto x = samples_of(v);
    for (const double value : x) ASSERT_GE(value, 1.0);
    const Moments m = moments(x);
    const double variance = (1 - p) / (p * p);
    EXPECT_NEAR(m.mean, 1 / p, sigmas * std::sqrt(variance / x.size())) << "p = " << p;
    // P(X = 1) = p.
    const double ones = std::count(x.begin(), x.end(), 1.0);
    EXPECT_NEAR(ones / x.size(), p, sigmas * std::sqrt(p * (1 - p) / x.size()));
  }
}

TEST(Distributions, RandomBitsAreBalanced) {
  Kokkos::View<std::uint32_t*, TestSpace> v("bits", sample_count);
  kdt::Generator gen(12);
  kdt::random_bits_(v, gen);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  for (int bit = 0; bit < 32; ++bit) {
    double ones = 0;
    for (std::size_t i = 0; i < host.extent(0); ++i) ones += (host(i) >> bit) & 1u;
    EXPECT_NEAR(ones / sample_count, 0.5, sigmas * 0.5 / std::sqrt(double(sample_count)))
        << "bit " << bit;
  }
}

}  // namespace
