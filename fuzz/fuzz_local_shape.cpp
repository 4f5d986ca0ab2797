// libFuzzer target: local_shape_and_global_offset (include/KokkosDTensor_Placement.hpp)
// against a brute-force reference, and the placement parser.
//
// Input layout (every byte optional; missing bytes read as 0):
//   byte 0        mode: bit 0 set = "huge" extents (8 bytes each, any int64, checked
//                 against a 128-bit reference), clear = small extents (0..12, checked
//                 element by element); bits 1-2: tensor rank 0..3; bits 3-4: mesh ndim-1
//                 (1..3); bit 5: one placement too many; bit 6: one too few
//   then          tensor extents, mesh extents (1..4; byte 255 = 0, byte 254 = -1),
//                 one placement byte per mesh dim (b % 4: 0 R, 1 P, 2-3 Shard(b / 4 % (rank+1)),
//                 so Shard(rank) occurs and must be rejected), one coordinate byte per
//                 mesh dim (b % (extent + 1), so out-of-range coordinates occur)
//   the rest      text for parse_placements.
//
// The reference materialises each tensor dim's index list and applies torch.chunk
// (chunks of ceil(len / n), trailing ones short or empty) for each Shard placement in
// mesh-dim order; the shard must be exactly the indices [offset, offset + local). Then
// every element of the global tensor must belong to exactly one distinct shard (replicas,
// which differ only along Replicate / Partial mesh dims, hold identical boxes).
// No MPI: the function under test is pure.

#include <KokkosDTensor_Placement.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace kdt = KokkosDTensor;

namespace {

struct Reader {
  const std::uint8_t* data;
  std::size_t size;
  std::size_t pos = 0;
  std::uint8_t byte() { return pos < size ? data[pos++] : 0; }
  std::int64_t int64() {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= std::uint64_t(byte()) << (8 * i);
    return static_cast<std::int64_t>(v);
  }
};

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_local_shape: %s\n", what.c_str());
  std::abort();
}

struct Case {
  std::vector<std::int64_t> global_shape;
  std::vector<int> mesh_shape;
  std::vector<kdt::Placement> placements;
  std::vector<int> coordinate;
};

// Is the input valid by the documented rules? (Then the function must not throw.)
bool is_valid(const Case& c) {
  if (c.placements.size() != c.mesh_shape.size() || c.coordinate.size() != c.mesh_shape.size())
    return false;
  __int128 count = 1;
  for (std::int64_t e : c.global_shape) {
    if (e < 0) return false;
    count *= e;
    if (count > INT64_MAX) return false;
  }
  for (std::size_t m = 0; m < c.mesh_shape.size(); ++m) {
    if (c.mesh_shape[m] < 1 || c.coordinate[m] < 0 || c.coordinate[m] >= c.mesh_shape[m])
      return false;
    if (const auto* s = std::get_if<kdt::Shard>(&c.placements[m]))
      if (s->dim < 0 || s->dim >= static_cast<int>(c.global_shape.size())) return false;
  }
  return true;
}

// torch.chunk on an explicit index list: chunk `which` of `n`.
std::vector<std::int64_t> chunk_of(const std::vector<std::int64_t>& list, int n, int which) {
  const std::size_t k = (list.size() + n - 1) / n;
  std::vector<std::int64_t> out;
  for (std::size_t i = k * which; i < list.size() && i < k * (which + 1); ++i)
    out.push_back(list[i]);
  return out;
}

// Brute force for small extents: the index list of each tensor dim.
kdt::LocalShapeAndOffset brute_force(const Case& c, const std::vector<int>& coordinate) {
  kdt::LocalShapeAndOffset r;
  for (std::size_t d = 0; d < c.global_shape.size(); ++d) {
    std::vector<std::int64_t> list;
    for (std::int64_t i = 0; i < c.global_shape[d]; ++i) list.push_back(i);
    std::int64_t offset_if_empty = 0;  // where an empty chunk sits, clamped to its parent's end
    for (std::size_t m = 0; m < c.mesh_shape.size(); ++m) {
      const auto* s = std::get_if<kdt::Shard>(&c.placements[m]);
      if (!s || s->dim != static_cast<int>(d)) continue;
      const std::int64_t parent_begin = list.empty() ? offset_if_empty : list.front();
      const std::int64_t parent_end = list.empty() ? offset_if_empty : list.back() + 1;
      const std::size_t k = (list.size() + c.mesh_shape[m] - 1) / c.mesh_shape[m];
      list = chunk_of(list, c.mesh_shape[m], coordinate[m]);
      if (list.empty())
        offset_if_empty = std::min<std::int64_t>(
            parent_end, parent_begin + static_cast<std::int64_t>(k) * coordinate[m]);
    }
    for (std::size_t i = 1; i < list.size(); ++i)
      if (list[i] != list[i - 1] + 1) fail("reference chunk is not contiguous");
    r.local_shape.push_back(static_cast<std::int64_t>(list.size()));
    r.global_offset.push_back(list.empty() ? offset_if_empty : list.front());
  }
  return r;
}

// 128-bit evaluation of the documented formula, for huge extents.
kdt::LocalShapeAndOffset wide_reference(const Case& c, const std::vector<int>& coordinate) {
  std::vector<__int128> shape(c.global_shape.begin(), c.global_shape.end());
  std::vector<__int128> offset(shape.size(), 0);
  for (std::size_t m = 0; m < c.mesh_shape.size(); ++m) {
    const auto* s = std::get_if<kdt::Shard>(&c.placements[m]);
    if (!s) continue;
    const __int128 S = shape[s->dim], n = c.mesh_shape[m];
    const __int128 chunk = (S + n - 1) / n;
    const __int128 begin = std::min(S, chunk * coordinate[m]);
    const __int128 end = std::min(S, begin + chunk);
    shape[s->dim] = end - begin;
    offset[s->dim] += begin;
  }
  kdt::LocalShapeAndOffset r;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    r.local_shape.push_back(static_cast<std::int64_t>(shape[d]));
    r.global_offset.push_back(static_cast<std::int64_t>(offset[d]));
  }
  return r;
}

void check_shards(const Case& c, bool small) {
  // Every coordinate of the mesh.
  std::vector<std::vector<int>> coords = {{}};
  for (int extent : c.mesh_shape) {
    std::vector<std::vector<int>> longer;
    for (const auto& prefix : coords)
      for (int i = 0; i < extent; ++i) {
        auto next = prefix;
        next.push_back(i);
        longer.push_back(next);
      }
    coords = longer;
  }
  std::map<std::vector<int>, kdt::LocalShapeAndOffset> by_shard;  // shard-dim coordinates
  std::int64_t total = 1;
  for (std::int64_t e : c.global_shape) total *= e;
  std::vector<int> owners(small ? static_cast<std::size_t>(total) : 0, 0);
  for (const auto& coordinate : coords) {
    const auto got =
        kdt::local_shape_and_global_offset(c.global_shape, c.mesh_shape, c.placements, coordinate);
    const auto want = small ? brute_force(c, coordinate) : wide_reference(c, coordinate);
    if (got.local_shape != want.local_shape || got.global_offset != want.global_offset)
      fail("shard differs from the reference");
    for (std::size_t d = 0; d < c.global_shape.size(); ++d) {
      if (got.local_shape[d] < 0 || got.global_offset[d] < 0 ||
          got.global_offset[d] > c.global_shape[d] ||
          got.local_shape[d] > c.global_shape[d] - got.global_offset[d])
        fail("shard lies outside the global tensor");
    }
    std::vector<int> key;
    bool first_replica = true;
    for (std::size_t m = 0; m < c.mesh_shape.size(); ++m) {
      if (kdt::is_shard(c.placements[m]))
        key.push_back(coordinate[m]);
      else if (coordinate[m] != 0)
        first_replica = false;
    }
    auto [it, inserted] = by_shard.emplace(key, got);
    if (!inserted && (it->second.local_shape != got.local_shape ||
                      it->second.global_offset != got.global_offset))
      fail("replicas hold different boxes");
    if (!small || !first_replica) continue;
    // Mark the shard's elements (row-major linear index of the global tensor).
    const std::size_t r = c.global_shape.size();
    std::vector<std::int64_t> idx(r, 0);
    std::int64_t local_count = 1;
    for (std::int64_t e : got.local_shape) local_count *= e;
    for (std::int64_t l = 0; l < local_count; ++l) {
      std::int64_t rest = l, linear = 0;
      for (std::size_t d = r; d-- > 0;) {
        idx[d] = rest % got.local_shape[d];
        rest /= got.local_shape[d];
      }
      for (std::size_t d = 0; d < r; ++d)
        linear = linear * c.global_shape[d] + got.global_offset[d] + idx[d];
      ++owners[static_cast<std::size_t>(linear)];
    }
  }
  for (int count : owners)
    if (count != 1) fail("an element is owned by " + std::to_string(count) + " shards");
}

void check_parser(const std::string& text) {
  std::vector<kdt::Placement> parsed;
  try {
    parsed = kdt::parse_placements(text);
  } catch (const std::invalid_argument& e) {
    if (std::string(e.what()).rfind("KokkosDTensor::parse_placements: argument 'text' = ", 0) != 0)
      fail(std::string("parser message: ") + e.what());
    return;
  }
  const std::string canonical = kdt::to_string(parsed);
  const auto reparsed = kdt::parse_placements(canonical);
  if (reparsed != parsed) fail("parse(to_string(parse(text))) != parse(text) for \"" + text + "\"");
  if (kdt::to_string(reparsed) != canonical) fail("to_string is not stable");
  // Text without leading zeros is already canonical.
  bool leading_zero = false;
  for (std::size_t i = 0; i + 2 < text.size() + 1; ++i)
    if ((i == 0 || text[i - 1] == ',') && text[i] == 'S' && i + 2 < text.size() &&
        text[i + 1] == '0' && text[i + 2] >= '0' && text[i + 2] <= '9')
      leading_zero = true;
  if (!leading_zero && canonical != text) fail("\"" + text + "\" is not its own canonical form");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Reader in{data, size};
  const std::uint8_t mode = in.byte();
  const bool huge = mode & 1;
  const int rank = (mode >> 1) & 3;
  const int ndim = 1 + ((mode >> 3) & 3) % 3;
  Case c;
  for (int d = 0; d < rank; ++d) c.global_shape.push_back(huge ? in.int64() : in.byte() % 13);
  for (int m = 0; m < ndim; ++m) {
    const std::uint8_t b = in.byte();
    c.mesh_shape.push_back(b == 255 ? 0 : b == 254 ? -1 : 1 + b % 4);
  }
  for (int m = 0; m < ndim; ++m) {
    const std::uint8_t b = in.byte();
    if (b % 4 == 0)
      c.placements.emplace_back(kdt::Replicate());
    else if (b % 4 == 1)
      c.placements.emplace_back(kdt::Partial());
    else
      c.placements.emplace_back(kdt::Shard(b / 4 % (rank + 1)));
  }
  if (mode & 32) c.placements.emplace_back(kdt::Replicate());
  if ((mode & 64) && !c.placements.empty()) c.placements.pop_back();
  for (int m = 0; m < ndim; ++m) {
    const int extent = c.mesh_shape[m] > 0 ? c.mesh_shape[m] : 1;
    c.coordinate.push_back(in.byte() % (extent + 1));
  }

  const bool valid = is_valid(c);
  try {
    kdt::local_shape_and_global_offset(c.global_shape, c.mesh_shape, c.placements, c.coordinate);
    if (!valid) fail("an invalid input was accepted");
  } catch (const std::invalid_argument& e) {
    if (valid) fail(std::string("a valid input was rejected: ") + e.what());
    if (std::string(e.what()).find(": argument '") == std::string::npos)
      fail(std::string("message does not name the argument: ") + e.what());
  }
  if (valid) check_shards(c, !huge);

  if (in.pos < size)
    check_parser(std::string(reinterpret_cast<const char*>(data + in.pos), size - in.pos));
  return 0;
}
