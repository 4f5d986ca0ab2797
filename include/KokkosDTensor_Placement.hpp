#ifndef KOKKOSDTENSOR_PLACEMENT_HPP
#define KOKKOSDTENSOR_PLACEMENT_HPP

// Placements (how a tensor lies on each mesh dim), DTensorSpec (mesh + placements +
// global shape) and the local shape and global offset of a shard.
//
// Sharding follows torch.chunk: a tensor dim of current size S split over n shards gets
// chunks of ceil(S/n) elements; trailing shards may be smaller or empty. Placements are
// applied in mesh-dim order, each Shard(d) chunking the *current* local size of tensor
// dim d and adding to its offset, so a tensor dim sharded over several mesh dims is
// nested in placement order (PyTorch's compute_local_shape_and_global_offset).
// An empty shard's offset is clamped: it is where the shard would start, at most the end
// of its parent chunk.

#include <KokkosDTensor_DeviceMesh.hpp>
#include <impl/KokkosDTensor_Error.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace KokkosDTensor {

/// The tensor dim `dim` is split over the mesh dim.
struct Shard {
  int dim = 0;  ///< the tensor dim that is split
  constexpr Shard() = default;
  /// Shards tensor dim `tensor_dim`.
  constexpr Shard(int tensor_dim) : dim(tensor_dim) {}  // NOLINT: Shard(0) and Shard{0}
};
/// Every rank along the mesh dim holds the whole (remaining) tensor.
struct Replicate {};
/// Every rank along the mesh dim holds a partial value; the tensor is their sum.
struct Partial {};

/// How a tensor lies on one mesh dim.
using Placement = std::variant<Shard, Replicate, Partial>;

/// Same tensor dim.
constexpr bool operator==(const Shard& a, const Shard& b) { return a.dim == b.dim; }
/// Different tensor dims.
constexpr bool operator!=(const Shard& a, const Shard& b) { return !(a == b); }
/// Always true.
constexpr bool operator==(const Replicate&, const Replicate&) { return true; }
/// Always false.
constexpr bool operator!=(const Replicate&, const Replicate&) { return false; }
/// Always true.
constexpr bool operator==(const Partial&, const Partial&) { return true; }
/// Always false.
constexpr bool operator!=(const Partial&, const Partial&) { return false; }

/// Whether `p` is a Shard.
inline bool is_shard(const Placement& p) { return std::holds_alternative<Shard>(p); }
/// Whether `p` is Replicate.
inline bool is_replicate(const Placement& p) { return std::holds_alternative<Replicate>(p); }
/// Whether `p` is Partial.
inline bool is_partial(const Placement& p) { return std::holds_alternative<Partial>(p); }

/// The short form: "S0", "R", "P".
inline std::string to_string(const Placement& p) {
  if (const Shard* shard = std::get_if<Shard>(&p)) return "S" + std::to_string(shard->dim);
  return is_replicate(p) ? "R" : "P";
}

/// "S0,R" (no spaces); the inverse of parse_placements.
inline std::string to_string(const std::vector<Placement>& placements) {
  std::string text;
  for (std::size_t i = 0; i < placements.size(); ++i) {
    if (i) text += ",";
    text += to_string(placements[i]);
  }
  return text;
}

/// Parses "S0,R,P" (tokens `S<non-negative integer>`, R, P separated by commas). Throws
/// std::invalid_argument naming the bad token.
inline std::vector<Placement> parse_placements(const std::string& text) {
  const char* function = "KokkosDTensor::parse_placements";
  std::vector<Placement> placements;
  std::size_t start = 0;
  while (true) {
    std::size_t comma = text.find(',', start);
    std::string token =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (token == "R") {
      placements.emplace_back(Replicate{});
    } else if (token == "P") {
      placements.emplace_back(Partial{});
    } else {
      bool valid = token.size() >= 2 && token.size() <= 10 && token[0] == 'S';
      for (std::size_t i = 1; valid && i < token.size(); ++i)
        valid = token[i] >= '0' && token[i] <= '9';
      if (!valid)
        Impl::throw_invalid_argument(
            function, "text", Impl::format_value(text),
            "token " + Impl::format_value(token) + " is not S<dim>, R or P");
      long long dim = std::stoll(token.substr(1));
      if (dim > 1000000)
        Impl::throw_invalid_argument(
            function, "text", Impl::format_value(text),
            "token " + Impl::format_value(token) + " has a shard dim that is too large");
      placements.emplace_back(Shard{static_cast<int>(dim)});
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return placements;
}

/// The block of the global tensor that one shard holds.
struct LocalShapeAndOffset {
  std::vector<std::int64_t> local_shape;    ///< the shard's extents
  std::vector<std::int64_t> global_offset;  ///< the global index of its first element
};

namespace Impl {

// "[S0, R]", for error messages.
inline std::string format_placements(const std::vector<Placement>& placements) {
  std::string text = "[";
  for (std::size_t i = 0; i < placements.size(); ++i) {
    if (i) text += ", ";
    text += to_string(placements[i]);
  }
  return text + "]";
}

inline void validate_global_shape(const std::vector<std::int64_t>& global_shape,
                                  const char* function) {
  for (std::int64_t extent : global_shape)
    if (extent < 0)
      throw_invalid_argument(function, "global_shape", format_value(global_shape),
                             "extents must not be negative");
  // Every partial product of the extents (global_size(), View allocation) must fit in
  // int64: a product that wrapped around would allocate a View far smaller than its extents.
  std::int64_t count = 1;
  for (std::int64_t extent : global_shape) {
    if (extent != 0 && count > std::numeric_limits<std::int64_t>::max() / extent)
      throw_invalid_argument(function, "global_shape", format_value(global_shape),
                             "the product of the extents must be at most 2^63 - 1");
    count *= extent;
  }
}

inline void validate_placements(const std::vector<Placement>& placements, int mesh_ndim,
                                int tensor_rank, const char* function) {
  if (static_cast<int>(placements.size()) != mesh_ndim)
    throw_invalid_argument(
        function, "placements", format_placements(placements),
        "must hold one placement per mesh dim (" + std::to_string(mesh_ndim) + ")");
  for (const Placement& p : placements)
    if (const Shard* shard = std::get_if<Shard>(&p))
      if (shard->dim < 0 || shard->dim >= tensor_rank)
        throw_invalid_argument(function, "placements", format_placements(placements),
                               "shard dim " + std::to_string(shard->dim) + " lies outside [0, " +
                                   std::to_string(tensor_rank) + ") (the tensor rank)");
}

}  // namespace Impl

/// Where the shard at mesh `coordinate` lies in the global tensor. Pure: no MPI.
/// Throws std::invalid_argument for negative extents, a placements count other than
/// mesh_shape.size(), shard dims out of range, or a coordinate outside the mesh.
inline LocalShapeAndOffset local_shape_and_global_offset(
    const std::vector<std::int64_t>& global_shape, const std::vector<int>& mesh_shape,
    const std::vector<Placement>& placements, const std::vector<int>& coordinate) {
  const char* function = "KokkosDTensor::local_shape_and_global_offset";
  Impl::validate_global_shape(global_shape, function);
  Impl::validate_placements(placements, static_cast<int>(mesh_shape.size()),
                            static_cast<int>(global_shape.size()), function);
  bool coordinate_valid = coordinate.size() == mesh_shape.size();
  for (std::size_t m = 0; coordinate_valid && m < mesh_shape.size(); ++m)
    coordinate_valid = mesh_shape[m] >= 1 && coordinate[m] >= 0 && coordinate[m] < mesh_shape[m];
  if (!coordinate_valid)
    Impl::throw_invalid_argument(
        function, "coordinate", Impl::format_value(coordinate),
        "must lie inside the mesh shape " + Impl::format_value(mesh_shape));

  LocalShapeAndOffset result{global_shape, std::vector<std::int64_t>(global_shape.size(), 0)};
  for (std::size_t m = 0; m < mesh_shape.size(); ++m) {
    const Shard* shard = std::get_if<Shard>(&placements[m]);
    if (!shard) continue;
    const std::int64_t current = result.local_shape[shard->dim];
    const std::int64_t shards = mesh_shape[m];
    // ceil(current / shards) (torch.chunk), written so that no intermediate overflows
    // for extents near 2^63.
    const std::int64_t chunk = current / shards + (current % shards != 0 ? 1 : 0);
    const std::int64_t begin =
        coordinate[m] == 0 || chunk <= current / coordinate[m] ? chunk * coordinate[m] : current;
    const std::int64_t end = begin + std::min(chunk, current - begin);
    result.local_shape[shard->dim] = end - begin;
    result.global_offset[shard->dim] += begin;
  }
  return result;
}

/// A mesh, one placement per mesh dim and the global shape; validated on construction.
/// Also holds the calling rank's local shape and global offset (all zeros if the caller
/// is not in the mesh).
class DTensorSpec {
 public:
  /// Throws std::invalid_argument for negative extents (or an element count too large for
  /// int64), a placements count other than mesh.ndim(), or shard dims out of range.
  DTensorSpec(DeviceMesh mesh, std::vector<Placement> placements,
              std::vector<std::int64_t> global_shape)
      : mesh_(std::move(mesh)),
        placements_(std::move(placements)),
        global_shape_(std::move(global_shape)) {
    const char* function = "KokkosDTensor::DTensorSpec";
    Impl::validate_global_shape(global_shape_, function);
    Impl::validate_placements(placements_, mesh_.ndim(), tensor_rank(), function);
    if (auto coordinate = mesh_.coordinate()) {
      local_ = local_shape_and_global_offset(*coordinate);
    } else {
      local_.local_shape.assign(global_shape_.size(), 0);
      local_.global_offset.assign(global_shape_.size(), 0);
    }
  }

  /// The mesh.
  const DeviceMesh& mesh() const { return mesh_; }
  /// One placement per mesh dim.
  const std::vector<Placement>& placements() const { return placements_; }
  /// The extents of the global tensor.
  const std::vector<std::int64_t>& global_shape() const { return global_shape_; }
  /// The number of tensor dims.
  int tensor_rank() const { return static_cast<int>(global_shape_.size()); }
  /// The number of elements of the global tensor.
  std::int64_t global_size() const {
    std::int64_t n = 1;
    for (std::int64_t extent : global_shape_) n *= extent;
    return n;
  }

  /// The calling rank's shard extents (zeros if the caller is not in the mesh).
  const std::vector<std::int64_t>& local_shape() const { return local_.local_shape; }
  /// Where the calling rank's shard starts in the global tensor (zeros outside the mesh).
  const std::vector<std::int64_t>& global_offset() const { return local_.global_offset; }
  /// The shard at any mesh coordinate.
  LocalShapeAndOffset local_shape_and_global_offset(const std::vector<int>& coordinate) const {
    return KokkosDTensor::local_shape_and_global_offset(global_shape_, mesh_.shape(), placements_,
                                                        coordinate);
  }

  /// Whether any placement is Partial.
  bool has_partial() const {
    for (const Placement& p : placements_)
      if (is_partial(p)) return true;
    return false;
  }

  /// `DTensorSpec(mesh=DeviceMesh(...), placements=S0,R, global_shape=[7, 13])`
  std::string to_string() const {
    return "DTensorSpec(mesh=" + mesh_.to_string() +
           ", placements=" + KokkosDTensor::to_string(placements_) +
           ", global_shape=" + Impl::format_value(global_shape_) + ")";
  }

  /// Same mesh, placements and global shape.
  bool operator==(const DTensorSpec& other) const {
    return mesh_ == other.mesh_ && placements_ == other.placements_ &&
           global_shape_ == other.global_shape_;
  }
  /// The negation of operator==.
  bool operator!=(const DTensorSpec& other) const { return !(*this == other); }

 private:
  DeviceMesh mesh_;
  std::vector<Placement> placements_;
  std::vector<std::int64_t> global_shape_;
  LocalShapeAndOffset local_;
};

/// The shard at `coordinate` of a spec.
inline LocalShapeAndOffset local_shape_and_global_offset(const DTensorSpec& spec,
                                                         const std::vector<int>& coordinate) {
  return spec.local_shape_and_global_offset(coordinate);
}

}  // namespace KokkosDTensor

#endif
