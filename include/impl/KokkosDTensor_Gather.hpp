#ifndef KOKKOSDTENSOR_IMPL_GATHER_HPP
#define KOKKOSDTENSOR_IMPL_GATHER_HPP

// The all-gather behind DTensor::full_tensor() and the shard copies of distribute_tensor.

#include <KokkosDTensor_DeviceMesh.hpp>
#include <KokkosDTensor_Placement.hpp>
#include <impl/KokkosDTensor_Error.hpp>
#include <impl/KokkosDTensor_ViewHelpers.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace KokkosDTensor {
namespace Impl {

// The block [offset, offset + shape) of `view`.
template <class ViewType, std::size_t... I>
auto block_subview_impl(const ViewType& view, const LocalShapeAndOffset& box,
                        std::index_sequence<I...>) {
  return Kokkos::subview(
      view, std::pair<std::size_t, std::size_t>(
                static_cast<std::size_t>(box.global_offset[I]),
                static_cast<std::size_t>(box.global_offset[I] + box.local_shape[I]))...);
}
template <class ViewType>
auto block_subview(const ViewType& view, const LocalShapeAndOffset& box) {
  if constexpr (view_rank<ViewType>() == 0) {
    return view;
  } else {
    return block_subview_impl(view, box, std::make_index_sequence<view_rank<ViewType>()>{});
  }
}

// True if the shard at `coordinate` is the one that holds data for its group: coordinate 0
// along every mesh dim whose placement is one of `Kinds`.
template <class... Kinds>
bool is_first_along(const std::vector<Placement>& placements, const std::vector<int>& coordinate) {
  for (std::size_t m = 0; m < placements.size(); ++m)
    if ((std::holds_alternative<Kinds>(placements[m]) || ...) && coordinate[m] != 0) return false;
  return true;
}

// All-gather with send/receive buffers (and the unpacking) in BufferSpace.
template <class BufferSpace, class ViewType>
ViewType gather_through(const ViewType& local, const DTensorSpec& spec, const std::string& label,
                        const char* function) {
  using view_type = ViewType;
  using non_const_value_type = typename ViewType::non_const_value_type;
  const DeviceMesh& mesh = spec.mesh();
  using packed_view = Kokkos::View<typename view_type::non_const_data_type, Kokkos::LayoutRight,
                                   BufferSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using buffer_view = Kokkos::View<non_const_value_type*, BufferSpace>;
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

  // Pack the local block row-major in host memory.
  int my_position = 0;
  while (coordinates[my_position] != *mesh.coordinate()) ++my_position;
  buffer_view send(Kokkos::view_alloc(Kokkos::WithoutInitializing, "full_tensor_send"),
                   counts[my_position]);
  if (counts[my_position] > 0) {
    auto local_in_buffer_space = Kokkos::create_mirror_view(BufferSpace(), local);
    Kokkos::deep_copy(local_in_buffer_space, local);
    packed_view packed = wrap_pointer<packed_view>(send.data(), boxes[my_position].local_shape);
    Kokkos::deep_copy(packed, local_in_buffer_space);
  }
  buffer_view received(Kokkos::view_alloc(Kokkos::WithoutInitializing, "full_tensor_received"),
                       static_cast<std::size_t>(total));
  Kokkos::fence();  // all copies done before MPI reads the buffers

  MPI_Datatype element_type = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(static_cast<int>(sizeof(non_const_value_type)), MPI_BYTE, &element_type);
  MPI_Type_commit(&element_type);
  MPI_Allgatherv(send.data(), counts[my_position], element_type, received.data(), counts.data(),
                 displacements.data(), element_type, mesh.mesh_comm());
  MPI_Type_free(&element_type);

  // Unpack in mesh order: the first shard of each Partial group assigns, later ones add.
  view_type result = allocate_view<view_type>(label, spec.global_shape());
  auto result_in_buffer_space = Kokkos::create_mirror_view(BufferSpace(), result);
  for (int p = 0; p < mesh_size; ++p) {
    if (counts[p] == 0) continue;
    packed_view block =
        wrap_pointer<packed_view>(received.data() + displacements[p], boxes[p].local_shape);
    auto target = block_subview(result_in_buffer_space, boxes[p]);
    if (is_first_along<Partial>(placements, coordinates[p])) {
      Kokkos::deep_copy(target, block);
    } else if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, BufferSpace>::accessible) {
      host_add_into(target, block);
    }
  }
  Kokkos::deep_copy(result, result_in_buffer_space);
  return result;
}

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
