#ifndef KOKKOSDTENSOR_IMPL_FILLGENERIC_HPP
#define KOKKOSDTENSOR_IMPL_FILLGENERIC_HPP

// The generic fill kernel: any rank, any strides (LayoutLeft, LayoutStride), one Philox
// block of one row segment per work item. The rows kernels are faster where they apply;
// this one is the reference they are tested against.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <impl/KokkosDTensor_Philox.hpp>

namespace KokkosDTensor {
namespace Impl {

// A row segment is the elements with all but the last index fixed: consecutive global
// indices L. Per item: the row's multi-index (one division per dimension), one Philox
// block, and a branch only for the partial blocks at the ends of a row.
template <class T, class Dist>
struct FillGenericFunctor {
  static constexpr int elements_per_block = Dist::elements_per_block;

  T* data;
  Dist dist;
  std::uint64_t seed;
  std::uint64_t first_block;       // state.offset / 4
  std::uint64_t origin_linear;     // global linear index of local element (0, ..., 0)
  int rank;                        // 1 .. 8
  std::uint64_t global_stride[8];  // row-major strides of the global tensor
  std::int64_t memory_stride[8];   // the View's strides (elements)
  std::int64_t row_extent[8];      // local extents of dims 0 .. rank-2
  std::int64_t row_length;         // local extent of the last dim
  std::int64_t blocks_per_row;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t item) const {
    std::int64_t row = item / blocks_per_row;
    const std::int64_t block_in_row = item - row * blocks_per_row;
    std::uint64_t row_start = origin_linear;  // L of the row's first local element
    std::int64_t row_offset = 0;              // memory offset of the row's first element
    for (int d = rank - 2; d >= 0; --d) {
      const std::int64_t next = row / row_extent[d];
      const std::int64_t i = row - next * row_extent[d];
      row = next;
      row_start += static_cast<std::uint64_t>(i) * global_stride[d];
      row_offset += i * memory_stride[d];
    }
    const std::uint64_t block =
        row_start / elements_per_block + static_cast<std::uint64_t>(block_in_row);
    // Local last index of the block's first element (negative: before the row starts).
    const std::int64_t first = static_cast<std::int64_t>(block * elements_per_block - row_start);
    if (first >= row_length) return;

    T* const row_data = data + row_offset;
    const std::int64_t step = memory_stride[rank - 1];
    const PhiloxBlock words = stream_block(seed, first_block + block);
    T values[elements_per_block] = {};
    for (int e = 0; e < elements_per_block; ++e) {
      const std::int64_t j = first + e;
      if (Dist::reads_input && j >= 0 && j < row_length) values[e] = row_data[j * step];
    }
    dist(words, values);
    for (int e = 0; e < elements_per_block; ++e) {
      const std::int64_t j = first + e;
      if (j >= 0 && j < row_length) row_data[j * step] = values[e];
    }
  }
};

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
