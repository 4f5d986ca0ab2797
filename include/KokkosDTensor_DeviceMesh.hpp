#ifndef KOKKOSDTENSOR_DEVICEMESH_HPP
#define KOKKOSDTENSOR_DEVICEMESH_HPP

// DeviceMesh: an n-D array of MPI ranks (ranks of MPI_COMM_WORLD) with named dims.
//
// - Ranks are laid out row-major: the rank at coordinate (c0, ..., c_{n-1}) is
//   ranks()[c0 * shape[1] * ... + c_{n-1}].
// - Constructing a mesh does no communication (it only asks MPI_COMM_WORLD for the
//   caller's rank and the world size). A mesh may leave out the calling rank; then
//   coordinate() is empty.
// - Per-dim communicators are made on first use by comm(dim), collectively over the
//   ranks of the caller's sub-group of that dim only (MPI_Comm_create_group), cached,
//   and freed once when the last mesh sharing them goes away. Copies of a mesh and
//   the meshes derived from it (operator[], submesh, flatten) share one cache, so a
//   communicator obtained from a temporary sub-mesh stays valid while its parent lives.

#include <mpi.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace KokkosDTensor {

namespace Impl {
// Communicators keyed by the ordered list of world ranks they span; shared by a mesh,
// its copies and the meshes derived from it. Frees every communicator once, unless MPI
// is already finalized.
class CommunicatorCache;
}  // namespace Impl

/// An n-D array of ranks of MPI_COMM_WORLD with named dims, laid out row-major. Constructing
/// one does no communication; it may leave out the calling rank. Copies and derived meshes
/// share the per-dim communicators, which are made on first use and freed with the last mesh.
class DeviceMesh {
 public:
  /// `ranks`: world ranks in row-major order, product(shape) of them, all distinct.
  /// `dim_names`: one per dim and distinct, or empty for "dim0", "dim1", ...
  /// Throws std::invalid_argument if these do not hold, for an empty shape or an extent
  /// below 1, and std::runtime_error if MPI is not initialized or already finalized.
  DeviceMesh(std::vector<int> ranks, std::vector<int> shape,
             std::vector<std::string> dim_names = {});

  /// The number of mesh dims.
  int ndim() const { return static_cast<int>(shape_.size()); }
  int size() const { return static_cast<int>(ranks_.size()); }  ///< number of ranks
  /// The extent of one dim; throws std::invalid_argument for a dim outside [0, ndim()).
  int size(int dim) const;
  /// The extent of every dim.
  const std::vector<int>& shape() const { return shape_; }
  /// The world ranks of the mesh, in row-major order.
  const std::vector<int>& ranks() const { return ranks_; }
  /// The name of every dim.
  const std::vector<std::string>& dim_names() const { return dim_names_; }
  /// The dim called `name`; throws std::invalid_argument for an unknown name.
  int dim_index(const std::string& name) const;

  /// Whether world rank `rank` is in the mesh.
  bool contains(int rank) const;
  /// The caller's coordinate, empty if the caller is not in the mesh.
  std::optional<std::vector<int>> coordinate() const { return coordinate_; }
  /// Any world rank's coordinate, empty if that rank is not in the mesh.
  std::optional<std::vector<int>> coordinate_of(int rank) const;
  /// The world rank at a coordinate; throws std::invalid_argument for a coordinate outside
  /// the mesh.
  int rank_at(const std::vector<int>& coordinate) const;

  /// The caller's coordinate along a dim (PyTorch's get_local_rank); throws
  /// std::runtime_error if the caller is not in the mesh.
  int local_rank(int dim) const;
  /// local_rank() of the dim called `name`.
  int local_rank(const std::string& name) const;

  /// The 1-D sub-mesh along `name` that holds the caller.
  DeviceMesh operator[](const std::string& name) const;
  /// The sub-mesh over the named dims (in the order given) that holds the caller. Throws
  /// std::invalid_argument for unknown or repeated names, std::runtime_error if the caller
  /// is not in the mesh.
  DeviceMesh submesh(const std::vector<std::string>& names) const;
  /// A 1-D mesh over all ranks of this mesh, in row-major order, with the dim name `name`
  /// (not empty).
  DeviceMesh flatten(const std::string& name) const;

  /// Communicator over the caller's sub-group along `dim`; its rank order is the mesh
  /// order, so MPI_Comm_rank(comm(d)) == local_rank(d). Collective over that sub-group
  /// on first use. Throws std::runtime_error if the caller is not in the mesh.
  MPI_Comm comm(int dim) const;
  /// comm() of the dim called `name`.
  MPI_Comm comm(const std::string& name) const { return comm(dim_index(name)); }
  /// Communicator over all ranks of the mesh, in mesh order (collective over them on
  /// first use). Throws std::runtime_error if the caller is not in the mesh.
  MPI_Comm mesh_comm() const;

  /// `DeviceMesh(shape=[2, 2], dim_names=["dp", "tp"], ranks=[0, 1, 2, 3])`
  std::string to_string() const;

  /// Same ranks, shape and dim names.
  bool operator==(const DeviceMesh& other) const;
  /// The negation of operator==.
  bool operator!=(const DeviceMesh& other) const { return !(*this == other); }

 private:
  struct DerivedTag {};
  // For meshes derived from this one: no validation, shares the communicator cache.
  DeviceMesh(DerivedTag, std::vector<int> ranks, std::vector<int> shape,
             std::vector<std::string> dim_names,
             std::shared_ptr<Impl::CommunicatorCache> communicators);
  void set_caller_coordinate();
  const std::vector<int>& require_caller_coordinate(const char* function) const;
  int checked_dim(int dim, const char* function) const;
  // World ranks of the caller's sub-group along `dims` (in that order), mesh order.
  std::vector<int> caller_group_ranks(const std::vector<int>& dims, const char* function) const;

  std::vector<int> ranks_;
  std::vector<int> shape_;
  std::vector<std::string> dim_names_;
  int world_rank_ = 0;
  int world_size_ = 0;
  std::optional<std::vector<int>> coordinate_;
  std::shared_ptr<Impl::CommunicatorCache> communicators_;
};

/// A mesh over all of MPI_COMM_WORLD, ranks laid out row-major; product(shape) must equal
/// the world size (else std::invalid_argument). No communication.
DeviceMesh init_device_mesh(std::vector<int> shape, std::vector<std::string> dim_names = {});

}  // namespace KokkosDTensor

#endif
