// The fill kernels of Impl::fill_random (docs/performance.md): the rows path in its device
// style (one block per work item, vector stores) and host style (chunks, batched Philox;
// its explicit AVX-512 or AVX2+FMA version where the CPU has it, and its portable loop) give the
// same bytes as the generic kernel for every distribution, with row starts not aligned to a block,
// odd row lengths, tiny Views, sub-boxes, subviews with unaligned data pointers, LayoutLeft and
// LayoutRight, ranks 1 to 3 (the columns kernels on LayoutLeft and LayoutStride); and every
// layout gives the bytes of LayoutRight through the ops, ranks 1 to 8.

#include <gtest/gtest.h>

#include "TestSpace.hpp"

#include <KokkosDTensor_Rng.hpp>
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstring>
#include <impl/KokkosDTensor_FillDispatch.hpp>
#include <impl/KokkosDTensor_ViewHelpers.hpp>
#include <string>
#include <type_traits>
#include <vector>

namespace kdt = KokkosDTensor;
using kdt::Impl::FillPath;

namespace {

using ExecSpace = TestSpace;

// A LayoutRight copy of `v` in v's memory space: Kokkos copies strided Views within one
// memory space, but not across spaces (device subview -> host).
template <class View>
auto contiguous_copy(const View& v) {
  using Contiguous = Kokkos::View<typename View::non_const_data_type, Kokkos::LayoutRight,
                                  typename View::memory_space>;
  Contiguous c;
  if constexpr (View::rank == 1) {
    c = Contiguous("contiguous", v.extent(0));
  } else if constexpr (View::rank == 2) {
    c = Contiguous("contiguous", v.extent(0), v.extent(1));
  } else {
    c = Contiguous("contiguous", v.extent(0), v.extent(1), v.extent(2));
  }
  Kokkos::deep_copy(c, v);
  return c;
}

template <class View>
std::vector<unsigned char> bytes_of(const View& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), contiguous_copy(v));
  std::vector<unsigned char> out;
  // Logical order, so that the comparison does not depend on padding.
  using T = typename View::non_const_value_type;
  const std::size_t n = v.size();
  out.resize(n * sizeof(T));
  std::size_t k = 0;
  if constexpr (View::rank == 1) {
    for (std::size_t i = 0; i < v.extent(0); ++i, ++k)
      std::memcpy(&out[k * sizeof(T)], &h(i), sizeof(T));
  } else if constexpr (View::rank == 2) {
    for (std::size_t i = 0; i < v.extent(0); ++i)
      for (std::size_t j = 0; j < v.extent(1); ++j, ++k)
        std::memcpy(&out[k * sizeof(T)], &h(i, j), sizeof(T));
  } else {
    for (std::size_t i = 0; i < v.extent(0); ++i)
      for (std::size_t j = 0; j < v.extent(1); ++j)
        for (std::size_t l = 0; l < v.extent(2); ++l, ++k)
          std::memcpy(&out[k * sizeof(T)], &h(i, j, l), sizeof(T));
  }
  return out;
}

// Fills `view` with every path and compares each with the generic kernel.
template <class View, class Dist>
void check_paths(const View& view, const Dist& dist, const kdt::Impl::GlobalBox& box,
                 const kdt::RNGState& state, const std::string& what) {
  std::vector<unsigned char> reference;
  const auto check = [&](auto path_tag) {
    constexpr FillPath path = decltype(path_tag)::value;
    // Inputs for dropout: the same values in every path, different at every index (so that
    // an input read from the wrong element shows).
    using T = typename View::non_const_value_type;
    if constexpr (std::is_floating_point<T>::value)
      kdt::Impl::fill_random_with<FillPath::generic>(
          ExecSpace(), view, kdt::Impl::make_uniform<T>(1, 2, "t"), kdt::RNGState{2024, 0}, box);
    else
      Kokkos::deep_copy(view, T(3));
    kdt::Impl::fill_random_with<path>(ExecSpace(), view, dist, state, box);
    Kokkos::fence();
    auto got = bytes_of(view);
    if (path == FillPath::generic) {
      reference = got;
    } else {
      ASSERT_EQ(got, reference) << what << " path " << static_cast<int>(path);
    }
  };
  check(std::integral_constant<FillPath, FillPath::generic>{});
  check(std::integral_constant<FillPath, FillPath::rows_device>{});
  check(std::integral_constant<FillPath, FillPath::rows_host>{});
  check(std::integral_constant<FillPath, FillPath::rows_host_portable>{});
  check(std::integral_constant<FillPath, FillPath::automatic>{});
}

template <class View, class Maker>
void check_all_boxes_1d(Maker make, const char* name) {
  for (std::int64_t global : {1, 2, 3, 5, 7, 8, 13, 64, 1001, 4099, 9000}) {
    for (std::int64_t origin : {0, 1, 2, 3, 5}) {
      for (std::int64_t local : {std::int64_t(1), std::int64_t(3), global - origin}) {
        if (origin + local > global || local <= 0) continue;
        // Offsets (1 << 34) +- a few words: blocks just below and above 2^32, so that
        // fills straddle the boundary (64-bit counters) or lie above it (high word 1).
        for (std::uint64_t offset : {0ull, 4ull, 12ull, (1ull << 34) - 8, (1ull << 34) + 4}) {
          View v("v", local);
          kdt::Impl::GlobalBox box;
          box.rank = 1;
          box.global_extent[0] = global;
          box.origin[0] = origin;
          check_paths(v, make(), box, kdt::RNGState{1234567ull + offset, offset},
                      std::string(name) + " 1d g=" + std::to_string(global) +
                          " o=" + std::to_string(origin) + " n=" + std::to_string(local) +
                          " off=" + std::to_string(offset));
        }
      }
    }
  }
}

template <class T, class Layout, class Maker>
void check_all_boxes_2d(Maker make, const char* name) {
  // {33, 300}: the columns kernels' host tiles (32 rows of floats, 128 elements of a row) and
  // their last partial tile.
  const std::int64_t shapes[][2] = {{1, 1}, {1, 7},    {3, 5},  {7, 1},   {5, 9},
                                    {4, 8}, {9, 1030}, {33, 4}, {33, 300}};
  for (auto& g : shapes) {
    for (std::int64_t o0 : {0, 1}) {
      for (std::int64_t o1 : {0, 1, 2, 3}) {
        if (o0 >= g[0] || o1 >= g[1]) continue;
        for (int full : {0, 1}) {
          const std::int64_t n0 = full ? g[0] - o0 : 1 + (g[0] - o0 - 1) / 2;
          const std::int64_t n1 = full ? g[1] - o1 : 1 + (g[1] - o1 - 1) / 2;
          Kokkos::View<T**, Layout, TestSpace> v("v", n0, n1);
          const kdt::Impl::GlobalBox box = kdt::Impl::box_2d(g[0], g[1], o0, o1);
          check_paths(v, make(), box, kdt::RNGState{99, 40}, std::string(name) + " 2d");
          check_paths(v, make(), box, kdt::RNGState{99, (1ull << 34) - 16},
                      std::string(name) + " 2d across block 2^32");
        }
      }
    }
  }
}

// Every View shape the fill paths split differently: the rank-1 boxes and offsets, LayoutRight
// and LayoutLeft sub-boxes, rank 3, and subviews whose data pointer is not aligned to a block.
// Run for one distribution of each store width and words-per-element pair (bernoulli i8,
// uniform f32, dropout f32 (reads its input), normal f32 (the table), uniform f64, bits u64):
// the paths' row and stride logic depends on those, not on the transform.
template <class T, class Maker>
void check_every_shape(Maker make, const char* name) {
  check_all_boxes_1d<Kokkos::View<T*, TestSpace>>(make, name);
  check_all_boxes_2d<T, Kokkos::LayoutRight>(make, name);
  check_all_boxes_2d<T, Kokkos::LayoutLeft>(make, name);
  // Rank 3 with a sub-box in the middle dimension.
  {
    Kokkos::View<T***, Kokkos::LayoutRight, TestSpace> v("v", 3, 2, 11);
    kdt::Impl::GlobalBox box;
    box.rank = 3;
    const std::int64_t g[3] = {4, 5, 13}, o[3] = {1, 2, 1};
    for (int d = 0; d < 3; ++d) {
      box.global_extent[d] = g[d];
      box.origin[d] = o[d];
    }
    check_paths(v, make(), box, kdt::RNGState{5, 8}, std::string(name) + " 3d");
    check_paths(v, make(), kdt::Impl::whole_view_box(v), kdt::RNGState{5, 8},
                std::string(name) + " 3d whole");
    Kokkos::View<T***, Kokkos::LayoutLeft, TestSpace> left("left", 3, 2, 11);
    check_paths(left, make(), box, kdt::RNGState{5, 8}, std::string(name) + " 3d LayoutLeft");
    // A LayoutStride subview of a LayoutLeft View: unit stride in dimension 0, a tile and a
    // bit of rows, rows across the 2^32-block boundary.
    Kokkos::View<T***, Kokkos::LayoutLeft, TestSpace> base("base", 19, 4, 300);
    auto sub = Kokkos::subview(base, Kokkos::make_pair(1, 19), Kokkos::make_pair(1, 3),
                               Kokkos::make_pair(3, 300));
    check_paths(sub, make(), kdt::Impl::whole_view_box(sub), kdt::RNGState{5, (1ull << 34) - 1000},
                std::string(name) + " 3d LayoutStride subview");
  }
  // Subviews whose data pointer is not aligned to a block (element 1, 2, 3 of a View).
  for (int shift = 1; shift < 4; ++shift) {
    Kokkos::View<T*, TestSpace> base("base", 1000);
    auto sub = Kokkos::subview(base, Kokkos::make_pair(shift, 1000 - shift));
    check_paths(sub, make(), kdt::Impl::whole_view_box(sub), kdt::RNGState{7, 4},
                std::string(name) + " unaligned subview");
    Kokkos::View<T**, Kokkos::LayoutRight, TestSpace> base2("base2", 9, 37);
    auto sub2 = Kokkos::subview(base2, Kokkos::make_pair(1, 8), Kokkos::make_pair(shift, 37));
    check_paths(sub2, make(), kdt::Impl::whole_view_box(sub2), kdt::RNGState{7, 4},
                std::string(name) + " unaligned 2d subview");
  }
  // LayoutLeft with a column extent divisible by 4 and rows on block boundaries: the device
  // columns kernel's vector rows (4 or 2 rows per item), with a partial last chunk of
  // columns, across the 2^32-block boundary, and in rank 3.
  {
    Kokkos::View<T**, Kokkos::LayoutLeft, TestSpace> v("v", 16, 36);
    const kdt::Impl::GlobalBox box = kdt::Impl::box_2d(24, 44, 4, 8);
    check_paths(v, make(), box, kdt::RNGState{11, 16}, std::string(name) + " vector rows");
    check_paths(v, make(), box, kdt::RNGState{11, (1ull << 34) - 64},
                std::string(name) + " vector rows across block 2^32");
    Kokkos::View<T***, Kokkos::LayoutLeft, TestSpace> w("w", 8, 3, 20);
    check_paths(w, make(), kdt::Impl::whole_view_box(w), kdt::RNGState{11, 4},
                std::string(name) + " vector rows 3d");
  }
  // No unit stride, elements 40 apart (the device's elements kernel): a column of a
  // LayoutRight matrix across the 2^32-block boundary, and a rank-2 slab of a rank-3 View as a
  // sub-box whose rows start inside blocks.
  {
    Kokkos::View<T**, Kokkos::LayoutRight, TestSpace> matrix("matrix", 300, 40);
    auto column = Kokkos::subview(matrix, Kokkos::make_pair(1, 300), 5);
    check_paths(column, make(), kdt::Impl::whole_view_box(column),
                kdt::RNGState{3, (1ull << 34) - 200}, std::string(name) + " column");
    Kokkos::View<T***, Kokkos::LayoutRight, TestSpace> cube("cube", 20, 7, 40);
    auto slab = Kokkos::subview(cube, Kokkos::make_pair(1, 20), Kokkos::ALL, 3);
    const kdt::Impl::GlobalBox box = kdt::Impl::box_2d(25, 9, 2, 1);
    check_paths(slab, make(), box, kdt::RNGState{3, 12}, std::string(name) + " slab");
  }
}

// The other distributions on the shapes that reach every branch of their transforms in each
// path: rank-1 boxes and offsets (row starts and ends at every lane, blocks around 2^32),
// LayoutRight sub-boxes (several rows) and unaligned rank-1 subviews (same View type as the
// first). Each shape costs a kernel instantiation per path: this keeps the test's compile
// time (the longest of the project's sources, built four times in CI) in bounds.
template <class T, class Maker>
void check_rows(Maker make, const char* name) {
  check_all_boxes_1d<Kokkos::View<T*, TestSpace>>(make, name);
  check_all_boxes_2d<T, Kokkos::LayoutRight>(make, name);
  for (int shift = 1; shift < 4; ++shift) {
    Kokkos::View<T*, TestSpace> base("base", 1000);
    auto sub = Kokkos::subview(base, Kokkos::make_pair(shift, 1000 - shift));
    check_paths(sub, make(), kdt::Impl::whole_view_box(sub), kdt::RNGState{7, 4},
                std::string(name) + " unaligned subview");
  }
}

}  // namespace

TEST(FillPaths, Uniform) {
  check_every_shape<float>([] { return kdt::Impl::make_uniform<float>(0, 1, "t"); }, "uniform f32");
  check_every_shape<float>([] { return kdt::Impl::make_uniform<float>(-2, 3, "t"); },
                           "uniform f32 -2..3");
  check_every_shape<double>([] { return kdt::Impl::make_uniform<double>(0, 1, "t"); },
                            "uniform f64");
}

TEST(FillPaths, Normal) {
  check_every_shape<float>([] { return kdt::Impl::make_normal<float>(0.5, 2, "t"); }, "normal f32");
  check_rows<double>([] { return kdt::Impl::make_normal<double>(0, 1, "t"); }, "normal f64");
}

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

TEST(FillPaths, OthersAndLogNormal) {
  check_rows<float>([] { return kdt::Impl::make_log_normal<float>(0, 1, "t"); }, "log_normal f32");
  check_rows<float>([] { return kdt::Impl::make_exponential<float>(2, "t"); }, "exponential f32");
  check_rows<double>([] { return kdt::Impl::make_trunc_normal<double>(0, 1, -2, 2, "t"); },
                     "trunc_normal f64");
}

namespace {

// The elements of the View whose host copy is `host`, in row-major order over `extents`,
// each index moved by `shift` (1: the inner block of a View one larger in every dimension).
template <class HostView>
std::vector<unsigned char> row_major_bytes(const HostView& host,
                                           const std::vector<std::int64_t>& extents,
                                           std::int64_t shift) {
  using T = typename HostView::value_type;
  std::vector<unsigned char> out;
  std::vector<std::int64_t> index(extents.size(), 0), at(extents.size());
  std::int64_t total = 1;
  for (auto e : extents) total *= e;
  for (std::int64_t k = 0; k < total; ++k) {
    for (std::size_t d = 0; d < extents.size(); ++d) at[d] = index[d] + shift;
    const T value = kdt::Impl::host_element(host, at.data());
    const auto* p = reinterpret_cast<const unsigned char*>(&value);
    out.insert(out.end(), p, p + sizeof(T));
    for (int d = static_cast<int>(extents.size()) - 1; d >= 0; --d) {
      if (++index[d] < extents[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

template <class View>
auto host_copy(const View& v) {
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
}

template <class View, std::size_t... I>
auto inner_subview(const View& base, std::index_sequence<I...>) {
  return Kokkos::subview(base, Kokkos::make_pair(std::size_t(1), base.extent(I) - 1)...);
}

// Rank R: a LayoutLeft View, a LayoutStride subview (of a LayoutLeft View one larger in every
// dimension) and a LayoutRight View of the same extents, each through `op` from the same state:
// the same bytes at every index.
template <class T, int R, class Op>
void check_layouts_at_rank(const std::vector<std::int64_t>& extents, const Op& op,
                           const char* name) {
  using Data = typename kdt::Impl::RankDataType<T, R>::type;
  using Right = Kokkos::View<Data, Kokkos::LayoutRight, TestSpace>;
  using Left = Kokkos::View<Data, Kokkos::LayoutLeft, TestSpace>;
  std::vector<std::int64_t> larger(extents);
  for (auto& e : larger) e += 2;
  const Right right = kdt::Impl::allocate_view<Right>("right", extents);
  const Left left = kdt::Impl::allocate_view<Left>("left", extents);
  const Left base = kdt::Impl::allocate_view<Left>("base", larger);
  const Kokkos::View<Data, Kokkos::LayoutStride, TestSpace> strided =
      inner_subview(base, std::make_index_sequence<R>{});
  for (std::uint64_t offset : {std::uint64_t(0), (std::uint64_t(1) << 34) - 20}) {
    // dropout_ reads its input: the same values in every layout, different at every index.
    // (The strided View's border is set through its contiguous base: Kokkos 3.4's deep_copy
    // of a scalar into a rank-7 LayoutStride View crashes.)
    Kokkos::deep_copy(right, T(3));
    Kokkos::deep_copy(left, T(3));
    Kokkos::deep_copy(base, T(3));
    if constexpr (std::is_floating_point<T>::value) {
      for (const auto input : {0, 1, 2}) {
        kdt::Generator gen(2024);
        if (input == 0) kdt::uniform_(right, 1.0, 2.0, gen);
        if (input == 1) kdt::uniform_(left, 1.0, 2.0, gen);
        if (input == 2) kdt::uniform_(strided, 1.0, 2.0, gen);
      }
    }
    op(right, offset);
    op(left, offset);
    op(strided, offset);
    Kokkos::fence();
    const auto want = row_major_bytes(host_copy(right), extents, 0);
    EXPECT_EQ(row_major_bytes(host_copy(left), extents, 0), want)
        << name << " LayoutLeft rank " << R;
    EXPECT_EQ(row_major_bytes(host_copy(base), extents, 1), want)
        << name << " LayoutStride rank " << R;
  }
}

template <class T, class Op>
void check_layouts(const Op& op, const char* name) {
  const std::int64_t e[8] = {5, 3, 127, 2, 1, 3, 2, 2};
  const auto first = [&](int r) { return std::vector<std::int64_t>(e, e + r); };
  check_layouts_at_rank<T, 1>({4097}, op, name);
  check_layouts_at_rank<T, 2>({4097, 5}, op, name);
  check_layouts_at_rank<T, 2>({3, 4097}, op, name);
  check_layouts_at_rank<T, 2>({127, 1}, op, name);
  // A unit-stride extent of 16 or more: the host's lanes kernel for 4- and 8-byte types,
  // here with rows a whole number of blocks long (4097 x 5: rows that start inside a block).
  check_layouts_at_rank<T, 2>({4097, 8}, op, name);
  check_layouts_at_rank<T, 3>({37, 3, 12}, op, name);
  check_layouts_at_rank<T, 3>(first(3), op, name);
  check_layouts_at_rank<T, 4>(first(4), op, name);
  check_layouts_at_rank<T, 5>(first(5), op, name);
  check_layouts_at_rank<T, 6>(first(6), op, name);
  check_layouts_at_rank<T, 7>(first(7), op, name);
  check_layouts_at_rank<T, 8>(first(8), op, name);
}

}  // namespace

// Through the ops (the compiled kernels), on the execution space of the tests.
TEST(FillPaths, EveryLayoutGivesTheBytesOfLayoutRight) {
  const auto with_offset = [](std::uint64_t offset) {
    kdt::Generator gen(77);
    gen.set_state(kdt::RNGState{77, offset});
    return gen;
  };
  check_layouts<float>(
      [&](const auto& v, std::uint64_t offset) {
        auto gen = with_offset(offset);
        kdt::uniform_(ExecSpace(), v, -1.0, 2.0, gen);
      },
      "uniform f32");
  check_layouts<float>(
      [&](const auto& v, std::uint64_t offset) {
        auto gen = with_offset(offset);
        kdt::normal_(ExecSpace(), v, 0.5, 2.0, gen);
      },
      "normal f32");
  check_layouts<double>(
      [&](const auto& v, std::uint64_t offset) {
        auto gen = with_offset(offset);
        kdt::normal_(ExecSpace(), v, 0.0, 1.0, gen);
      },
      "normal f64");
  check_layouts<float>(
      [&](const auto& v, std::uint64_t offset) {
        auto gen = with_offset(offset);
        kdt::dropout_(ExecSpace(), v, 0.3, gen);
      },
      "dropout f32");
  check_layouts<double>(
      [&](const auto& v, std::uint64_t offset) {
        auto gen = with_offset(offset);
        kdt::dropout_(ExecSpace(), v, 0.3, gen);
      },
      "dropout f64");
  check_layouts<std::int8_t>(
      [&](const auto& v, std::uint64_t offset) {
        auto gen = with_offset(offset);
        kdt::bernoulli_(ExecSpace(), v, 0.4, gen);
      },
      "bernoulli i8");
  check_layouts<std::uint64_t>(
      [&](const auto& v, std::uint64_t offset) {
        auto gen = with_offset(offset);
        kdt::random_bits_(ExecSpace(), v, gen);
      },
      "bits u64");
}

TEST(FillPaths, KeyScheduleAndBatchMatchTheBlockFunction) {
  for (std::uint64_t seed : {0ull, 1ull, 0xFFFFFFFFFFFFFFFFull, 67280421310721ull}) {
    const auto key = kdt::Impl::philox_key_schedule(seed);
    for (std::uint64_t first : {0ull, (1ull << 32) - 3, (1ull << 62) + 5}) {
      std::uint32_t word[4 * 8];
      kdt::Impl::philox4x32_10_batch<8>(key, first, word);
      for (int l = 0; l < 8; ++l) {
        const auto a = kdt::Impl::stream_block(seed, first + l);
        const auto b = kdt::Impl::stream_block(key, first + l);
        for (int j = 0; j < 4; ++j) {
          EXPECT_EQ(a.word[j], b.word[j]);
          EXPECT_EQ(a.word[j], word[4 * l + j]);
        }
      }
    }
  }
}

#if KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH
// Groups of 8 blocks in block-lane layout (from philox8, philox16) are blocks first,
// first + 1, ... of the stream of `seed`.
template <int N>
__attribute__((target("avx2,fma"))) void expect_stream_blocks(
    std::uint64_t seed, std::uint64_t first, const kdt::Impl::host_avx2::Words8 (&w)[N]) {
  for (int g = 0; g < N; ++g) {
    alignas(32) std::uint32_t word[32];
    kdt::Impl::host_avx2::store_stream_order(w[g].word, word);
    for (int l = 0; l < 8; ++l) {
      const auto b = kdt::Impl::stream_block(seed, first + 8 * g + l);
      for (int j = 0; j < 4; ++j) ASSERT_EQ(b.word[j], word[4 * l + j]) << first << " " << l;
    }
  }
}

// The AVX2 mirrors of the scalar functions, over whole domains including special values
// (the fills above only reach the values u1 in [2^-24, 1], 2 u2 in [0, 2)).
// Words for the stream-version-2 normal's SIMD versions: every word of a stride-1031 walk
// over all 2^32 words (each segment of the table many times, both signs), every word whose
// q is a segment boundary or next to one, and the extremes.
std::vector<std::uint32_t> normal_test_words() {
  std::vector<std::uint32_t> words = {0x00000000u, 0x80000000u, 0x7fffffffu, 0xffffffffu,
                                      0x7ffffffeu, 0xfffffffeu, 0x00000001u, 0x80000001u};
  for (std::uint64_t x = 0; x < (1ull << 32); x += 1031)
    words.push_back(static_cast<std::uint32_t>(x));
  for (std::uint32_t e = 0; e < 32; ++e)
    for (std::uint32_t k = 0; k < 16; ++k) {
      // magnitudes a with 2a + 1 near 2^e (1 + k / 16)
      const std::uint64_t edge = (1ull << e) + (static_cast<std::uint64_t>(k) << e) / 16;
      for (int d = -2; d <= 2; ++d) {
        const std::int64_t m = static_cast<std::int64_t>(edge) + d;
        if (m < 1 || m >= (1ll << 32)) continue;
        const std::uint32_t a = static_cast<std::uint32_t>(m / 2);
        words.push_back(a);
        words.push_back(a | 0x80000000u);
      }
    }
  return words;
}

__attribute__((target("avx2,fma"))) void check_avx2_mirrors() {
  namespace v = kdt::Impl::host_avx2;
  for (std::uint64_t seed : {0ull, 0xFFFFFFFFFFFFFFFFull, 67280421310721ull}) {
    const auto key = kdt::Impl::philox_key_schedule(seed);
    for (std::uint64_t first : {0ull, (1ull << 32) - 3, (1ull << 32) - 8, (1ull << 32) - 9,
                                (1ull << 62) + 5, ~0ull - 10}) {
      v::Words8 w[2];
      v::philox8<2>(key, first, w);
      expect_stream_blocks(seed, first, w);
    }
  }
  // Inputs: special values, every power of two, and pseudo-random bit patterns.
  std::vector<std::uint32_t> bits = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u,
                                     0x7fc00000u, 0xffc00000u, 0x7f7fffffu, 0x00000001u,
                                     0x007fffffu, 0x00800000u, 0x3f800000u, 0xbf800000u,
                                     0x4b800000u, 0x4b7fffffu, 0x4c000000u, 0x3e800000u};
  for (std::uint32_t e = 0; e < 256; ++e) bits.push_back(e << 23);
  for (std::uint32_t i = 0; i < 200000; ++i) bits.push_back(kdt::Impl::stream_word(42, i));
  while (bits.size() % 8) bits.push_back(0);
  for (std::size_t i = 0; i < bits.size(); i += 8) {
    alignas(32) float x[8], lg[8], s[8], c[8];
    std::memcpy(x, &bits[i], sizeof x);
    const __m256 xv = _mm256_load_ps(x);
    _mm256_store_ps(lg, v::log(xv));
    __m256 sv, cv;
    v::sincospi(xv, sv, cv);
    _mm256_store_ps(s, sv);
    _mm256_store_ps(c, cv);
    for (int l = 0; l < 8; ++l) {
      float s_ref, c_ref;
      kdt::Impl::portable_sincospi(x[l], &s_ref, &c_ref);
      const float lg_ref = kdt::Impl::portable_log(x[l]);
      ASSERT_EQ(kdt::Impl::float_to_bits(lg[l]), kdt::Impl::float_to_bits(lg_ref))
          << "log " << x[l];
      ASSERT_EQ(kdt::Impl::float_to_bits(s[l]), kdt::Impl::float_to_bits(s_ref))
          << "sinpi " << x[l];
      ASSERT_EQ(kdt::Impl::float_to_bits(c[l]), kdt::Impl::float_to_bits(c_ref))
          << "cospi " << x[l];
    }
  }
  // The stream-version-2 normal (both coefficient loads).
  std::vector<std::uint32_t> words = normal_test_words();
  while (words.size() % 8) words.push_back(0);
  for (std::size_t i = 0; i < words.size(); i += 8) {
    const __m256i wv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&words[i]));
    alignas(32) float z_load[8], z_gather[8];
    _mm256_store_ps(z_load, v::normal_from_word<false>(wv, kdt::Impl::NormalTableF32::data));
    _mm256_store_ps(z_gather, v::normal_from_word<true>(wv, kdt::Impl::NormalTableF32::data));
    for (int l = 0; l < 8; ++l) {
      const std::uint32_t ref = kdt::Impl::float_to_bits(kdt::Impl::normal_from_word(words[i + l]));
      ASSERT_EQ(kdt::Impl::float_to_bits(z_load[l]), ref) << "normal (loads) word " << words[i + l];
      ASSERT_EQ(kdt::Impl::float_to_bits(z_gather[l]), ref)
          << "normal (gathers) word " << words[i + l];
    }
  }
  // double: x = w0 << 32 | w1 with w0 from the list above (every float segment edge is a
  // double octave edge too) and w1 random, plus the segment edges of the double table.
  std::vector<std::uint64_t> xs = {0ull, 0x8000000000000000ull, 0x7fffffffffffffffull, ~0ull};
  for (std::size_t i = 0; i < words.size(); ++i)
    xs.push_back(static_cast<std::uint64_t>(words[i]) << 32 | kdt::Impl::stream_word(43, i));
  for (std::uint32_t e = 0; e < 64; ++e)
    for (std::uint32_t k = 0; k < 4; ++k) {
      const unsigned __int128 edge = (static_cast<unsigned __int128>(1) << e) * (4 + k) / 4;
      for (int d = -2; d <= 2; ++d) {
        const unsigned __int128 m = edge + d;
        if (m < 1 || m >= (static_cast<unsigned __int128>(1) << 64)) continue;
        const std::uint64_t a = static_cast<std::uint64_t>(m / 2);
        xs.push_back(a);
        xs.push_back(a | 0x8000000000000000ull);
      }
    }
  while (xs.size() % 4) xs.push_back(0);
  for (std::size_t i = 0; i < xs.size(); i += 4) {
    alignas(32) double z[4];
    _mm256_store_pd(
        z, v::normal_from_words(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(&xs[i])),
                                kdt::Impl::NormalTableF64::data));
    for (int l = 0; l < 4; ++l) {
      const double ref = kdt::Impl::normal_from_words(static_cast<std::uint32_t>(xs[i + l] >> 32),
                                                      static_cast<std::uint32_t>(xs[i + l]));
      ASSERT_EQ(kdt::Impl::double_to_bits(z[l]), kdt::Impl::double_to_bits(ref))
          << "normal f64 x " << xs[i + l];
    }
  }
}

TEST(FillPaths, Avx2MirrorsMatchTheScalarFunctions) {
  if (!kdt::Impl::host_has_avx2_fma()) GTEST_SKIP() << "CPU without AVX2+FMA";
  check_avx2_mirrors();
}

// philox16 (AVX-512) gives the blocks of the scalar Philox, across the 2^32-block carry too.
__attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA))) void check_philox16() {
  namespace v = kdt::Impl::host_avx2;
  for (std::uint64_t seed : {0ull, 0xFFFFFFFFFFFFFFFFull, 67280421310721ull}) {
    const auto key = kdt::Impl::philox_key_schedule(seed);
    for (std::uint64_t first : {0ull, 5ull, (1ull << 32) - 32, (1ull << 32) - 31, (1ull << 32) - 16,
                                (1ull << 32) - 1, (1ull << 62) + 5, ~0ull - 40}) {
      v::Words8 w[4];
      v::philox16<2>(key, first, w);
      expect_stream_blocks(seed, first, w);
    }
  }
}

TEST(FillPaths, Avx512PhiloxMatchesTheScalarPhilox) {
  if (!kdt::Impl::host_has_avx512()) GTEST_SKIP() << "CPU without AVX-512F/DQ (or capped)";
  check_philox16();
}

// The 16-lane transforms (HostAvx512Transform) write what the 8-lane ones write for the same
// 32 blocks, byte for byte, and philox16's two output layouts hold the same words.
template <class T, class Dist>
__attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA))) void check_avx512_transform(
    const Dist& dist, const char* name) {
  namespace v = kdt::Impl::host_avx2;
  constexpr int n = 32 * Dist::elements_per_block;
  for (std::uint64_t first : {0ull, 40ull, (1ull << 32) - 20, ~0ull - 100}) {
    const auto key = kdt::Impl::philox_key_schedule(first + 11);
    v::Words16 w16[2];
    v::Words8 w8[4];
    v::philox16<2>(key, first, w16);
    v::philox16<2>(key, first, w8);
    T wide[n], narrow[n];
    for (int g = 0; g < 2; ++g)
      kdt::Impl::HostAvx512Transform<Dist>::apply(dist, w16[g], wide + n / 2 * g);
    for (int g = 0; g < 4; ++g)
      kdt::Impl::HostAvx2Transform<Dist>::apply(dist, w8[g], narrow + n / 4 * g);
    EXPECT_EQ(std::memcmp(wide, narrow, sizeof wide), 0) << name << " first " << first;
  }
}

// The 16-lane normal f32 transform (entries 448 .. 511 by vpermt2ps, the other words by the
// scalar function) gives the scalar transform's bits on the words of normal_test_words:
// word j of block l in lane l of Words16::word[j], its value at element 4 l + j.
__attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA))) void check_avx512_normal() {
  namespace v = kdt::Impl::host_avx2;
  const auto dist = kdt::Impl::make_normal<float>(0.5, 2, "t");
  std::vector<std::uint32_t> words = normal_test_words();
  while (words.size() % 64) words.push_back(0);
  for (std::size_t i = 0; i < words.size(); i += 64) {
    alignas(64) std::uint32_t lanes[4][16];
    for (int l = 0; l < 16; ++l)
      for (int j = 0; j < 4; ++j) lanes[j][l] = words[i + 4 * l + j];
    v::Words16 w;
    for (int j = 0; j < 4; ++j) w.word[j] = _mm512_load_si512(lanes[j]);
    float z[64];
    kdt::Impl::HostAvx512Transform<kdt::Impl::Normal<float>>::apply(dist, w, z);
    for (int e = 0; e < 64; ++e)
      ASSERT_EQ(
          kdt::Impl::float_to_bits(z[e]),
          kdt::Impl::float_to_bits(dist.from_standard(kdt::Impl::normal_from_word(words[i + e]))))
          << "normal (16 lanes) word " << words[i + e];
  }
}

TEST(FillPaths, Avx512NormalMatchesTheScalarOne) {
  if (!kdt::Impl::host_has_avx512()) GTEST_SKIP() << "CPU without AVX-512F/DQ (or capped)";
  check_avx512_normal();
}

TEST(FillPaths, Avx512TransformsMatchTheAvx2Ones) {
  if (!kdt::Impl::host_has_avx512()) GTEST_SKIP() << "CPU without AVX-512F/DQ (or capped)";
  check_avx512_transform<float>(kdt::Impl::StandardUniform<float>{}, "uniform f32");
  check_avx512_transform<float>(kdt::Impl::make_uniform<float>(-2, 3, "t"), "uniform f32 -2..3");
  check_avx512_transform<std::uint32_t>(kdt::Impl::RandomBits<std::uint32_t>{}, "bits u32");
  for (double p : {0.0, 0.3, 0.5, 1.0})
    check_avx512_transform<float>(kdt::Impl::make_bernoulli<float>(p, "t"), "bernoulli f32");
  check_avx512_transform<double>(kdt::Impl::StandardUniform<double>{}, "uniform f64");
  check_avx512_transform<double>(kdt::Impl::make_uniform<double>(-2, 3, "t"), "uniform f64 -2..3");
  check_avx512_transform<float>(kdt::Impl::make_normal<float>(0.5, 2, "t"), "normal f32");
}
#endif

TEST(FillPaths, FastDivider) {
  for (std::uint32_t d : {1u, 2u, 3u, 5u, 7u, 255u, 256u, 1000u, 65535u, 65537u, 1u << 30,
                          (1u << 31) - 1, 1u << 31}) {
    const kdt::Impl::FastDivider32 div(d);
    for (std::uint32_t n :
         {0u, 1u, d - 1, d, d + 1, 12345678u, (1u << 31) - 1, (1u << 31) - 2, 2u * d - 1}) {
      if (n >= (1u << 31)) continue;
      EXPECT_EQ(div.divide(n), n / d) << n << " / " << d;
    }
  }
}
