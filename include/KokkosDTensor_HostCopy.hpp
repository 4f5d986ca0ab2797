#ifndef KOKKOSDTENSOR_HOSTCOPY_HPP
#define KOKKOSDTENSOR_HOSTCOPY_HPP

// A host copy of any View in row-major order, whatever its layout and memory space: what
// a user needs to compare tensors bit for bit (a gathered DTensor with a View drawn on one
// process, a checkpoint with a restart).

#include <Kokkos_Core.hpp>
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

}  // namespace KokkosDTensor

#endif
