#include <gtest/gtest.h>

#include <impl/KokkosDTensor_Error.hpp>

namespace kdt = KokkosDTensor;

TEST(Error, InvalidArgumentNamesFunctionArgumentAndValue) {
  try {
    kdt::Impl::throw_invalid_argument("KokkosDTensor::bernoulli_", "p",
                                      kdt::Impl::format_value(1.5), "must lie in [0, 1]");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "KokkosDTensor::bernoulli_: argument 'p' = 1.5: must lie in [0, 1]");
  }
}

TEST(Error, FormatsVectorsAndStrings) {
  EXPECT_EQ(kdt::Impl::format_value(std::vector<int>{2, 3}), "[2, 3]");
  EXPECT_EQ(kdt::Impl::format_value(std::string("tp")), "\"tp\"");
  EXPECT_EQ(kdt::Impl::format_value(0.1), "0.10000000000000001");
}

TEST(Error, RuntimeErrorIsPrefixedWithFunction) {
  EXPECT_THROW(kdt::Impl::throw_runtime_error("f", "went wrong"), std::runtime_error);
}

TEST(Error, QuotesStringsInsideVectors) {
  EXPECT_EQ(kdt::Impl::format_value(std::vector<std::string>{"dp", "tp"}), "[\"dp\", \"tp\"]");
}
