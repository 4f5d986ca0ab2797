// Streams inside users' kernels over DTensor shards (SPEC section 4c, docs/streams.md): a
// kernel over the local shard that draws from reserve(dtensor, w) gathers (full_tensor) to the
// tensor the matching op gives on a plain View with a Generator, for every mesh, placement
// list and layout; the tracker advances as by the op, also on ranks outside the mesh; no MPI
// call once the tracker exists; distribute region off numbers the local shard; Partial and bad
// words_per_element are rejected with no state change.

#include <gtest/gtest.h>
#include <mpi.h>

#include <KokkosDTensor.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "MpiCallCounter.hpp"
#include "TestHelpers.hpp"

namespace kdt = KokkosDTensor;
using namespace TestHelpers;

namespace {

constexpr std::int64_t kRows = 9, kCols = 13;  // not divisible by 2, 4 or 8

template <class View>
std::vector<typename View::non_const_value_type> row_major(const View& view) {
  const auto host = kdt::to_host_row_major(view);
  return std::vector<typename View::non_const_value_type>(host.data(), host.data() + host.size());
}

// The op on a plain View of the global shape from `state`, as one process computes it.
template <class T, class Layout = Kokkos::LayoutRight, class Op>
std::vector<T> reference(kdt::RNGState state, Op op, std::int64_t rows = kRows,
                         std::int64_t cols = kCols) {
  kdt::Generator gen;
  gen.set_state(state);
  Kokkos::View<T**, Layout> view("reference", rows, cols);
  op(view, gen);
  return row_major(view);
}

// The user kernels: every local element of the shard draws its first value.
template <class View, class Stream>
void uniform_kernel(const View& local, const Stream& s) {
  Kokkos::parallel_for(
      "Test_ShardStream::uniform",
      Kokkos::MDRangePolicy<typename View::execution_space, Kokkos::Rank<2>>(
          {0, 0},
          {static_cast<std::int64_t>(local.extent(0)), static_cast<std::int64_t>(local.extent(1))}),
      KOKKOS_LAMBDA(std::int64_t i, std::int64_t j) {
        local(i, j) = s.element(i, j).template uniform<float>();
      });
  Kokkos::fence();
}

template <class View, class Stream>
void randint_kernel(const View& local, const Stream& s) {
  Kokkos::parallel_for(
      "Test_ShardStream::randint",
      Kokkos::MDRangePolicy<typename View::execution_space, Kokkos::Rank<2>>(
          {0, 0},
          {static_cast<std::int64_t>(local.extent(0)), static_cast<std::int64_t>(local.extent(1))}),
      KOKKOS_LAMBDA(std::int64_t i, std::int64_t j) {
        local(i, j) = s.element(i, j).randint(-5, 1000);
      });
  Kokkos::fence();
}

class ShardStreamTest : public ::testing::Test {
 protected:
  void SetUp() override { kdt::reset_rng_tracker(); }
  void TearDown() override { kdt::reset_rng_tracker(); }
};

template <class Layout>
void check_every_mesh_and_placement() {
  const kdt::RNGState start{0x8000000000000123ull, 4096};
  const auto uniform_ref = reference<float>(start, [](auto v, auto& g) { kdt::uniform_(v, g); });
  const kdt::RNGState after_uniform{start.seed, start.offset + 120};
  const auto randint_ref = reference<std::int64_t>(
      after_uniform, [](auto v, auto& g) { kdt::randint_(v, -5, 1000, g); });
  for (int ndim = 1; ndim <= 3; ++ndim) {
    for (const auto& shape : mesh_shapes(ndim)) {
      const auto mesh = kdt::init_device_mesh(shape);
      for (const auto& placements : placement_lists(ndim, 2)) {
        kdt::manual_seed(0, mesh);
        kdt::rng_tracker()->set_rng_state(start);
        kdt::DTensor<float**, Layout> u("u", mesh, {kRows, kCols}, placements);
        kdt::DTensor<std::int64_t**, Layout> r("r", mesh, {kRows, kCols}, placements);
        MpiCallCounter::reset();
        const auto su = kdt::reserve(u, 1);
        const auto sr = kdt::reserve(r, 2);
        uniform_kernel(u.local(), su);
        randint_kernel(r.local(), sr);
        EXPECT_EQ(MpiCallCounter::all_calls(), 0);
        const std::string where = "mesh " + mesh.to_string() + " " + u.spec().to_string();
        EXPECT_TRUE(bitwise_equal(row_major(u.full_tensor()), uniform_ref)) << where;
        EXPECT_TRUE(bitwise_equal(row_major(r.full_tensor()), randint_ref)) << where;
        EXPECT_EQ(kdt::rng_tracker()->get_rng_state().offset, start.offset + 120 + 236) << where;
      }
    }
  }
}

}  // namespace

TEST_F(ShardStreamTest, ShardKernelGathersToTheOpTensorLayoutRight) {
  check_every_mesh_and_placement<Kokkos::LayoutRight>();
}

TEST_F(ShardStreamTest, ShardKernelGathersToTheOpTensorLayoutLeft) {
  check_every_mesh_and_placement<Kokkos::LayoutLeft>();
}

// With a Generator, w = 3 words per element drawn as three bits32(): the gathered words are
// those of reserve(gen, N, 3) on one process, and both generators end in the same state.
// (A free function: CUDA does not allow device lambdas inside a TEST body.)
void ShardStreamTest_GeneratorFormAndSeveralWordsPerElement() {
  for (const auto& shape : mesh_shapes(2)) {
    const auto mesh = kdt::init_device_mesh(shape);
    for (const auto& placements :
         std::vector<std::vector<kdt::Placement>>{{kdt::Shard(0), kdt::Shard(1)},
                                                  {kdt::Shard(1), kdt::Replicate()},
                                                  {kdt::Shard(0), kdt::Shard(0)}}) {
      kdt::DTensor<float**> t("t", mesh, {kRows, kCols}, placements);
      // The same placements on a rank-3 tensor shard dims 0 and 1 the same way.
      kdt::DTensor<std::uint32_t***> out("out", mesh, {kRows, kCols, 3}, placements);
      kdt::Generator gen(77), single(77);
      kdt::reserve(gen, 5, 1);  // start at offset 8
      kdt::reserve(single, 5, 1);
      MpiCallCounter::reset();
      const auto s = kdt::reserve(t, 3, gen);
      EXPECT_EQ(MpiCallCounter::all_calls(), 0);
      const auto local = out.local();
      Kokkos::parallel_for(
          "words",
          Kokkos::MDRangePolicy<Kokkos::DefaultExecutionSpace, Kokkos::Rank<2>>(
              {0, 0}, {static_cast<std::int64_t>(local.extent(0)),
                       static_cast<std::int64_t>(local.extent(1))}),
          KOKKOS_LAMBDA(std::int64_t i, std::int64_t j) {
            auto e = s.element(i, j);
            for (int k = 0; k < 3; ++k) local(i, j, k) = e.bits32();
          });
      const auto one = kdt::reserve(single, kRows * kCols, 3);
      Kokkos::View<std::uint32_t***> expected("expected", kRows, kCols, 3);
      Kokkos::parallel_for(
          "expected",
          Kokkos::MDRangePolicy<Kokkos::DefaultExecutionSpace, Kokkos::Rank<2>>({0, 0},
                                                                                {kRows, kCols}),
          KOKKOS_LAMBDA(std::int64_t i, std::int64_t j) {
            auto e = one.element(static_cast<std::uint64_t>(i * kCols + j));
            for (int k = 0; k < 3; ++k) expected(i, j, k) = e.bits32();
          });
      Kokkos::fence();
      EXPECT_TRUE(bitwise_equal(row_major(out.full_tensor()), row_major(expected)))
          << mesh.to_string() << " " << t.spec().to_string();
      EXPECT_EQ(gen.get_state(), single.get_state());
      EXPECT_EQ(gen.get_state().offset, 8u + 352u);  // round_up_to_4(3 * 117)
      EXPECT_EQ(s.stream().count(), static_cast<std::uint64_t>(kRows * kCols));
    }
  }
}

TEST_F(ShardStreamTest, GeneratorFormAndSeveralWordsPerElement) {
  ShardStreamTest_GeneratorFormAndSeveralWordsPerElement();
}

// Rank-1 and rank-3 DTensors: local indices map to global row-major indices.
// (A free function: CUDA does not allow device lambdas inside a TEST body.)
void ShardStreamTest_OtherRanks() {
  const auto mesh = kdt::init_device_mesh({world_size()});
  kdt::manual_seed(12, mesh);
  kdt::DTensor<float*> v("v", mesh, {29}, {kdt::Shard(0)});
  kdt::DTensor<double***, Kokkos::LayoutLeft> c("c", mesh, {4, 11, 3}, {kdt::Shard(1)});
  const auto sv = kdt::reserve(v, 1);
  const auto sc = kdt::reserve(c, 2);
  const auto lv = v.local();
  const auto lc = c.local();
  Kokkos::parallel_for(
      "v", lv.extent(0), KOKKOS_LAMBDA(int i) { lv(i) = sv.element(i).uniform<float>(); });
  Kokkos::parallel_for(
      "c",
      Kokkos::MDRangePolicy<Kokkos::DefaultExecutionSpace, Kokkos::Rank<3>>(
          {0, 0, 0},
          {static_cast<std::int64_t>(lc.extent(0)), static_cast<std::int64_t>(lc.extent(1)),
           static_cast<std::int64_t>(lc.extent(2))}),
      KOKKOS_LAMBDA(std::int64_t i, std::int64_t j, std::int64_t k) {
        lc(i, j, k) = sc.element(i, j, k).exponential<double>(2.0);
      });
  Kokkos::fence();
  // normal (stream version 2) on a 2-D tensor sharded on both dims where the mesh allows.
  const auto mesh2 = kdt::init_device_mesh(mesh_shapes(2).back());
  kdt::DTensor<float**> n("n", mesh2, {kRows, kCols}, {kdt::Shard(1), kdt::Shard(0)});
  const auto sn = kdt::reserve(n, 1);
  const auto ln = n.local();
  Kokkos::parallel_for(
      "n",
      Kokkos::MDRangePolicy<Kokkos::DefaultExecutionSpace, Kokkos::Rank<2>>(
          {0, 0},
          {static_cast<std::int64_t>(ln.extent(0)), static_cast<std::int64_t>(ln.extent(1))}),
      KOKKOS_LAMBDA(std::int64_t i, std::int64_t j) {
        ln(i, j) = sn.element(i, j).normal<float>(1.0f, 2.0f);
      });
  Kokkos::fence();
  kdt::Generator gen(12);
  Kokkos::View<float*> rv("rv", 29);
  Kokkos::View<double***, Kokkos::LayoutLeft> rc("rc", 4, 11, 3);
  Kokkos::View<float**> rn("rn", kRows, kCols);
  kdt::uniform_(rv, gen);
  kdt::exponential_(rc, 2.0, gen);
  kdt::normal_(rn, 1.0, 2.0, gen);
  EXPECT_TRUE(bitwise_equal(row_major(v.full_tensor()), row_major(rv)));
  EXPECT_TRUE(bitwise_equal(row_major(c.full_tensor()), row_major(rc)));
  EXPECT_TRUE(bitwise_equal(row_major(n.full_tensor()), row_major(rn)));
  EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), gen.get_state());
}

TEST_F(ShardStreamTest, OtherRanks) { ShardStreamTest_OtherRanks(); }

// distribute_region_enabled() false: each rank numbers its local shard from 0 and advances by
// its local count, as the ops do.
TEST_F(ShardStreamTest, DistributeRegionOffNumbersTheLocalShard) {
  const auto mesh = kdt::init_device_mesh({world_size()});
  kdt::manual_seed(4, mesh);
  kdt::rng_tracker()->set_distribute_region_enabled(false);
  kdt::DTensor<float**> t("t", mesh, {kRows, kCols}, {kdt::Shard(1)});
  kdt::DTensor<float**> op("op", mesh, {kRows, kCols}, {kdt::Shard(1)});
  const auto s = kdt::reserve(t, 1);
  uniform_kernel(t.local(), s);
  const auto after_reserve = kdt::rng_tracker()->get_rng_state();
  kdt::rng_tracker()->set_rng_state({4, 0});
  kdt::uniform_(op);
  EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), after_reserve);
  EXPECT_TRUE(bitwise_equal(row_major(t.local()), row_major(op.local())));
  const std::uint64_t local_count = t.local().size();
  EXPECT_EQ(after_reserve.offset, (local_count + 3) / 4 * 4);
  kdt::rng_tracker()->set_distribute_region_enabled(true);
}

// Ranks outside the DTensor's mesh advance by the global count like the ops, so every rank's
// state stays equal with no communication.
TEST_F(ShardStreamTest, RanksOutsideTheMeshAdvanceToo) {
  if (world_size() == 1) GTEST_SKIP() << "needs two sub-meshes";
  const int half = world_size() / 2;
  std::vector<int> lower_ranks, upper_ranks;
  for (int r = 0; r < world_size(); ++r) (r < half ? lower_ranks : upper_ranks).push_back(r);
  const kdt::DeviceMesh lower(lower_ranks, {half}, {"a"});
  const kdt::DeviceMesh upper(upper_ranks, {world_size() - half}, {"b"});
  kdt::manual_seed(21, kdt::init_device_mesh({world_size()}));
  kdt::DTensor<float**> a("a", lower, {kRows, kCols}, {kdt::Shard(0)});  // 117 words -> 120
  kdt::DTensor<std::int64_t**> b("b", upper, {5, 7}, {kdt::Shard(1)});   // 70 words -> 72
  MpiCallCounter::reset();
  const auto sa = kdt::reserve(a, 1);
  const auto sb = kdt::reserve(b, 2);
  EXPECT_EQ(MpiCallCounter::all_calls(), 0);
  EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), (kdt::RNGState{21, 192}));
  uniform_kernel(a.local(), sa);
  randint_kernel(b.local(), sb);
  const auto a_full = a.full_tensor();  // collective over the sub-mesh only
  const auto b_full = b.full_tensor();
  if (lower.contains(world_rank())) {
    EXPECT_TRUE(bitwise_equal(row_major(a_full), reference<float>({21, 0}, [](auto v, auto& g) {
                                kdt::uniform_(v, g);
                              })));
  } else {
    EXPECT_TRUE(bitwise_equal(
        row_major(b_full),
        reference<std::int64_t>(
            {21, 120}, [](auto v, auto& g) { kdt::randint_(v, -5, 1000, g); }, 5, 7)));
  }
}

// Partial on a mesh dim of size > 1 is rejected as by the ops (nothing changes); on a size-1
// dim it is accepted.
TEST_F(ShardStreamTest, PartialAndBadWordsPerElementAreRejected) {
  const auto world = kdt::init_device_mesh({world_size()});
  // Validation comes before the tracker is created.
  kdt::DTensor<float**> t("t", world, {kRows, kCols}, {kdt::Shard(0)});
  try {
    kdt::reserve(t, 0);
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(
        std::string(e.what()).find("KokkosDTensor::reserve: argument 'words_per_element' = 0"),
        std::string::npos)
        << e.what();
  }
  EXPECT_EQ(kdt::rng_tracker(), nullptr);
  kdt::Generator gen(9);
  EXPECT_THROW(kdt::reserve(t, -1, gen), std::invalid_argument);
  EXPECT_EQ(gen.get_state(), (kdt::RNGState{9, 0}));

  kdt::manual_seed(1, world);
  if (world_size() > 1) {
    kdt::DTensor<float**> p("p", world, {kRows, kCols}, {kdt::Partial()});
    try {
      kdt::reserve(p, 1);
      ADD_FAILURE() << "no exception";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("KokkosDTensor::reserve: argument 'placements' = (P)"),
                std::string::npos)
          << e.what();
    }
    EXPECT_THROW(kdt::reserve(p, 1, gen), std::invalid_argument);
    EXPECT_EQ(gen.get_state(), (kdt::RNGState{9, 0}));
    EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), (kdt::RNGState{1, 0}));
  }
  const auto mesh = kdt::init_device_mesh({1, world_size()});
  kdt::DTensor<float**> q("q", mesh, {kRows, kCols}, {kdt::Partial(), kdt::Shard(0)});
  const auto s = kdt::reserve(q, 1);
  uniform_kernel(q.local(), s);
  EXPECT_TRUE(
      bitwise_equal(row_major(q.full_tensor()),
                    reference<float>({1, 0}, [](auto v, auto& g) { kdt::uniform_(v, g); })));
  EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), (kdt::RNGState{1, 120}));
}
