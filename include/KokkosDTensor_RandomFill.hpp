// The fill kernel shared by random ops on plain Views and on DTensors (docs/design.md):
// Impl::GlobalBox, Impl::whole_view_box, Impl::fill_random, Impl::offset_after.

#ifndef KOKKOSDTENSOR_RANDOMFILL_HPP
#define KOKKOSDTENSOR_RANDOMFILL_HPP

#include <KokkosDTensor_Error.hpp>
#include <KokkosDTensor_Philox.hpp>
#include <KokkosDTensor_RNGState.hpp>
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace KokkosDTensor {
namespace Impl {

// Where a local block of elements sits inside the global row-major tensor.
// The element with logical local index (i0, ..., i_{r-1}) is the global element
// (i0 + origin[0], ..., i_{r-1} + origin[r-1]) of a tensor with extents global_extent;
// its global row-major linear index L is what the stream is keyed on.
struct GlobalBox {
  int rank = 0;
  std::int64_t global_extent[8] = {};
  std::int64_t origin[8] = {};
};

// The box of a View that is a whole tensor: origin 0, global extents = the View's.
template <class ViewType>
GlobalBox whole_view_box(const ViewType& view) {
  static_assert(Kokkos::is_view<ViewType>::value, "whole_view_box needs a Kokkos::View");
  GlobalBox box;
  box.rank = static_cast<int>(ViewType::rank);
  for (int d = 0; d < box.rank; ++d)
    box.global_extent[d] = static_cast<std::int64_t>(view.extent(d));
  return box;
}

// The offset after an op on `global_count` elements at `words_per_element` words each:
// state.offset + round_up_to_4(words_per_element * global_count). Throws
// std::overflow_error naming `function` and the offset if the new offset is not below
// 2^64 (the op would leave the 2^64-word counter space); callers call it before touching
// data, so a failed op changes nothing.
inline std::uint64_t offset_after(const RNGState& state, int words_per_element,
                                  std::uint64_t global_count, const char* function) {
  constexpr std::uint64_t max_word = ~std::uint64_t(0);
  const std::uint64_t w = static_cast<std::uint64_t>(words_per_element);
  const bool count_fits = words_per_element > 0 && global_count <= (max_word - 3) / w;
  const std::uint64_t words = count_fits ? ((w * global_count + 3) & ~std::uint64_t(3)) : 0;
  if (!count_fits || words > max_word - state.offset) {
    throw std::overflow_error(
        argument_message(function, "offset", format_value(state.offset),
                         "an op on " + format_value(global_count) + " elements at " +
                             format_value(words_per_element) +
                             " words each would pass the end of the 2^64-word counter space"));
  }
  return state.offset + words;
}

// ---- the kernel -----------------------------------------------------------------------------

// view(idx[0], ..., idx[R-2], last) for a View of rank R >= 1.
template <class ViewType, std::size_t... I>
KOKKOS_FORCEINLINE_FUNCTION typename ViewType::reference_type fill_view_element(
    const ViewType& view, const std::int64_t* idx, std::int64_t last, std::index_sequence<I...>) {
  return view(idx[I]..., last);
}

// One work item = one Philox block of one row segment (the View's elements with all but
// the last index fixed: consecutive global indices L). The block gives the values of its
// elements_per_block elements; the item writes those inside the segment. Per item: the
// row's multi-index (one division per dimension), one Philox block, and a branch only for
// the partial blocks at the ends of a row.
//
// Faster paths left for the performance work: items covering several blocks of a row
// (amortising the index math; vector stores for contiguous LayoutRight rows), 32-bit
// index math when the sizes allow, and iterating over the first dimension for LayoutLeft.
template <class ViewType, class Dist, int Rank>
struct FillRandomFunctor {
  using value_type = typename Dist::value_type;
  static constexpr int elements_per_block = Dist::elements_per_block;

  ViewType view;
  Dist dist;
  std::uint64_t seed;
  std::uint64_t first_block;       // state.offset / 4
  std::uint64_t origin_linear;     // global linear index of local element (0, ..., 0)
  std::uint64_t global_stride[8];  // row-major strides of the global tensor
  std::int64_t row_extent[8];      // local extents of dims 0 .. Rank-2
  std::int64_t row_length;         // local extent of the last dim
  std::int64_t blocks_per_row;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t item) const {
    std::int64_t idx[Rank];
    std::int64_t row = Rank == 1 ? 0 : item / blocks_per_row;
    const std::int64_t block_in_row = item - row * blocks_per_row;
    std::uint64_t row_start = origin_linear;  // L of the row's first local element
    for (int d = Rank - 2; d >= 0; --d) {
      const std::int64_t next = row / row_extent[d];
      idx[d] = row - next * row_extent[d];
      row = next;
      row_start += static_cast<std::uint64_t>(idx[d]) * global_stride[d];
    }
    const std::uint64_t block =
        row_start / elements_per_block + static_cast<std::uint64_t>(block_in_row);
    // Local last index of the block's first element (negative: before the row starts).
    const std::int64_t first = static_cast<std::int64_t>(block * elements_per_block - row_start);
    if (first >= row_length) return;

    const PhiloxBlock words = stream_block(seed, first_block + block);
    value_type values[elements_per_block] = {};
    const bool whole = first >= 0 && first + elements_per_block <= row_length;
    using indices = std::make_index_sequence<Rank - 1>;
    if (Dist::reads_input) {
      for (int e = 0; e < elements_per_block; ++e) {
        const std::int64_t j = first + e;
        if (whole || (j >= 0 && j < row_length))
          values[e] = fill_view_element(view, idx, j, indices{});
      }
    }
    dist(words, values);
    if (whole) {
      for (int e = 0; e < elements_per_block; ++e)
        fill_view_element(view, idx, first + e, indices{}) = values[e];
    } else {
      for (int e = 0; e < elements_per_block; ++e) {
        const std::int64_t j = first + e;
        if (j >= 0 && j < row_length) fill_view_element(view, idx, j, indices{}) = values[e];
      }
    }
  }
};

// Rank 0: the single element has L = 0 and takes element 0 of block 0.
template <class ViewType, class Dist>
struct FillRandomScalarFunctor {
  using value_type = typename Dist::value_type;
  ViewType view;
  Dist dist;
  std::uint64_t seed;
  std::uint64_t first_block;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t) const {
    value_type values[Dist::elements_per_block] = {};
    if (Dist::reads_input) values[0] = view();
    dist(stream_block(seed, first_block), values);
    view() = values[0];
  }
};

// Fills `view` (any rank 0..8, any layout, any memory space reachable from `space`)
// with `dist` drawn from the stream at `state`, as the block `box` of the global tensor.
// Pure: does not touch any generator state. Asynchronous like any Kokkos kernel on
// `space`. Throws std::invalid_argument if `box` does not fit the View or the state's
// offset is not a multiple of 4.
template <class ExecSpace, class ViewType, class Dist>
void fill_random(const ExecSpace& space, const ViewType& view, const Dist& dist,
                 const RNGState& state, const GlobalBox& box) {
  static_assert(Kokkos::is_execution_space<ExecSpace>::value,
                "fill_random: not an execution space");
  static_assert(Kokkos::is_view<ViewType>::value, "fill_random: not a Kokkos::View");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename ViewType::memory_space>::accessible,
                "fill_random: the View's memory space is not accessible from the execution space");
  static_assert(std::is_same<typename ViewType::value_type, typename Dist::value_type>::value,
                "fill_random: the View's value type must be the distribution's (and not const)");
  constexpr int rank = static_cast<int>(ViewType::rank);
  constexpr int elements_per_block = Dist::elements_per_block;
  static_assert(elements_per_block == 2 || elements_per_block == 4, "bad elements_per_block");
  const char* function = "KokkosDTensor::Impl::fill_random";

  if (state.offset % 4 != 0) {
    throw_invalid_argument(function, "state.offset", format_value(state.offset),
                           "must be a multiple of 4");
  }
  if (box.rank != rank) {
    throw_invalid_argument(function, "box.rank", format_value(box.rank),
                           "must equal the View's rank " + format_value(rank));
  }
  // Global strides, with a check that the global tensor has fewer than 2^64 elements.
  std::uint64_t global_stride[8] = {};
  std::uint64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    const std::int64_t extent = box.global_extent[d];
    const std::int64_t origin = box.origin[d];
    const std::int64_t local = static_cast<std::int64_t>(view.extent(d));
    if (extent < 0 || origin < 0 || origin > extent || local > extent - origin) {
      throw_invalid_argument(function, "box",
                             "origin[" + format_value(d) + "] = " + format_value(origin) +
                                 ", global_extent[" + format_value(d) +
                                 "] = " + format_value(extent),
                             "must hold the View's extent " + format_value(local) +
                                 " in dimension " + format_value(d));
    }
    global_stride[d] = stride;
    if (extent != 0 && stride > ~std::uint64_t(0) / static_cast<std::uint64_t>(extent)) {
      throw_invalid_argument(function, "box.global_extent", "(rank " + format_value(rank) + ")",
                             "the global tensor must have fewer than 2^64 elements");
    }
    stride *= static_cast<std::uint64_t>(extent);
  }
  if (view.size() == 0) return;

  const std::uint64_t first_block = state.offset / 4;
  if constexpr (rank == 0) {
    FillRandomScalarFunctor<ViewType, Dist> functor{view, dist, state.seed, first_block};
    Kokkos::parallel_for(
        "KokkosDTensor::fill_random",
        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, 1), functor);
  } else {
    FillRandomFunctor<ViewType, Dist, rank> functor;
    functor.view = view;
    functor.dist = dist;
    functor.seed = state.seed;
    functor.first_block = first_block;
    functor.origin_linear = 0;
    std::int64_t rows = 1;
    for (int d = 0; d < 8; ++d) {
      functor.global_stride[d] = global_stride[d];
      functor.row_extent[d] = 1;
    }
    for (int d = 0; d < rank; ++d) {
      functor.origin_linear += static_cast<std::uint64_t>(box.origin[d]) * global_stride[d];
    }
    for (int d = 0; d + 1 < rank; ++d) {
      functor.row_extent[d] = static_cast<std::int64_t>(view.extent(d));
      rows *= functor.row_extent[d];
    }
    functor.row_length = static_cast<std::int64_t>(view.extent(rank - 1));
    // Every row starts on a block boundary when the box's first element does and the
    // global row length is a multiple of the block's element count; otherwise a row
    // may touch one more block.
    const bool rows_aligned = functor.origin_linear % elements_per_block == 0 &&
                              (rank == 1 || global_stride[rank - 2] % elements_per_block == 0);
    functor.blocks_per_row =
        (functor.row_length + elements_per_block - 1) / elements_per_block + (rows_aligned ? 0 : 1);
    Kokkos::parallel_for("KokkosDTensor::fill_random",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(
                             space, 0, rows * functor.blocks_per_row),
                         functor);
  }
}

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
