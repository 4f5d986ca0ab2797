// The DTensor RNG tracker and random ops on DTensors (SPEC sections 2 and 3), with the
// cases of PyTorch's test/distributed/tensor/test_random_ops.py and
// test/distributed/tensor/parallel/test_tp_random_state.py that apply, plus the property
// PyTorch lacks: the full tensor is the same for every mesh, placement, layout and rank
// count. Runs on any number of ranks.

#include <gtest/gtest.h>
#include <mpi.h>

#include <KokkosDTensor.hpp>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "MpiCallCounter.hpp"
#include "TestHelpers.hpp"

namespace kdt = KokkosDTensor;
using namespace TestHelpers;

namespace {

template <class ViewType>
std::vector<typename ViewType::non_const_value_type> host_values_row_major(const ViewType& view) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), view);
  std::vector<typename ViewType::non_const_value_type> values;
  static_assert(ViewType::rank == 2, "2-D views only");
  for (std::size_t i = 0; i < host.extent(0); ++i)
    for (std::size_t j = 0; j < host.extent(1); ++j) values.push_back(host(i, j));
  return values;
}

// The local values of every rank, gathered (every rank's block has the same size).
template <class T>
std::vector<std::vector<T>> gather_equal_blocks(const std::vector<T>& local) {
  std::vector<T> all(local.size() * world_size());
  MPI_Allgather(local.data(), static_cast<int>(local.size() * sizeof(T)), MPI_BYTE, all.data(),
                static_cast<int>(local.size() * sizeof(T)), MPI_BYTE, MPI_COMM_WORLD);
  std::vector<std::vector<T>> blocks;
  for (int r = 0; r < world_size(); ++r)
    blocks.emplace_back(all.begin() + r * local.size(), all.begin() + (r + 1) * local.size());
  return blocks;
}

constexpr std::int64_t kRows = 9, kCols = 13;  // not divisible by 2, 4 or 8

// What one process computes: the op on a plain View of the global shape from `state`.
template <class T, class Layout = Kokkos::LayoutRight, class Op>
std::vector<T> reference(kdt::RNGState state, Op op, std::int64_t rows = kRows,
                         std::int64_t cols = kCols) {
  kdt::Generator gen;
  gen.set_state(state);
  Kokkos::View<T**, Layout> view("reference", rows, cols);
  op(view, gen);
  return host_values_row_major(view);
}

class RandomOnDTensor : public ::testing::Test {
 protected:
  void SetUp() override { kdt::reset_rng_tracker(); }
  void TearDown() override { kdt::reset_rng_tracker(); }
};

}  // namespace

// test_manual_seed: the tracker is created eagerly, with the seed each rank passes, with
// no communication and no agreement check.
TEST_F(RandomOnDTensor, ManualSeedCreatesTrackerWithoutCommunication) {
  const auto mesh = kdt::init_device_mesh({world_size()});
  EXPECT_EQ(kdt::rng_tracker(), nullptr);
  MpiCallCounter::reset();
  kdt::manual_seed(1234, mesh);
  EXPECT_EQ(MpiCallCounter::communication_calls(), 0);
  ASSERT_NE(kdt::rng_tracker(), nullptr);
  EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), (kdt::RNGState{1234, 0}));
  EXPECT_TRUE(kdt::rng_tracker()->distribute_region_enabled());

  MpiCallCounter::reset();
  kdt::manual_seed(static_cast<std::uint64_t>(world_rank()), mesh);  // ranks disagree: allowed
  EXPECT_EQ(MpiCallCounter::communication_calls(), 0);
  EXPECT_EQ(kdt::rng_tracker()->get_rng_state().seed, static_cast<std::uint64_t>(world_rank()));
}

// test_manual_seed on a rank that has a tracker: PyTorch keeps the tracker object and
// only resets its state, so distribute_region_enabled (and the state source) survive.
TEST_F(RandomOnDTensor, ManualSeedKeepsTheTrackerAndItsSettings) {
  const auto mesh = kdt::init_device_mesh({world_size()});
  kdt::manual_seed(1, mesh);
  kdt::RNGTracker* const tracker = kdt::rng_tracker();
  tracker->set_distribute_region_enabled(false);
  kdt::DTensor<float**> t("t", mesh, {kRows, kCols}, {kdt::Replicate()});
  kdt::uniform_(t);
  EXPECT_NE(tracker->get_rng_state(), (kdt::RNGState{1, 0}));

  MpiCallCounter::reset();
  kdt::manual_seed(2, mesh);
  EXPECT_EQ(MpiCallCounter::all_calls(), 0);
  EXPECT_EQ(kdt::rng_tracker(), tracker);
  EXPECT_FALSE(tracker->distribute_region_enabled());
  EXPECT_EQ(tracker->get_rng_state(), (kdt::RNGState{2, 0}));

  // Also after the tracker was created by the WORLD synchronisation, and on another mesh.
  kdt::reset_rng_tracker();
  kdt::uniform_(t);
  kdt::RNGTracker* const synced = kdt::rng_tracker();
  ASSERT_NE(synced, nullptr);
  synced->set_distribute_region_enabled(false);
  const auto other = kdt::init_device_mesh({1, world_size()});
  kdt::manual_seed(3, other);
  EXPECT_EQ(kdt::rng_tracker(), synced);
  EXPECT_FALSE(synced->distribute_region_enabled());
  EXPECT_EQ(synced->get_rng_state(), (kdt::RNGState{3, 0}));
}

// test_manual_seed_submesh: a rank outside the mesh may not seed it.
TEST_F(RandomOnDTensor, ManualSeedRequiresCallerInMesh) {
  if (world_size() == 1) GTEST_SKIP() << "needs a rank outside the mesh";
  const kdt::DeviceMesh rank0_only({0}, {1});
  if (world_rank() == 0) {
    EXPECT_NO_THROW(kdt::manual_seed(7, rank0_only));
    return;
  }
  const std::string pytorch_message =
      "manual_seed requires the current rank to be a part of the device mesh otherwise DTensor "
      "RNG state on the rank will not be initialized and the behavior of DTensor random ops is "
      "undefined.";
  for (const auto source : {kdt::RNGStateSource::tracker, kdt::RNGStateSource::default_generator}) {
    try {
      if (source == kdt::RNGStateSource::tracker) {
        kdt::manual_seed(7, rank0_only);
      } else {
        kdt::manual_seed(7, rank0_only, source);
      }
      FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.rfind(pytorch_message, 0), 0u) << message;
      // Then the library's details: which rank, which mesh.
      EXPECT_EQ(message.substr(pytorch_message.size()),
                " KokkosDTensor::manual_seed: rank " + std::to_string(world_rank()) +
                    " of MPI_COMM_WORLD is not part of " + rank0_only.to_string())
          << message;
    }
    EXPECT_EQ(kdt::rng_tracker(), nullptr);
  }
  // A tracker that exists is left as it was.
  const auto mesh = kdt::init_device_mesh({world_size()});
  kdt::manual_seed(9, mesh);
  kdt::rng_tracker()->set_rng_state({9, 64});
  EXPECT_THROW(kdt::manual_seed(7, rank0_only), std::runtime_error);
  EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), (kdt::RNGState{9, 64}));
}

// test_rng_tracker_init: without manual_seed, the first op takes rank 0's default
// generator state on every rank.
TEST_F(RandomOnDTensor, FirstOpSynchronisesRank0DefaultGeneratorState) {
  const kdt::RNGState saved = kdt::default_generator().get_state();
  kdt::seed(1000 + world_rank());
  const auto mesh = kdt::init_device_mesh({world_size()});
  kdt::DTensor<float**> t("t", mesh, {kRows, kCols}, {kdt::Shard(0)});
  kdt::uniform_(t);
  ASSERT_NE(kdt::rng_tracker(), nullptr);
  EXPECT_EQ(kdt::rng_tracker()->get_rng_state().seed, 1000u);
  EXPECT_EQ(kdt::rng_tracker()->get_rng_state().offset, 120u);  // round_up_to_4(9 * 13)
  const auto expected =
      reference<float>({1000, 0}, [](auto v, auto& g) { kdt::uniform_(v, 0, 1, g); });
  EXPECT_TRUE(bitwise_equal(host_values_row_major(t.full_tensor()), expected));
  kdt::default_generator().set_state(saved);
}

// Zero MPI calls per random op once the tracker exists, for every op.
TEST_F(RandomOnDTensor, RandomOpsMakeNoMpiCalls) {
  const auto mesh = kdt::init_device_mesh({world_size()});
  kdt::manual_seed(5, mesh);
  kdt::DTensor<float**> f("f", mesh, {kRows, kCols}, {kdt::Shard(1)});
  kdt::DTensor<double**> d("d", mesh, {kRows, kCols}, {kdt::Shard(0)});
  kdt::DTensor<std::uint32_t**> u("u", mesh, {kRows, kCols}, {kdt::Replicate()});
  kdt::DTensor<std::int64_t**> i("i", mesh, {kRows, kCols}, {kdt::Shard(0)});
  MpiCallCounter::reset();
  kdt::uniform_(f, -1, 1);
  kdt::normal_(d, 2, 3);
  kdt::bernoulli_(f, 0.25);
  kdt::random_bits_(u);
  kdt::randint_(i, -5, 17);
  kdt::exponential_(d, 2);
  kdt::log_normal_(f);
  kdt::geometric_(i, 0.3);
  kdt::dropout_(f, 0.5);
  kdt::trunc_normal_(d, 0, 1, -2, 2);
  Kokkos::fence();
  EXPECT_EQ(MpiCallCounter::all_calls(), 0);
}

// The central property: every mesh (1-D, 2-D, 3-D over all factorisations of the rank
// count), every placement list and both layouts give the global tensor one process draws.
template <class Layout>
void check_uniform_and_normal_invariance() {
  const kdt::RNGState start{0x8000000000000123ull, 4096};
  const auto uniform_ref =
      reference<float>(start, [](auto v, auto& g) { kdt::uniform_(v, -2, 3, g); });
  const kdt::RNGState after_uniform{start.seed, start.offset + 120};
  const auto normal_ref =
      reference<double>(after_uniform, [](auto v, auto& g) { kdt::normal_(v, 1, 2, g); });
  for (int ndim = 1; ndim <= 3; ++ndim) {
    for (const auto& shape : mesh_shapes(ndim)) {
      const auto mesh = kdt::init_device_mesh(shape);
      for (const auto& placements : placement_lists(ndim, 2)) {
        kdt::manual_seed(0, mesh);
        kdt::rng_tracker()->set_rng_state(start);
        kdt::DTensor<float**, Layout> u("u", mesh, {kRows, kCols}, placements);
        kdt::DTensor<double**, Layout> n("n", mesh, {kRows, kCols}, placements);
        kdt::uniform_(u, -2, 3);
        kdt::normal_(n, 1, 2);
        const std::string where = "mesh " + mesh.to_string() + " " + u.spec().to_string();
        EXPECT_TRUE(bitwise_equal(host_values_row_major(u.full_tensor()), uniform_ref)) << where;
        EXPECT_TRUE(bitwise_equal(host_values_row_major(n.full_tensor()), normal_ref)) << where;
        EXPECT_EQ(kdt::rng_tracker()->get_rng_state().offset, start.offset + 120 + 236) << where;
      }
    }
  }
}

TEST_F(RandomOnDTensor, FullTensorIsIndependentOfMeshPlacementsLayoutRight) {
  check_uniform_and_normal_invariance<Kokkos::LayoutRight>();
}

TEST_F(RandomOnDTensor, FullTensorIsIndependentOfMeshPlacementsLayoutLeft) {
  check_uniform_and_normal_invariance<Kokkos::LayoutLeft>();
}

// Every distribution, on a 2-D mesh of every shape with sharding on both dims.
TEST_F(RandomOnDTensor, EveryDistributionIsShardingInvariant) {
  for (const auto& shape : mesh_shapes(2)) {
    const auto mesh = kdt::init_device_mesh(shape);
    const std::vector<std::vector<kdt::Placement>> lists = {{kdt::Shard(1), kdt::Shard(0)},
                                                            {kdt::Shard(0), kdt::Replicate()}};
    for (const auto& placements : lists) {
      const auto check = [&](auto zero, auto op, const char* name) {
        using T = decltype(zero);
        kdt::manual_seed(99, mesh);
        kdt::DTensor<T**> t(name, mesh, {kRows, kCols}, placements);
        Kokkos::deep_copy(t.local(), T(1));  // dropout_ reads its input
        op(t);
        auto ref = reference<T>({99, 0}, [&](auto v, auto& g) {
          Kokkos::deep_copy(v, T(1));
          op(v, g);
        });
        EXPECT_TRUE(bitwise_equal(host_values_row_major(t.full_tensor()), ref))
            << name << " on mesh " << mesh.to_string() << " " << t.spec().to_string();
      };
      check(
          float(), [](auto&& t, auto&... g) { kdt::uniform_(t, 0, 1, g...); }, "uniform");
      check(
          double(), [](auto&& t, auto&... g) { kdt::normal_(t, 0, 1, g...); }, "normal");
      check(
          float(), [](auto&& t, auto&... g) { kdt::bernoulli_(t, 0.3, g...); }, "bernoulli");
      check(
          std::uint32_t(), [](auto&& t, auto&... g) { kdt::random_bits_(t, g...); }, "bits");
      check(
          std::int64_t(), [](auto&& t, auto&... g) { kdt::randint_(t, -3, 1000, g...); },
          "randint");
      check(
          float(), [](auto&& t, auto&... g) { kdt::exponential_(t, 1.5, g...); }, "exponential");
      check(
          double(), [](auto&& t, auto&... g) { kdt::log_normal_(t, 1, 0.5, g...); }, "log_normal");
      check(
          std::int32_t(), [](auto&& t, auto&... g) { kdt::geometric_(t, 0.2, g...); }, "geometric");
      check(
          float(), [](auto&& t, auto&... g) { kdt::dropout_(t, 0.4, g...); }, "dropout");
      check(
          double(), [](auto&& t, auto&... g) { kdt::trunc_normal_(t, 0, 1, -1, 2, g...); },
          "trunc_normal");
    }
  }
}

// test_deterministic_dropout_1d: replicas draw the same mask.
TEST_F(RandomOnDTensor, DropoutOnReplicatedTensorIsTheSameOnEveryRank) {
  const auto mesh = kdt::init_device_mesh({world_size()});
  kdt::manual_seed(3, mesh);
  kdt::DTensor<float**> t("t", mesh, {kRows, kCols}, {kdt::Replicate()});
  Kokkos::deep_copy(t.local(), 1.0f);
  kdt::dropout_(t, 0.4);
  const auto local = host_values_row_major(t.local());
  for (const auto& block : gather_equal_blocks(local)) EXPECT_TRUE(bitwise_equal(block, local));
  int zeros = 0;
  for (float x : local) zeros += x == 0.0f;
  EXPECT_GT(zeros, 0);
  EXPECT_LT(zeros, static_cast<int>(local.size()));
}

// test_deterministic_rand_1d: shards hold different values, replicas the same ones.
TEST_F(RandomOnDTensor, ShardsDifferAndReplicasAgree) {
  if (world_size() == 1) GTEST_SKIP() << "needs two shards";
  const auto mesh = kdt::init_device_mesh({world_size()});
  kdt::manual_seed(11, mesh);
  const std::int64_t rows = 2 * world_size();  // equal, non-empty shards
  kdt::DTensor<float**> sharded("s", mesh, {rows, kCols}, {kdt::Shard(0)});
  kdt::uniform_(sharded);
  const auto blocks = gather_equal_blocks(host_values_row_major(sharded.local()));
  for (int r = 1; r < world_size(); ++r) EXPECT_FALSE(bitwise_equal(blocks[0], blocks[r]));
}

// test_deterministic_uniform_2d ported, and the state after each op equal on all ranks.
TEST_F(RandomOnDTensor, StateAdvancesByTheGlobalCountOnEveryRank) {
  for (const auto& shape : mesh_shapes(2)) {
    const auto mesh = kdt::init_device_mesh(shape);
    kdt::manual_seed(8, mesh);
    kdt::DTensor<double**> t("t", mesh, {kRows, kCols}, {kdt::Shard(0), kdt::Shard(1)});
    kdt::uniform_(t);
    EXPECT_EQ(kdt::rng_tracker()->get_rng_state().offset, 236u);  // round_up_to_4(2 * 117)
    std::uint64_t offsets[2] = {kdt::rng_tracker()->get_rng_state().offset, 0};
    MPI_Allreduce(MPI_IN_PLACE, offsets, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    EXPECT_EQ(offsets[0], 236u);
  }
}

// test_pipeline_parallel_manual_seed: each stage seeds its flattened (dp, tp) mesh with
// 123 + pp_rank; stages differ, ranks within a stage agree, no WORLD synchronisation.
TEST_F(RandomOnDTensor, PipelineStagesSeededSeparately) {
  const int pp = world_size() % 2 == 0 ? 2 : 1;
  const int rest = world_size() / pp;
  const int tp = rest % 2 == 0 ? 2 : 1;
  const auto mesh = kdt::init_device_mesh({pp, rest / tp, tp}, {"pp", "dp", "tp"});
  const auto spmd = mesh.submesh({"dp", "tp"}).flatten("spmd");
  const int pp_rank = mesh.local_rank("pp");
  MpiCallCounter::reset();
  kdt::manual_seed(123 + pp_rank, spmd);
  kdt::DTensor<float**> w("w", spmd, {kRows, kCols}, {kdt::Shard(1)});
  kdt::uniform_(w);
  EXPECT_EQ(MpiCallCounter::communication_calls(), 0);
  const auto full = host_values_row_major(w.full_tensor());
  const auto expected = reference<float>({static_cast<std::uint64_t>(123 + pp_rank), 0},
                                         [](auto v, auto& g) { kdt::uniform_(v, 0, 1, g); });
  EXPECT_TRUE(bitwise_equal(full, expected));
  const auto stages = gather_equal_blocks(full);
  for (int r = 0; r < world_size(); ++r) {
    const int other_stage = r / rest;
    EXPECT_EQ(bitwise_equal(stages[r], full), other_stage == pp_rank) << "rank " << r;
  }
}

// test_meta_tensor_init / deferred init of a column-sharded weight.
TEST_F(RandomOnDTensor, DeferredInitOfColumnShardedWeight) {
  const auto mesh = kdt::init_device_mesh({world_size()}, {"tp"});
  kdt::manual_seed(42, mesh);
  kdt::DTensor<float**> weight("weight", mesh, {kRows, kCols}, {kdt::Shard(1)},
                               kdt::deferred_allocation);
  EXPECT_FALSE(weight.is_allocated());
  const kdt::RNGState before = kdt::rng_tracker()->get_rng_state();
  EXPECT_THROW(kdt::uniform_(weight), std::runtime_error);
  EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), before);  // a failed op changes nothing
  weight.allocate();
  kdt::uniform_(weight, -0.5, 0.5);
  const auto expected =
      reference<float>({42, 0}, [](auto v, auto& g) { kdt::uniform_(v, -0.5, 0.5, g); });
  EXPECT_TRUE(bitwise_equal(host_values_row_major(weight.full_tensor()), expected));
}

// test_tp_random_state: with distribute_region off every TP rank draws the same local
// values (its shard treated as a whole tensor); on, the shards form the global tensor.
TEST_F(RandomOnDTensor, DistributeRegionOffDrawsLocalShardsAlike) {
  const auto mesh = kdt::init_device_mesh({world_size()}, {"tp"});
  const std::int64_t rows = 3 * world_size();
  kdt::manual_seed(77, mesh);
  kdt::rng_tracker()->set_distribute_region_enabled(false);
  kdt::DTensor<float**> w("w", mesh, {rows, kCols}, {kdt::Shard(0)});
  kdt::normal_(w);
  const auto local = host_values_row_major(w.local());
  for (const auto& block : gather_equal_blocks(local)) EXPECT_TRUE(bitwise_equal(block, local));
  EXPECT_TRUE(
      bitwise_equal(local, reference<float>(
                               {77, 0}, [](auto v, auto& g) { kdt::normal_(v, 0, 1, g); }, 3)));
  EXPECT_EQ(kdt::rng_tracker()->get_rng_state().offset, static_cast<std::uint64_t>(3 * kCols + 1));

  kdt::manual_seed(77, mesh);  // keeps the setting, as in PyTorch
  EXPECT_FALSE(kdt::rng_tracker()->distribute_region_enabled());
  kdt::rng_tracker()->set_distribute_region_enabled(true);
  kdt::normal_(w);
  EXPECT_TRUE(bitwise_equal(host_values_row_major(w.full_tensor()),
                            reference<float>(
                                {77, 0}, [](auto v, auto& g) { kdt::normal_(v, 0, 1, g); }, rows)));
}

// Checkpoint: a state saved as 16 bytes on one mesh resumes the identical stream on another.
TEST_F(RandomOnDTensor, StateRoundTripResumesOnAnotherMesh) {
  const auto mesh_1d = kdt::init_device_mesh({world_size()});
  kdt::manual_seed(2024, mesh_1d);
  kdt::DTensor<float**> a("a", mesh_1d, {kRows, kCols}, {kdt::Shard(0)});
  kdt::uniform_(a);
  const auto bytes = kdt::rng_tracker()->get_rng_state().to_bytes();
  kdt::normal_(a);
  const auto continued = host_values_row_major(a.full_tensor());

  const auto shape = mesh_shapes(2).back();
  const auto mesh_2d = kdt::init_device_mesh(shape);
  kdt::manual_seed(0, mesh_2d);
  kdt::rng_tracker()->set_rng_state(kdt::RNGState::from_bytes(bytes));
  kdt::DTensor<float**, Kokkos::LayoutLeft> b("b", mesh_2d, {kRows, kCols},
                                              {kdt::Shard(1), kdt::Shard(0)});
  kdt::normal_(b);
  EXPECT_TRUE(bitwise_equal(host_values_row_major(b.full_tensor()), continued));
}

// An explicit Generator on a DTensor: sharding-invariant, advanced by the global count.
TEST_F(RandomOnDTensor, ExplicitGeneratorOnDTensor) {
  const auto mesh = kdt::init_device_mesh({world_size()});
  kdt::Generator gen(555);
  kdt::DTensor<float**> t("t", mesh, {kRows, kCols}, {kdt::Shard(1)});
  kdt::exponential_(Kokkos::DefaultExecutionSpace(), t, 3.0, gen);
  EXPECT_EQ(gen.get_state(), (kdt::RNGState{555, 120}));
  EXPECT_EQ(kdt::rng_tracker(), nullptr);  // the tracker is not involved
  EXPECT_TRUE(bitwise_equal(
      host_values_row_major(t.full_tensor()),
      reference<float>({555, 0}, [](auto v, auto& g) { kdt::exponential_(v, 3.0, g); })));
}

// Partial placements on a mesh dim of size > 1 are rejected, naming the argument; nothing
// changes (also when a size-1 dim is Partial too).
TEST_F(RandomOnDTensor, PartialPlacementIsRejected) {
  if (world_size() == 1) GTEST_SKIP() << "needs a mesh dim of size > 1";
  const auto check = [](const kdt::DeviceMesh& mesh, std::vector<kdt::Placement> placements,
                        const std::string& shown) {
    kdt::manual_seed(1, mesh);
    kdt::DTensor<float**> t("t", mesh, {kRows, kCols}, placements);
    try {
      kdt::uniform_(t);
      FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(
          std::string(e.what()).find("KokkosDTensor::uniform_: argument 'placements' = (" + shown +
                                     "): random ops need Shard or Replicate placements: "
                                     "a Partial DTensor holds summands, not values"),
          std::string::npos)
          << e.what();
    }
    EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), (kdt::RNGState{1, 0}));
  };
  check(kdt::init_device_mesh({world_size()}), {kdt::Partial()}, "P");
  check(kdt::init_device_mesh({1, world_size()}), {kdt::Partial(), kdt::Partial()}, "P,P");
  check(kdt::init_device_mesh({world_size(), 1}), {kdt::Partial(), kdt::Shard(0)}, "P,S0");
}

// Partial on a mesh dim of size 1 is accepted (as in PyTorch): the one summand is the value,
// so the op fills it as if the dim were Replicate.
TEST_F(RandomOnDTensor, PartialOnMeshDimOfSizeOneIsAccepted) {
  const auto expected =
      reference<float>({6, 0}, [](auto v, auto& g) { kdt::uniform_(v, 0, 1, g); });
  const std::vector<std::pair<std::vector<int>, std::vector<kdt::Placement>>> cases = {
      {{1, world_size()}, {kdt::Partial(), kdt::Shard(0)}},
      {{world_size(), 1}, {kdt::Shard(1), kdt::Partial()}},
      {{1, world_size(), 1}, {kdt::Partial(), kdt::Replicate(), kdt::Partial()}},
  };
  for (const auto& [shape, placements] : cases) {
    const auto mesh = kdt::init_device_mesh(shape);
    kdt::manual_seed(6, mesh);
    kdt::DTensor<float**> t("t", mesh, {kRows, kCols}, placements);
    MpiCallCounter::reset();
    kdt::uniform_(t);
    EXPECT_EQ(MpiCallCounter::all_calls(), 0);
    EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), (kdt::RNGState{6, 120}));
    EXPECT_TRUE(bitwise_equal(host_values_row_major(t.full_tensor()), expected))
        << "mesh " << mesh.to_string() << " " << t.spec().to_string();
  }
}

// Ranks outside a DTensor's mesh hold no elements but advance their state by the global
// count all the same, so an SPMD program that draws on two sub-meshes and then on the
// whole world keeps every rank's state equal, and the two sub-mesh tensors take disjoint
// parts of the stream. (PyTorch skips the op on those ranks: docs/mesh.md.)
TEST_F(RandomOnDTensor, RanksOutsideTheMeshAdvanceTheirStateToo) {
  if (world_size() == 1) GTEST_SKIP() << "needs two sub-meshes";
  const int half = world_size() / 2;
  std::vector<int> lower_ranks, upper_ranks;
  for (int r = 0; r < world_size(); ++r) (r < half ? lower_ranks : upper_ranks).push_back(r);
  const kdt::DeviceMesh lower(lower_ranks, {half}, {"a"});
  const kdt::DeviceMesh upper(upper_ranks, {world_size() - half}, {"b"});
  const auto world = kdt::init_device_mesh({world_size()});
  kdt::manual_seed(21, world);
  kdt::DTensor<float**> a("a", lower, {kRows, kCols}, {kdt::Shard(0)});  // 117 words -> 120
  kdt::DTensor<double**> b("b", upper, {5, 7}, {kdt::Shard(1)});         // 70 words -> 72
  kdt::DTensor<float**> w("w", world, {kRows, kCols}, {kdt::Replicate()});
  MpiCallCounter::reset();
  kdt::uniform_(a);
  kdt::normal_(b);
  EXPECT_EQ(MpiCallCounter::all_calls(), 0);
  EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), (kdt::RNGState{21, 192}));
  kdt::uniform_(w);
  EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), (kdt::RNGState{21, 312}));

  const auto a_full = a.full_tensor();  // collective over the sub-mesh only
  const auto b_full = b.full_tensor();
  if (lower.contains(world_rank())) {
    EXPECT_TRUE(bitwise_equal(
        host_values_row_major(a_full),
        reference<float>({21, 0}, [](auto v, auto& g) { kdt::uniform_(v, 0, 1, g); })));
    EXPECT_EQ(b.local().size(), 0u);
  } else {
    EXPECT_TRUE(
        bitwise_equal(host_values_row_major(b_full),
                      reference<double>(
                          {21, 120}, [](auto v, auto& g) { kdt::normal_(v, 0, 1, g); }, 5, 7)));
    EXPECT_EQ(a.local().size(), 0u);
  }
  // The world tensor is the same on every rank (the replicas agree).
  const auto local = host_values_row_major(w.local());
  EXPECT_TRUE(bitwise_equal(
      local, reference<float>({21, 192}, [](auto v, auto& g) { kdt::uniform_(v, 0, 1, g); })));
  for (const auto& block : gather_equal_blocks(local)) EXPECT_TRUE(bitwise_equal(block, local));
}

// With distribute_region_enabled() false an op advances by the local element count, so a
// rank outside the mesh (no elements) does not advance.
TEST_F(RandomOnDTensor, RanksOutsideTheMeshWithDistributeRegionOff) {
  if (world_size() == 1) GTEST_SKIP() << "needs a rank outside the mesh";
  const kdt::DeviceMesh rank0_only({0}, {1});
  kdt::manual_seed(5, kdt::init_device_mesh({world_size()}));
  kdt::rng_tracker()->set_distribute_region_enabled(false);
  kdt::DTensor<float**> t("t", rank0_only, {kRows, kCols}, {kdt::Replicate()});
  kdt::uniform_(t);
  EXPECT_EQ(kdt::rng_tracker()->get_rng_state().offset, world_rank() == 0 ? 120u : 0u);
}

// RNGStateSource::default_generator (PyTorch >= 2.9): DTensor ops draw from and advance
// default_generator(), manual_seed(seed, mesh, source) seeds it, seed(s) takes effect on
// DTensor ops, and ops still make no MPI call.
TEST_F(RandomOnDTensor, StateSourceDefaultGenerator) {
  const kdt::RNGState saved = kdt::default_generator().get_state();
  const auto mesh = kdt::init_device_mesh({world_size()});
  kdt::DTensor<float**> t("t", mesh, {kRows, kCols}, {kdt::Shard(1)});
  const auto uniform_from = [](kdt::RNGState state) {
    return reference<float>(state, [](auto v, auto& g) { kdt::uniform_(v, 0, 1, g); });
  };

  MpiCallCounter::reset();
  kdt::manual_seed(31, mesh, kdt::RNGStateSource::default_generator);
  EXPECT_EQ(kdt::rng_tracker()->state_source(), kdt::RNGStateSource::default_generator);
  EXPECT_EQ(kdt::default_generator().get_state(), (kdt::RNGState{31, 0}));
  kdt::uniform_(t);
  EXPECT_EQ(MpiCallCounter::all_calls(), 0);
  EXPECT_EQ(kdt::default_generator().get_state(), (kdt::RNGState{31, 120}));
  EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), (kdt::RNGState{31, 120}));
  EXPECT_TRUE(bitwise_equal(host_values_row_major(t.full_tensor()), uniform_from({31, 0})));

  // One stream: an op on a plain View advances it for the next DTensor op.
  Kokkos::View<float*> v("v", 10);
  kdt::uniform_(v);
  EXPECT_EQ(kdt::default_generator().get_state(), (kdt::RNGState{31, 132}));
  kdt::uniform_(t);
  EXPECT_TRUE(bitwise_equal(host_values_row_major(t.full_tensor()), uniform_from({31, 132})));

  // seed(s) now seeds DTensor ops; two-argument manual_seed keeps the setting.
  kdt::seed(40);
  kdt::uniform_(t);
  EXPECT_TRUE(bitwise_equal(host_values_row_major(t.full_tensor()), uniform_from({40, 0})));
  kdt::manual_seed(41, mesh);
  EXPECT_EQ(kdt::rng_tracker()->state_source(), kdt::RNGStateSource::default_generator);
  EXPECT_EQ(kdt::default_generator().get_state(), (kdt::RNGState{41, 0}));
  kdt::rng_tracker()->set_rng_state({41, 400});
  EXPECT_EQ(kdt::default_generator().get_state(), (kdt::RNGState{41, 400}));

  // Back to the tracker's own state: untouched by all of the above.
  kdt::rng_tracker()->set_state_source(kdt::RNGStateSource::tracker);
  EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), (kdt::RNGState{31, 0}));
  kdt::manual_seed(50, mesh);
  EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), (kdt::RNGState{50, 0}));
  EXPECT_EQ(kdt::default_generator().get_state(), (kdt::RNGState{41, 400}));
  kdt::default_generator().set_state(saved);
}

// Bad parameters throw before the tracker is created or advanced.
TEST_F(RandomOnDTensor, BadParametersChangeNoState) {
  const auto mesh = kdt::init_device_mesh({world_size()});
  kdt::DTensor<float**> t("t", mesh, {kRows, kCols}, {kdt::Shard(0)});
  EXPECT_THROW(kdt::bernoulli_(t, 1.5), std::invalid_argument);
  EXPECT_EQ(kdt::rng_tracker(), nullptr);  // no WORLD synchronisation for a bad call
  kdt::manual_seed(1, mesh);
  EXPECT_THROW(kdt::uniform_(t, 2, 1), std::invalid_argument);
  kdt::rng_tracker()->set_rng_state({1, ~std::uint64_t(0) - 63});
  EXPECT_THROW(kdt::uniform_(t), std::overflow_error);
  EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), (kdt::RNGState{1, ~std::uint64_t(0) - 63}));
  EXPECT_THROW(kdt::rng_tracker()->set_rng_state({1, 6}), std::invalid_argument);
}

// bhalf_t (issue 29; half_t with Kokkos 3.4, which has no bhalf_t): on every mesh and
// placement the full tensor is the one-process tensor, and that is the float tensor of the
// same call rounded to nearest-even (uniform_: a rounded `to` becomes `from`) where bhalf_t is
// 16-bit, the float tensor itself where it is float; the offset moves as float's.
#if defined(KOKKOS_BHALF_T_IS_FLOAT)
using BHalf = Kokkos::Experimental::bhalf_t;
#else
using BHalf = Kokkos::Experimental::half_t;
#endif

TEST_F(RandomOnDTensor, BHalfTensorIsShardingInvariantAndTheRoundedFloatTensor) {
  const kdt::RNGState start{29, 64};
  const auto bits_of = [](auto value) -> std::uint32_t {
    if constexpr (kdt::Impl::is_reduced_float<decltype(value)>()) {
      return kdt::Impl::reduced_to_bits(value);
    } else {
      std::uint32_t bits;
      std::memcpy(&bits, &value, sizeof bits);
      return bits;
    }
  };
  const auto check = [&](auto op, const char* name, const float* bounds) {
    // The one-process tensors, float and BHalf (dropout_ reads ones).
    const auto ref_f = reference<float>(start, [&](auto v, auto& g) {
      Kokkos::deep_copy(v, 1.0f);
      op(v, g);
    });
    const auto ref_h = reference<BHalf>(start, [&](auto v, auto& g) {
      Kokkos::deep_copy(v, BHalf(1.0f));
      op(v, g);
    });
    for (std::size_t i = 0; i < ref_f.size(); ++i) {
      std::uint32_t want = bits_of(ref_f[i]);
      if constexpr (kdt::Impl::is_reduced_float<BHalf>()) {
        const auto round = [](float x) { return kdt::Impl::round_to_reduced_bits<BHalf>(x); };
        want = round(ref_f[i]);
        if (bounds && want == round(bounds[1])) want = round(bounds[0]);
      }
      ASSERT_EQ(bits_of(ref_h[i]), want) << name << " element " << i;
    }
    for (const auto& shape : mesh_shapes(2)) {
      const auto mesh = kdt::init_device_mesh(shape);
      for (const auto& placements : std::vector<std::vector<kdt::Placement>>{
               {kdt::Shard(1), kdt::Shard(0)}, {kdt::Shard(0), kdt::Replicate()}}) {
        kdt::manual_seed(0, mesh);
        kdt::rng_tracker()->set_rng_state(start);
        kdt::DTensor<BHalf**, Kokkos::LayoutLeft> t(name, mesh, {kRows, kCols}, placements);
        Kokkos::deep_copy(t.local(), BHalf(1.0f));
        op(t);
        EXPECT_TRUE(bitwise_equal(host_values_row_major(t.full_tensor()), ref_h))
            << name << " on mesh " << mesh.to_string() << " " << t.spec().to_string();
        EXPECT_EQ(kdt::rng_tracker()->get_rng_state().offset,
                  start.offset + (kRows * kCols + 3) / 4 * 4);
      }
    }
  };
  const float unit[2] = {0, 1};
  check([](auto&& t, auto&... g) { kdt::uniform_(t, g...); }, "uniform", unit);
  check([](auto&& t, auto&... g) { kdt::normal_(t, 0.5, 2, g...); }, "normal", nullptr);
  check([](auto&& t, auto&... g) { kdt::dropout_(t, 0.4, g...); }, "dropout", nullptr);
}
