// DeviceMesh on any number of ranks: coordinates follow the row-major layout, sub-meshes
// and flatten hold the right ranks, comm(dim) spans exactly the sub-mesh (in mesh order),
// meshes without the caller work without hanging, and every bad input of SPEC section 5
// throws a message that names the argument and the value.

#include <gtest/gtest.h>
#include <mpi.h>

#include <KokkosDTensor_DeviceMesh.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "TestHelpers.hpp"

namespace kdt = KokkosDTensor;
using namespace TestHelpers;

namespace {

std::vector<std::string> names_for(int ndim) {
  const std::vector<std::string> all = {"pp", "dp", "tp"};
  return std::vector<std::string>(all.begin(), all.begin() + ndim);
}

// Row-major coordinate of position `p` in a mesh of `shape`.
std::vector<int> unravel(int p, const std::vector<int>& shape) {
  std::vector<int> coordinate(shape.size());
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    coordinate[d] = p % shape[d];
    p /= shape[d];
  }
  return coordinate;
}

// Brute force: the world ranks (mesh order) whose coordinates agree with `coordinate`
// on every dim not in `dims`, ordered row-major over `dims` in the order given.
std::vector<int> expected_group(const std::vector<int>& shape, const std::vector<int>& coordinate,
                                const std::vector<int>& dims) {
  std::vector<std::vector<int>> members;  // (key over dims..., rank)
  int total = 1;
  for (int extent : shape) total *= extent;
  for (int p = 0; p < total; ++p) {
    auto c = unravel(p, shape);
    bool same = true;
    for (int d = 0; d < static_cast<int>(shape.size()); ++d) {
      bool in_dims = false;
      for (int k : dims) in_dims = in_dims || k == d;
      if (!in_dims && c[d] != coordinate[d]) same = false;
    }
    if (!same) continue;
    std::vector<int> key;
    for (int k : dims) key.push_back(c[k]);
    key.push_back(p);
    members.push_back(key);
  }
  std::sort(members.begin(), members.end());
  std::vector<int> ranks;
  for (const auto& m : members) ranks.push_back(m.back());
  return ranks;
}

// The world ranks of the members of `comm`, in comm rank order.
std::vector<int> world_ranks_of(MPI_Comm comm) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  std::vector<int> ranks(size);
  int me = world_rank();
  MPI_Allgather(&me, 1, MPI_INT, ranks.data(), 1, MPI_INT, comm);
  return ranks;
}

}  // namespace

TEST(DeviceMesh, OneDimensionalWorldMesh) {
  auto mesh = kdt::init_device_mesh({world_size()});
  EXPECT_EQ(mesh.ndim(), 1);
  EXPECT_EQ(mesh.size(), world_size());
  EXPECT_EQ(mesh.size(0), world_size());
  EXPECT_EQ(mesh.dim_names(), std::vector<std::string>{"dim0"});
  ASSERT_TRUE(mesh.coordinate().has_value());
  EXPECT_EQ(*mesh.coordinate(), std::vector<int>{world_rank()});
  EXPECT_EQ(mesh.local_rank(0), world_rank());
  EXPECT_EQ(mesh.local_rank("dim0"), world_rank());
  EXPECT_TRUE(mesh.contains(world_rank()));
  EXPECT_FALSE(mesh.contains(world_size()));
}

TEST(DeviceMesh, CoordinatesAreRowMajorForEveryFactorisation) {
  for (int ndim = 1; ndim <= 3; ++ndim) {
    for (const auto& shape : factorisations(world_size(), ndim)) {
      auto mesh = kdt::init_device_mesh(shape, names_for(ndim));
      SCOPED_TRACE(mesh.to_string());
      EXPECT_EQ(mesh.ndim(), ndim);
      EXPECT_EQ(mesh.shape(), shape);
      auto expected = unravel(world_rank(), shape);
      ASSERT_TRUE(mesh.coordinate().has_value());
      EXPECT_EQ(*mesh.coordinate(), expected);
      for (int d = 0; d < ndim; ++d) {
        EXPECT_EQ(mesh.size(d), shape[d]);
        EXPECT_EQ(mesh.local_rank(d), expected[d]);
        EXPECT_EQ(mesh.local_rank(names_for(ndim)[d]), expected[d]);
      }
      for (int r = 0; r < world_size(); ++r) {
        EXPECT_EQ(*mesh.coordinate_of(r), unravel(r, shape));
        EXPECT_EQ(mesh.rank_at(unravel(r, shape)), r);
      }
    }
  }
}

TEST(DeviceMesh, SubmeshesHoldTheCallersGroup) {
  for (int ndim = 2; ndim <= 3; ++ndim) {
    for (const auto& shape : factorisations(world_size(), ndim)) {
      auto names = names_for(ndim);
      auto mesh = kdt::init_device_mesh(shape, names);
      SCOPED_TRACE(mesh.to_string());
      auto coordinate = unravel(world_rank(), shape);
      for (int d = 0; d < ndim; ++d) {
        auto sub = mesh[names[d]];
        EXPECT_EQ(sub.ndim(), 1);
        EXPECT_EQ(sub.dim_names(), std::vector<std::string>{names[d]});
        EXPECT_EQ(sub.ranks(), expected_group(shape, coordinate, {d}));
        EXPECT_EQ(*sub.coordinate(), std::vector<int>{coordinate[d]});
      }
      // Every ordered pair of distinct dims, including reversed order.
      for (int a = 0; a < ndim; ++a) {
        for (int b = 0; b < ndim; ++b) {
          if (a == b) continue;
          auto sub = mesh.submesh({names[a], names[b]});
          EXPECT_EQ(sub.shape(), (std::vector<int>{shape[a], shape[b]}));
          EXPECT_EQ(sub.ranks(), expected_group(shape, coordinate, {a, b}));
          EXPECT_EQ(*sub.coordinate(), (std::vector<int>{coordinate[a], coordinate[b]}));
        }
      }
      auto whole = mesh.submesh(names);
      EXPECT_EQ(whole, mesh);
    }
  }
}

TEST(DeviceMesh, FlattenKeepsTheRanksInRowMajorOrder) {
  for (const auto& shape : factorisations(world_size(), 3)) {
    auto mesh = kdt::init_device_mesh(shape, {"a", "b", "c"});
    auto flat = mesh.flatten("spmd");
    EXPECT_EQ(flat.ndim(), 1);
    EXPECT_EQ(flat.size(), world_size());
    EXPECT_EQ(flat.ranks(), mesh.ranks());
    EXPECT_EQ(flat.dim_names(), std::vector<std::string>{"spmd"});
    EXPECT_EQ(flat.local_rank("spmd"), world_rank());
    auto flat_bc = mesh.submesh({"b", "c"}).flatten("bc");
    EXPECT_EQ(flat_bc.size(), shape[1] * shape[2]);
    EXPECT_EQ(flat_bc.local_rank(0), world_rank() % (shape[1] * shape[2]));
  }
}

TEST(DeviceMesh, CommunicatorsSpanTheSubmeshInMeshOrder) {
  for (int ndim = 1; ndim <= 3; ++ndim) {
    for (const auto& shape : factorisations(world_size(), ndim)) {
      auto names = names_for(ndim);
      auto mesh = kdt::init_device_mesh(shape, names);
      SCOPED_TRACE(mesh.to_string());
      for (int d = 0; d < ndim; ++d) {
        MPI_Comm comm = mesh.comm(d);
        ASSERT_NE(comm, MPI_COMM_NULL);
        int size = 0, rank = 0;
        MPI_Comm_size(comm, &size);
        MPI_Comm_rank(comm, &rank);
        EXPECT_EQ(size, shape[d]);
        EXPECT_EQ(rank, mesh.local_rank(d));
        EXPECT_EQ(world_ranks_of(comm), mesh[names[d]].ranks());
        EXPECT_EQ(mesh.comm(d), comm) << "cached";
        EXPECT_EQ(mesh.comm(names[d]), comm);
      }
      EXPECT_EQ(world_ranks_of(mesh.mesh_comm()), mesh.ranks());
    }
  }
}

TEST(DeviceMesh, CopiesAndSubmeshesShareCommunicators) {
  auto mesh = kdt::init_device_mesh({world_size()}, {"x"});
  MPI_Comm from_temporary = mesh["x"].comm(0);  // the sub-mesh is gone after this line
  int size = 0;
  MPI_Comm_size(from_temporary, &size);  // still valid: the parent holds it
  EXPECT_EQ(size, world_size());
  kdt::DeviceMesh copy = mesh;
  EXPECT_EQ(copy.comm(0), mesh.comm(0));
  EXPECT_EQ(copy.comm(0), from_temporary);
  EXPECT_EQ(mesh.flatten("y").comm(0), from_temporary);
}

TEST(DeviceMesh, ExplicitRankOrderDecidesCoordinatesAndCommRanks) {
  std::vector<int> reversed;
  for (int r = world_size() - 1; r >= 0; --r) reversed.push_back(r);
  kdt::DeviceMesh mesh(reversed, {world_size()}, {"r"});
  EXPECT_EQ(mesh.local_rank(0), world_size() - 1 - world_rank());
  int rank = -1;
  MPI_Comm_rank(mesh.comm(0), &rank);
  EXPECT_EQ(rank, world_size() - 1 - world_rank());
  EXPECT_EQ(world_ranks_of(mesh.comm(0)), reversed);
}

TEST(DeviceMesh, MeshWithoutTheCaller) {
  // The even ranks only (on one rank: rank 0 alone, which holds everyone).
  std::vector<int> even;
  for (int r = 0; r < world_size(); r += 2) even.push_back(r);
  kdt::DeviceMesh mesh(even, {static_cast<int>(even.size())}, {"even"});  // no communication
  const bool member = world_rank() % 2 == 0;
  EXPECT_EQ(mesh.coordinate().has_value(), member);
  EXPECT_EQ(mesh.contains(world_rank()), member);
  if (member) {
    EXPECT_EQ(mesh.local_rank(0), world_rank() / 2);
    int size = 0;
    MPI_Comm_size(mesh.comm(0), &size);  // collective over the even ranks only
    EXPECT_EQ(size, static_cast<int>(even.size()));
    EXPECT_EQ(world_ranks_of(mesh.comm(0)), even);
  } else {
    EXPECT_EQ(error_message([&] { mesh.local_rank(0); }),
              "runtime_error: KokkosDTensor::DeviceMesh::local_rank: the calling rank " +
                  std::to_string(world_rank()) + " is not part of " + mesh.to_string());
    EXPECT_THROW(mesh.comm(0), std::runtime_error);
    EXPECT_THROW(mesh["even"], std::runtime_error);
    EXPECT_EQ(mesh.flatten("f").size(), mesh.size());  // flatten needs no membership
  }
}

TEST(DeviceMesh, ToString) {
  auto mesh = kdt::init_device_mesh({world_size(), 1}, {"dp", "tp"});
  std::string ranks;
  for (int r = 0; r < world_size(); ++r) ranks += (r ? ", " : "") + std::to_string(r);
  EXPECT_EQ(mesh.to_string(), "DeviceMesh(shape=[" + std::to_string(world_size()) +
                                  ", 1], dim_names=[\"dp\", \"tp\"], ranks=[" + ranks + "])");
}

TEST(DeviceMesh, BadInputsNameTheArgumentAndValue) {
  const std::string n = std::to_string(world_size());
  EXPECT_EQ(error_message([] { kdt::DeviceMesh({0}, {2}); }),
            "invalid_argument: KokkosDTensor::DeviceMesh: argument 'shape' = [2]: product of "
            "the extents must equal the number of ranks (1)");
  EXPECT_EQ(error_message([] { kdt::DeviceMesh({0}, {}); }),
            "invalid_argument: KokkosDTensor::DeviceMesh: argument 'shape' = []: must have at "
            "least one dim");
  EXPECT_EQ(error_message([] { kdt::DeviceMesh({}, {0}); }),
            "invalid_argument: KokkosDTensor::DeviceMesh: argument 'shape' = [0]: every extent "
            "must be at least 1");
  EXPECT_EQ(error_message([] {
              kdt::DeviceMesh({0, 0}, {2});
            }),
            "invalid_argument: KokkosDTensor::DeviceMesh: argument 'ranks' = [0, 0]: rank 0 "
            "appears more than once");
  EXPECT_EQ(error_message([&] { kdt::DeviceMesh({world_size()}, {1}); }),
            "invalid_argument: KokkosDTensor::DeviceMesh: argument 'ranks' = [" + n + "]: rank " +
                n + " lies outside [0, " + n + ") (the ranks of MPI_COMM_WORLD)");
  EXPECT_EQ(error_message([] { kdt::DeviceMesh({-1}, {1}); }),
            "invalid_argument: KokkosDTensor::DeviceMesh: argument 'ranks' = [-1]: rank -1 "
            "lies outside [0, " +
                n + ") (the ranks of MPI_COMM_WORLD)");
  EXPECT_EQ(error_message([] {
              kdt::DeviceMesh({0}, {1}, {"a", "b"});
            }),
            "invalid_argument: KokkosDTensor::DeviceMesh: argument 'dim_names' = [\"a\", "
            "\"b\"]: must hold one name per mesh dim (1) or be empty");
  EXPECT_EQ(error_message([&] {
              kdt::init_device_mesh({world_size(), 1}, {"a", "a"});
            }),
            "invalid_argument: KokkosDTensor::DeviceMesh: argument 'dim_names' = [\"a\", "
            "\"a\"]: name \"a\" appears more than once");
  EXPECT_EQ(error_message([&] { kdt::init_device_mesh({world_size() + 1}); }),
            "invalid_argument: KokkosDTensor::init_device_mesh: argument 'shape' = [" +
                std::to_string(world_size() + 1) +
                "]: product of the extents must equal the size of MPI_COMM_WORLD (" + n + ")");

  auto mesh = kdt::init_device_mesh({world_size(), 1}, {"dp", "tp"});
  EXPECT_EQ(error_message([&] { mesh["pp"]; }),
            "invalid_argument: KokkosDTensor::DeviceMesh: argument 'name' = \"pp\": is not a "
            "dim of " +
                mesh.to_string());
  EXPECT_THROW(mesh.submesh({"dp", "pp"}), std::invalid_argument);
  EXPECT_THROW(mesh.local_rank("pp"), std::invalid_argument);
  EXPECT_EQ(error_message([&] {
              mesh.submesh({"dp", "dp"});
            }),
            "invalid_argument: KokkosDTensor::DeviceMesh::submesh: argument 'names' = "
            "[\"dp\", \"dp\"]: name \"dp\" appears more than once");
  EXPECT_EQ(error_message([&] { mesh.size(2); }),
            "invalid_argument: KokkosDTensor::DeviceMesh::size: argument 'dim' = 2: must lie "
            "in [0, 2) for " +
                mesh.to_string());
  EXPECT_THROW(mesh.comm(-1), std::invalid_argument);
  EXPECT_THROW(mesh.local_rank(2), std::invalid_argument);
  EXPECT_THROW(mesh.rank_at({0}), std::invalid_argument);
  EXPECT_THROW(mesh.rank_at({world_size(), 0}), std::invalid_argument);
}
