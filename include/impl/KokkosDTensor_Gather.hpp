#ifndef KOKKOSDTENSOR_IMPL_GATHER_HPP
#define KOKKOSDTENSOR_IMPL_GATHER_HPP

// The all-gather behind DTensor::full_tensor() and the shard copies of distribute_tensor.

#include <KokkosDTensor_DeviceMesh.hpp>
#include <KokkosDTensor_Placement.hpp>
#include <impl/KokkosDTensor_Error.hpp>
#include <impl/KokkosDTensor_StridedCopy.hpp>
#include <impl/KokkosDTensor_StridedData.hpp>
#include <impl/KokkosDTensor_ViewHelpers.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace KokkosDTensor {
namespace Impl {

// True if the shard at `coordinate` is the one that holds data for its group: coordinate 0
// along every mesh dim whose placement is one of `Kinds`.
template <class... Kinds>
bool is_first_along(const std::vector<Placement>& placements, const std::vector<int>& coordinate) {
  for (std::size_t m = 0; m < placements.size(); ++m)
    if ((std::holds_alternative<Kinds>(placements[m]) || ...) && coordinate[m] != 0) return false;
  return true;
}

// All-gather with the send and receive buffers in BufferSpace. Packing and unpacking run on
// the View's execution space through copy_strided, keyed on the value type: no kernel per
// View type.
template <class BufferSpace, class ViewType>
ViewType gather_through(const ViewType& local, const DTensorSpec& spec, const std::string& label,
                        const char* function) {
  using view_type = ViewType;
  using value_type = typename ViewType::non_const_value_type;
  using exec_space = typename ViewType::execution_space;
  using memory_space = typename ViewType::memory_space;
  using buffer_view = Kokkos::View<value_type*, Kokkos::LayoutRight, BufferSpace>;
  using here_view = Kokkos::View<value_type*, Kokkos::LayoutRight, memory_space>;
  constexpr bool buffers_here =
      std::is_same<typename BufferSpace::memory_space, memory_space>::value;
  const DeviceMesh& mesh = spec.mesh();
  // Every rank computes every shard from the spec: no metadata exchange. One replica per
  // shard sends (coordinate 0 along Replicate dims); Partial dims all send and are summed.
  const std::vector<Placement>& placements = spec.placements();
  const int mesh_size = mesh.size();
  std::vector<LocalShapeAndOffset> boxes(mesh_size);
  std::vector<std::vector<int>> coordinates(mesh_size);
  std::vector<int> counts(mesh_size, 0);
  std::vector<int> displacements(mesh_size, 0);
  std::int64_t total = 0;
  for (int p = 0; p < mesh_size; ++p) {
    coordinates[p] = *mesh.coordinate_of(mesh.ranks()[p]);
    boxes[p] = spec.local_shape_and_global_offset(coordinates[p]);
    std::int64_t count = 1;
    for (std::int64_t extent : boxes[p].local_shape) count *= extent;
    if (!is_first_along<Replicate>(placements, coordinates[p])) count = 0;
    if (total + count > INT_MAX)
      throw_runtime_error(function, "gathering " + spec.to_string() +
                                        " needs more than INT_MAX elements per call; "
                                        "not supported yet");
    counts[p] = static_cast<int>(count);
    displacements[p] = static_cast<int>(total);
    total += count;
  }

  // Pack the local block row-major into the send buffer.
  int my_position = 0;
  while (coordinates[my_position] != *mesh.coordinate()) ++my_position;
  buffer_view send(Kokkos::view_alloc(Kokkos::WithoutInitializing, "full_tensor_send"),
                   counts[my_position]);
  if (counts[my_position] > 0)
    copy_row_major<BufferSpace>(local, send.data(), boxes[my_position].local_shape);
  buffer_view received(Kokkos::view_alloc(Kokkos::WithoutInitializing, "full_tensor_received"),
                       static_cast<std::size_t>(total));
  Kokkos::fence();  // all copies done before MPI reads the buffers

  MPI_Datatype element_type = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(static_cast<int>(sizeof(value_type)), MPI_BYTE, &element_type);
  MPI_Type_commit(&element_type);
  MPI_Allgatherv(send.data(), counts[my_position], element_type, received.data(), counts.data(),
                 displacements.data(), element_type, mesh.mesh_comm());
  MPI_Type_free(&element_type);

  // Unpack where the result lives, in mesh order: the first shard of each Partial group
  // assigns, later ones add.
  view_type result = allocate_view<view_type>(label, spec.global_shape());
  here_view received_here;
  if constexpr (buffers_here) {
    received_here = received;
  } else {
    received_here = here_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, "full_tensor_unpack"),
                              received.size());
    copy_contiguous<memory_space, BufferSpace>(received_here.data(), received.data(),
                                               received.size());
  }
  const StridedData<value_type> whole = strided_data(result);
  for (int p = 0; p < mesh_size; ++p) {
    if (counts[p] == 0) continue;
    const auto block = row_major_data<const value_type>(received_here.data() + displacements[p],
                                                        boxes[p].local_shape);
    const auto target = block_data(whole, boxes[p].global_offset, boxes[p].local_shape);
    if (is_first_along<Partial>(placements, coordinates[p])) {
      copy_strided(exec_space(), target, block);
    } else {
      copy_strided<true>(exec_space(), target, block);
    }
  }
  Kokkos::fence();
  return result;
}

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
