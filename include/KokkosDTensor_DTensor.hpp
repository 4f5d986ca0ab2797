#ifndef KOKKOSDTENSOR_DTENSOR_HPP
#define KOKKOSDTENSOR_DTENSOR_HPP

// DTensor<DataType, Props...>: the local shard of a global tensor, held as a
// Kokkos::View<DataType, Props...> (any rank 0..8, LayoutRight or LayoutLeft, any memory
// space), plus its DTensorSpec (mesh, placements, global shape).
//
// - distribute_tensor(global_view, mesh, placements): each rank copies its shard out of a
//   global View it already holds; no communication. For a Partial mesh dim, the rank at
//   coordinate 0 along that dim holds the value and the others hold zeros, so the sum
//   over the dim is the global value.
// - full_tensor(): all-gather over the mesh ranks into a View of the same type with the
//   global extents. Only one rank per group of replicas sends its block; Partial mesh dims
//   are summed in mesh order, so every rank gets the same bits. Buffers are staged in host
//   memory unless MPI is GPU-aware (Impl::mpi_is_gpu_aware).
// Ranks outside the mesh hold an empty local View (all extents 0) and take no part.

#include <KokkosDTensor_DeviceMesh.hpp>
#include <KokkosDTensor_Error.hpp>
#include <KokkosDTensor_MpiSupport.hpp>
#include <KokkosDTensor_Placement.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace KokkosDTensor {

// Tag for the DTensor constructors that do not allocate (deferred, "meta" initialisation).
struct DeferredAllocation {
  explicit DeferredAllocation() = default;
};
inline constexpr DeferredAllocation deferred_allocation{};

namespace Impl {

template <class ViewType>
constexpr int view_rank() {
  return static_cast<int>(ViewType::rank);
}

template <class ViewType>
std::vector<std::int64_t> view_extents(const ViewType& view) {
  std::vector<std::int64_t> extents(view_rank<ViewType>());
  for (int i = 0; i < view_rank<ViewType>(); ++i)
    extents[i] = static_cast<std::int64_t>(view.extent(i));
  return extents;
}

// A new View with the given extents (one per rank), zero-initialised.
template <class ViewType, std::size_t... I>
ViewType allocate_view_impl(const std::string& label, const std::vector<std::int64_t>& extents,
                            std::index_sequence<I...>) {
  return ViewType(Kokkos::view_alloc(label), static_cast<std::size_t>(extents[I])...);
}
template <class ViewType>
ViewType allocate_view(const std::string& label, const std::vector<std::int64_t>& extents) {
  return allocate_view_impl<ViewType>(label, extents,
                                      std::make_index_sequence<view_rank<ViewType>()>{});
}

// An unmanaged View over `data` with the given extents.
template <class ViewType, class Pointer, std::size_t... I>
ViewType wrap_pointer_impl(Pointer data, const std::vector<std::int64_t>& extents,
                           std::index_sequence<I...>) {
  return ViewType(data, static_cast<std::size_t>(extents[I])...);
}
template <class ViewType, class Pointer>
ViewType wrap_pointer(Pointer data, const std::vector<std::int64_t>& extents) {
  return wrap_pointer_impl<ViewType>(data, extents,
                                     std::make_index_sequence<view_rank<ViewType>()>{});
}

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

// view(index[0], ..., index[rank-1]) on the host.
template <class ViewType, std::size_t... I>
decltype(auto) host_element_impl(const ViewType& view, const std::int64_t* index,
                                 std::index_sequence<I...>) {
  return view(index[I]...);
}
template <class ViewType>
decltype(auto) host_element(const ViewType& view, const std::int64_t* index) {
  return host_element_impl(view, index, std::make_index_sequence<view_rank<ViewType>()>{});
}

// dst += src element-wise on the host; both host-accessible with equal extents.
template <class DstView, class SrcView>
void host_add_into(const DstView& dst, const SrcView& src) {
  constexpr int rank = view_rank<DstView>();
  std::int64_t count = 1;
  for (int i = 0; i < rank; ++i) count *= static_cast<std::int64_t>(dst.extent(i));
  std::int64_t index[rank > 0 ? rank : 1] = {};
  for (std::int64_t linear = 0; linear < count; ++linear) {
    std::int64_t rest = linear;
    for (int i = rank - 1; i >= 0; --i) {
      index[i] = rest % static_cast<std::int64_t>(dst.extent(i));
      rest /= static_cast<std::int64_t>(dst.extent(i));
    }
    host_element(dst, index) += host_element(src, index);
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

}  // namespace Impl

template <class DataType, class... Props>
class DTensor {
 public:
  using view_type = Kokkos::View<DataType, Props...>;
  using value_type = typename view_type::value_type;
  using non_const_value_type = typename view_type::non_const_value_type;
  using array_layout = typename view_type::array_layout;
  using memory_space = typename view_type::memory_space;
  using execution_space = typename view_type::execution_space;
  static constexpr int rank = Impl::view_rank<view_type>();

  // Allocates (zero-initialised) only the calling rank's shard.
  DTensor(const std::string& label, const DeviceMesh& mesh,
          std::vector<std::int64_t> global_shape, std::vector<Placement> placements)
      : DTensor(label, make_spec(mesh, std::move(global_shape), std::move(placements))) {}

  // Deferred form: records the spec; allocate() makes the local View later.
  DTensor(const std::string& label, const DeviceMesh& mesh,
          std::vector<std::int64_t> global_shape, std::vector<Placement> placements,
          DeferredAllocation)
      : DTensor(label, make_spec(mesh, std::move(global_shape), std::move(placements)),
                deferred_allocation) {}

  DTensor(const std::string& label, DTensorSpec spec)
      : DTensor(label, std::move(spec), deferred_allocation) {
    allocate();
  }

  DTensor(const std::string& label, DTensorSpec spec, DeferredAllocation)
      : label_(label), spec_(std::move(spec)) {
    check_rank(spec_.global_shape());
  }

  // Wraps an existing local View; its extents must equal the spec's local shape.
  DTensor(view_type local, DTensorSpec spec)
      : label_(local.label()), spec_(std::move(spec)), local_(std::move(local)), allocated_(true) {
    check_rank(spec_.global_shape());
    if (Impl::view_extents(local_) != spec_.local_shape())
      Impl::throw_invalid_argument(
          "KokkosDTensor::DTensor", "local", Impl::format_value(Impl::view_extents(local_)),
          "extents must equal the local shape " + Impl::format_value(spec_.local_shape()) +
              " of " + spec_.to_string());
  }

  // Allocates the local shard (zero-initialised) if not yet allocated.
  void allocate() {
    if (allocated_) return;
    local_ = Impl::allocate_view<view_type>(label_, spec_.local_shape());
    if (Impl::view_extents(local_) != spec_.local_shape())
      Impl::throw_invalid_argument(
          "KokkosDTensor::DTensor", "global_shape", Impl::format_value(spec_.global_shape()),
          "the local shape " + Impl::format_value(spec_.local_shape()) +
              " does not fit the static extents of the View type");
    allocated_ = true;
  }
  bool is_allocated() const { return allocated_; }

  view_type local() const { return local_; }
  const DTensorSpec& spec() const { return spec_; }
  const DeviceMesh& mesh() const { return spec_.mesh(); }
  const std::vector<Placement>& placements() const { return spec_.placements(); }
  const std::vector<std::int64_t>& global_shape() const { return spec_.global_shape(); }
  // The calling rank's shard: its extents and where it starts in the global tensor.
  const std::vector<std::int64_t>& local_shape() const { return spec_.local_shape(); }
  const std::vector<std::int64_t>& global_offset() const { return spec_.global_offset(); }
  const std::string& label() const { return label_; }

  // The whole tensor on every mesh rank (collective over the mesh ranks). Ranks outside
  // the mesh get an empty View without communicating.
  view_type full_tensor() const;

 private:
  template <class BufferSpace>
  view_type gather_through(const char* function) const;
  static DTensorSpec make_spec(const DeviceMesh& mesh, std::vector<std::int64_t> global_shape,
                               std::vector<Placement> placements) {
    check_rank(global_shape);
    return DTensorSpec(mesh, std::move(placements), std::move(global_shape));
  }
  static void check_rank(const std::vector<std::int64_t>& global_shape) {
    if (static_cast<int>(global_shape.size()) != rank)
      Impl::throw_invalid_argument("KokkosDTensor::DTensor", "global_shape",
                                   Impl::format_value(global_shape),
                                   "must have one extent per View dim (" +
                                       std::to_string(rank) + ")");
  }
  void require_allocated(const char* function) const {
    if (!allocated_)
      Impl::throw_runtime_error(function, "the DTensor \"" + label_ +
                                              "\" is not allocated (call allocate() first)");
  }

  std::string label_;
  DTensorSpec spec_;
  view_type local_;
  bool allocated_ = false;
};

template <class DataType, class... Props>
typename DTensor<DataType, Props...>::view_type DTensor<DataType, Props...>::full_tensor() const {
  const char* function = "KokkosDTensor::DTensor::full_tensor";
  require_allocated(function);
  if (!spec_.mesh().coordinate())
    return Impl::allocate_view<view_type>(label_, std::vector<std::int64_t>(rank, 0));
  // Device data goes to MPI directly when MPI is GPU-aware (Partial sums are done on the
  // host, so they always stage); otherwise it is staged through host memory.
  if constexpr (!Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible) {
    if (!spec_.has_partial() && Impl::mpi_is_gpu_aware()) {
      Impl::debug_log("full_tensor(\"" + label_ + "\"): device buffers passed to GPU-aware MPI");
      return gather_through<memory_space>(function);
    }
    Impl::debug_log("full_tensor(\"" + label_ + "\"): staged through host memory (MPI is not GPU-aware)");
  }
  return gather_through<Kokkos::HostSpace>(function);
}

// All-gather with send/receive buffers (and the unpacking) in BufferSpace.
template <class DataType, class... Props>
template <class BufferSpace>
typename DTensor<DataType, Props...>::view_type DTensor<DataType, Props...>::gather_through(
    const char* function) const {
  const DeviceMesh& mesh = spec_.mesh();
  using packed_view =
      Kokkos::View<typename view_type::non_const_data_type, Kokkos::LayoutRight, BufferSpace,
                   Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using buffer_view = Kokkos::View<non_const_value_type*, BufferSpace>;
  // Every rank computes every shard from the spec: no metadata exchange. One replica per
  // shard sends (coordinate 0 along Replicate dims); Partial dims all send and are summed.
  const std::vector<Placement>& placements = spec_.placements();
  const int mesh_size = mesh.size();
  std::vector<LocalShapeAndOffset> boxes(mesh_size);
  std::vector<std::vector<int>> coordinates(mesh_size);
  std::vector<int> counts(mesh_size, 0);
  std::vector<int> displacements(mesh_size, 0);
  std::int64_t total = 0;
  for (int p = 0; p < mesh_size; ++p) {
    coordinates[p] = *mesh.coordinate_of(mesh.ranks()[p]);
    boxes[p] = spec_.local_shape_and_global_offset(coordinates[p]);
    std::int64_t count = 1;
    for (std::int64_t extent : boxes[p].local_shape) count *= extent;
    if (!Impl::is_first_along<Replicate>(placements, coordinates[p])) count = 0;
    if (total + count > INT_MAX)
      Impl::throw_runtime_error(function, "gathering " + spec_.to_string() +
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
    auto local_in_buffer_space = Kokkos::create_mirror_view(BufferSpace(), local_);
    Kokkos::deep_copy(local_in_buffer_space, local_);
    packed_view packed = Impl::wrap_pointer<packed_view>(send.data(), boxes[my_position].local_shape);
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
  view_type result = Impl::allocate_view<view_type>(label_, spec_.global_shape());
  auto result_in_buffer_space = Kokkos::create_mirror_view(BufferSpace(), result);
  for (int p = 0; p < mesh_size; ++p) {
    if (counts[p] == 0) continue;
    packed_view block =
        Impl::wrap_pointer<packed_view>(received.data() + displacements[p], boxes[p].local_shape);
    auto target = Impl::block_subview(result_in_buffer_space, boxes[p]);
    if (Impl::is_first_along<Partial>(placements, coordinates[p])) {
      Kokkos::deep_copy(target, block);
    } else if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, BufferSpace>::accessible) {
      Impl::host_add_into(target, block);
    }
  }
  Kokkos::deep_copy(result, result_in_buffer_space);
  return result;
}

// Each mesh rank copies its shard of `global` (which every rank holds); no communication.
// Ranks outside the mesh get an empty local View.
template <class DT>
DT distribute_tensor(const typename DT::view_type& global, const DeviceMesh& mesh,
                     std::vector<Placement> placements) {
  DTensorSpec spec(mesh, std::move(placements), Impl::view_extents(global));
  DT result(global.label(), spec);
  if (auto coordinate = mesh.coordinate()) {
    if (Impl::is_first_along<Partial>(spec.placements(), *coordinate)) {
      LocalShapeAndOffset box{spec.local_shape(), spec.global_offset()};
      Kokkos::deep_copy(result.local(), Impl::block_subview(global, box));
    }
  }
  return result;
}

}  // namespace KokkosDTensor

#endif
