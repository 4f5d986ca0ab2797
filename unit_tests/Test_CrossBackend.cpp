// Every distribution gives the same bits on every enabled execution space of this build
// (the device's against the host's in a CUDA/HIP/SYCL build; Serial against OpenMP or
// Threads in a host build), in LayoutRight and LayoutLeft, whole Views and a sub-box of a
// larger global tensor, at offsets below and above 2^32 blocks.

#include <gtest/gtest.h>

#include <KokkosDTensor_Rng.hpp>
#include <Kokkos_Core.hpp>
#include <impl/KokkosDTensor_FillDispatch.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

namespace kdt = KokkosDTensor;

namespace {

// The execution spaces this build enables (HIP and SYCL through DefaultExecutionSpace).
using Spaces = decltype(std::tuple_cat(
#if defined(KOKKOS_ENABLE_SERIAL)
    std::tuple<Kokkos::Serial>{},
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
    std::tuple<Kokkos::OpenMP>{},
#endif
#if defined(KOKKOS_ENABLE_THREADS)
    std::tuple<Kokkos::Threads>{},
#endif
#if defined(KOKKOS_ENABLE_CUDA)
    std::tuple<Kokkos::Cuda>{},
#elif defined(KOKKOS_ENABLE_HIP) || defined(KOKKOS_ENABLE_SYCL)
    std::tuple<Kokkos::DefaultExecutionSpace>{},
#endif
    std::tuple<>{}));

constexpr int space_count = static_cast<int>(std::tuple_size<Spaces>::value);

template <class View>
std::vector<unsigned char> bytes_of(const View& v) {
  const auto host = kdt::to_host_row_major(v);
  std::vector<unsigned char> out(host.size() * sizeof(typename View::non_const_value_type));
  std::memcpy(out.data(), host.data(), out.size());
  return out;
}

// Draws with `op` into a 37 x 53 View of T in Space and Layout (inputs 3 for dropout_),
// from state (seed, offset), as the whole tensor or as the sub-box at (5, 7) of a 61 x 67
// global tensor.
template <class Space, class T, class Layout, class Op>
std::vector<unsigned char> draw(const Op& op, std::uint64_t offset, bool sub_box) {
  Kokkos::View<T**, Layout, Space> v("v", 37, 53);
  Kokkos::deep_copy(v, T(3));
  const kdt::RNGState state{0x0123456789abcdefull + offset, offset};
  if (sub_box) {
    kdt::Impl::GlobalBox box;
    box.rank = 2;
    box.global_extent[0] = 61;
    box.global_extent[1] = 67;
    box.origin[0] = 5;
    box.origin[1] = 7;
    op(Space(), v, state, &box);
  } else {
    op(Space(), v, state, nullptr);
  }
  Kokkos::fence();
  return bytes_of(v);
}

// `dist` (a distribution object for T) through Impl::fill_random on every space, compared
// with the first space's bytes.
template <class T, class Dist>
void check_distribution(const Dist& dist, const std::string& name) {
  if (space_count < 2) GTEST_SKIP() << "one execution space in this build";
  const auto op = [&](const auto& space, const auto& view, const kdt::RNGState& state,
                      const kdt::Impl::GlobalBox* box) {
    kdt::Impl::fill_random(space, view, dist, state, box ? *box : kdt::Impl::whole_view_box(view));
  };
  for (std::uint64_t offset : {std::uint64_t(0), std::uint64_t(12), (std::uint64_t(1) << 34) - 8}) {
    for (bool sub_box : {false, true}) {
      std::vector<unsigned char> right, left;
      std::apply(
          [&](auto... spaces) {
            (
                [&](auto space) {
                  using Space = decltype(space);
                  const auto r = draw<Space, T, Kokkos::LayoutRight>(op, offset, sub_box);
                  const auto l = draw<Space, T, Kokkos::LayoutLeft>(op, offset, sub_box);
                  if (right.empty()) {
                    right = r;
                    left = l;
                  }
                  EXPECT_EQ(r, right) << name << " LayoutRight on " << Space::name() << " offset "
                                      << offset << " sub_box " << sub_box;
                  EXPECT_EQ(l, left) << name << " LayoutLeft on " << Space::name() << " offset "
                                     << offset << " sub_box " << sub_box;
                }(spaces),
                ...);
          },
          Spaces{});
      EXPECT_EQ(left, right) << name << ": LayoutLeft and LayoutRight give the same tensor";
    }
  }
}

const char* const f = "Test_CrossBackend";

TEST(CrossBackend, Uniform) {
  check_distribution<float>(kdt::Impl::make_uniform<float>(0, 1, f), "uniform f32");
  check_distribution<double>(kdt::Impl::make_uniform<double>(0, 1, f), "uniform f64");
  check_distribution<float>(kdt::Impl::make_uniform<float>(-2, 3, f), "uniform(-2, 3) f32");
  check_distribution<double>(kdt::Impl::make_uniform<double>(-2, 3, f), "uniform(-2, 3) f64");
}

TEST(CrossBackend, NormalFamily) {
  check_distribution<float>(kdt::Impl::make_normal<float>(0.5, 2, f), "normal f32");
  check_distribution<double>(kdt::Impl::make_normal<double>(0.5, 2, f), "normal f64");
  check_distribution<float>(kdt::Impl::make_log_normal<float>(1, 2, f), "log_normal f32");
  check_distribution<double>(kdt::Impl::make_log_normal<double>(1, 2, f), "log_normal f64");
  check_distribution<float>(kdt::Impl::make_trunc_normal<float>(0, 1, -2, 2, f),
                            "trunc_normal f32");
  check_distribution<double>(kdt::Impl::make_trunc_normal<double>(0, 1, -2, 2, f),
                             "trunc_normal f64");
}

TEST(CrossBackend, BernoulliAndDropout) {
  check_distribution<float>(kdt::Impl::make_bernoulli<float>(0.3, f), "bernoulli f32");
  check_distribution<double>(kdt::Impl::make_bernoulli<double>(0.3, f), "bernoulli f64");
  check_distribution<std::int8_t>(kdt::Impl::make_bernoulli<std::int8_t>(0.7, f), "bernoulli i8");
  check_distribution<float>(kdt::Impl::make_dropout<float>(0.2, f), "dropout f32");
  check_distribution<double>(kdt::Impl::make_dropout<double>(0.2, f), "dropout f64");
}

TEST(CrossBackend, Integers) {
  check_distribution<std::uint32_t>(kdt::Impl::make_random_bits<std::uint32_t>(f), "bits u32");
  check_distribution<std::uint64_t>(kdt::Impl::make_random_bits<std::uint64_t>(f), "bits u64");
  check_distribution<std::int32_t>(kdt::Impl::make_randint<std::int32_t>(-7, 1000, f),
                                   "randint i32");
  check_distribution<std::int64_t>(
      kdt::Impl::make_randint<std::int64_t>(-(std::int64_t(1) << 40), 1000, f), "randint i64");
}

TEST(CrossBackend, ExponentialAndGeometric) {
  check_distribution<float>(kdt::Impl::make_exponential<float>(1.5, f), "exponential f32");
  check_distribution<double>(kdt::Impl::make_exponential<double>(1.5, f), "exponential f64");
  check_distribution<float>(kdt::Impl::make_geometric<float>(0.25, f), "geometric f32");
  check_distribution<std::int64_t>(kdt::Impl::make_geometric<std::int64_t>(0.25, f),
                                   "geometric i64");
}

}  // namespace
