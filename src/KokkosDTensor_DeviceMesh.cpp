#include <KokkosDTensor_DeviceMesh.hpp>
#include <impl/KokkosDTensor_Error.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <utility>

namespace KokkosDTensor {
namespace Impl {

class CommunicatorCache {
 public:
  CommunicatorCache() = default;
  CommunicatorCache(const CommunicatorCache&) = delete;
  CommunicatorCache& operator=(const CommunicatorCache&) = delete;

  ~CommunicatorCache() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) return;  // MPI_Comm_free must not run after MPI_Finalize
    for (auto& entry : communicators_) MPI_Comm_free(&entry.second);
  }

  // The communicator over `world_ranks` (in that order); on first use it is created
  // collectively by exactly those ranks.
  MPI_Comm get_or_create(const std::vector<int>& world_ranks) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = communicators_.find(world_ranks);
    if (found != communicators_.end()) return found->second;
    MPI_Group world_group = MPI_GROUP_NULL;
    MPI_Group sub_group = MPI_GROUP_NULL;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    MPI_Group_incl(world_group, static_cast<int>(world_ranks.size()), world_ranks.data(),
                   &sub_group);
    MPI_Comm communicator = MPI_COMM_NULL;
    MPI_Comm_create_group(MPI_COMM_WORLD, sub_group, create_group_tag, &communicator);
    MPI_Group_free(&sub_group);
    MPI_Group_free(&world_group);
    communicators_.emplace(world_ranks, communicator);
    return communicator;
  }

 private:
  static constexpr int create_group_tag = 0x4b44;  // "KD"
  std::mutex mutex_;
  std::map<std::vector<int>, MPI_Comm> communicators_;
};

}  // namespace Impl

namespace {

constexpr const char* mesh_function = "KokkosDTensor::DeviceMesh";

void require_mpi_running(const char* function) {
  int initialized = 0;
  int finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized)
    Impl::throw_runtime_error(function,
                              "MPI must be initialized (and not yet finalized) to use a mesh");
}

std::vector<std::string> default_dim_names(std::size_t ndim) {
  std::vector<std::string> names;
  for (std::size_t d = 0; d < ndim; ++d) names.push_back("dim" + std::to_string(d));
  return names;
}

std::string range_text(int upper) { return "[0, " + std::to_string(upper) + ")"; }

}  // namespace

DeviceMesh::DeviceMesh(std::vector<int> ranks, std::vector<int> shape,
                       std::vector<std::string> dim_names)
    : ranks_(std::move(ranks)), shape_(std::move(shape)), dim_names_(std::move(dim_names)) {
  require_mpi_running(mesh_function);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size_);

  if (shape_.empty())
    Impl::throw_invalid_argument(mesh_function, "shape", Impl::format_value(shape_),
                                 "must have at least one dim");
  std::int64_t product = 1;
  for (int extent : shape_) {
    if (extent < 1)
      Impl::throw_invalid_argument(mesh_function, "shape", Impl::format_value(shape_),
                                   "every extent must be at least 1");
    product *= extent;
    if (product > world_size_) break;  // cannot match; avoids overflow
  }
  if (product != static_cast<std::int64_t>(ranks_.size()))
    Impl::throw_invalid_argument(mesh_function, "shape", Impl::format_value(shape_),
                                 "product of the extents must equal the number of ranks (" +
                                     std::to_string(ranks_.size()) + ")");
  std::set<int> seen;
  for (int rank : ranks_) {
    if (rank < 0 || rank >= world_size_)
      Impl::throw_invalid_argument(mesh_function, "ranks", Impl::format_value(ranks_),
                                   "rank " + std::to_string(rank) + " lies outside " +
                                       range_text(world_size_) + " (the ranks of MPI_COMM_WORLD)");
    if (!seen.insert(rank).second)
      Impl::throw_invalid_argument(mesh_function, "ranks", Impl::format_value(ranks_),
                                   "rank " + std::to_string(rank) + " appears more than once");
  }
  if (dim_names_.empty()) dim_names_ = default_dim_names(shape_.size());
  if (dim_names_.size() != shape_.size())
    Impl::throw_invalid_argument(
        mesh_function, "dim_names", Impl::format_value(dim_names_),
        "must hold one name per mesh dim (" + std::to_string(shape_.size()) + ") or be empty");
  std::set<std::string> seen_names;
  for (const auto& name : dim_names_) {
    if (name.empty())
      Impl::throw_invalid_argument(mesh_function, "dim_names", Impl::format_value(dim_names_),
                                   "names must not be empty");
    if (!seen_names.insert(name).second)
      Impl::throw_invalid_argument(mesh_function, "dim_names", Impl::format_value(dim_names_),
                                   "name \"" + name + "\" appears more than once");
  }
  communicators_ = std::make_shared<Impl::CommunicatorCache>();
  set_caller_coordinate();
}

DeviceMesh::DeviceMesh(DerivedTag, std::vector<int> ranks, std::vector<int> shape,
                       std::vector<std::string> dim_names,
                       std::shared_ptr<Impl::CommunicatorCache> communicators)
    : ranks_(std::move(ranks)),
      shape_(std::move(shape)),
      dim_names_(std::move(dim_names)),
      communicators_(std::move(communicators)) {
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size_);
  set_caller_coordinate();
}

void DeviceMesh::set_caller_coordinate() { coordinate_ = coordinate_of(world_rank_); }

int DeviceMesh::checked_dim(int dim, const char* function) const {
  if (dim < 0 || dim >= ndim())
    Impl::throw_invalid_argument(function, "dim", Impl::format_value(dim),
                                 "must lie in " + range_text(ndim()) + " for " + to_string());
  return dim;
}

int DeviceMesh::size(int dim) const {
  return shape_[checked_dim(dim, "KokkosDTensor::DeviceMesh::size")];
}

int DeviceMesh::dim_index(const std::string& name) const {
  auto found = std::find(dim_names_.begin(), dim_names_.end(), name);
  if (found == dim_names_.end())
    Impl::throw_invalid_argument("KokkosDTensor::DeviceMesh", "name", Impl::format_value(name),
                                 "is not a dim of " + to_string());
  return static_cast<int>(found - dim_names_.begin());
}

bool DeviceMesh::contains(int rank) const {
  return std::find(ranks_.begin(), ranks_.end(), rank) != ranks_.end();
}

std::optional<std::vector<int>> DeviceMesh::coordinate_of(int rank) const {
  auto found = std::find(ranks_.begin(), ranks_.end(), rank);
  if (found == ranks_.end()) return std::nullopt;
  int position = static_cast<int>(found - ranks_.begin());
  std::vector<int> coordinate(shape_.size());
  for (int d = ndim() - 1; d >= 0; --d) {
    coordinate[d] = position % shape_[d];
    position /= shape_[d];
  }
  return coordinate;
}

int DeviceMesh::rank_at(const std::vector<int>& coordinate) const {
  const char* function = "KokkosDTensor::DeviceMesh::rank_at";
  if (static_cast<int>(coordinate.size()) != ndim())
    Impl::throw_invalid_argument(
        function, "coordinate", Impl::format_value(coordinate),
        "must have one entry per mesh dim (" + std::to_string(ndim()) + ")");
  int position = 0;
  for (int d = 0; d < ndim(); ++d) {
    if (coordinate[d] < 0 || coordinate[d] >= shape_[d])
      Impl::throw_invalid_argument(function, "coordinate", Impl::format_value(coordinate),
                                   "must lie inside the mesh shape " + Impl::format_value(shape_));
    position = position * shape_[d] + coordinate[d];
  }
  return ranks_[position];
}

const std::vector<int>& DeviceMesh::require_caller_coordinate(const char* function) const {
  if (!coordinate_)
    Impl::throw_runtime_error(function, "the calling rank " + std::to_string(world_rank_) +
                                            " is not part of " + to_string());
  return *coordinate_;
}

int DeviceMesh::local_rank(int dim) const {
  const char* function = "KokkosDTensor::DeviceMesh::local_rank";
  checked_dim(dim, function);
  return require_caller_coordinate(function)[dim];
}

int DeviceMesh::local_rank(const std::string& name) const { return local_rank(dim_index(name)); }

std::vector<int> DeviceMesh::caller_group_ranks(const std::vector<int>& dims,
                                                const char* function) const {
  std::vector<int> coordinate = require_caller_coordinate(function);
  int count = 1;
  for (int d : dims) count *= shape_[d];
  std::vector<int> group;
  group.reserve(count);
  for (int index = 0; index < count; ++index) {
    int rest = index;
    for (int k = static_cast<int>(dims.size()) - 1; k >= 0; --k) {
      coordinate[dims[k]] = rest % shape_[dims[k]];
      rest /= shape_[dims[k]];
    }
    group.push_back(rank_at(coordinate));
  }
  return group;
}

DeviceMesh DeviceMesh::operator[](const std::string& name) const { return submesh({name}); }

DeviceMesh DeviceMesh::submesh(const std::vector<std::string>& names) const {
  const char* function = "KokkosDTensor::DeviceMesh::submesh";
  if (names.empty())
    Impl::throw_invalid_argument(function, "names", Impl::format_value(names),
                                 "must name at least one dim");
  std::vector<int> dims;
  std::vector<int> sub_shape;
  for (const auto& name : names) {
    int dim = dim_index(name);
    if (std::find(dims.begin(), dims.end(), dim) != dims.end())
      Impl::throw_invalid_argument(function, "names", Impl::format_value(names),
                                   "name \"" + name + "\" appears more than once");
    dims.push_back(dim);
    sub_shape.push_back(shape_[dim]);
  }
  return DeviceMesh(DerivedTag{}, caller_group_ranks(dims, function), std::move(sub_shape), names,
                    communicators_);
}

DeviceMesh DeviceMesh::flatten(const std::string& name) const {
  if (name.empty())
    Impl::throw_invalid_argument("KokkosDTensor::DeviceMesh::flatten", "name",
                                 Impl::format_value(name), "must not be empty");
  return DeviceMesh(DerivedTag{}, ranks_, {size()}, {name}, communicators_);
}

MPI_Comm DeviceMesh::comm(int dim) const {
  const char* function = "KokkosDTensor::DeviceMesh::comm";
  checked_dim(dim, function);
  require_mpi_running(function);
  return communicators_->get_or_create(caller_group_ranks({dim}, function));
}

MPI_Comm DeviceMesh::mesh_comm() const {
  const char* function = "KokkosDTensor::DeviceMesh::mesh_comm";
  require_caller_coordinate(function);
  require_mpi_running(function);
  return communicators_->get_or_create(ranks_);
}

std::string DeviceMesh::to_string() const {
  return "DeviceMesh(shape=" + Impl::format_value(shape_) +
         ", dim_names=" + Impl::format_value(dim_names_) + ", ranks=" + Impl::format_value(ranks_) +
         ")";
}

bool DeviceMesh::operator==(const DeviceMesh& other) const {
  return ranks_ == other.ranks_ && shape_ == other.shape_ && dim_names_ == other.dim_names_;
}

DeviceMesh init_device_mesh(std::vector<int> shape, std::vector<std::string> dim_names) {
  const char* function = "KokkosDTensor::init_device_mesh";
  require_mpi_running(function);
  int world_size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  std::int64_t product = 1;
  for (int extent : shape) {
    product *= extent;
    if (product > world_size || product < 1) break;
  }
  if (shape.empty() || product != world_size)
    Impl::throw_invalid_argument(function, "shape", Impl::format_value(shape),
                                 "product of the extents must equal the size of "
                                 "MPI_COMM_WORLD (" +
                                     std::to_string(world_size) + ")");
  std::vector<int> ranks(world_size);
  for (int r = 0; r < world_size; ++r) ranks[r] = r;
  return DeviceMesh(std::move(ranks), std::move(shape), std::move(dim_names));
}

}  // namespace KokkosDTensor
