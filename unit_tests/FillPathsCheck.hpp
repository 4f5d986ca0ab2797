#ifndef KOKKOSDTENSOR_TEST_FILLPATHSCHECK_HPP
#define KOKKOSDTENSOR_TEST_FILLPATHSCHECK_HPP

// The checks of Test_FillPaths*.cpp: a View filled by every fill path of Impl::fill_random
// gives the bytes of the generic kernel, over the shapes each path splits differently. (Two
// sources, so that the longest compile of the project runs on two cores.)

#include <gtest/gtest.h>

#include "TestSpace.hpp"

#include <KokkosDTensor_Rng.hpp>
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstdlib>
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
  // The host lanes kernel's items along rows that start at every word of a block (rows 73
  // elements apart): each item of a row draws the block its last chunk ends in, and a row of
  // 70 takes several items for every type (4-byte: 18 chunks, items of 4), 37 rows two
  // groups and the band's last rows.
  {
    Kokkos::View<T**, Kokkos::LayoutLeft, TestSpace> v("v", 37, 70);
    check_paths(v, make(), kdt::Impl::box_2d(40, 73, 2, 1), kdt::RNGState{13, 4},
                std::string(name) + " lanes items");
    // Other item shapes on any backend, chosen through KOKKOSDTENSOR_COLUMN_LANES: items of
    // 2 chunks (several threads' shape; float draws two groups' chunks together), and items
    // of several passes, whose groups carry their last block from pass to pass (4-byte: 3
    // passes of 4 chunks make items of 3 and 2 passes, 4 of 2 chunks items of 4, 4 and 1).
    for (const char* shape : {"64,2", "32,4,3", "64,2,4"}) {
      setenv("KOKKOSDTENSOR_COLUMN_LANES", shape, 1);
      check_paths(v, make(), kdt::Impl::box_2d(40, 73, 2, 1), kdt::RNGState{13, 4},
                  std::string(name) + " lanes items " + shape);
    }
    unsetenv("KOKKOSDTENSOR_COLUMN_LANES");
  }
  // LayoutLeft with a column extent divisible by 4 and rows on block boundaries: the device
  // columns kernel's vector rows (4 or 2 rows per item; 32-bit counters under a high word
  // of 0 or 1), with a partial last chunk of columns, and in rank 3; across the 2^32-block
  // boundary (one row per item there).
  {
    Kokkos::View<T**, Kokkos::LayoutLeft, TestSpace> v("v", 16, 36);
    const kdt::Impl::GlobalBox box = kdt::Impl::box_2d(24, 44, 4, 8);
    check_paths(v, make(), box, kdt::RNGState{11, 16}, std::string(name) + " vector rows");
    check_paths(v, make(), box, kdt::RNGState{11, (1ull << 34) - 64},
                std::string(name) + " vector rows across block 2^32");
    check_paths(v, make(), box, kdt::RNGState{11, (1ull << 34) + 64},
                std::string(name) + " vector rows above block 2^32");
    Kokkos::View<T***, Kokkos::LayoutLeft, TestSpace> w("w", 8, 3, 20);
    check_paths(w, make(), kdt::Impl::whole_view_box(w), kdt::RNGState{11, 4},
                std::string(name) + " vector rows 3d");
    // The same on rows not aligned to a vector in memory (stores realigned between the lanes of
    // a warp on CUDA): a column of 256 rows (two warps of items; column starts at every phase,
    // 259 elements apart), and a rank-3 subview whose runs of 68 rows have their own phase
    // (70 elements apart), so that a warp's items span runs and column groups.
    Kokkos::View<T**, Kokkos::LayoutLeft, TestSpace> tall("tall", 259, 44);
    auto column_phases = Kokkos::subview(tall, Kokkos::make_pair(1, 257), Kokkos::make_pair(2, 42));
    check_paths(column_phases, make(), kdt::Impl::whole_view_box(column_phases),
                kdt::RNGState{11, 16}, std::string(name) + " vector rows realigned");
    // The same column with rows that start inside blocks (41 a row): the realigned shifted
    // kernel, whose warps of one group of rows and no run's edge store without testing their
    // neighbours (CUDA).
    auto shifted_phases =
        Kokkos::subview(tall, Kokkos::make_pair(1, 257), Kokkos::make_pair(2, 43));
    check_paths(shifted_phases, make(), kdt::Impl::whole_view_box(shifted_phases),
                kdt::RNGState{11, 16}, std::string(name) + " vector rows realigned shifted");
    Kokkos::View<T***, Kokkos::LayoutLeft, TestSpace> cube("cube", 70, 9, 44);
    auto runs = Kokkos::subview(cube, Kokkos::make_pair(1, 69), Kokkos::make_pair(1, 8),
                                Kokkos::make_pair(2, 42));
    check_paths(runs, make(), kdt::Impl::whole_view_box(runs), kdt::RNGState{11, 4},
                std::string(name) + " vector rows realigned 3d");
    // Rows that start inside a block, each at its own word (the shifted vector rows): odd
    // extents, whose column of 37 rows is taken as 36 (realigned) and 1 (one row per item),
    // below and above block 2^32; rank 3 with runs of 13 rows (12 and 1), rows 21 apart.
    Kokkos::View<T**, Kokkos::LayoutLeft, TestSpace> odd("odd", 37, 29);
    check_paths(odd, make(), kdt::Impl::whole_view_box(odd), kdt::RNGState{11, 4},
                std::string(name) + " vector rows shifted");
    check_paths(odd, make(), kdt::Impl::whole_view_box(odd), kdt::RNGState{11, (1ull << 34) + 8},
                std::string(name) + " vector rows shifted above block 2^32");
    Kokkos::View<T***, Kokkos::LayoutLeft, TestSpace> odd3("odd3", 13, 3, 21);
    check_paths(odd3, make(), kdt::Impl::whole_view_box(odd3), kdt::RNGState{11, 4},
                std::string(name) + " vector rows shifted 3d");
    // The same where each group of a vector's rows is aligned to it in memory (plain vector
    // stores, no realignment): a column extent of 36, rank 2 and 3.
    Kokkos::View<T**, Kokkos::LayoutLeft, TestSpace> odd_rows("odd_rows", 36, 29);
    check_paths(odd_rows, make(), kdt::Impl::whole_view_box(odd_rows), kdt::RNGState{11, 4},
                std::string(name) + " vector rows shifted aligned");
    check_paths(odd_rows, make(), kdt::Impl::whole_view_box(odd_rows),
                kdt::RNGState{11, (1ull << 34) + 8},
                std::string(name) + " vector rows shifted aligned above block 2^32");
    Kokkos::View<T***, Kokkos::LayoutLeft, TestSpace> odd_rows3("odd_rows3", 12, 3, 21);
    check_paths(odd_rows3, make(), kdt::Impl::whole_view_box(odd_rows3), kdt::RNGState{11, 4},
                std::string(name) + " vector rows shifted aligned 3d");
    // The same Views cut into parts, as the device-style columns kernels take Views of 2^31
    // elements or more (KOKKOSDTENSOR_PART_LIMIT lowers that): the realigned column at
    // 64 rows (4096) and those parts again at 4 (300), the rank-3 subview at 7 rows and 1, the
    // shifted View at 5 rows (300), and a rank-3 one in parts of one element (2).
    for (const char* limit : {"4096", "300"}) {
      setenv("KOKKOSDTENSOR_PART_LIMIT", limit, 1);
      const std::string parts = std::string(" in parts under ") + limit;
      check_paths(column_phases, make(), kdt::Impl::whole_view_box(column_phases),
                  kdt::RNGState{11, 16}, std::string(name) + " vector rows realigned" + parts);
      check_paths(runs, make(), kdt::Impl::whole_view_box(runs), kdt::RNGState{11, 4},
                  std::string(name) + " vector rows realigned 3d" + parts);
      check_paths(odd, make(), kdt::Impl::whole_view_box(odd), kdt::RNGState{11, (1ull << 34) + 8},
                  std::string(name) + " vector rows shifted above block 2^32" + parts);
    }
    setenv("KOKKOSDTENSOR_PART_LIMIT", "2", 1);
    check_paths(odd3, make(), kdt::Impl::whole_view_box(odd3), kdt::RNGState{11, 4},
                std::string(name) + " vector rows shifted 3d in parts of one element");
    unsetenv("KOKKOSDTENSOR_PART_LIMIT");
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
    // The rows and elements paths cut Views into parts as the columns path does: a rank-1
    // View whose data is not aligned to a block, across block 2^32 (parts of 192 elements
    // under 300); LayoutRight rows of 33 that start inside blocks (cut along the rows, 5
    // columns a part, under 64); the column above (parts of 64 under 64); all three in parts
    // of one element (2).
    Kokkos::View<T*, TestSpace> line("line", 1000);
    auto unaligned = Kokkos::subview(line, Kokkos::make_pair(3, 997));
    Kokkos::View<T**, Kokkos::LayoutRight, TestSpace> rows("rows", 7, 33);
    const kdt::Impl::GlobalBox rows_box = kdt::Impl::box_2d(9, 37, 1, 3);
    for (const char* limit : {"300", "64", "2"}) {
      setenv("KOKKOSDTENSOR_PART_LIMIT", limit, 1);
      const std::string parts = std::string(" in parts under ") + limit;
      check_paths(unaligned, make(), kdt::Impl::whole_view_box(unaligned),
                  kdt::RNGState{3, (1ull << 34) - 1000}, std::string(name) + " 1d" + parts);
      check_paths(rows, make(), rows_box, kdt::RNGState{3, 12},
                  std::string(name) + " rows" + parts);
      check_paths(column, make(), kdt::Impl::whole_view_box(column),
                  kdt::RNGState{3, (1ull << 34) - 200}, std::string(name) + " column" + parts);
    }
    unsetenv("KOKKOSDTENSOR_PART_LIMIT");
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

// The columns kernels of a distribution that takes its own (exponential_: not realigned;
// rows inside blocks through the blocks' loop, shifts_in_row_loop): LayoutLeft with rows at
// every word of a block, below and above block 2^32, and across it (the K-block form).
template <class T, class Maker>
void check_columns(Maker make, const char* name) {
  Kokkos::View<T**, Kokkos::LayoutLeft, TestSpace> odd("odd", 37, 29);
  for (std::uint64_t offset : {4ull, (1ull << 34) + 8, (1ull << 34) - 400})
    check_paths(odd, make(), kdt::Impl::whole_view_box(odd), kdt::RNGState{11, offset},
                std::string(name) + " columns off=" + std::to_string(offset));
}

}  // namespace

#endif
