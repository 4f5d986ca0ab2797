// Streams inside users' kernels (SPEC section 4c, docs/streams.md): reserve() plus a
// parallel_for that draws element L's first value gives exactly what the matching op writes
// at L, for every distribution and value type, both layouts, on this test's backend; reserve
// advances the generator exactly as the op; the k-th word an element draws is stream word
// offset + w*L + k; bad arguments throw and change nothing.

#include <gtest/gtest.h>

#include "TestSpace.hpp"

#include <KokkosDTensor_RandomStream.hpp>
#include <KokkosDTensor_Rng.hpp>
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

namespace kdt = KokkosDTensor;

namespace {

int g_comparisons = 0;  // how many (op, stream) pairs were compared

static_assert(std::is_trivially_copyable<kdt::RandomStream>::value, "");
static_assert(std::is_trivially_copyable<kdt::ElementDraws>::value, "");

// What a test kernel draws as an element's first value, one functor per distribution.
struct DrawUniform {
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(kdt::ElementDraws& d, T) const {
    return d.uniform<T>();
  }
};
struct DrawUniformFromTo {
  double from, to;
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(kdt::ElementDraws& d, T) const {
    return d.uniform<T>(static_cast<T>(from), static_cast<T>(to));
  }
};
struct DrawNormal {
  double mean, stddev;
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(kdt::ElementDraws& d, T) const {
    return d.normal<T>(static_cast<T>(mean), static_cast<T>(stddev));
  }
};
struct DrawExponential {
  double lambd;
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(kdt::ElementDraws& d, T) const {
    return d.exponential<T>(static_cast<T>(lambd));
  }
};
struct DrawBernoulli {
  double p;
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(kdt::ElementDraws& d, T) const {
    return d.bernoulli<T>(p);
  }
};
// The bool form (one word) against bernoulli_ on a float View.
struct DrawBernoulliBool {
  double p;
  KOKKOS_INLINE_FUNCTION float operator()(kdt::ElementDraws& d, float) const {
    return d.bernoulli(p) ? 1.0f : 0.0f;
  }
};
struct DrawBits {
  KOKKOS_INLINE_FUNCTION std::uint32_t operator()(kdt::ElementDraws& d, std::uint32_t) const {
    return d.bits32();
  }
  KOKKOS_INLINE_FUNCTION std::uint64_t operator()(kdt::ElementDraws& d, std::uint64_t) const {
    return d.bits64();
  }
};
struct DrawRandInt {
  std::int64_t low, high;
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(kdt::ElementDraws& d, T) const {
    return d.randint<T>(low, high);
  }
};
// The non-template randint (int64, two words).
struct DrawRandInt64 {
  std::int64_t low, high;
  KOKKOS_INLINE_FUNCTION std::int64_t operator()(kdt::ElementDraws& d, std::int64_t) const {
    return d.randint(low, high);
  }
};

template <class View>
bool bitwise_equal_views(const View& a, const View& b) {
  const auto ha = kdt::to_host_row_major(a);
  const auto hb = kdt::to_host_row_major(b);
  return ha.size() == hb.size() &&
         std::memcmp(ha.data(), hb.data(), sizeof(typename View::value_type) * ha.size()) == 0;
}

// Fills `view` (rows x cols, any layout) in a user kernel: element (i, j) is the first draw
// of element L = i * cols + j of `stream`.
template <class View, class Draw>
void fill_from_stream(const View& view, const kdt::RandomStream& stream, const Draw& draw) {
  using T = typename View::value_type;
  const std::uint64_t cols = view.extent(1);
  Kokkos::parallel_for(
      "Test_RandomStream::fill",
      Kokkos::MDRangePolicy<TestSpace, Kokkos::Rank<2>>(
          {0, 0}, {static_cast<std::int64_t>(view.extent(0)), static_cast<std::int64_t>(cols)}),
      KOKKOS_LAMBDA(std::int64_t i, std::int64_t j) {
        kdt::ElementDraws element = stream.element(static_cast<std::uint64_t>(i) * cols + j);
        view(i, j) = draw(element, T());
      });
  Kokkos::fence();
}

// reserve + the kernel against the op from the same state, on several shapes and states.
template <class T, class Layout, class Op, class Draw>
void check_matches_op(const std::string& name, const Op& op, const Draw& draw) {
  const std::int64_t shapes[][2] = {{9, 13}, {1, 1}, {3, 8}, {1, 7}, {0, 5}};
  const kdt::RNGState starts[] = {{0, 0}, {0x8000000000000123ull, 4096}, {42, 0x3FFFFFFC0ull}};
  for (const auto& shape : shapes) {
    for (const auto& start : starts) {
      kdt::Generator op_gen, stream_gen;
      op_gen.set_state(start);
      stream_gen.set_state(start);
      Kokkos::View<T**, Layout, TestSpace> expected("expected", shape[0], shape[1]);
      Kokkos::View<T**, Layout, TestSpace> actual("actual", shape[0], shape[1]);
      op(expected, op_gen);
      const auto stream = kdt::reserve(stream_gen, static_cast<std::uint64_t>(shape[0] * shape[1]),
                                       kdt::Impl::words_per_element_for<T>());
      fill_from_stream(actual, stream, draw);
      const std::string where = name + " shape " + std::to_string(shape[0]) + "x" +
                                std::to_string(shape[1]) + " offset " +
                                std::to_string(start.offset);
      EXPECT_TRUE(bitwise_equal_views(expected, actual)) << where;
      ++g_comparisons;
      EXPECT_EQ(op_gen.get_state(), stream_gen.get_state()) << where;
      EXPECT_EQ(stream.state(), start) << where;
      EXPECT_EQ(stream.end_state(), stream_gen.get_state()) << where;
    }
  }
}

template <class Layout>
void check_every_distribution() {
  // uniform_
  check_matches_op<float, Layout>(
      "uniform f32", [](auto v, auto& g) { kdt::uniform_(v, g); }, DrawUniform{});
  check_matches_op<double, Layout>(
      "uniform f64", [](auto v, auto& g) { kdt::uniform_(v, g); }, DrawUniform{});
  const double ranges[][2] = {{-2, 3}, {0, 1}, {-1e-3, 0}, {1e6, 1e6 + 0.5}, {-7.25, -7.0}};
  for (const auto& r : ranges) {
    const std::string tag = " [" + std::to_string(r[0]) + ", " + std::to_string(r[1]) + ")";
    const auto op = [r](auto v, auto& g) { kdt::uniform_(v, r[0], r[1], g); };
    check_matches_op<float, Layout>("uniform(from, to) f32" + tag, op,
                                    DrawUniformFromTo{r[0], r[1]});
    check_matches_op<double, Layout>("uniform(from, to) f64" + tag, op,
                                     DrawUniformFromTo{r[0], r[1]});
  }
  // normal_ (stream version 2: elementwise inverse CDF)
  for (const auto& p : {std::pair<double, double>{0, 1}, {2.5, 0.125}, {-1, 3}}) {
    const auto op = [p](auto v, auto& g) { kdt::normal_(v, p.first, p.second, g); };
    check_matches_op<float, Layout>("normal f32", op, DrawNormal{p.first, p.second});
    check_matches_op<double, Layout>("normal f64", op, DrawNormal{p.first, p.second});
  }
  // exponential_
  for (const double lambd : {1.0, 2.5, 1e-3}) {
    const auto op = [lambd](auto v, auto& g) { kdt::exponential_(v, lambd, g); };
    check_matches_op<float, Layout>("exponential f32", op, DrawExponential{lambd});
    check_matches_op<double, Layout>("exponential f64", op, DrawExponential{lambd});
  }
  // bernoulli_
  for (const double p : {0.0, 0.3, 0.5, 1.0, 1e-9}) {
    const auto op = [p](auto v, auto& g) { kdt::bernoulli_(v, p, g); };
    check_matches_op<float, Layout>("bernoulli f32", op, DrawBernoulli{p});
    check_matches_op<double, Layout>("bernoulli f64", op, DrawBernoulli{p});
    check_matches_op<std::int32_t, Layout>("bernoulli i32", op, DrawBernoulli{p});
    check_matches_op<std::int64_t, Layout>("bernoulli i64", op, DrawBernoulli{p});
    check_matches_op<float, Layout>("bernoulli bool", op, DrawBernoulliBool{p});
  }
  // random_bits_
  check_matches_op<std::uint32_t, Layout>(
      "bits u32", [](auto v, auto& g) { kdt::random_bits_(v, g); }, DrawBits{});
  check_matches_op<std::uint64_t, Layout>(
      "bits u64", [](auto v, auto& g) { kdt::random_bits_(v, g); }, DrawBits{});
  // randint_
  const std::int64_t bounds[][2] = {{0, 10}, {-5, 17}, {-2147483648ll, 2147483647ll}, {7, 8}};
  for (const auto& b : bounds) {
    const auto op = [b](auto v, auto& g) { kdt::randint_(v, b[0], b[1], g); };
    check_matches_op<std::int32_t, Layout>("randint i32", op, DrawRandInt{b[0], b[1]});
    check_matches_op<std::int64_t, Layout>("randint i64", op, DrawRandInt{b[0], b[1]});
    check_matches_op<std::int64_t, Layout>("randint i64 (int64 form)", op,
                                           DrawRandInt64{b[0], b[1]});
    if (b[0] >= 0) {
      check_matches_op<std::uint32_t, Layout>("randint u32", op, DrawRandInt{b[0], b[1]});
      check_matches_op<std::uint64_t, Layout>("randint u64", op, DrawRandInt{b[0], b[1]});
    }
  }
  const auto wide = [](auto v, auto& g) {
    kdt::randint_(v, std::numeric_limits<std::int64_t>::min() + 3,
                  std::numeric_limits<std::int64_t>::max() - 1, g);
  };
  check_matches_op<std::int64_t, Layout>("randint i64 wide", wide,
                                         DrawRandInt{std::numeric_limits<std::int64_t>::min() + 3,
                                                     std::numeric_limits<std::int64_t>::max() - 1});
}

}  // namespace

TEST(RandomStream, FirstDrawEqualsTheOpLayoutRight) {
  g_comparisons = 0;
  check_every_distribution<Kokkos::LayoutRight>();
  // 68 distribution cases x 5 shapes x 3 states.
  EXPECT_GE(g_comparisons, 68 * 15);
}

TEST(RandomStream, FirstDrawEqualsTheOpLayoutLeft) {
  check_every_distribution<Kokkos::LayoutLeft>();
}

// Element L's k-th word is stream word offset + w*L + k, also across 64-bit draws and
// Philox block boundaries, for w that are not multiples of 4.
// (A free function: CUDA does not allow device lambdas inside a TEST body.)
void RandomStream_KthWordOfElementIsStreamWord() {
  for (const int w : {1, 2, 3, 5, 7, 16}) {
    const std::uint64_t count = 37;
    kdt::Generator gen(0xABCDEF0123456789ull);
    gen.set_state({0xABCDEF0123456789ull, 0x3FFFFFFC0ull});  // crosses block 2^32
    const auto stream = kdt::reserve(gen, count, w);
    Kokkos::View<std::uint32_t**, TestSpace> words("words", count, w);
    Kokkos::View<std::uint64_t*, TestSpace> pairs("pairs", count);
    Kokkos::parallel_for(
        "Test_RandomStream::words", Kokkos::RangePolicy<TestSpace>(0, count), KOKKOS_LAMBDA(int L) {
          auto e = stream.element(L);
          for (int k = 0; k < w; ++k) words(L, k) = e.bits32();
          if (w >= 3) {  // a 64-bit draw after one word: words 1 and 2
            auto again = stream.element(L);
            again.bits32();
            pairs(L) = again.bits64();
          }
        });
    const auto host = kdt::to_host_row_major(words);
    const auto host_pairs = kdt::to_host_row_major(pairs);
    for (std::uint64_t L = 0; L < count; ++L) {
      const std::uint64_t first = 0x3FFFFFFC0ull + w * L;
      for (int k = 0; k < w; ++k)
        ASSERT_EQ(host(L, k), kdt::Impl::stream_word(gen.initial_seed(), first + k))
            << "w " << w << " L " << L << " k " << k;
      if (w >= 3) {
        EXPECT_EQ(host_pairs(L), (static_cast<std::uint64_t>(host(L, 1)) << 32) | host(L, 2));
      }
    }
    EXPECT_EQ(gen.get_state().offset, 0x3FFFFFFC0ull + ((w * count + 3) / 4) * 4);
  }
}

TEST(RandomStream, KthWordOfElementIsStreamWord) { RandomStream_KthWordOfElementIsStreamWord(); }

// Several draws from one element, 16 floats: each is the uniform of its own word.
// (A free function: CUDA does not allow device lambdas inside a TEST body.)
void RandomStream_ConsecutiveDrawsTakeConsecutiveWords() {
  kdt::Generator gen(7);
  const std::uint64_t count = 100;
  const auto stream = kdt::reserve(gen, count, 16 + 2 * 3);
  Kokkos::View<float**, TestSpace> floats("floats", count, 16);
  Kokkos::View<double*, TestSpace> doubles("doubles", count);
  Kokkos::View<std::int64_t*, TestSpace> remaining("remaining", count);
  Kokkos::parallel_for(
      "Test_RandomStream::draws", Kokkos::RangePolicy<TestSpace>(0, count), KOKKOS_LAMBDA(int L) {
        auto e = stream.element(L);
        for (int k = 0; k < 16; ++k) floats(L, k) = e.uniform<float>();
        doubles(L) = e.uniform<double>(-1.0, 1.0);
        e.bits64();
        remaining(L) = static_cast<std::int64_t>(e.words_left());
        e.bits32();
        e.bits32();
      });
  const auto hf = kdt::to_host_row_major(floats);
  const auto hd = kdt::to_host_row_major(doubles);
  const auto hr = kdt::to_host_row_major(remaining);
  for (std::uint64_t L = 0; L < count; ++L) {
    const std::uint64_t first = 22 * L;
    for (int k = 0; k < 16; ++k)
      ASSERT_EQ(hf(L, k), kdt::Impl::uniform01_float(kdt::Impl::stream_word(7, first + k)));
    const auto dist = kdt::Impl::make_uniform<double>(-1.0, 1.0, "test");
    EXPECT_EQ(hd(L), dist.element(kdt::Impl::stream_word(7, first + 16),
                                  kdt::Impl::stream_word(7, first + 17), 0.0));
    EXPECT_EQ(hr(L), 2);
  }
}

TEST(RandomStream, ConsecutiveDrawsTakeConsecutiveWords) {
  RandomStream_ConsecutiveDrawsTakeConsecutiveWords();
}

// uniform4 is four uniform<float>() calls: from a block's start (one Philox block) and from
// inside one (elements of 22 words start at lane 0 or 2 of a block; a single draw between
// the two uniform4 shifts the second by one more word).
void RandomStream_Uniform4IsFourUniforms() {
  kdt::Generator gen(11);
  const std::uint64_t count = 64;
  const auto stream = kdt::reserve(gen, count, 22);
  Kokkos::View<float**, TestSpace> floats("floats", count, 9);
  Kokkos::parallel_for(
      "Test_RandomStream::uniform4", Kokkos::RangePolicy<TestSpace>(0, count),
      KOKKOS_LAMBDA(int L) {
        auto e = stream.element(L);
        const auto a = e.uniform4();
        const float b = e.uniform<float>();
        const auto c = e.uniform4();
        for (int k = 0; k < 4; ++k) {
          floats(L, k) = a[k];
          floats(L, 5 + k) = c[k];
        }
        floats(L, 4) = b;
      });
  const auto hf = kdt::to_host_row_major(floats);
  for (std::uint64_t L = 0; L < count; ++L)
    for (int k = 0; k < 9; ++k)
      ASSERT_EQ(hf(L, k), kdt::Impl::uniform01_float(kdt::Impl::stream_word(11, 22 * L + k)))
          << L << " " << k;
}

TEST(RandomStream, Uniform4IsFourUniforms) { RandomStream_Uniform4IsFourUniforms(); }

// Advancing: reserve moves the offset as the op on `count` elements at w words would.
TEST(RandomStream, ReserveAdvancesLikeAnOp) {
  kdt::Generator gen(3);
  EXPECT_EQ(kdt::reserve(gen, 0, 1).count(), 0u);
  EXPECT_EQ(gen.get_state().offset, 0u);
  kdt::reserve(gen, 3, 1);
  EXPECT_EQ(gen.get_state().offset, 4u);
  kdt::reserve(gen, 5, 3);
  EXPECT_EQ(gen.get_state().offset, 20u);
  const auto s = kdt::reserve(gen, 117, 2);
  EXPECT_EQ(s.offset(), 20u);
  EXPECT_EQ(s.words_per_element(), 2);
  EXPECT_EQ(s.seed(), 3u);
  EXPECT_EQ(gen.get_state().offset, 20u + 236u);
  // The same as the op on a View of 117 doubles.
  kdt::Generator op_gen(3);
  op_gen.set_state({3, 20});
  Kokkos::View<double*, TestSpace> v("v", 117);
  kdt::uniform_(v, op_gen);
  EXPECT_EQ(op_gen.get_state(), gen.get_state());
}

TEST(RandomStream, BadArgumentsThrowAndLeaveTheStateUnchanged) {
  kdt::Generator gen(5);
  gen.set_state({5, 64});
  for (const int w : {0, -3}) {
    try {
      kdt::reserve(gen, 10, w);
      ADD_FAILURE() << "no exception for words_per_element = " << w;
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("KokkosDTensor::reserve"), std::string::npos) << what;
      EXPECT_NE(what.find("words_per_element"), std::string::npos) << what;
      EXPECT_NE(what.find(std::to_string(w)), std::string::npos) << what;
    }
    EXPECT_EQ(gen.get_state(), (kdt::RNGState{5, 64}));
  }
  const kdt::RNGState near_end{5, std::numeric_limits<std::uint64_t>::max() - 15};  // ...F0
  gen.set_state(near_end);
  try {
    kdt::reserve(gen, 9, 2);  // 18 words: past the end
    ADD_FAILURE() << "no overflow_error";
  } catch (const std::overflow_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("KokkosDTensor::reserve"), std::string::npos) << what;
    EXPECT_NE(what.find("offset"), std::string::npos) << what;
    EXPECT_NE(what.find(std::to_string(near_end.offset)), std::string::npos) << what;
  }
  EXPECT_EQ(gen.get_state(), near_end);
  EXPECT_THROW(kdt::reserve(gen, std::numeric_limits<std::uint64_t>::max(), 4),
               std::overflow_error);
  EXPECT_EQ(gen.get_state(), near_end);
  // Exactly up to the end of the counter space, as an op may.
  kdt::reserve(gen, 6, 2);
  EXPECT_EQ(gen.get_state().offset, std::numeric_limits<std::uint64_t>::max() - 3);
  EXPECT_THROW(kdt::RandomStream(kdt::RNGState{1, 2}, 1, 1), std::invalid_argument);
}

// The worked example of docs/streams.md.
// (A free function: CUDA does not allow device lambdas inside a TEST body.)
void RandomStream_WorkedExampleOfTheDocs() {
  kdt::Generator gen(0);
  const auto s = kdt::reserve(gen, 2, 2);
  EXPECT_EQ(gen.get_state(), (kdt::RNGState{0, 4}));
  Kokkos::View<double*, TestSpace> d("d", 4);
  Kokkos::View<std::uint64_t*, TestSpace> bits("bits", 1);
  Kokkos::parallel_for(
      "worked example", Kokkos::RangePolicy<TestSpace>(0, 1), KOKKOS_LAMBDA(int) {
        d(0) = s.element(0).uniform<double>();
        auto e = s.element(1);
        d(1) = e.uniform<float>();
        d(2) = e.uniform<float>();
        d(3) = static_cast<double>(e.words_left());
        bits(0) = s.element(1).bits64();
      });
  const auto hd = kdt::to_host_row_major(d);
  const auto hb = kdt::to_host_row_major(bits);
  EXPECT_EQ(hd(0), 0.3990464708489645);
  EXPECT_EQ(hd(1), 0.7357127666473389);
  EXPECT_EQ(hd(2), 0.6054818034172058);
  EXPECT_EQ(hd(3), 0.0);
  EXPECT_EQ(hb(0), 0xbc57ac4c9b00dbd8ull);
  kdt::Generator op_gen(0);
  Kokkos::View<double*, TestSpace> v("v", 2);
  kdt::uniform_(v, op_gen);
  EXPECT_EQ(kdt::to_host_row_major(v)(0), 0.3990464708489645);
}

TEST(RandomStream, WorkedExampleOfTheDocs) { RandomStream_WorkedExampleOfTheDocs(); }
