// Random ops on plain Views (docs/stream.md): every distribution equals a scalar reference
// written here (its own Philox, one element at a time) at several seeds and offsets;
// values depend on the logical index only (layouts, strided subviews, sub-boxes); offsets
// advance by round_up_to_4(w * N); errors leave the state unchanged.

#include <gtest/gtest.h>

#include "TestSpace.hpp"

#include <KokkosDTensor_Rng.hpp>
#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <impl/KokkosDTensor_FillDispatch.hpp>
#include <impl/KokkosDTensor_NormalQuantile.hpp>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace kdt = KokkosDTensor;

namespace {

using ExecSpace = TestSpace;

// ---- reference stream: an independent Philox4x32-10, one word at a time ------------------

std::uint32_t reference_word(std::uint64_t seed, std::uint64_t word_index) {
  const std::uint64_t block = word_index / 4;
  std::uint32_t x[4] = {static_cast<std::uint32_t>(block & 0xffffffffu),
                        static_cast<std::uint32_t>(block >> 32), 0, 0};
  std::uint32_t key[2] = {static_cast<std::uint32_t>(seed & 0xffffffffu),
                          static_cast<std::uint32_t>(seed >> 32)};
  for (int round = 0; round < 10; ++round) {
    const std::uint64_t p0 = std::uint64_t(0xD2511F53u) * x[0];
    const std::uint64_t p1 = std::uint64_t(0xCD9E8D57u) * x[2];
    const std::uint32_t y[4] = {
        static_cast<std::uint32_t>(p1 >> 32) ^ x[1] ^ key[0], static_cast<std::uint32_t>(p1),
        static_cast<std::uint32_t>(p0 >> 32) ^ x[3] ^ key[1], static_cast<std::uint32_t>(p0)};
    std::memcpy(x, y, sizeof(x));
    key[0] += 0x9E3779B9u;
    key[1] += 0xBB67AE85u;
  }
  return x[word_index % 4];
}

template <class T>
constexpr int words_of() {
  return sizeof(T) > 4 ? 2 : 1;
}

// The first word of element L and its 64-bit join (w0 the lower-numbered word).
template <class T>
std::uint64_t element_bits(std::uint64_t seed, std::uint64_t offset, std::uint64_t L) {
  const std::uint64_t first = offset + words_of<T>() * L;
  if (words_of<T>() == 1) return reference_word(seed, first);
  return (std::uint64_t(reference_word(seed, first)) << 32) | reference_word(seed, first + 1);
}

template <class R>
R reference_u01(std::uint64_t seed, std::uint64_t offset, std::uint64_t L) {
  if (sizeof(R) == 4) return std::ldexp(R(element_bits<R>(seed, offset, L) >> 8), -24);
  return std::ldexp(R(element_bits<R>(seed, offset, L) >> 11), -53);
}
template <class R>
R reference_u01_open(std::uint64_t seed, std::uint64_t offset, std::uint64_t L) {
  if (sizeof(R) == 4) return std::ldexp(R((element_bits<R>(seed, offset, L) >> 8) + 1), -24);
  return std::ldexp(R((element_bits<R>(seed, offset, L) >> 11) + 1), -53);
}

// Element L of normal_ (stream version 2, docs/stream.md "The normal transform"), written
// out from the contract with std::fma and the published table, one element's own words.
template <class T>
T reference_standard_normal(std::uint64_t bits) {
  if (sizeof(T) == 4) {
    const std::uint32_t w = static_cast<std::uint32_t>(bits);
    const std::uint32_t m = 2 * (w & 0x7FFFFFFFu) + 1;
    const float q = std::ldexp(static_cast<float>(m), -33);
    std::uint32_t b;
    std::memcpy(&b, &q, 4);
    const std::uint32_t i = (b >> 19) - (94u << 4);
    const float u =
        std::ldexp(static_cast<float>(static_cast<std::int32_t>(b & 0x7FFFFu) - (1 << 18)), -19);
    const float* c = kdt::Impl::NormalTableF32::data + 4 * i;
    const float z = std::fma(std::fma(std::fma(c[3], u, c[2]), u, c[1]), u, c[0]);
    return static_cast<T>((w >> 31) ? -z : z);
  }
  const std::uint64_t m = 2 * (bits & 0x7FFFFFFFFFFFFFFFull) + 1;
  const double q = std::ldexp(static_cast<double>(m), -65);
  std::uint64_t b;
  std::memcpy(&b, &q, 8);
  const std::uint64_t i = (b >> 50) - (958u << 2);
  const double u =
      std::ldexp(static_cast<double>(static_cast<std::int64_t>(b & ((1ull << 50) - 1)) -
                                     (std::int64_t(1) << 49)),
                 -50);
  const double* c = kdt::Impl::NormalTableF64::data + 13 * i;
  double p = c[12];
  for (int k = 11; k >= 0; --k) p = std::fma(p, u, c[k]);
  const double z = i == 255 ? p * (0.5 - u) : p;
  return static_cast<T>((bits >> 63) ? -z : z);
}

template <class T>
T reference_normal(std::uint64_t seed, std::uint64_t offset, std::uint64_t L, double mean,
                   double stddev) {
  const T z = reference_standard_normal<T>(element_bits<T>(seed, offset, L));
  return std::fma(T(stddev), z, T(mean));
}

bool reference_bernoulli(std::uint64_t bits, int words, double p) {
  // Exact in double: the bits read as a fraction is below p.
  return words == 1 ? std::ldexp(double(bits), -32) < p : std::ldexp(double(bits >> 11), -53) < p;
}

double reference_log1p(double x) {
  const double u = 1.0 + x;
  return u == 1.0 ? x : kdt::Impl::portable_log(u) * (x / (u - 1.0));
}

// ---- host copies in logical row-major order ------------------------------------------------

template <class View, std::size_t... I>
auto& at(const View& v, const std::vector<std::int64_t>& idx, std::index_sequence<I...>) {
  return v(idx[I]...);
}

// Calls f(linear row-major index, reference to element) for every element of a host View.
template <class View, class F>
void for_each_logical(const View& v, F f) {
  constexpr int rank = static_cast<int>(View::rank);
  std::vector<std::int64_t> idx(rank > 0 ? rank : 1, 0);
  for (std::size_t L = 0; L < v.size(); ++L) {
    f(L, at(v, idx, std::make_index_sequence<rank>{}));
    for (int d = rank - 1; d >= 0; --d) {
      if (++idx[d] < static_cast<std::int64_t>(v.extent(d))) break;
      idx[d] = 0;
    }
  }
}

template <class View>
std::vector<typename View::non_const_value_type> logical_values(const View& v) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  std::vector<typename View::non_const_value_type> values(v.size());
  for_each_logical(host, [&](std::size_t L, const auto& x) { values[L] = x; });
  return values;
}

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

std::uint64_t round_up_to_4(std::uint64_t x) { return (x + 3) / 4 * 4; }

const std::uint64_t test_seeds[] = {0ull, 42ull, 0x123456789ull, 0x8000000000000001ull,
                                    0xffffffffffffffffull};
// Offsets in words: 0, small, straddling the high counter word (block 2^32), near the end.
const std::uint64_t test_offsets[] = {0ull, 12ull, (1ull << 34) - 8, 0xfffffffffffff000ull};

// Runs op(view, gen) on 1-D Views of N = 37 and 2-D (3, 5) at every test seed and
// offset, compares with reference(seed, offset, L, N) bit for bit and checks the offset.
template <class T, class Op, class Ref>
void check_against_reference(const char* name, Op op, Ref reference,
                             std::function<T(std::size_t)> initial = nullptr) {
  for (const auto seed : test_seeds) {
    for (const auto offset : test_offsets) {
      Kokkos::View<T*, TestSpace> v1("v1", 37);
      Kokkos::View<T**, TestSpace> v2("v2", 3, 5);
      std::vector<T> before1(v1.size()), before2(v2.size());
      if (initial) {
        auto h1 = Kokkos::create_mirror_view(v1);
        auto h2 = Kokkos::create_mirror_view(v2);
        for_each_logical(h1, [&](std::size_t L, T& x) { x = before1[L] = initial(L); });
        for_each_logical(h2, [&](std::size_t L, T& x) { x = before2[L] = initial(L); });
        Kokkos::deep_copy(v1, h1);
        Kokkos::deep_copy(v2, h2);
      }
      kdt::Generator gen(seed);
      gen.set_state({seed, offset});
      op(v1, gen);
      const std::uint64_t after1 = offset + round_up_to_4(words_of<T>() * 37);
      EXPECT_EQ(gen.get_state().offset, after1) << name;
      op(v2, gen);
      EXPECT_EQ(gen.get_state().offset, after1 + round_up_to_4(words_of<T>() * 15)) << name;
      EXPECT_EQ(gen.get_state().seed, seed);
      const auto got1 = logical_values(v1);
      const auto got2 = logical_values(v2);
      int failures = 0;
      for (std::size_t L = 0; L < got1.size() && failures < 5; ++L) {
        const T expected = reference(seed, offset, L, initial ? before1[L] : T());
        if (!same_bits(got1[L], expected)) {
          ++failures;
          ADD_FAILURE() << name << " seed " << seed << " offset " << offset << " L " << L
                        << ": got " << +got1[L] << " expected " << +expected;
        }
      }
      for (std::size_t L = 0; L < got2.size() && failures < 5; ++L) {
        const T expected = reference(seed, after1, L, initial ? before2[L] : T());
        if (!same_bits(got2[L], expected)) {
          ++failures;
          ADD_FAILURE() << name << " (rank 2) seed " << seed << " offset " << after1 << " L " << L
                        << ": got " << +got2[L] << " expected " << +expected;
        }
      }
    }
  }
}

// ---- every distribution against its reference ------------------------------------------------

template <class T>
void check_uniform(double from, double to) {
  check_against_reference<T>(
      "uniform_", [&](auto v, kdt::Generator& g) { kdt::uniform_(v, from, to, g); },
      [&](std::uint64_t s, std::uint64_t o, std::uint64_t L, T) {
        const T f = T(from), t = T(to);
        const T value = kdt::Impl::portable_fma(reference_u01<T>(s, o, L), T(t - f), f);
        const T below = std::nextafter(t, -std::numeric_limits<T>::infinity());
        return value < below ? value : below;
      });
}

TEST(Generator, UniformMatchesReference) {
  check_uniform<float>(0, 1);
  check_uniform<float>(-3.5, 1e-8);
  check_uniform<double>(0, 1);
  check_uniform<double>(-1e10, 7.25);
}

template <class T>
void check_normal(double mean, double stddev) {
  check_against_reference<T>(
      "normal_", [&](auto v, kdt::Generator& g) { kdt::normal_(v, mean, stddev, g); },
      [&](std::uint64_t s, std::uint64_t o, std::uint64_t L, T) {
        return reference_normal<T>(s, o, L, mean, stddev);
      });
  check_against_reference<T>(
      "log_normal_", [&](auto v, kdt::Generator& g) { kdt::log_normal_(v, mean, stddev, g); },
      [&](std::uint64_t s, std::uint64_t o, std::uint64_t L, T) {
        return kdt::Impl::portable_exp(reference_normal<T>(s, o, L, mean, stddev));
      });
}

TEST(Generator, NormalAndLogNormalMatchReference) {
  check_normal<float>(0, 1);
  check_normal<float>(0.5, 0.25);
  check_normal<double>(0, 1);
  check_normal<double>(-2, 3);
}

template <class T>
void check_bernoulli(double p) {
  check_against_reference<T>(
      "bernoulli_", [&](auto v, kdt::Generator& g) { kdt::bernoulli_(v, p, g); },
      [&](std::uint64_t s, std::uint64_t o, std::uint64_t L, T) {
        return reference_bernoulli(element_bits<T>(s, o, L), words_of<T>(), p) ? T(1) : T(0);
      });
}

TEST(Generator, BernoulliMatchesReference) {
  for (const double p : {0.0, 0.3, 0.5, 1.0 / 3.0, 1.0}) {
    check_bernoulli<float>(p);
    check_bernoulli<double>(p);
    check_bernoulli<std::int32_t>(p);
    check_bernoulli<std::int64_t>(p);
    check_bernoulli<std::uint8_t>(p);
  }
}

template <class T>
void check_dropout(double p) {
  check_against_reference<T>(
      "dropout_", [&](auto v, kdt::Generator& g) { kdt::dropout_(v, p, g); },
      [&](std::uint64_t s, std::uint64_t o, std::uint64_t L, T before) {
        const bool drop = reference_bernoulli(element_bits<T>(s, o, L), words_of<T>(), p);
        return drop ? T(0) : before * T(1.0 / (1.0 - p));
      },
      [](std::size_t L) { return T(0.75) * T(L + 1); });
}

TEST(Generator, DropoutMatchesReference) {
  for (const double p : {0.0, 0.1, 0.5, 0.9}) {
    check_dropout<float>(p);
    check_dropout<double>(p);
  }
  // p = 1 zeroes everything.
  Kokkos::View<float*, TestSpace> v("v", 10);
  Kokkos::deep_copy(v, 3.0f);
  kdt::Generator gen(5);
  kdt::dropout_(v, 1.0, gen);
  for (const float x : logical_values(v)) EXPECT_EQ(x, 0.0f);
}

TEST(Generator, RandomBitsMatchesReference) {
  check_against_reference<std::uint32_t>(
      "random_bits_", [](auto v, kdt::Generator& g) { kdt::random_bits_(v, g); },
      [](std::uint64_t s, std::uint64_t o, std::uint64_t L, std::uint32_t) {
        return reference_word(s, o + L);
      });
  check_against_reference<std::uint64_t>(
      "random_bits_", [](auto v, kdt::Generator& g) { kdt::random_bits_(v, g); },
      [](std::uint64_t s, std::uint64_t o, std::uint64_t L, std::uint64_t) {
        return (std::uint64_t(reference_word(s, o + 2 * L)) << 32) |
               reference_word(s, o + 2 * L + 1);
      });
}

template <class T>
void check_randint(std::int64_t low, std::int64_t high) {
  check_against_reference<T>(
      "randint_", [&](auto v, kdt::Generator& g) { kdt::randint_(v, low, high, g); },
      [&](std::uint64_t s, std::uint64_t o, std::uint64_t L, T) {
        const unsigned __int128 range = static_cast<unsigned __int128>(static_cast<__int128>(high) -
                                                                       static_cast<__int128>(low));
        const int shift = words_of<T>() == 1 ? 32 : 64;
        const auto k = static_cast<std::uint64_t>((range * element_bits<T>(s, o, L)) >> shift);
        return static_cast<T>(static_cast<__int128>(low) + static_cast<__int128>(k));
      });
}

TEST(Generator, RandintMatchesReference) {
  check_randint<std::int32_t>(0, 10);
  check_randint<std::int32_t>(-7, 1000003);
  check_randint<std::int32_t>(std::numeric_limits<std::int32_t>::min(),
                              std::int64_t(std::numeric_limits<std::int32_t>::max()) + 1);
  check_randint<std::uint32_t>(0, std::int64_t(1) << 32);
  check_randint<std::int64_t>(-5, 5);
  check_randint<std::int64_t>(std::numeric_limits<std::int64_t>::min(),
                              std::numeric_limits<std::int64_t>::max());
  check_randint<std::uint64_t>(3, std::int64_t(1) << 62);
}

template <class T>
void check_exponential(double lambd) {
  check_against_reference<T>(
      "exponential_", [&](auto v, kdt::Generator& g) { kdt::exponential_(v, lambd, g); },
      [&](std::uint64_t s, std::uint64_t o, std::uint64_t L, T) {
        return -kdt::Impl::portable_log(reference_u01_open<T>(s, o, L)) / T(lambd);
      });
}

TEST(Generator, ExponentialMatchesReference) {
  check_exponential<float>(1);
  check_exponential<float>(0.3);
  check_exponential<double>(1);
  check_exponential<double>(25);
}

template <class T>
void check_geometric(double p) {
  using R = std::conditional_t<(sizeof(T) > 4), double, float>;
  check_against_reference<T>(
      "geometric_", [&](auto v, kdt::Generator& g) { kdt::geometric_(v, p, g); },
      [&](std::uint64_t s, std::uint64_t o, std::uint64_t L, T) {
        const R ratio =
            kdt::Impl::portable_log(reference_u01_open<R>(s, o, L)) / R(reference_log1p(-p));
        const R trials = std::max(R(1), std::ceil(ratio));
        const R limit = std::is_floating_point<T>::value ? std::numeric_limits<R>::infinity()
                                                         : R(std::numeric_limits<T>::max());
        return trials < limit ? static_cast<T>(trials) : std::numeric_limits<T>::max();
      });
}

TEST(Generator, GeometricMatchesReference) {
  for (const double p : {0.5, 0.01, 1e-9, 0.999}) {
    check_geometric<float>(p);
    check_geometric<double>(p);
    check_geometric<std::int32_t>(p);
    check_geometric<std::int64_t>(p);
  }
}

template <class T>
void check_trunc_normal(double mean, double stddev, double a, double b) {
  check_against_reference<T>(
      "trunc_normal_",
      [&](auto v, kdt::Generator& g) { kdt::trunc_normal_(v, mean, stddev, a, b, g); },
      [&](std::uint64_t s, std::uint64_t o, std::uint64_t L, T) {
        using namespace kdt::Impl;
        const double sqrt2 = std::sqrt(2.0);
        const T lo = T(portable_erf(((a - mean) / stddev) / sqrt2));
        const T hi = T(portable_erf(((b - mean) / stddev) / sqrt2));
        const T v = portable_fma(reference_u01<T>(s, o, L), T(hi - lo), lo);
        const T x = portable_fma(portable_erfinv(v), T(stddev * sqrt2), T(mean));
        return std::min(std::max(x, T(a)), T(b));
      });
}

TEST(Generator, TruncNormalMatchesReference) {
  check_trunc_normal<float>(0, 1, -2, 2);
  check_trunc_normal<float>(0.5, 0.02, 0.45, 0.6);
  check_trunc_normal<double>(0, 1, -2, 2);
  check_trunc_normal<double>(1, 3, 0, 1e6);
}

// ---- layouts, ranks, sub-boxes ------------------------------------------------------------------

template <class T, class Op>
void check_layouts_agree(Op op) {
  const std::uint64_t seed = 0x8000000012345678ull;
  auto run = [&](auto view) {
    kdt::Generator gen(seed);
    gen.set_state({seed, 44});
    op(view, gen);
    return logical_values(view);
  };
  // Rank 1 to 4, odd extents so that rows start in the middle of Philox blocks.
  {
    const auto right = run(Kokkos::View<T*, Kokkos::LayoutRight, TestSpace>("r", 23));
    EXPECT_EQ(right, run(Kokkos::View<T*, Kokkos::LayoutLeft, TestSpace>("l", 23)));
  }
  {
    const auto right = run(Kokkos::View<T**, Kokkos::LayoutRight, TestSpace>("r", 5, 7));
    EXPECT_EQ(right, run(Kokkos::View<T**, Kokkos::LayoutLeft, TestSpace>("l", 5, 7)));
    // A strided subview of a larger View: fill through it, read back through the parent.
    Kokkos::View<T***, Kokkos::LayoutRight, TestSpace> parent("p", 6, 3, 9);
    Kokkos::View<T**, Kokkos::LayoutStride, TestSpace> strided =
        Kokkos::subview(parent, std::make_pair(1, 6), 2, std::make_pair(2, 9));
    kdt::Generator gen(seed);
    gen.set_state({seed, 44});
    op(strided, gen);
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), parent);
    for (int i = 0; i < 5; ++i)
      for (int j = 0; j < 7; ++j) EXPECT_TRUE(same_bits(host(i + 1, 2, j + 2), right[i * 7 + j]));
  }
  {
    const auto right = run(Kokkos::View<T***, Kokkos::LayoutRight, TestSpace>("r", 3, 5, 3));
    EXPECT_EQ(right, run(Kokkos::View<T***, Kokkos::LayoutLeft, TestSpace>("l", 3, 5, 3)));
    EXPECT_EQ(right, run(Kokkos::View<T*, TestSpace>("flat", 45)));  // row-major linear index only
  }
  {
    const auto right = run(Kokkos::View<T****, Kokkos::LayoutRight, TestSpace>("r", 2, 3, 1, 5));
    EXPECT_EQ(right, run(Kokkos::View<T****, Kokkos::LayoutLeft, TestSpace>("l", 2, 3, 1, 5)));
    EXPECT_EQ(right, run(Kokkos::View<T*, TestSpace>("flat", 30)));
  }
  {
    const auto right =
        run(Kokkos::View<T********, Kokkos::LayoutRight, TestSpace>("r", 2, 1, 2, 1, 3, 1, 1, 3));
    EXPECT_EQ(right, run(Kokkos::View<T********, Kokkos::LayoutLeft, TestSpace>("l", 2, 1, 2, 1, 3,
                                                                                1, 1, 3)));
    EXPECT_EQ(right, run(Kokkos::View<T*, TestSpace>("flat", 36)));
  }
  {
    // Rank 0 is element 0 of a tensor with one element.
    const auto scalar = run(Kokkos::View<T, TestSpace>("s"));
    const auto one = run(Kokkos::View<T*, TestSpace>("one", 1));
    EXPECT_EQ(scalar, one);
  }
}

TEST(Generator, ValuesDependOnLogicalIndexOnly) {
  check_layouts_agree<float>([](auto v, kdt::Generator& g) { kdt::uniform_(v, -1, 1, g); });
  check_layouts_agree<double>([](auto v, kdt::Generator& g) { kdt::uniform_(v, 0, 1, g); });
  check_layouts_agree<float>([](auto v, kdt::Generator& g) { kdt::normal_(v, 0, 1, g); });
  check_layouts_agree<double>([](auto v, kdt::Generator& g) { kdt::normal_(v, 0, 1, g); });
  check_layouts_agree<std::int64_t>([](auto v, kdt::Generator& g) { kdt::randint_(v, -9, 99, g); });
  check_layouts_agree<std::uint32_t>([](auto v, kdt::Generator& g) { kdt::random_bits_(v, g); });
}

// A sub-box fill (what each rank of a DTensor does) equals the slice of the whole fill.
template <class Dist>
void check_sub_boxes(const Dist& dist) {
  using T = typename Dist::value_type;
  const kdt::RNGState state{0xfedcba9876543210ull, (1ull << 34) - 4};
  Kokkos::View<T***, TestSpace> whole("whole", 5, 7, 9);
  kdt::Impl::fill_random(ExecSpace(), whole, dist, state, kdt::Impl::whole_view_box(whole));
  auto whole_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), whole);
  const int boxes[][6] = {{0, 0, 0, 5, 7, 9}, {1, 2, 1, 2, 3, 4}, {0, 3, 5, 5, 4, 4},
                          {4, 6, 8, 1, 1, 1}, {2, 0, 3, 3, 7, 1}, {1, 1, 0, 3, 5, 9}};
  for (const auto& b : boxes) {
    kdt::Impl::GlobalBox box;
    box.rank = 3;
    const int global[3] = {5, 7, 9};
    for (int d = 0; d < 3; ++d) {
      box.global_extent[d] = global[d];
      box.origin[d] = b[d];
    }
    Kokkos::View<T***, Kokkos::LayoutLeft, TestSpace> part("part", b[3], b[4], b[5]);
    kdt::Impl::fill_random(ExecSpace(), part, dist, state, box);
    auto part_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), part);
    for (int i = 0; i < b[3]; ++i)
      for (int j = 0; j < b[4]; ++j)
        for (int k = 0; k < b[5]; ++k)
          ASSERT_TRUE(same_bits(part_host(i, j, k), whole_host(i + b[0], j + b[1], k + b[2])))
              << "box origin " << b[0] << "," << b[1] << "," << b[2] << " element " << i << "," << j
              << "," << k;
  }
}

TEST(Generator, SubBoxEqualsSliceOfWholeTensor) {
  const char* f = "test";
  check_sub_boxes(kdt::Impl::make_uniform<float>(0, 1, f));
  check_sub_boxes(kdt::Impl::make_uniform<double>(0, 1, f));
  check_sub_boxes(kdt::Impl::make_normal<float>(0, 1, f));
  check_sub_boxes(kdt::Impl::make_normal<double>(0, 1, f));
  check_sub_boxes(kdt::Impl::make_randint<std::int64_t>(0, 1000, f));
  check_sub_boxes(kdt::Impl::make_bernoulli<std::uint8_t>(0.5, f));
  check_sub_boxes(kdt::Impl::make_trunc_normal<float>(0, 1, -2, 2, f));
}

TEST(Generator, FillRandomRejectsBoxesThatDoNotHoldTheView) {
  Kokkos::View<float**, TestSpace> v("v", 2, 3);
  const auto dist = kdt::Impl::make_uniform<float>(0, 1, "test");
  kdt::Impl::GlobalBox box = kdt::Impl::whole_view_box(v);
  box.origin[1] = 1;  // 1 + 3 > 3
  EXPECT_THROW(kdt::Impl::fill_random(ExecSpace(), v, dist, kdt::RNGState{}, box),
               std::invalid_argument);
  box = kdt::Impl::whole_view_box(v);
  box.rank = 3;
  EXPECT_THROW(kdt::Impl::fill_random(ExecSpace(), v, dist, kdt::RNGState{}, box),
               std::invalid_argument);
  EXPECT_THROW(kdt::Impl::fill_random(ExecSpace(), v, dist, kdt::RNGState{1, 2},
                                      kdt::Impl::whole_view_box(v)),
               std::invalid_argument);
}

// ---- state: advance, overflow, errors, bytes, default generator
// ----------------------------------

TEST(Generator, OffsetAdvancesByWholeBlocks) {
  for (const std::uint64_t n : {0ull, 1ull, 2ull, 3ull, 4ull, 5ull, 37ull, 1000ull}) {
    for (const int w : {1, 2}) {
      EXPECT_EQ(kdt::Impl::offset_after({7, 40}, w, n, "test"), 40 + round_up_to_4(w * n));
    }
  }
  kdt::Generator gen(3);
  Kokkos::View<double*, TestSpace> d("d", 3);
  kdt::normal_(d, 0, 1, gen);
  EXPECT_EQ(gen.get_state().offset, 8u);
  Kokkos::View<float*, TestSpace> f("f", 5);
  kdt::uniform_(f, 0, 1, gen);
  EXPECT_EQ(gen.get_state().offset, 16u);
  Kokkos::View<float*, TestSpace> empty("empty", 0);
  kdt::uniform_(empty, 0, 1, gen);
  EXPECT_EQ(gen.get_state().offset, 16u);
}

TEST(Generator, ConsecutiveOpsContinueTheStream) {
  // Two ops of 8 floats each equal one op of 16 (8 is a multiple of 4).
  Kokkos::View<std::uint32_t*, TestSpace> a("a", 8), b("b", 8), both("both", 16);
  kdt::Generator g1(99), g2(99);
  kdt::random_bits_(a, g1);
  kdt::random_bits_(b, g1);
  kdt::random_bits_(both, g2);
  const auto va = logical_values(a), vb = logical_values(b), vboth = logical_values(both);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(va[i], vboth[i]);
    EXPECT_EQ(vb[i], vboth[8 + i]);
  }
}

TEST(Generator, OverflowThrowsAndLeavesStateAndDataUnchanged) {
  const std::uint64_t end = ~std::uint64_t(0) - 3;  // 2^64 - 4, the last offset there is
  Kokkos::View<float*, TestSpace> v("v", 16);
  Kokkos::deep_copy(v, 7.0f);
  kdt::Generator gen(1);
  gen.set_state({1, end - 12});
  try {
    kdt::uniform_(v, 0, 1, gen);  // needs 16 words, 12 left before the end
    FAIL() << "no exception";
  } catch (const std::overflow_error& e) {
    EXPECT_NE(std::string(e.what()).find("KokkosDTensor::uniform_"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find(std::to_string(end - 12)), std::string::npos) << e.what();
  }
  EXPECT_EQ(gen.get_state(), (kdt::RNGState{1, end - 12}));
  for (const float x : logical_values(v)) EXPECT_EQ(x, 7.0f);
  // 12 floats fit exactly.
  Kokkos::View<float*, TestSpace> fits("fits", 12);
  kdt::uniform_(fits, 0, 1, gen);
  EXPECT_EQ(gen.get_state().offset, end);
  // Counts whose word count overflows 64 bits.
  EXPECT_THROW(kdt::Impl::offset_after({0, 0}, 2, std::uint64_t(1) << 63, "f"),
               std::overflow_error);
  EXPECT_THROW(kdt::Impl::offset_after({0, 0}, 1, ~std::uint64_t(0), "f"), std::overflow_error);
}

// Every bad parameter throws std::invalid_argument naming function, argument and value,
// before any state or data changes.
TEST(Generator, BadParametersThrowAndLeaveStateUnchanged) {
  Kokkos::View<float*, TestSpace> f("f", 9);
  Kokkos::View<double*, TestSpace> d("d", 9);
  Kokkos::View<std::int32_t*, TestSpace> i32("i32", 9);
  Kokkos::View<std::int64_t*, TestSpace> i64("i64", 9);
  Kokkos::deep_copy(f, 2.0f);
  kdt::Generator gen(11);
  gen.set_state({11, 400});
  const kdt::RNGState before = gen.get_state();
  struct Case {
    std::function<void()> call;
    std::string expected;
  };
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<Case> cases = {
      {[&] { kdt::uniform_(f, 1, 1, gen); }, "KokkosDTensor::uniform_: argument 'from' = 1: "},
      {[&] { kdt::uniform_(f, 2, 1, gen); }, "argument 'from' = 2"},
      {[&] { kdt::uniform_(f, 1, 1 + 1e-12, gen); }, "argument 'from' = 1"},
      {[&] { kdt::uniform_(d, 0, inf, gen); }, "argument 'to' = inf"},
      {[&] { kdt::uniform_(f, -3e38, 3e38, gen); }, "argument 'to' = 3.0000000000000001e+38"},
      {[&] { kdt::normal_(f, 0, -1, gen); }, "KokkosDTensor::normal_: argument 'std' = -1"},
      {[&] { kdt::normal_(d, nan, 1, gen); }, "argument 'mean' = nan"},
      {[&] { kdt::log_normal_(d, 0, 0, gen); }, "KokkosDTensor::log_normal_: argument 'std' = 0"},
      {[&] { kdt::bernoulli_(f, 1.5, gen); },
       "KokkosDTensor::bernoulli_: argument 'p' = 1.5: must lie in [0, 1]"},
      {[&] { kdt::bernoulli_(i32, -0.1, gen); }, "argument 'p' = -0.10000000000000001"},
      {[&] { kdt::bernoulli_(d, nan, gen); }, "argument 'p' = nan"},
      {[&] { kdt::dropout_(f, 1.01, gen); }, "KokkosDTensor::dropout_: argument 'p' = 1.01"},
      {[&] { kdt::randint_(i32, 5, 5, gen); }, "KokkosDTensor::randint_: argument 'high' = 5"},
      {[&] { kdt::randint_(i32, 0, (std::int64_t(1) << 31) + 1, gen); },
       "argument 'high' = 2147483649"},
      {[&] { kdt::randint_(i32, -(std::int64_t(1) << 31) - 1, 0, gen); },
       "argument 'low' = -2147483649"},
      {[&] { kdt::exponential_(f, 0, gen); }, "KokkosDTensor::exponential_: argument 'lambd' = 0"},
      {[&] { kdt::exponential_(d, -2, gen); }, "argument 'lambd' = -2"},
      {[&] { kdt::geometric_(f, 0, gen); }, "KokkosDTensor::geometric_: argument 'p' = 0"},
      {[&] { kdt::geometric_(i64, 1, gen); }, "argument 'p' = 1"},
      {[&] { kdt::geometric_(f, 1e-300, gen); }, "argument 'p' = 1e-300: is too small"},
      {[&] { kdt::trunc_normal_(f, 0, 0, -2, 2, gen); },
       "KokkosDTensor::trunc_normal_: argument 'std' = 0"},
      {[&] { kdt::trunc_normal_(d, 0, 1, 2, -2, gen); }, "argument 'b' = -2"},
      {[&] { kdt::trunc_normal_(d, 0, 1, nan, 2, gen); }, "argument 'a' = nan"},
  };
  for (const auto& c : cases) {
    try {
      c.call();
      ADD_FAILURE() << "no exception for " << c.expected;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(c.expected), std::string::npos)
          << "message: " << e.what() << "\nexpected to contain: " << c.expected;
    }
    EXPECT_EQ(gen.get_state(), before) << c.expected;
  }
  for (const float x : logical_values(f)) EXPECT_EQ(x, 2.0f);
  // Setting a state with an offset that is not a multiple of 4 is refused.
  EXPECT_THROW(gen.set_state({1, 6}), std::invalid_argument);
  EXPECT_EQ(gen.get_state(), before);
}

TEST(Generator, StateBytesRoundTrip) {
  const kdt::RNGState state{0x0123456789abcdefull, 0xfedcba9876543210ull};
  const auto bytes = state.to_bytes();
  // Seed then offset, little-endian.
  EXPECT_EQ(bytes[0], 0xef);
  EXPECT_EQ(bytes[7], 0x01);
  EXPECT_EQ(bytes[8], 0x10);
  EXPECT_EQ(bytes[15], 0xfe);
  EXPECT_EQ(kdt::RNGState::from_bytes(bytes), state);
  EXPECT_EQ(kdt::RNGState::from_bytes(bytes.data(), bytes.size()), state);
  EXPECT_THROW(kdt::RNGState::from_bytes(bytes.data(), 15), std::invalid_argument);
  auto odd = bytes;
  odd[8] = 0x11;  // offset not a multiple of 4
  EXPECT_THROW(kdt::RNGState::from_bytes(odd), std::invalid_argument);
}

TEST(Generator, ManualSeedAndDefaultGenerator) {
  kdt::Generator gen(5);
  EXPECT_EQ(gen.get_state(), (kdt::RNGState{5, 0}));
  Kokkos::View<float*, TestSpace> v("v", 3);
  kdt::uniform_(v, 0, 1, gen);
  EXPECT_EQ(gen.get_state().offset, 4u);
  gen.manual_seed(6);
  EXPECT_EQ(gen.get_state(), (kdt::RNGState{6, 0}));
  EXPECT_EQ(gen.initial_seed(), 6u);

  const kdt::RNGState saved = kdt::default_generator().get_state();
  kdt::seed(1234);
  EXPECT_EQ(kdt::default_generator().get_state(), (kdt::RNGState{1234, 0}));
  // The plain and execution-space forms use the default generator.
  Kokkos::View<float*, TestSpace> a("a", 6), b("b", 6);
  kdt::uniform_(a);
  EXPECT_EQ(kdt::default_generator().get_state().offset, 8u);
  kdt::seed(1234);
  kdt::uniform_(ExecSpace(), b);
  EXPECT_EQ(logical_values(a), logical_values(b));
  kdt::Generator explicit_gen(1234);
  Kokkos::View<float*, TestSpace> c("c", 6);
  kdt::uniform_(ExecSpace(), c, 0, 1, explicit_gen);
  EXPECT_EQ(logical_values(a), logical_values(c));
  kdt::default_generator().set_state(saved);
}

}  // namespace
