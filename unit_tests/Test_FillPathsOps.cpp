// The fill paths of Impl::fill_random (Test_FillPaths.cpp) for bernoulli_, dropout_,
// random_bits_ and randint_.

#include "FillPathsCheck.hpp"

TEST(FillPaths, BernoulliDropoutBitsRandint) {
  check_rows<float>([] { return kdt::Impl::make_bernoulli<float>(0.3, "t"); }, "bernoulli f32");
  check_every_shape<std::int8_t>([] { return kdt::Impl::make_bernoulli<std::int8_t>(0.3, "t"); },
                                 "bernoulli i8");
  check_every_shape<float>([] { return kdt::Impl::make_dropout<float>(0.25, "t"); }, "dropout f32");
  check_rows<double>([] { return kdt::Impl::make_dropout<double>(0.25, "t"); }, "dropout f64");
  // p = 0 and p = 1 (threshold 2^32: every word succeeds) take their own branch in the AVX2
  // transforms.
  for (double p : {0.0, 1.0}) {
    check_rows<float>([p] { return kdt::Impl::make_bernoulli<float>(p, "t"); },
                      "bernoulli f32 p=0/1");
    check_every_shape<float>([p] { return kdt::Impl::make_dropout<float>(p, "t"); },
                             "dropout f32 p=0/1");
  }
  check_rows<std::uint32_t>([] { return kdt::Impl::make_random_bits<std::uint32_t>("t"); },
                            "bits u32");
  check_every_shape<std::uint64_t>([] { return kdt::Impl::make_random_bits<std::uint64_t>("t"); },
                                   "bits u64");
  check_rows<std::int32_t>([] { return kdt::Impl::make_randint<std::int32_t>(-5, 1000, "t"); },
                           "randint i32");
}
