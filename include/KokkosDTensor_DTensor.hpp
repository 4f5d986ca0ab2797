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
#include <KokkosDTensor_Placement.hpp>
#include <impl/KokkosDTensor_Error.hpp>
#include <impl/KokkosDTensor_Gather.hpp>
#include <impl/KokkosDTensor_MpiSupport.hpp>
#include <impl/KokkosDTensor_StridedCopy.hpp>
#include <impl/KokkosDTensor_StridedData.hpp>
#include <impl/KokkosDTensor_ViewHelpers.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace KokkosDTensor {

/// Tag for the DTensor constructors that do not allocate (deferred, "meta" initialisation).
struct DeferredAllocation {
  explicit DeferredAllocation() = default;
};
/// The DeferredAllocation tag to pass to the DTensor constructors that do not allocate.
inline constexpr DeferredAllocation deferred_allocation{};

/// The calling rank's shard of a global tensor, held as a `Kokkos::View<DataType, Props...>`,
/// plus its DTensorSpec (mesh, placements, global shape). Ranks outside the mesh hold an
/// empty local View. The constructors throw std::invalid_argument for a global shape with
/// another rank than the View's, an invalid spec (see DTensorSpec), or a local shape that
/// does not fit the View type.
template <class DataType, class... Props>
class DTensor {
 public:
  /// The type of the local shard.
  using view_type = Kokkos::View<DataType, Props...>;
  /// The element type, as the View's.
  using value_type = typename view_type::value_type;
  /// The element type without const.
  using non_const_value_type = typename view_type::non_const_value_type;
  /// The layout of the local View.
  using array_layout = typename view_type::array_layout;
  /// The memory space of the local View.
  using memory_space = typename view_type::memory_space;
  /// The View's execution space: where ops given no execution-space instance run.
  using execution_space = typename view_type::execution_space;
  /// The number of tensor dims (the View's rank).
  static constexpr int rank = Impl::view_rank<view_type>();

  /// Allocates (zero-initialised) only the calling rank's shard.
  DTensor(const std::string& label, const DeviceMesh& mesh, std::vector<std::int64_t> global_shape,
          std::vector<Placement> placements)
      : DTensor(label, make_spec(mesh, std::move(global_shape), std::move(placements))) {}

  /// Deferred form: records the spec; allocate() makes the local View later.
  DTensor(const std::string& label, const DeviceMesh& mesh, std::vector<std::int64_t> global_shape,
          std::vector<Placement> placements, DeferredAllocation)
      : DTensor(label, make_spec(mesh, std::move(global_shape), std::move(placements)),
                deferred_allocation) {}

  /// Allocates (zero-initialised) the calling rank's shard of `spec`.
  DTensor(const std::string& label, DTensorSpec spec)
      : DTensor(label, std::move(spec), deferred_allocation) {
    allocate();
  }

  /// Deferred form of the spec constructor: allocate() makes the local View later.
  DTensor(const std::string& label, DTensorSpec spec, DeferredAllocation)
      : label_(label), spec_(std::move(spec)) {
    check_rank(spec_.global_shape());
  }

  /// Wraps an existing local View (no copy; the label is the View's). Its extents must equal
  /// the spec's local shape, else std::invalid_argument.
  DTensor(view_type local, DTensorSpec spec)
      : label_(local.label()), spec_(std::move(spec)), local_(std::move(local)), allocated_(true) {
    check_rank(spec_.global_shape());
    if (Impl::view_extents(local_) != spec_.local_shape())
      Impl::throw_invalid_argument(
          "KokkosDTensor::DTensor", "local", Impl::format_value(Impl::view_extents(local_)),
          "extents must equal the local shape " + Impl::format_value(spec_.local_shape()) + " of " +
              spec_.to_string());
  }

  /// Allocates the local shard (zero-initialised) if not yet allocated.
  void allocate() {
    if (allocated_) return;
    local_ = Impl::allocate_view<view_type>(label_, spec_.local_shape());
    if (Impl::view_extents(local_) != spec_.local_shape())
      Impl::throw_invalid_argument("KokkosDTensor::DTensor", "global_shape",
                                   Impl::format_value(spec_.global_shape()),
                                   "the local shape " + Impl::format_value(spec_.local_shape()) +
                                       " does not fit the static extents of the View type");
    allocated_ = true;
  }
  /// False only for a deferred DTensor before allocate().
  bool is_allocated() const { return allocated_; }

  /// The local shard (shares its data; an empty View before allocate()).
  view_type local() const { return local_; }
  /// The mesh, placements and global shape.
  const DTensorSpec& spec() const { return spec_; }
  /// The spec's mesh.
  const DeviceMesh& mesh() const { return spec_.mesh(); }
  /// The spec's placements, one per mesh dim.
  const std::vector<Placement>& placements() const { return spec_.placements(); }
  /// The extents of the global tensor.
  const std::vector<std::int64_t>& global_shape() const { return spec_.global_shape(); }
  /// The extents of the calling rank's shard (all 0 outside the mesh).
  const std::vector<std::int64_t>& local_shape() const { return spec_.local_shape(); }
  /// Where the calling rank's shard starts in the global tensor (all 0 outside the mesh).
  const std::vector<std::int64_t>& global_offset() const { return spec_.global_offset(); }
  /// The label of the local View.
  const std::string& label() const { return label_; }

  /// The whole tensor on every mesh rank (collective over the mesh ranks). Ranks outside
  /// the mesh get an empty View without communicating. Throws std::runtime_error if the
  /// DTensor is not allocated.
  view_type full_tensor() const;

 private:
  static DTensorSpec make_spec(const DeviceMesh& mesh, std::vector<std::int64_t> global_shape,
                               std::vector<Placement> placements) {
    check_rank(global_shape);
    return DTensorSpec(mesh, std::move(placements), std::move(global_shape));
  }
  static void check_rank(const std::vector<std::int64_t>& global_shape) {
    if (static_cast<int>(global_shape.size()) != rank)
      Impl::throw_invalid_argument(
          "KokkosDTensor::DTensor", "global_shape", Impl::format_value(global_shape),
          "must have one extent per View dim (" + std::to_string(rank) + ")");
  }
  void require_allocated(const char* function) const {
    if (!allocated_)
      Impl::throw_runtime_error(
          function, "the DTensor \"" + label_ + "\" is not allocated (call allocate() first)");
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
      return Impl::gather_through<memory_space>(local_, spec_, label_, function);
    }
    Impl::debug_log("full_tensor(\"" + label_ +
                    "\"): staged through host memory (MPI is not GPU-aware)");
  }
  return Impl::gather_through<Kokkos::HostSpace>(local_, spec_, label_, function);
}

/// Each mesh rank copies its shard of `global` (which every rank holds); no communication.
/// Ranks outside the mesh get an empty local View. For a Partial mesh dim only the rank at
/// coordinate 0 along it holds the values, the others zeros. `DT` is the DTensor type to
/// make, given explicitly: `distribute_tensor<DTensor<float**>>(global, mesh, placements)`.
template <class DT>
DT distribute_tensor(const typename DT::view_type& global, const DeviceMesh& mesh,
                     std::vector<Placement> placements) {
  DTensorSpec spec(mesh, std::move(placements), Impl::view_extents(global));
  DT result(global.label(), spec);
  if (auto coordinate = mesh.coordinate()) {
    if (Impl::is_first_along<Partial>(spec.placements(), *coordinate)) {
      using exec_space = typename DT::view_type::execution_space;
      Kokkos::fence();  // as deep_copy: after all work in flight on `global`
      Impl::copy_strided(
          exec_space(), Impl::strided_data(result.local()),
          Impl::block_data(Impl::strided_data(global), spec.global_offset(), spec.local_shape()));
      Kokkos::fence();
    }
  }
  return result;
}

}  // namespace KokkosDTensor

#endif
