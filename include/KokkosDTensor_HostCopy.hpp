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
  using value_type = typename ViewType::non_const_value_type;
  using memory_space = typename ViewType::memory_space;
  using exec_space = typename ViewType::execution_space;
  auto result = Impl::allocate_view<result_type>(view.label(), Impl::view_extents(view));
  const auto extents = Impl::view_extents(view);
  // Row-major where the data lives (one kernel per value type, not per View type), then to
  // the host; after all work in flight, as deep_copy would.
  Kokkos::fence();
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::DefaultHostExecutionSpace,
                                           memory_space>::accessible) {
    Impl::copy_strided(Kokkos::DefaultHostExecutionSpace(),
                       Impl::row_major_data(result.data(), extents), Impl::strided_data(view));
    Kokkos::fence();
  } else {
    Kokkos::View<value_type*, Kokkos::LayoutRight, memory_space> packed(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "to_host_row_major"), result.size());
    Impl::copy_strided(exec_space(), Impl::row_major_data(packed.data(), extents),
                       Impl::strided_data(view));
    exec_space().fence();
    Impl::copy_contiguous<Kokkos::HostSpace, memory_space>(result.data(), packed.data(),
                                                           packed.size());
  }
  return result;
}

}  // namespace KokkosDTensor

#endif
