// Placements and the shard arithmetic: torch.chunk semantics (uneven, empty and nested
// cases) checked against a brute-force simulation that hands out indices one by one,
// parsing and printing, DTensorSpec validation, and each error message.

#include <gtest/gtest.h>
#include <mpi.h>

#include <KokkosDTensor_Placement.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "TestHelpers.hpp"

namespace kdt = KokkosDTensor;
using namespace TestHelpers;
using Shape = std::vector<std::int64_t>;

namespace {

// Brute force, element by element: along each mesh dim in order, a Shard(d) placement
// deals the indices the shard currently owns along tensor dim d into n consecutive
// chunks of ceil(count/n) (torch.chunk), and the shard keeps chunk coordinate[m].
std::vector<std::vector<std::int64_t>> owned_indices(const Shape& global_shape,
                                                     const std::vector<int>& mesh_shape,
                                                     const std::vector<kdt::Placement>& placements,
                                                     const std::vector<int>& coordinate) {
  std::vector<std::vector<std::int64_t>> owned(global_shape.size());
  for (std::size_t d = 0; d < global_shape.size(); ++d)
    for (std::int64_t i = 0; i < global_shape[d]; ++i) owned[d].push_back(i);
  for (std::size_t m = 0; m < mesh_shape.size(); ++m) {
    if (!kdt::is_shard(placements[m])) continue;
    const int d = std::get<kdt::Shard>(placements[m]).dim;
    const std::int64_t count = static_cast<std::int64_t>(owned[d].size());
    std::int64_t chunk = 0;
    while (chunk * mesh_shape[m] < count) ++chunk;  // smallest chunk that covers everything
    std::vector<std::int64_t> kept;
    for (std::int64_t position = 0; position < count; ++position)
      if (position / chunk == coordinate[m]) kept.push_back(owned[d][position]);
    owned[d] = kept;
  }
  return owned;
}

std::vector<int> unravel(int p, const std::vector<int>& shape) {
  std::vector<int> coordinate(shape.size());
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    coordinate[d] = p % shape[d];
    p /= shape[d];
  }
  return coordinate;
}

}  // namespace

TEST(Placement, ConstructionEqualityAndPrinting) {
  kdt::Placement s0 = kdt::Shard(0);
  kdt::Placement s1 = kdt::Shard{1};
  EXPECT_EQ(s0, kdt::Placement(kdt::Shard(0)));
  EXPECT_NE(s0, s1);
  EXPECT_NE(s0, kdt::Placement(kdt::Replicate()));
  EXPECT_EQ(kdt::Placement(kdt::Partial()), kdt::Placement(kdt::Partial{}));
  EXPECT_EQ(kdt::to_string(s1), "S1");
  EXPECT_EQ(kdt::to_string(kdt::Replicate()), "R");
  EXPECT_EQ(kdt::to_string(kdt::Partial()), "P");
  std::vector<kdt::Placement> placements = {kdt::Shard(0), kdt::Replicate(), kdt::Partial(),
                                            kdt::Shard(12)};
  EXPECT_EQ(kdt::to_string(placements), "S0,R,P,S12");
  EXPECT_EQ(kdt::parse_placements("S0,R,P,S12"), placements);
  EXPECT_TRUE(kdt::is_shard(s0));
  EXPECT_TRUE(kdt::is_replicate(kdt::Replicate()));
  EXPECT_TRUE(kdt::is_partial(kdt::Partial()));
}

TEST(Placement, ParserNamesTheBadToken) {
  EXPECT_EQ(error_message([] { kdt::parse_placements("S0,X"); }),
            "invalid_argument: KokkosDTensor::parse_placements: argument 'text' = \"S0,X\": "
            "token \"X\" is not S<dim>, R or P");
  for (const char* bad :
       {"", "S", "S-1", "s0", "S0,", ",R", "R R", "S0 ", "Shard(0)", "RR", "S1x", "S99999999999"}) {
    SCOPED_TRACE(bad);
    EXPECT_THROW(kdt::parse_placements(bad), std::invalid_argument);
  }
}

TEST(Placement, KnownChunkShapes) {
  auto box = [](Shape shape, std::vector<int> mesh, std::string placements,
                std::vector<int> coordinate) {
    return kdt::local_shape_and_global_offset(shape, mesh, kdt::parse_placements(placements),
                                              coordinate);
  };
  // torch.chunk(7 over 2) = 4, 3
  EXPECT_EQ(box({7, 13}, {2, 2}, "S0,R", {1, 0}).local_shape, (Shape{3, 13}));
  EXPECT_EQ(box({7, 13}, {2, 2}, "S0,R", {1, 1}).global_offset, (Shape{4, 0}));
  // 5 over 4: chunks of 2 -> 2, 2, 1, 0 (the empty shard's offset is clamped to 5)
  for (int c = 0; c < 4; ++c) {
    auto b = box({5}, {4}, "S0", {c});
    EXPECT_EQ(b.local_shape[0], (Shape{2, 2, 1, 0})[c]);
    EXPECT_EQ(b.global_offset[0], (Shape{0, 2, 4, 5})[c]);
  }
  // 1 over 4: 1, 0, 0, 0
  EXPECT_EQ(box({1}, {4}, "S0", {2}).local_shape, Shape{0});
  // nested, tensor dim 0 over both mesh dims: 7 -> 4 | 3 -> (2, 2) | (2, 1)
  EXPECT_EQ(box({7}, {2, 2}, "S0,S0", {0, 1}).local_shape, Shape{2});
  EXPECT_EQ(box({7}, {2, 2}, "S0,S0", {0, 1}).global_offset, Shape{2});
  EXPECT_EQ(box({7}, {2, 2}, "S0,S0", {1, 1}).local_shape, Shape{1});
  EXPECT_EQ(box({7}, {2, 2}, "S0,S0", {1, 1}).global_offset, Shape{6});
  // both tensor dims over a 2-D mesh, the other way round: 13 over 2 -> 7, 6; 7 over 3 -> 3, 3, 1
  EXPECT_EQ(box({7, 13}, {2, 3}, "S1,S0", {1, 2}).local_shape, (Shape{1, 6}));
  EXPECT_EQ(box({7, 13}, {2, 3}, "S1,S0", {1, 2}).global_offset, (Shape{6, 7}));
  // zero-size tensor dims
  EXPECT_EQ(box({0, 3}, {3}, "S0", {2}).local_shape, (Shape{0, 3}));
  EXPECT_EQ(box({0, 3}, {3}, "S0", {2}).global_offset, (Shape{0, 0}));
}

TEST(Placement, ChunkShapesMatchBruteForce) {
  const std::vector<std::vector<int>> meshes = {{1},    {3},    {4},       {2, 2},
                                                {3, 2}, {1, 4}, {2, 3, 2}, {2, 2, 2}};
  const std::vector<Shape> shapes = {{0},    {1},    {5},     {7},       {12},
                                     {3, 0}, {2, 9}, {7, 13}, {3, 5, 4}, {1, 2, 8}};
  int checked = 0;
  for (const auto& mesh_shape : meshes) {
    int mesh_size = 1;
    for (int extent : mesh_shape) mesh_size *= extent;
    for (const auto& global_shape : shapes) {
      const int rank = static_cast<int>(global_shape.size());
      for (const auto& placements :
           placement_lists(static_cast<int>(mesh_shape.size()), rank, true)) {
        for (int p = 0; p < mesh_size; ++p) {
          const auto coordinate = unravel(p, mesh_shape);
          const auto got =
              kdt::local_shape_and_global_offset(global_shape, mesh_shape, placements, coordinate);
          const auto owned = owned_indices(global_shape, mesh_shape, placements, coordinate);
          for (int d = 0; d < rank; ++d) {
            SCOPED_TRACE(kdt::to_string(placements) + " dim " + std::to_string(d));
            ASSERT_EQ(got.local_shape[d], static_cast<std::int64_t>(owned[d].size()));
            if (!owned[d].empty()) {
              // contiguous block starting at the offset
              for (std::size_t k = 0; k < owned[d].size(); ++k)
                ASSERT_EQ(owned[d][k], got.global_offset[d] + static_cast<std::int64_t>(k));
            } else {
              ASSERT_GE(got.global_offset[d], 0);
              ASSERT_LE(got.global_offset[d], global_shape[d]);
            }
          }
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 10000);
}

TEST(Placement, ShardsTileTheTensorExactlyOnce) {
  // Over the mesh dims that shard, every global element is owned by exactly one shard.
  const std::vector<int> mesh_shape = {3, 2, 2};
  const Shape global_shape = {5, 7};
  for (const auto& placements : placement_lists(3, 2, true)) {
    std::vector<int> owners(5 * 7, 0);
    for (int p = 0; p < 12; ++p) {
      auto coordinate = unravel(p, mesh_shape);
      bool representative = true;  // one shard per group of replicas / partial values
      for (int m = 0; m < 3; ++m)
        if (!kdt::is_shard(placements[m]) && coordinate[m] != 0) representative = false;
      if (!representative) continue;
      auto b = kdt::local_shape_and_global_offset(global_shape, mesh_shape, placements, coordinate);
      for (std::int64_t i = 0; i < b.local_shape[0]; ++i)
        for (std::int64_t j = 0; j < b.local_shape[1]; ++j)
          ++owners[(b.global_offset[0] + i) * 7 + b.global_offset[1] + j];
    }
    for (int owner_count : owners) ASSERT_EQ(owner_count, 1) << kdt::to_string(placements);
  }
}

TEST(Placement, ArgumentErrors) {
  EXPECT_EQ(error_message([] {
              kdt::local_shape_and_global_offset({4, -1}, {2}, {kdt::Shard(0)}, {0});
            }),
            "invalid_argument: KokkosDTensor::local_shape_and_global_offset: argument "
            "'global_shape' = [4, -1]: extents must not be negative");
  EXPECT_EQ(error_message([] {
              kdt::local_shape_and_global_offset({4}, {2, 2}, {kdt::Shard(0)}, {0, 0});
            }),
            "invalid_argument: KokkosDTensor::local_shape_and_global_offset: argument "
            "'placements' = [S0]: must hold one placement per mesh dim (2)");
  EXPECT_EQ(error_message([] {
              kdt::local_shape_and_global_offset({4, 4}, {2}, {kdt::Shard(2)}, {0});
            }),
            "invalid_argument: KokkosDTensor::local_shape_and_global_offset: argument "
            "'placements' = [S2]: shard dim 2 lies outside [0, 2) (the tensor rank)");
  EXPECT_EQ(
      error_message([] { kdt::local_shape_and_global_offset({4}, {2}, {kdt::Shard(0)}, {2}); }),
      "invalid_argument: KokkosDTensor::local_shape_and_global_offset: argument "
      "'coordinate' = [2]: must lie inside the mesh shape [2]");
  EXPECT_THROW(kdt::local_shape_and_global_offset({4}, {2}, {kdt::Shard(-1)}, {0}),
               std::invalid_argument);
  EXPECT_THROW(kdt::local_shape_and_global_offset({4}, {2}, {kdt::Shard(0)}, {0, 0}),
               std::invalid_argument);
}

TEST(Placement, SpecValidatesAndHoldsTheCallersShard) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  auto mesh = kdt::init_device_mesh({size}, {"x"});
  kdt::DTensorSpec spec{mesh, {kdt::Shard(1)}, {3, 10}};
  auto expected = kdt::local_shape_and_global_offset({3, 10}, {size}, {kdt::Shard(1)}, {rank});
  EXPECT_EQ(spec.local_shape(), expected.local_shape);
  EXPECT_EQ(spec.global_offset(), expected.global_offset);
  EXPECT_EQ(spec.global_size(), 30);
  EXPECT_EQ(spec.tensor_rank(), 2);
  EXPECT_EQ(spec.local_shape_and_global_offset({0}).local_shape,
            (Shape{3, (10 + size - 1) / size}));
  EXPECT_EQ(spec.to_string(),
            "DTensorSpec(mesh=" + mesh.to_string() + ", placements=S1, global_shape=[3, 10])");
  EXPECT_FALSE(spec.has_partial());
  EXPECT_TRUE((kdt::DTensorSpec{mesh, {kdt::Partial()}, {2}}.has_partial()));

  EXPECT_EQ(error_message([&] {
              kdt::DTensorSpec(mesh, {kdt::Shard(2)}, {3, 10});
            }),
            "invalid_argument: KokkosDTensor::DTensorSpec: argument 'placements' = [S2]: shard "
            "dim 2 lies outside [0, 2) (the tensor rank)");
  EXPECT_EQ(error_message([&] { kdt::DTensorSpec(mesh, {}, {3}); }),
            "invalid_argument: KokkosDTensor::DTensorSpec: argument 'placements' = []: must "
            "hold one placement per mesh dim (1)");
  EXPECT_EQ(error_message([&] { kdt::DTensorSpec(mesh, {kdt::Replicate()}, {-3}); }),
            "invalid_argument: KokkosDTensor::DTensorSpec: argument 'global_shape' = [-3]: "
            "extents must not be negative");

  // A mesh without the caller: the caller's shard is empty.
  kdt::DeviceMesh rank0_only({0}, {1});
  kdt::DTensorSpec outside(rank0_only, {kdt::Replicate()}, {4, 5});
  EXPECT_EQ(outside.local_shape(), rank == 0 ? (Shape{4, 5}) : (Shape{0, 0}));
  EXPECT_EQ(outside.global_offset(), (Shape{0, 0}));
}
