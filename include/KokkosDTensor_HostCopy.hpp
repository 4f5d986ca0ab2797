#ifndef KOKKOSDTENSOR_HOSTCOPY_HPP
#define KOKKOSDTENSOR_HOSTCOPY_HPP

// A host copy of any View in row-major order, whatever its layout and memory space: what
// a user needs to compare tensors bit for bit (a gathered DTensor with a View drawn on one
// process, a checkpoint with a restart).

#include <Kokkos_Core.hpp>
#include <Kokkos_DynRankView.hpp>
#include <cstddef>
#include <impl/KokkosDTensor_StridedCopy.hpp>
#include <impl/KokkosDTensor_StridedData.hpp>
#include <impl/KokkosDTensor_ViewHelpers.hpp>

namespace KokkosDTensor {

/// A new LayoutRight View in HostSpace with the extents and values of `view`; its data()
/// holds the elements in row-major order.
template <class ViewType>
Kokkos::View<typename ViewType::non_const_data_type, Kokkos::LayoutRight, Kokkos::HostSpace>
to_host_row_major(const ViewType& view) {
  using result_type =
      Kokkos::View<typename ViewType::non_const_data_type, Kokkos::LayoutRight, Kokkos::HostSpace>;
  auto result = Impl::allocate_view<result_type>(view.label(), Impl::view_extents(view));
  Impl::copy_row_major<Kokkos::HostSpace>(view, result.data(), Impl::view_extents(view));
  return result;
}

/// A new LayoutRight DynRankView in HostSpace with the rank, extents and values of `view`;
/// its data() holds the elements in row-major order.
template <class DataType, class... Properties>
Kokkos::DynRankView<typename Kokkos::DynRankView<DataType, Properties...>::non_const_value_type,
                    Kokkos::LayoutRight, Kokkos::HostSpace>
to_host_row_major(const Kokkos::DynRankView<DataType, Properties...>& view) {
  using value_type = typename Kokkos::DynRankView<DataType, Properties...>::non_const_value_type;
  const auto extents = Impl::view_extents(view);
  std::size_t n[7];
  for (std::size_t d = 0; d < 7; ++d)  // (unused dims: KOKKOS_INVALID_INDEX sets the rank)
    n[d] = d < extents.size() ? static_cast<std::size_t>(extents[d]) : KOKKOS_INVALID_INDEX;
  Kokkos::DynRankView<value_type, Kokkos::LayoutRight, Kokkos::HostSpace> result(
      view.label(), n[0], n[1], n[2], n[3], n[4], n[5], n[6]);
  Impl::copy_row_major<Kokkos::HostSpace>(view, result.data(), extents);
  return result;
}

}  // namespace KokkosDTensor

#endif
