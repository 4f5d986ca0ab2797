// The AVX2 and AVX-512 transforms of KokkosDTensor_HostSimdDistributions.hpp (exponential,
// log_normal, geometric, trunc_normal, randint, 64-bit bits) give the bits of the scalar
// transforms (Dist's operator()), on every word of a list of edge words, edge pairs (the two
// words of a 64-bit element) and pseudo-random words, for parameters that reach every branch
// of the scalar code (overflow, gradual underflow, clamping, the tails of erfinv, the cold
// lanes left to the scalar code). Also the vector exp and double log against portable_exp and
// portable_log on their own. No fill kernel is instantiated here (a cheap TU); the fills
// themselves are compared path against path in Test_FillPaths.cpp.

#include <gtest/gtest.h>

#include <impl/KokkosDTensor_HostSimdDistributions.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#if KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH

namespace {

namespace kdt = KokkosDTensor;
namespace I = kdt::Impl;
namespace v = I::host_avx2;

// Edge words (zero and all-ones, the ends of the uniforms' ranges, sign bits, powers of two
// and their neighbours), every ordered pair of them (two-word elements), then pseudo-random
// words; padded to whole groups of 8 blocks (32 words).
std::vector<std::uint32_t> test_words() {
  std::vector<std::uint32_t> edges = {0x00000000u, 0x00000001u, 0x000000FFu, 0x00000100u,
                                      0x000001FFu, 0x000007FFu, 0x00000800u, 0x7FFFFFFFu,
                                      0x80000000u, 0x80000001u, 0xFFFFFE00u, 0xFFFFFEFFu,
                                      0xFFFFFF00u, 0xFFFFFFFEu, 0xFFFFFFFFu, 0x3FFFFFFFu};
  for (int e = 8; e < 32; e += 3) {
    edges.push_back(1u << e);
    edges.push_back((1u << e) - 1);
    edges.push_back(~(1u << e));
  }
  std::vector<std::uint32_t> words;
  for (std::uint32_t a : edges)
    for (std::uint32_t b : edges) {
      words.push_back(a);
      words.push_back(b);
    }
  for (std::uint32_t i = 0; i < (1u << 16); ++i) words.push_back(I::stream_word(2026, i));
  while (words.size() % 32) words.push_back(0);
  return words;
}

template <class T>
std::string bits_of(const T& x) {
  std::uint64_t u = 0;
  std::memcpy(&u, &x, sizeof x);
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(u));
  return buf;
}

// Dist's scalar operator() on block l of the 32 words at `word`.
template <class Dist, class T = typename Dist::value_type>
void scalar_blocks(const Dist& d, const std::uint32_t* word, int blocks, T* out) {
  constexpr int E = Dist::elements_per_block;
  for (int l = 0; l < blocks; ++l) {
    I::PhiloxBlock block;
    for (int j = 0; j < 4; ++j) block.word[j] = word[4 * l + j];
    T values[E] = {};
    d(block, values);
    for (int e = 0; e < E; ++e) out[E * l + e] = values[e];
  }
}

template <class Dist, class T = typename Dist::value_type>
__attribute__((target("avx2,fma"))) void check_avx2(const Dist& d, const std::string& name) {
  static_assert(I::HostAvx2Transform<Dist>::available, "no AVX2 transform");
  constexpr int E = Dist::elements_per_block;
  const std::vector<std::uint32_t> words = test_words();
  for (std::size_t i = 0; i < words.size(); i += 32) {
    alignas(32) std::uint32_t lanes[4][8];
    for (int l = 0; l < 8; ++l)
      for (int j = 0; j < 4; ++j) lanes[j][l] = words[i + 4 * l + j];
    v::Words8 w;
    for (int j = 0; j < 4; ++j)
      w.word[j] = _mm256_load_si256(reinterpret_cast<const __m256i*>(lanes[j]));
    T got[8 * E], want[8 * E];
    I::HostAvx2Transform<Dist>::apply(d, w, got);
    scalar_blocks(d, &words[i], 8, want);
    for (int k = 0; k < 8 * E; ++k)
      ASSERT_EQ(std::memcmp(&got[k], &want[k], sizeof(T)), 0)
          << name << " (8 lanes): element " << k << " of words at " << i << " (word "
          << words[i + (k / E) * 4 + (k % E) * (4 / E)] << "): " << bits_of(got[k])
          << " instead of " << bits_of(want[k]);
  }
}

template <class Dist, class T = typename Dist::value_type>
__attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA))) void check_avx512(const Dist& d,
                                                                         const std::string& name) {
  constexpr int E = Dist::elements_per_block;
  const std::vector<std::uint32_t> words = test_words();
  for (std::size_t i = 0; i < words.size(); i += 64) {
    alignas(64) std::uint32_t lanes[4][16];
    for (int l = 0; l < 16; ++l)
      for (int j = 0; j < 4; ++j) lanes[j][l] = words[(i + 4 * l + j) % words.size()];
    std::uint32_t block_words[64];
    for (int k = 0; k < 64; ++k) block_words[k] = words[(i + k) % words.size()];
    v::Words16 w;
    for (int j = 0; j < 4; ++j) w.word[j] = _mm512_load_si512(lanes[j]);
    T got[16 * E], want[16 * E];
    I::HostAvx512Transform<Dist>::apply(d, w, got);
    scalar_blocks(d, block_words, 16, want);
    for (int k = 0; k < 16 * E; ++k)
      ASSERT_EQ(std::memcmp(&got[k], &want[k], sizeof(T)), 0)
          << name << " (16 lanes): element " << k << " of words at " << i << ": " << bits_of(got[k])
          << " instead of " << bits_of(want[k]);
    // By element (the lanes kernel's order): element e of block l at 16 e + l.
    T by_element[16 * E];
    I::HostAvx512Transform<Dist>::template apply<v::ElementOrder>(d, w, by_element);
    for (int l = 0; l < 16; ++l)
      for (int e = 0; e < E; ++e)
        ASSERT_EQ(std::memcmp(&by_element[16 * e + l], &want[E * l + e], sizeof(T)), 0)
            << name << " (16 lanes, by element): element " << e << " of block " << l
            << " of words at " << i << ": " << bits_of(by_element[16 * e + l]) << " instead of "
            << bits_of(want[E * l + e]);
  }
}

// Both widths where the CPU has them (AVX-512 where Dist has a 16-lane transform).
template <class Dist>
void check(const Dist& d, const std::string& name) {
  if (I::host_has_avx2_fma()) check_avx2(d, name);
  if constexpr (I::HostAvx512Transform<Dist>::available) {
    if (I::host_has_avx512()) check_avx512(d, name);
  }
}

bool skip() { return !I::host_has_avx2_fma(); }

constexpr double inf = std::numeric_limits<double>::infinity();
const char* f = "test";

TEST(HostSimdTransforms, Exponential) {
  if (skip()) GTEST_SKIP() << "CPU without AVX2+FMA";
  for (double lambd : {1.5, 1e-40, 3e38}) check(I::make_exponential<float>(lambd, f), "exp f32");
  for (double lambd : {1.5, 1e-310, 1e300}) check(I::make_exponential<double>(lambd, f), "exp f64");
}

TEST(HostSimdTransforms, LogNormal) {
  if (skip()) GTEST_SKIP() << "CPU without AVX2+FMA";
  // exp overflow (80, 10), gradual underflow (-90, 10), std * z overflowing (3e38).
  for (auto ms : {std::pair<double, double>{1, 2}, {0, 0.25}, {80, 10}, {-90, 10}, {0, 3e38}})
    check(I::make_log_normal<float>(ms.first, ms.second, f), "log_normal f32");
  for (auto ms : {std::pair<double, double>{1, 2}, {700, 10}, {-740, 5}, {0, 1e308}})
    check(I::make_log_normal<double>(ms.first, ms.second, f), "log_normal f64");
}

TEST(HostSimdTransforms, Geometric) {
  if (skip()) GTEST_SKIP() << "CPU without AVX2+FMA";
  // 1e-40 (float) and 1e-320 (double): trials overflow to inf, clamped to the largest value;
  // 1e-12 for int32: trials beyond 2^31, clamped to INT32_MAX.
  for (double p : {0.3, 1e-40, 0.999999}) check(I::make_geometric<float>(p, f), "geometric f32");
  for (double p : {0.01, 1e-12, 0.5}) check(I::make_geometric<std::int32_t>(p, f), "geometric i32");
  for (double p : {0.3, 1e-320}) check(I::make_geometric<double>(p, f), "geometric f64");
}

TEST(HostSimdTransforms, TruncNormal) {
  if (skip()) GTEST_SKIP() << "CPU without AVX2+FMA";
  // [-10, 10] and [-40, 40]: v near +-1, erfinv's tail polynomials; (-inf, inf): u = 0 gives
  // v = -1 (a cold lane: log(0)); [-0, inf): the clamp's signed zeros.
  const double cases[][4] = {{0, 1, -2, 2},      {0, 1, -10, 10},   {0, 1, -inf, inf},
                             {3, 0.5, 2.9, 3.1}, {0, 1, -0.0, inf}, {0, 1, -40, 40}};
  for (const auto& c : cases) {
    check(I::make_trunc_normal<float>(c[0], c[1], c[2], c[3], f), "trunc_normal f32");
    check(I::make_trunc_normal<double>(c[0], c[1], c[2], c[3], f), "trunc_normal f64");
  }
}

TEST(HostSimdTransforms, RandInt) {
  if (skip()) GTEST_SKIP() << "CPU without AVX2+FMA";
  constexpr std::int64_t i32_min = std::numeric_limits<std::int32_t>::min();
  constexpr std::int64_t i32_max = std::numeric_limits<std::int32_t>::max();
  constexpr std::int64_t i64_min = std::numeric_limits<std::int64_t>::min();
  constexpr std::int64_t i64_max = std::numeric_limits<std::int64_t>::max();
  // Ranges 1000, 1000010, 2^32 - 1 and 2^32 (the word itself).
  for (auto lh : {std::pair<std::int64_t, std::int64_t>{0, 1000},
                  {-7, 1000003},
                  {i32_min, i32_max},
                  {i32_min, i32_max + 1}})
    check(I::make_randint<std::int32_t>(lh.first, lh.second, f), "randint i32");
  for (auto lh : {std::pair<std::int64_t, std::int64_t>{0, std::int64_t(1) << 32}, {5, 6}})
    check(I::make_randint<std::uint32_t>(lh.first, lh.second, f), "randint u32");
  for (auto lh : {std::pair<std::int64_t, std::int64_t>{-7, std::int64_t(1) << 40},
                  {i64_min, i64_max},
                  {0, 3}})
    check(I::make_randint<std::int64_t>(lh.first, lh.second, f), "randint i64");
  check(I::make_randint<std::uint64_t>(0, i64_max, f), "randint u64");
  check(I::make_random_bits<std::uint64_t>(f), "bits u64");
}

// The transforms of uniform_, normal_, bernoulli_ and random_bits_ (the rows kernels' and, by
// element, the lanes kernel's).
TEST(HostSimdTransforms, UniformNormalBernoulliBits) {
  if (skip()) GTEST_SKIP() << "CPU without AVX2+FMA";
  check(I::StandardUniform<float>{}, "uniform(0, 1) f32");
  check(I::StandardUniform<double>{}, "uniform(0, 1) f64");
  check(I::make_uniform<float>(-2, 3, f), "uniform(-2, 3) f32");
  check(I::make_uniform<double>(-2, 3, f), "uniform(-2, 3) f64");
  check(I::make_normal<float>(0.5, 2, f), "normal f32");
  check(I::make_bernoulli<float>(0.3, f), "bernoulli f32");
  check(I::make_random_bits<std::uint32_t>(f), "bits u32");
}

// The vector exp (float, double) and the double log against the scalar functions on their
// own: special values, a walk over the float bit patterns, pseudo-random doubles, and (log)
// the normal positive doubles around the reduction's boundaries.
__attribute__((target("avx2,fma"))) void check_exp_log() {
  std::vector<std::uint32_t> fbits = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u,
                                      0x7fc00000u, 0xffc00000u, 0x42b17218u, 0x42b17217u,
                                      0xc2d00000u, 0xc2cff000u, 0xc2ce8ed0u, 0x42b20000u};
  for (std::uint64_t x = 0; x < (1ull << 32); x += 4099) fbits.push_back(std::uint32_t(x));
  while (fbits.size() % 8) fbits.push_back(0);
  for (std::size_t i = 0; i < fbits.size(); i += 8) {
    alignas(32) float x[8], e[8];
    std::memcpy(x, &fbits[i], sizeof x);
    _mm256_store_ps(e, v::exp(_mm256_load_ps(x)));
    for (int l = 0; l < 8; ++l)
      ASSERT_EQ(I::float_to_bits(e[l]), I::float_to_bits(I::portable_exp(x[l])))
          << "exp f32 " << bits_of(x[l]);
  }
  std::vector<std::uint64_t> dbits = {0ull, 0x8000000000000000ull, 0x7ff0000000000000ull,
                                      0xfff0000000000000ull, 0x7ff8000000000000ull};
  for (double x : {709.78, 709.79, 710.0, -745.1, -745.2, -708.4, -708.3, -746.0, 1e-300})
    dbits.push_back(I::double_to_bits(x));
  for (std::uint32_t i = 0; i < 200000; ++i)
    dbits.push_back(I::join_words(I::stream_word(7, 2 * i), I::stream_word(7, 2 * i + 1)));
  // Small magnitudes, where exp's arguments live.
  for (std::uint32_t i = 0; i < 200000; ++i)
    dbits.push_back(I::double_to_bits(
        I::uniform01_double(I::stream_word(8, 2 * i), I::stream_word(8, 2 * i + 1)) * 1600.0 -
        800.0));
  while (dbits.size() % 4) dbits.push_back(0);
  for (std::size_t i = 0; i < dbits.size(); i += 4) {
    alignas(32) double x[4], e[4];
    std::memcpy(x, &dbits[i], sizeof x);
    _mm256_store_pd(e, v::exp(_mm256_load_pd(x)));
    for (int l = 0; l < 4; ++l)
      ASSERT_EQ(I::double_to_bits(e[l]), I::double_to_bits(I::portable_exp(x[l])))
          << "exp f64 " << bits_of(x[l]);
  }
  // log_core: normal positive finite doubles only.
  std::vector<double> xs = {0x1p-1022,
                            0x1.fffffffffffffp1023,
                            1.0,
                            0x1.6a09e667f3bcdp-1,
                            0x1.6a09e667f3bccp-1,
                            0x1.6a09e667f3bcep-1,
                            0x1.fffffffffffffp-1,
                            0x1.0000000000001p0,
                            2.0};
  for (int e = -1022; e <= 1023; ++e) xs.push_back(std::ldexp(1.0, e));
  for (std::uint32_t i = 0; i < 200000; ++i) {
    const std::uint64_t b =
        I::join_words(I::stream_word(9, 2 * i), I::stream_word(9, 2 * i + 1)) & ~(1ull << 63);
    const double x = I::bits_to_double(b);
    if (x >= 0x1p-1022 && x <= 0x1.fffffffffffffp1023) xs.push_back(x);
    xs.push_back(
        I::uniform01_open_double(I::stream_word(10, 2 * i), I::stream_word(10, 2 * i + 1)));
  }
  while (xs.size() % 4) xs.push_back(1.0);
  for (std::size_t i = 0; i < xs.size(); i += 4) {
    alignas(32) double lg[4];
    _mm256_store_pd(lg, v::log_core(_mm256_loadu_pd(&xs[i])));
    for (int l = 0; l < 4; ++l)
      ASSERT_EQ(I::double_to_bits(lg[l]), I::double_to_bits(I::portable_log(xs[i + l])))
          << "log f64 " << bits_of(xs[i + l]);
  }
}

TEST(HostSimdTransforms, ExpAndLogMatchTheScalarFunctions) {
  if (skip()) GTEST_SKIP() << "CPU without AVX2+FMA";
  check_exp_log();
}

}  // namespace

#endif  // KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH
