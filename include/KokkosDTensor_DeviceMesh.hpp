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

class DeviceMesh {
 public:
  // `ranks`: world ranks in row-major order, product(shape) of them, all distinct.
  // `dim_names`: one per dim and distinct, or empty for "dim0", "dim1", ...
  DeviceMesh(std::vector<int> ranks, std::vector<int> shape,
             std::vector<std::string> dim_names = {});

  int ndim() const { return static_cast<int>(shape_.size()); }
  int size() const { return static_cast<int>(ranks_.size()); }  // number of ranks
  int size(int dim) const;                                      // extent of one dim
  const std::vector<int>& shape() const { return shape_; }
  const std::vector<int>& ranks() const { return ranks_; }
  const std::vector<std::string>& dim_names() const { return dim_names_; }
  int dim_index(const std::string& name) const;  // throws for an unknown name

  bool contains(int rank) const;
  // The caller's coordinate, empty if the caller is not in the mesh.
  std::optional<std::vector<int>> coordinate() const { return coordinate_; }
  // Any rank's coordinate, empty if that rank is not in the mesh.
  std::optional<std::vector<int>> coordinate_of(int rank) const;
  // The world rank at a coordinate.
  int rank_at(const std::vector<int>& coordinate) const;

  // The caller's coordinate along a dim (PyTorch's get_local_rank); throws
  // std::runtime_error if the caller is not in the mesh.
  int local_rank(int dim) const;
  int local_rank(const std::string& name) const;

  // The 1-D sub-mesh along `name` that holds the caller.
  DeviceMesh operator[](const std::string& name) const;
  // The sub-mesh over the named dims (in the order given) that holds the caller.
  DeviceMesh submesh(const std::vector<std::string>& names) const;
  // A 1-D mesh over all ranks of this mesh, in row-major order.
  DeviceMesh flatten(const std::string& name) const;

  // Communicator over the caller's sub-group along `dim`; its rank order is the mesh
  // order, so MPI_Comm_rank(comm(d)) == local_rank(d). Collective over that sub-group
  // on first use. Throws std::runtime_error if the caller is not in the mesh.
  MPI_Comm comm(int dim) const;
  MPI_Comm comm(const std::string& name) const { return comm(dim_index(name)); }
  // Communicator over all ranks of the mesh, in mesh order (collective over them on
  // first use). Throws std::runtime_error if the caller is not in the mesh.
  MPI_Comm mesh_comm() const;

  // "DeviceMesh(shape=[2, 2], dim_names=["dp", "tp"], ranks=[0, 1, 2, 3])"
  std::string to_string() const;

  // Same ranks, shape and dim names.
  bool operator==(const DeviceMesh& other) const;
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

// A mesh over all of MPI_COMM_WORLD, ranks laid out row-major; product(shape) must equal
// the world size. No communication.
DeviceMesh init_device_mesh(std::vector<int> shape, std::vector<std::string> dim_names = {});

}  // namespace KokkosDTensor

#endif
