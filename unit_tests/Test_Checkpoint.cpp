// Checkpoint safety (SPEC section 3): the 16-byte RNGState round-trips exactly, and a
// state restored from those bytes continues the identical stream on any mesh, placement
// and rank count: the restored DTensor values equal what a single-process Generator gives
// from the same bytes. Registered at 1, 2 and 4 ranks, always from the same bytes.

#include <gtest/gtest.h>
#include <mpi.h>

#include <KokkosDTensor.hpp>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "TestHelpers.hpp"

namespace kdt = KokkosDTensor;
using namespace TestHelpers;

namespace {

// A checkpoint written once and committed here: seed 0x0123456789abcdef, offset 2^36 + 16.
constexpr std::array<std::uint8_t, 16> kCheckpoint = {
    0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01, 0x10, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00};
constexpr kdt::RNGState kCheckpointState = {0x0123456789abcdefull, (1ull << 36) + 16};

constexpr std::int64_t kRows = 11, kCols = 7;  // not divisible by 2 or 4

template <class ViewType>
std::vector<typename ViewType::non_const_value_type> row_major(const ViewType& view) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), view);
  std::vector<typename ViewType::non_const_value_type> values;
  for (std::size_t i = 0; i < host.extent(0); ++i)
    for (std::size_t j = 0; j < host.extent(1); ++j) values.push_back(host(i, j));
  return values;
}

// The op sequence a training step might run after a restore: values of each op (row-major)
// and the state after all of them.
struct Drawn {
  std::vector<float> uniform;
  std::vector<double> normal;
  std::vector<float> dropout;
  kdt::RNGState after;
};

// Single process: plain Views of the global shape with a Generator restored from `bytes`.
Drawn reference(const std::array<std::uint8_t, 16>& bytes) {
  kdt::Generator gen;
  gen.set_state(kdt::RNGState::from_bytes(bytes));
  Kokkos::View<float**> u("u", kRows, kCols), d("d", kRows, kCols);
  Kokkos::View<double**> n("n", kRows, kCols);
  kdt::uniform_(u, -1.0, 1.0, gen);
  kdt::normal_(n, 0.5, 2.0, gen);
  Kokkos::deep_copy(d, 1.0f);
  kdt::dropout_(d, 0.3, gen);
  Kokkos::fence();
  return {row_major(u), row_major(n), row_major(d), gen.get_state()};
}

// The same sequence on DTensors from the tracker restored from `bytes`.
template <class Layout>
Drawn on_dtensors(const kdt::DeviceMesh& mesh, const std::vector<kdt::Placement>& placements,
                  const std::array<std::uint8_t, 16>& bytes) {
  kdt::manual_seed(999, mesh);  // any seed: the restore replaces it
  kdt::rng_tracker()->set_rng_state(kdt::RNGState::from_bytes(bytes));
  kdt::DTensor<float**, Layout> u("u", mesh, {kRows, kCols}, placements);
  kdt::DTensor<double**, Layout> n("n", mesh, {kRows, kCols}, placements);
  kdt::DTensor<float**, Layout> d("d", mesh, {kRows, kCols}, placements);
  kdt::uniform_(u, -1.0, 1.0);
  kdt::normal_(n, 0.5, 2.0);
  Kokkos::deep_copy(d.local(), 1.0f);
  kdt::dropout_(d, 0.3);
  Kokkos::fence();
  return {row_major(u.full_tensor()), row_major(n.full_tensor()), row_major(d.full_tensor()),
          kdt::rng_tracker()->get_rng_state()};
}

void expect_same(const Drawn& got, const Drawn& want) {
  EXPECT_TRUE(bitwise_equal(got.uniform, want.uniform));
  EXPECT_TRUE(bitwise_equal(got.normal, want.normal));
  EXPECT_TRUE(bitwise_equal(got.dropout, want.dropout));
  EXPECT_EQ(got.after, want.after);
}

// Every (mesh shape, placements) of 1 and 2 mesh dims over the world, a selection.
std::vector<std::pair<std::vector<int>, std::vector<kdt::Placement>>> layouts() {
  const int n = world_size();
  std::vector<std::pair<std::vector<int>, std::vector<kdt::Placement>>> cases = {
      {{n}, {kdt::Shard(0)}}, {{n}, {kdt::Shard(1)}}, {{n}, {kdt::Replicate()}}};
  for (int a = 1; a <= n; ++a) {
    if (n % a) continue;
    cases.push_back({{a, n / a}, {kdt::Shard(0), kdt::Shard(1)}});
    cases.push_back({{a, n / a}, {kdt::Shard(1), kdt::Shard(1)}});
    cases.push_back({{a, n / a}, {kdt::Replicate(), kdt::Shard(0)}});
  }
  return cases;
}

class Checkpoint : public ::testing::Test {
 protected:
  void TearDown() override { kdt::reset_rng_tracker(); }
};

}  // namespace

TEST_F(Checkpoint, BytesAreSeedThenOffsetLittleEndian) {
  EXPECT_EQ(kCheckpointState.to_bytes(), kCheckpoint);
  EXPECT_EQ(kdt::RNGState::from_bytes(kCheckpoint), kCheckpointState);
  EXPECT_EQ(kdt::RNGState::from_bytes(kCheckpoint.data(), kCheckpoint.size()), kCheckpointState);
}

TEST_F(Checkpoint, BytesRoundTrip) {
  const std::uint64_t max = ~std::uint64_t(0);
  for (kdt::RNGState state : {kdt::RNGState{0, 0}, kdt::RNGState{max, max - 3}, kdt::RNGState{1, 4},
                              kdt::RNGState{0x8000000000000000ull, 1ull << 62}, kCheckpointState}) {
    const auto bytes = state.to_bytes();
    EXPECT_EQ(kdt::RNGState::from_bytes(bytes), state);
    EXPECT_EQ(kdt::RNGState::from_bytes(bytes).to_bytes(), bytes);
  }
  // Through a file, as a checkpoint would go.
  const std::string path = "kdt_checkpoint_rank" + std::to_string(world_rank()) + ".bin";
  {
    std::ofstream out(path, std::ios::binary);
    const auto bytes = kCheckpointState.to_bytes();
    out.write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  }
  std::array<std::uint8_t, 16> read{};
  std::ifstream in(path, std::ios::binary);
  in.read(reinterpret_cast<char*>(read.data()), read.size());
  EXPECT_EQ(in.gcount(), 16);
  EXPECT_EQ(kdt::RNGState::from_bytes(read), kCheckpointState);
  std::remove(path.c_str());
}

// The committed bytes give the same tensors on every mesh, placement, layout and rank
// count as a single-process Generator restored from them.
TEST_F(Checkpoint, RestoredStreamEqualsSingleProcessGenerator) {
  const Drawn want = reference(kCheckpoint);
  EXPECT_EQ(want.after.seed, kCheckpointState.seed);
  for (const auto& [shape, placements] : layouts()) {
    SCOPED_TRACE(kdt::Impl::format_value(shape) + " " + kdt::to_string(placements));
    const auto mesh = kdt::init_device_mesh(shape);
    expect_same(on_dtensors<Kokkos::LayoutRight>(mesh, placements, kCheckpoint), want);
    expect_same(on_dtensors<Kokkos::LayoutLeft>(mesh, placements, kCheckpoint), want);
  }
}

// A checkpoint taken in the middle of a run on one mesh resumes on another mesh, and on a
// mesh of fewer ranks (the ranks left out keep their state in step without drawing).
TEST_F(Checkpoint, TakenOnOneMeshResumedOnAnother) {
  const int n = world_size();
  const auto world = kdt::init_device_mesh({n});
  kdt::manual_seed(77, world);
  kdt::DTensor<float**> warmup("warmup", world, {kRows, kCols}, {kdt::Shard(0)});
  kdt::uniform_(warmup);
  kdt::normal_(warmup);
  const auto bytes = kdt::rng_tracker()->get_rng_state().to_bytes();
  EXPECT_EQ(kdt::RNGState::from_bytes(bytes).offset, 2u * ((kRows * kCols + 3) / 4 * 4));
  const Drawn want = reference(bytes);

  // Another mesh over all ranks.
  const auto mesh_2d = kdt::init_device_mesh({n % 2 == 0 ? 2 : 1, n % 2 == 0 ? n / 2 : n});
  expect_same(on_dtensors<Kokkos::LayoutLeft>(mesh_2d, {kdt::Shard(1), kdt::Shard(0)}, bytes),
              want);

  // A mesh of the first half of the ranks (rank count n / 2, or 1 on one rank).
  const int half = n > 1 ? n / 2 : 1;
  std::vector<int> ranks(half);
  for (int r = 0; r < half; ++r) ranks[r] = r;
  const kdt::DeviceMesh small(ranks, {half});
  if (world_rank() < half) {
    expect_same(on_dtensors<Kokkos::LayoutRight>(small, {kdt::Shard(0)}, bytes), want);
  } else {
    // Not in the mesh: no shard, but the restored state advances in step (so a later op on
    // a mesh that includes this rank draws the right words).
    kdt::manual_seed(999, world);
    kdt::rng_tracker()->set_rng_state(kdt::RNGState::from_bytes(bytes));
    kdt::DTensor<float**> u("u", small, {kRows, kCols}, {kdt::Shard(0)});
    kdt::DTensor<double**> nn("n", small, {kRows, kCols}, {kdt::Shard(0)});
    kdt::DTensor<float**> d("d", small, {kRows, kCols}, {kdt::Shard(0)});
    kdt::uniform_(u, -1.0, 1.0);
    kdt::normal_(nn, 0.5, 2.0);
    kdt::dropout_(d, 0.3);
    EXPECT_EQ(u.local().size(), 0u);
    EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), want.after);
  }

  // A Generator restored from the tracker's bytes (and back) continues identically too.
  kdt::manual_seed(5, world);
  kdt::rng_tracker()->set_rng_state(kdt::RNGState::from_bytes(bytes));
  kdt::Generator gen;
  gen.set_state(kdt::RNGState::from_bytes(kdt::rng_tracker()->get_rng_state().to_bytes()));
  EXPECT_EQ(gen.get_state().to_bytes(), bytes);
}
