// The Philox4x32-10 block function and the word-to-value transforms (docs/stream.md).

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <impl/KokkosDTensor_Philox.hpp>
#include <impl/KokkosDTensor_Transforms.hpp>
#include <limits>

namespace kdt = KokkosDTensor;

namespace {

struct KnownAnswer {
  std::uint32_t counter[4];
  std::uint32_t key[2];
  std::uint32_t expected[4];
};

// The "philox4x32 10" lines of Random123's tests/kat_vectors.
constexpr KnownAnswer random123_kat[] = {
    {{0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u},
     {0x00000000u, 0x00000000u},
     {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}},
    {{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu},
     {0xffffffffu, 0xffffffffu},
     {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}},
    {{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u},
     {0xa4093822u, 0x299f31d0u},
     {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}},
};

TEST(Philox, Random123KnownAnswers) {
  for (const auto& kat : random123_kat) {
    const auto block = kdt::Impl::philox4x32_10(kat.counter[0], kat.counter[1], kat.counter[2],
                                                kat.counter[3], kat.key[0], kat.key[1]);
    for (int lane = 0; lane < 4; ++lane) {
      EXPECT_EQ(block.word[lane], kat.expected[lane])
          << "counter " << std::hex << kat.counter[0] << " lane " << lane;
    }
  }
}

TEST(Philox, StreamBlockUsesLowAndHighCounterWordsAndSeedAsKey) {
  const std::uint64_t seed = 0xa4093822299f31d0ull;  // hi32, lo32 -> key {lo, hi}
  const std::uint64_t block_index = 0x0000000700000003ull;
  const auto expected = kdt::Impl::philox4x32_10(0x3u, 0x7u, 0u, 0u, 0x299f31d0u, 0xa4093822u);
  const auto block = kdt::Impl::stream_block(seed, block_index);
  for (int lane = 0; lane < 4; ++lane) {
    EXPECT_EQ(block.word[lane], expected.word[lane]);
    EXPECT_EQ(kdt::Impl::stream_word(seed, 4 * block_index + lane), expected.word[lane]);
  }
  // Seed 0 block 0 is the first known-answer vector.
  EXPECT_EQ(kdt::Impl::stream_word(0, 0), 0x6627e8d5u);
  EXPECT_EQ(kdt::Impl::stream_word(0, 3), 0x9b00dbd8u);
}

TEST(Philox, UniformFloatTransformsAreExactAndInRange) {
  EXPECT_EQ(kdt::Impl::uniform01_float(0u), 0.0f);
  EXPECT_EQ(kdt::Impl::uniform01_float(0xffffffffu), 1.0f - 0x1p-24f);
  EXPECT_EQ(kdt::Impl::uniform01_float(0x00000100u), 0x1p-24f);
  EXPECT_EQ(kdt::Impl::uniform01_float(0x000000ffu), 0.0f);  // low 8 bits dropped
  EXPECT_EQ(kdt::Impl::uniform01_open_float(0u), 0x1p-24f);
  EXPECT_EQ(kdt::Impl::uniform01_open_float(0xffffffffu), 1.0f);
  EXPECT_EQ(kdt::Impl::uniform01_double(0u, 0u), 0.0);
  EXPECT_EQ(kdt::Impl::uniform01_double(0xffffffffu, 0xffffffffu), 1.0 - 0x1p-53);
  EXPECT_EQ(kdt::Impl::uniform01_double(0x80000000u, 0u), 0.5);  // w0 is the high half
  EXPECT_EQ(kdt::Impl::uniform01_double(0u, 0x00000800u), 0x1p-53);
  EXPECT_EQ(kdt::Impl::uniform01_open_double(0u, 0u), 0x1p-53);
  EXPECT_EQ(kdt::Impl::uniform01_open_double(0xffffffffu, 0xffffffffu), 1.0);
}

TEST(Philox, UniformFromToStaysBelowTo) {
  // fma(1 - 2^-24, 1, 1) = 2 - 2^-24 is a tie between 2 - 2^-23 and 2: it rounds to `to`.
  const float from = 1.0f, to = 2.0f;
  const float range = to - from;
  const float below = std::nextafter(to, -1.0f);
  const float u = 1.0f - 0x1p-24f;
  EXPECT_GE(std::fma(u, range, from), to);
  EXPECT_EQ(kdt::Impl::uniform_from_to(u, from, range, below), below);
  EXPECT_EQ(kdt::Impl::uniform_from_to(0.0f, from, range, below), from);
  EXPECT_EQ(kdt::Impl::uniform_from_to(0.5, 2.0, 2.0, std::nextafter(4.0, 0.0)), 3.0);
}

TEST(Philox, MulHigh64MatchesInt128) {
  const std::uint64_t values[] = {0,
                                  1,
                                  0xffffffffull,
                                  0x100000000ull,
                                  0xdeadbeefcafebabeull,
                                  0x8000000000000000ull,
                                  0xffffffffffffffffull,
                                  0x123456789abcdefull};
  for (auto a : values) {
    for (auto b : values) {
      const auto expected = static_cast<std::uint64_t>(
          (static_cast<unsigned __int128>(a) * static_cast<unsigned __int128>(b)) >> 64);
      EXPECT_EQ(kdt::Impl::mul_high_64(a, b), expected) << a << " * " << b;
    }
  }
}

TEST(Philox, RandintEndpoints) {
  // range 2^32 maps the word itself; range 1 always gives low.
  EXPECT_EQ(kdt::Impl::randint_word(0xffffffffu, 0, 1ull << 32), 0xffffffffull);
  EXPECT_EQ(kdt::Impl::randint_word(0xffffffffu, 5, 1), 5u);
  EXPECT_EQ(kdt::Impl::randint_word(0xffffffffu, 0, 10), 9u);
  EXPECT_EQ(kdt::Impl::randint_word(0u, 0, 10), 0u);
  EXPECT_EQ(kdt::Impl::randint_words(0xffffffffu, 0xffffffffu, 0, ~0ull), ~0ull - 1);
  const std::uint64_t minus_three = static_cast<std::uint64_t>(std::int64_t(-3));
  EXPECT_EQ(static_cast<std::int64_t>(kdt::Impl::randint_words(0u, 0u, minus_three, 7)), -3);
}

TEST(Philox, BernoulliThresholdsCompareIn64Bits) {
  EXPECT_TRUE(kdt::Impl::bernoulli_word(0xffffffffu, 1ull << 32));  // p = 1
  EXPECT_FALSE(kdt::Impl::bernoulli_word(0u, 0));                   // p = 0
  EXPECT_TRUE(kdt::Impl::bernoulli_words(0xffffffffu, 0xffffffffu, 1ull << 53));
  EXPECT_FALSE(kdt::Impl::bernoulli_words(0u, 0u, 0));
}

TEST(Philox, CeilNonnegativeIsExact) {
  EXPECT_EQ(kdt::Impl::ceil_nonnegative(0.0), 0.0);
  EXPECT_EQ(kdt::Impl::ceil_nonnegative(0.25), 1.0);
  EXPECT_EQ(kdt::Impl::ceil_nonnegative(3.0), 3.0);
  EXPECT_EQ(kdt::Impl::ceil_nonnegative(0x1p60), 0x1p60);
  EXPECT_EQ(kdt::Impl::ceil_nonnegative(4503599627370495.5), 4503599627370496.0);
  EXPECT_EQ(kdt::Impl::ceil_nonnegative(2.5f), 3.0f);
  EXPECT_EQ(kdt::Impl::ceil_nonnegative(8388607.5f), 8388608.0f);
  EXPECT_TRUE(std::isinf(kdt::Impl::ceil_nonnegative(std::numeric_limits<float>::infinity())));
}

TEST(Philox, GeometricIsAtLeastOne) {
  const double d = kdt::Impl::portable_log(0.75);
  EXPECT_EQ(kdt::Impl::geometric_from_uniform(1.0, d), 1.0);
  EXPECT_EQ(kdt::Impl::geometric_from_uniform(0.75, d), 1.0);
  EXPECT_EQ(kdt::Impl::geometric_from_uniform(0.7, d), 2.0);
}

}  // namespace
