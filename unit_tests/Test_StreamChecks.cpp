// The debug checks of the in-kernel streams (docs/streams.md): built with KOKKOSDTENSOR_DEBUG,
// drawing more words than an element reserved, an element index past the reservation, and a
// pool index out of range abort with a message instead of overlapping another element's
// words. (Host execution space: a death test needs the abort in the calling process.)

#ifndef KOKKOSDTENSOR_DEBUG
#define KOKKOSDTENSOR_DEBUG 1
#endif

#include <gtest/gtest.h>

#include <KokkosDTensor_PhiloxPool.hpp>
#include <KokkosDTensor_RandomStream.hpp>
#include <Kokkos_Core.hpp>

namespace kdt = KokkosDTensor;

static_assert(KOKKOSDTENSOR_STREAM_CHECKS, "the checks must be on in this test");

TEST(StreamChecksDeathTest, DrawingPastTheReservedWordsAborts) {
  kdt::Generator gen(1);
  const auto s = kdt::reserve(gen, 10, 3);
  auto e = s.element(9);
  e.bits32();
  e.bits64();  // 3 words: all of them
  EXPECT_EQ(e.words_left(), 0u);
  EXPECT_DEATH(e.bits32(), "more words than were reserved");
  auto f = s.element(9);
  f.bits64();
  EXPECT_DEATH(f.uniform<double>(), "more words than were reserved");  // 2 words, 1 left
  EXPECT_DEATH(s.element(10), "L >= the reserved count");
}

TEST(StreamChecksDeathTest, PoolIndexOutOfRangeAborts) {
  kdt::Random_Philox_Pool<Kokkos::DefaultHostExecutionSpace> pool(1, 4);
  EXPECT_DEATH(pool.get_state(4), "index out of range");
  EXPECT_DEATH(pool.get_state(-1), "index out of range");
}
