// DTensor on any number of ranks: distribute_tensor then full_tensor gives back the global
// tensor for every placement combination on 1-D, 2-D and 3-D meshes (all factorisations of
// the world size), LayoutRight and LayoutLeft; local shards hold exactly their block;
// full_tensor gives the same bits on every rank; Partial dims are summed; deferred
// allocation, wrapping a View, ranks outside the mesh, and the error messages.
// Tests that touch elements directly use HostSpace Views; the round trips use the default
// memory space (device memory in a GPU build) through host mirrors.

#include <gtest/gtest.h>
#include <mpi.h>

#include <KokkosDTensor_DTensor.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "TestHelpers.hpp"

namespace kdt = KokkosDTensor;
using namespace TestHelpers;
using Shape = std::vector<std::int64_t>;

namespace {

std::int64_t product(const Shape& shape) {
  std::int64_t n = 1;
  for (auto extent : shape) n *= extent;
  return n;
}

// Calls f(index) for every multi-index of `shape`, row-major.
template <class Function>
void for_each_index(const Shape& shape, Function&& f) {
  const std::int64_t count = product(shape);
  std::vector<std::int64_t> index(shape.size() > 0 ? shape.size() : 1, 0);
  for (std::int64_t linear = 0; linear < count; ++linear) {
    std::int64_t rest = linear;
    for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
      index[d] = rest % shape[d];
      rest /= shape[d];
    }
    f(index.data());
  }
}

// Row-major linear index of `offset + index` in `global_shape`.
std::int64_t global_linear(const Shape& global_shape, const Shape& offset,
                           const std::int64_t* index) {
  std::int64_t linear = 0;
  for (std::size_t d = 0; d < global_shape.size(); ++d)
    linear = linear * global_shape[d] + offset[d] + index[d];
  return linear;
}

// The test value of the global element with row-major index L.
double value_at(std::int64_t linear) { return 0.5 + static_cast<double>(linear); }

template <class ViewType>
ViewType arange_view(const Shape& shape) {
  auto view = kdt::Impl::allocate_view<ViewType>("global", shape);
  auto host = Kokkos::create_mirror_view(view);
  const Shape zero(shape.size(), 0);
  for_each_index(shape, [&](const std::int64_t* index) {
    kdt::Impl::host_element(host, index) =
        static_cast<typename ViewType::value_type>(value_at(global_linear(shape, zero, index)));
  });
  Kokkos::deep_copy(view, host);
  return view;
}

// FNV-1a over the bytes of a host-accessible View's elements in row-major order.
template <class ViewType>
std::uint64_t hash_of(const ViewType& view, const Shape& shape) {
  std::uint64_t hash = 1469598103934665603ull;
  for_each_index(shape, [&](const std::int64_t* index) {
    auto value = kdt::Impl::host_element(view, index);
    unsigned char bytes[sizeof(value)];
    std::memcpy(bytes, &value, sizeof(value));
    for (unsigned char b : bytes) hash = (hash ^ b) * 1099511628211ull;
  });
  return hash;
}

// distribute_tensor then full_tensor for every placement combination on every mesh of
// 1..3 dims over the world; returns the number of combinations checked.
template <class DataType, class Layout>
int check_round_trips(const Shape& global_shape) {
  using DT = kdt::DTensor<DataType, Layout>;
  using view_type = typename DT::view_type;
  const int tensor_rank = static_cast<int>(global_shape.size());
  const view_type global = arange_view<view_type>(global_shape);
  int checked = 0;
  for (int mesh_ndim = 1; mesh_ndim <= 3; ++mesh_ndim) {
    for (const auto& mesh_shape : factorisations(world_size(), mesh_ndim)) {
      auto mesh = kdt::init_device_mesh(mesh_shape);
      for (const auto& placements : placement_lists(mesh_ndim, tensor_rank, true)) {
        SCOPED_TRACE(mesh.to_string() + " " + kdt::to_string(placements));
        DT t = kdt::distribute_tensor<DT>(global, mesh, placements);
        EXPECT_TRUE(t.is_allocated());
        EXPECT_EQ(t.global_shape(), global_shape);
        EXPECT_EQ(t.placements(), placements);
        const auto expected = kdt::local_shape_and_global_offset(global_shape, mesh_shape,
                                                                 placements, *mesh.coordinate());
        EXPECT_EQ(t.local_shape(), expected.local_shape);
        EXPECT_EQ(t.global_offset(), expected.global_offset);
        EXPECT_EQ(kdt::Impl::view_extents(t.local()), expected.local_shape);

        // The local block: the global values, or zeros on the non-first Partial ranks.
        bool holds_value = true;
        for (int m = 0; m < mesh_ndim; ++m)
          if (kdt::is_partial(placements[m]) && mesh.local_rank(m) != 0) holds_value = false;
        auto local_host = Kokkos::create_mirror_view(t.local());
        Kokkos::deep_copy(local_host, t.local());
        int wrong = 0;
        for_each_index(expected.local_shape, [&](const std::int64_t* index) {
          using value_type = typename view_type::value_type;
          value_type want = holds_value ? static_cast<value_type>(value_at(global_linear(
                                              global_shape, t.global_offset(), index)))
                                        : value_type(0);
          if (kdt::Impl::host_element(local_host, index) != want) ++wrong;
        });
        EXPECT_EQ(wrong, 0);

        view_type full = t.full_tensor();
        EXPECT_EQ(kdt::Impl::view_extents(full), global_shape);
        auto full_host = Kokkos::create_mirror_view(full);
        Kokkos::deep_copy(full_host, full);
        auto global_host = Kokkos::create_mirror_view(global);
        Kokkos::deep_copy(global_host, global);
        EXPECT_EQ(hash_of(full_host, global_shape), hash_of(global_host, global_shape));
        ++checked;
      }
    }
  }
  return checked;
}

}  // namespace

TEST(DTensor, RoundTripEveryPlacementLayoutRight) {
  EXPECT_GT((check_round_trips<double*, Kokkos::LayoutRight>({7})), 0);
  EXPECT_GT((check_round_trips<double**, Kokkos::LayoutRight>({5, 6})), 0);
  EXPECT_GT((check_round_trips<float***, Kokkos::LayoutRight>({3, 5, 4})), 0);
}

TEST(DTensor, RoundTripEveryPlacementLayoutLeft) {
  EXPECT_GT((check_round_trips<double*, Kokkos::LayoutLeft>({7})), 0);
  EXPECT_GT((check_round_trips<double**, Kokkos::LayoutLeft>({5, 6})), 0);
  EXPECT_GT((check_round_trips<std::int64_t***, Kokkos::LayoutLeft>({3, 5, 4})), 0);
}

TEST(DTensor, RoundTripWithEmptyShardsAndZeroExtents) {
  // More shards than elements: trailing shards are empty.
  check_round_trips<double**, Kokkos::LayoutRight>({1, 2});
  check_round_trips<double**, Kokkos::LayoutLeft>({0, 3});
}

TEST(DTensor, LocalShardsFilledFromTheirOffsetsAssembleTheGlobalTensor) {
  // Independent of distribute_tensor: each rank writes its block using global_offset().
  const Shape global_shape = {9, 5};
  for (const auto& mesh_shape : factorisations(world_size(), 2)) {
    auto mesh = kdt::init_device_mesh(mesh_shape, {"dp", "tp"});
    for (const auto& placements : placement_lists(2, 2, true)) {
      if (kdt::is_partial(placements[0]) || kdt::is_partial(placements[1])) continue;
      kdt::DTensor<double**, Kokkos::LayoutLeft, Kokkos::HostSpace> t("t", mesh, global_shape,
                                                                      placements);
      auto local = t.local();
      for_each_index(t.local_shape(), [&](const std::int64_t* index) {
        kdt::Impl::host_element(local, index) =
            value_at(global_linear(global_shape, t.global_offset(), index));
      });
      auto full = t.full_tensor();
      int wrong = 0;
      for_each_index(global_shape, [&](const std::int64_t* index) {
        if (full(index[0], index[1]) != value_at(index[0] * 5 + index[1])) ++wrong;
      });
      EXPECT_EQ(wrong, 0) << mesh.to_string() << " " << kdt::to_string(placements);
    }
  }
}

TEST(DTensor, FullTensorIsIdenticalOnEveryRank) {
  // Count the ranks whose full tensor hashes to rank 0's hash: all of them.
  for (const auto& mesh_shape : factorisations(world_size(), 2)) {
    auto mesh = kdt::init_device_mesh(mesh_shape);
    for (const auto& placements : placement_lists(2, 2, true)) {
      kdt::DTensor<float**, Kokkos::HostSpace> t("t", mesh, {6, 7}, placements);
      auto local = t.local();
      // Rank-dependent local data: replicas disagree on purpose, full_tensor must pick
      // the same data everywhere.
      for_each_index(t.local_shape(), [&](const std::int64_t* index) {
        local(index[0], index[1]) =
            static_cast<float>(world_rank() * 100 + index[0] * 7 + index[1]);
      });
      auto full = t.full_tensor();
      std::uint64_t hash = hash_of(full, {6, 7});
      std::vector<std::uint64_t> hashes(world_size());
      MPI_Allgather(&hash, 1, MPI_UINT64_T, hashes.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD);
      int agreeing = 0;
      for (auto h : hashes) agreeing += h == hashes[0];
      EXPECT_EQ(agreeing, world_size()) << mesh.to_string() << " " << kdt::to_string(placements);
    }
  }
}

TEST(DTensor, PartialDimsAreSummed) {
  for (const auto& mesh_shape : factorisations(world_size(), 2)) {
    auto mesh = kdt::init_device_mesh(mesh_shape);
    kdt::DTensor<double*, Kokkos::HostSpace> t("t", mesh, {5}, {kdt::Shard(0), kdt::Partial()});
    Kokkos::deep_copy(t.local(), 1.0);
    auto full = t.full_tensor();
    for (int i = 0; i < 5; ++i) EXPECT_EQ(full(i), static_cast<double>(mesh_shape[1]));
    kdt::DTensor<double*, Kokkos::HostSpace> u("u", mesh, {3}, {kdt::Partial(), kdt::Partial()});
    Kokkos::deep_copy(u.local(), 0.25);
    auto full_u = u.full_tensor();
    for (int i = 0; i < 3; ++i) EXPECT_EQ(full_u(i), 0.25 * world_size());
  }
}

TEST(DTensor, RankZeroTensor) {
  auto mesh = kdt::init_device_mesh({world_size()});
  Kokkos::View<double, Kokkos::HostSpace> scalar("scalar");
  Kokkos::deep_copy(scalar, 3.5);
  auto t = kdt::distribute_tensor<kdt::DTensor<double, Kokkos::HostSpace>>(scalar, mesh,
                                                                           {kdt::Replicate()});
  EXPECT_EQ(t.local()(), 3.5);
  EXPECT_EQ(t.full_tensor()(), 3.5);
}

TEST(DTensor, DeferredAllocation) {
  auto mesh = kdt::init_device_mesh({world_size()});
  kdt::DTensor<double**, Kokkos::HostSpace> t("w", mesh, {10, 3}, {kdt::Shard(0)},
                                              kdt::deferred_allocation);
  EXPECT_FALSE(t.is_allocated());
  EXPECT_EQ(t.local().data(), nullptr);
  EXPECT_EQ(t.label(), "w");
  EXPECT_EQ(error_message([&] { t.full_tensor(); }),
            "runtime_error: KokkosDTensor::DTensor::full_tensor: the DTensor \"w\" is not "
            "allocated (call allocate() first)");
  t.allocate();
  EXPECT_TRUE(t.is_allocated());
  EXPECT_EQ(kdt::Impl::view_extents(t.local()), t.local_shape());
  EXPECT_EQ(t.local().label(), "w");
  auto full = t.full_tensor();
  EXPECT_EQ(full.extent(0), 10u);
  EXPECT_EQ(full(9, 2), 0.0);  // zero-initialised
}

TEST(DTensor, WrapsAnExistingLocalView) {
  auto mesh = kdt::init_device_mesh({world_size()});
  kdt::DTensorSpec spec(mesh, {kdt::Shard(1)}, {2, 2 * world_size()});
  Kokkos::View<int**, Kokkos::HostSpace> good("good", 2, 2);
  Kokkos::deep_copy(good, world_rank());
  kdt::DTensor<int**, Kokkos::HostSpace> t(good, spec);
  EXPECT_EQ(t.local().data(), good.data());
  auto full = t.full_tensor();
  for (int j = 0; j < 2 * world_size(); ++j) EXPECT_EQ(full(1, j), j / 2);

  Kokkos::View<int**, Kokkos::HostSpace> bad("bad", 2, 3);
  EXPECT_EQ(error_message([&] { kdt::DTensor<int**, Kokkos::HostSpace>(bad, spec); }),
            "invalid_argument: KokkosDTensor::DTensor: argument 'local' = [2, 3]: extents must "
            "equal the local shape [2, 2] of " +
                spec.to_string());
}

TEST(DTensor, RanksOutsideTheMeshHoldNothingAndDoNotHang) {
  kdt::DeviceMesh rank0_only({0}, {1}, {"solo"});
  kdt::DTensor<double**> t("t", rank0_only, {4, 3}, {kdt::Replicate()});
  Kokkos::View<double**, Kokkos::HostSpace> global("g", 4, 3);
  Kokkos::deep_copy(global, 2.0);
  auto d = kdt::distribute_tensor<kdt::DTensor<double**, Kokkos::HostSpace>>(global, rank0_only,
                                                                             {kdt::Shard(0)});
  if (world_rank() == 0) {
    EXPECT_EQ(t.local().extent(0), 4u);
    EXPECT_EQ(d.full_tensor()(3, 2), 2.0);  // collective over rank 0 alone
  } else {
    EXPECT_EQ(t.local().size(), 0u);
    EXPECT_EQ(d.local().size(), 0u);
    EXPECT_EQ(d.full_tensor().size(), 0u);  // no communication
  }
}

TEST(DTensor, ArgumentErrors) {
  auto mesh = kdt::init_device_mesh({world_size()});
  EXPECT_EQ(error_message([&] { kdt::DTensor<double**>("t", mesh, {4}, {kdt::Shard(0)}); }),
            "invalid_argument: KokkosDTensor::DTensor: argument 'global_shape' = [4]: must have "
            "one extent per View dim (2)");
  EXPECT_EQ(error_message([&] { kdt::DTensor<double*>("t", mesh, {4}, {kdt::Shard(1)}); }),
            "invalid_argument: KokkosDTensor::DTensorSpec: argument 'placements' = [S1]: shard "
            "dim 1 lies outside [0, 1) (the tensor rank)");
  EXPECT_EQ(error_message([&] {
              kdt::DTensor<double*>("t", mesh, {4}, {kdt::Shard(0), kdt::Replicate()});
            }),
            "invalid_argument: KokkosDTensor::DTensorSpec: argument 'placements' = [S0, R]: "
            "must hold one placement per mesh dim (1)");
  EXPECT_EQ(error_message([&] { kdt::DTensor<double*>("t", mesh, {-4}, {kdt::Replicate()}); }),
            "invalid_argument: KokkosDTensor::DTensorSpec: argument 'global_shape' = [-4]: "
            "extents must not be negative");
  Kokkos::View<double*> global("g", 4);
  EXPECT_THROW(kdt::distribute_tensor<kdt::DTensor<double*>>(global, mesh, {}),
               std::invalid_argument);
}
