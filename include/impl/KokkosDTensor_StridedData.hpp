#ifndef KOKKOSDTENSOR_IMPL_STRIDEDDATA_HPP
#define KOKKOSDTENSOR_IMPL_STRIDEDDATA_HPP

// A View as the kernels see it: pointer, extents and strides. Kernels keyed on this rather
// than on the View type are shared by every rank, layout and subview of a value type.

#include <Kokkos_DynRankView.hpp>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace KokkosDTensor {
namespace Impl {

// Rank 0 is described as rank 1 with one element.
template <class T>
struct StridedData {
  T* data = nullptr;
  int rank = 0;
  std::int64_t extent[8] = {};
  std::int64_t stride[8] = {};
  std::uint64_t size() const {
    std::uint64_t n = 1;
    for (int d = 0; d < rank; ++d) n *= static_cast<std::uint64_t>(extent[d]);
    return n;
  }
};

template <class ViewType>
StridedData<typename ViewType::value_type> strided_data(const ViewType& view) {
  StridedData<typename ViewType::value_type> v;
  v.data = view.data();
  v.rank = ViewType::rank == 0 ? 1 : static_cast<int>(ViewType::rank);
  v.extent[0] = 1;
  v.stride[0] = 1;
  for (int d = 0; d < static_cast<int>(ViewType::rank); ++d) {
    v.extent[d] = static_cast<std::int64_t>(view.extent(d));
    v.stride[d] = static_cast<std::int64_t>(view.stride(d));
  }
  return v;
}

// A DynRankView as the View of its run-time rank would be: the same pointer, extents and
// strides, so that it reaches the same kernels and gets the same values.
template <class DataType, class... Properties>
StridedData<typename Kokkos::DynRankView<DataType, Properties...>::value_type> strided_data(
    const Kokkos::DynRankView<DataType, Properties...>& view) {
  StridedData<typename Kokkos::DynRankView<DataType, Properties...>::value_type> v;
  // (stride(array), the form every Kokkos version has, writes the strides of the rank-7 View
  // beneath and its span.)
  std::size_t strides[8] = {};
  view.stride(strides);
  const int rank = static_cast<int>(view.rank());
  v.data = view.data();
  v.rank = rank == 0 ? 1 : rank;
  v.extent[0] = 1;
  v.stride[0] = 1;
  for (int d = 0; d < rank; ++d) {
    v.extent[d] = static_cast<std::int64_t>(view.extent(d));
    v.stride[d] = static_cast<std::int64_t>(strides[d]);
  }
  return v;
}

// Contiguous row-major elements at `data` with the given extents (none: one element).
template <class T>
StridedData<T> row_major_data(T* data, const std::vector<std::int64_t>& extents) {
  StridedData<T> v;
  v.data = data;
  v.rank = extents.empty() ? 1 : static_cast<int>(extents.size());
  v.extent[0] = 1;
  v.stride[0] = 1;
  std::int64_t stride = 1;
  for (int d = static_cast<int>(extents.size()) - 1; d >= 0; --d) {
    v.extent[d] = extents[d];
    v.stride[d] = stride;
    stride *= extents[d];
  }
  return v;
}

// The block [offset, offset + extents) of `whole` (as many entries as its rank; a rank-0
// whole is its own block).
template <class T>
StridedData<T> block_data(const StridedData<T>& whole, const std::vector<std::int64_t>& offset,
                          const std::vector<std::int64_t>& extents) {
  StridedData<T> block = whole;
  for (std::size_t d = 0; d < extents.size(); ++d) {
    block.data += offset[d] * whole.stride[d];
    block.extent[d] = extents[d];
  }
  return block;
}

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
