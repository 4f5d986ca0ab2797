// SPEC section 5: every bad input gets a std::invalid_argument / std::runtime_error (or
// its subclass std::overflow_error for the counter space) whose message names the
// function, the argument and its value ("<function>: argument '<name>' = <value>:
// <requirement>"), and a failed call changes nothing: neither the Generator / tracker
// state nor the data. Runs on any number of ranks. The lifecycle errors (a random op
// before Kokkos::initialize, after MPI_Finalize) need their own programs:
// Test_ErrorsBeforeKokkosInit.cpp and Test_ErrorsAfterMPIFinalize.cpp.

#include <gtest/gtest.h>
#include <mpi.h>

#include <KokkosDTensor.hpp>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include "TestHelpers.hpp"

namespace kdt = KokkosDTensor;
using namespace TestHelpers;

namespace {

std::vector<int> all_ranks() {
  std::vector<int> ranks(world_size());
  for (int r = 0; r < world_size(); ++r) ranks[r] = r;
  return ranks;
}

// The message of the exception `f` throws, which must be exactly of type Expected.
template <class Expected, class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const Expected& e) {
    EXPECT_EQ(std::string(typeid(e).name()), std::string(typeid(Expected).name()))
        << "threw a subclass of the expected type: " << e.what();
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type " << typeid(e).name() << ": " << e.what();
    return "";
  }
  ADD_FAILURE() << "no exception";
  return "";
}

// Every part occurs in the message.
void expect_contains(const std::string& message, const std::vector<std::string>& parts) {
  for (const auto& part : parts)
    EXPECT_NE(message.find(part), std::string::npos)
        << "message lacks \"" << part << "\":\n  " << message;
}

template <class Expected, class F>
void expect_error(F&& f, const std::vector<std::string>& parts) {
  expect_contains(message_of<Expected>(std::forward<F>(f)), parts);
}

constexpr std::uint64_t kMaxWord = std::numeric_limits<std::uint64_t>::max();

// ---- DeviceMesh ---------------------------------------------------------------------------

TEST(Errors, MeshShapeNotMatchingRankCount) {
  const int n = world_size();
  const std::string shape = "[" + std::to_string(n + 1) + "]";
  expect_error<std::invalid_argument>(
      [&] { kdt::init_device_mesh({n + 1}); },
      {"KokkosDTensor::init_device_mesh", "argument 'shape' = " + shape,
       "(" + std::to_string(n) + ")"});
  expect_error<std::invalid_argument>(
      [&] {
        kdt::init_device_mesh({n, 2});
      },
      {"argument 'shape' = [" + std::to_string(n) + ", 2]"});
  expect_error<std::invalid_argument>(
      [&] {
        kdt::DeviceMesh(all_ranks(), {n, 2});
      },
      {"KokkosDTensor::DeviceMesh", "argument 'shape' = [" + std::to_string(n) + ", 2]",
       "number of ranks (" + std::to_string(n) + ")"});
  expect_error<std::invalid_argument>(
      [&] {
        kdt::DeviceMesh(all_ranks(), {n, 0});
      },
      {"argument 'shape' = [" + std::to_string(n) + ", 0]", "at least 1"});
  expect_error<std::invalid_argument>([&] { kdt::DeviceMesh(all_ranks(), {}); },
                                      {"argument 'shape' = []"});
  expect_error<std::invalid_argument>([&] { kdt::init_device_mesh({}); },
                                      {"argument 'shape' = []"});
}

TEST(Errors, MeshDuplicateRanks) {
  expect_error<std::invalid_argument>(
      [] {
        kdt::DeviceMesh({0, 0}, {2});
      },
      {"KokkosDTensor::DeviceMesh", "argument 'ranks' = [0, 0]", "rank 0 appears more than once"});
  if (world_size() >= 2)
    expect_error<std::invalid_argument>(
        [] {
          kdt::DeviceMesh({1, 0, 1, 0}, {2, 2});
        },
        {"argument 'ranks' = [1, 0, 1, 0]", "rank 1 appears"});
}

TEST(Errors, MeshOutOfRangeRanks) {
  const int n = world_size();
  expect_error<std::invalid_argument>(
      [&] { kdt::DeviceMesh({n}, {1}); },
      {"argument 'ranks' = [" + std::to_string(n) + "]",
       "rank " + std::to_string(n) + " lies outside [0, " + std::to_string(n) + ")"});
  expect_error<std::invalid_argument>([] { kdt::DeviceMesh({-1}, {1}); },
                                      {"argument 'ranks' = [-1]", "rank -1 lies outside"});
}

TEST(Errors, MeshUnknownDimName) {
  const auto mesh = kdt::init_device_mesh({world_size(), 1}, {"dp", "tp"});
  for (auto call : std::vector<std::function<void()>>{
           [&] { mesh["pp"]; },
           [&] {
             mesh.submesh({"dp", "pp"});
           },
           [&] { mesh.local_rank("pp"); }, [&] { mesh.comm("pp"); }, [&] { mesh.dim_index("pp"); }})
    expect_error<std::invalid_argument>(
        call, {"argument 'name' = \"pp\"", "is not a dim of", "dim_names=[\"dp\", \"tp\"]"});
  expect_error<std::invalid_argument>(
      [&] { mesh.size(2); }, {"KokkosDTensor::DeviceMesh::size", "argument 'dim' = 2", "[0, 2)"});
  expect_error<std::invalid_argument>([&] { mesh.local_rank(-1); }, {"argument 'dim' = -1"});
}

TEST(Errors, MeshDuplicateOrBadDimNames) {
  const int n = world_size();
  expect_error<std::invalid_argument>(
      [&] {
        kdt::init_device_mesh({n, 1}, {"tp", "tp"});
      },
      {"argument 'dim_names' = [\"tp\", \"tp\"]", "name \"tp\" appears more than once"});
  expect_error<std::invalid_argument>(
      [&] {
        kdt::init_device_mesh({n, 1}, {"tp"});
      },
      {"argument 'dim_names' = [\"tp\"]", "one name per mesh dim"});
  expect_error<std::invalid_argument>([&] { kdt::init_device_mesh({n}, {""}); },
                                      {"argument 'dim_names' = [\"\"]", "must not be empty"});
  const auto mesh = kdt::init_device_mesh({n, 1}, {"dp", "tp"});
  expect_error<std::invalid_argument>(
      [&] {
        mesh.submesh({"tp", "tp"});
      },
      {"KokkosDTensor::DeviceMesh::submesh", "argument 'names' = [\"tp\", \"tp\"]",
       "appears more than once"});
  expect_error<std::invalid_argument>([&] { mesh.submesh({}); }, {"argument 'names' = []"});
  expect_error<std::invalid_argument>([&] { mesh.flatten(""); },
                                      {"DeviceMesh::flatten", "argument 'name' = \"\""});
}

// ---- placements and spec --------------------------------------------------------------------

TEST(Errors, ShardDimOutOfRange) {
  const auto mesh = kdt::init_device_mesh({world_size()});
  expect_error<std::invalid_argument>(
      [&] {
        kdt::DTensorSpec(mesh, {kdt::Shard(2)}, {4, 5});
      },
      {"KokkosDTensor::DTensorSpec", "argument 'placements' = [S2]",
       "shard dim 2 lies outside [0, 2)"});
  expect_error<std::invalid_argument>(
      [&] {
        kdt::DTensor<float**> t("t", mesh, {4, 5}, {kdt::Shard(-1)});
      },
      {"argument 'placements' = [S-1]", "shard dim -1"});
  expect_error<std::invalid_argument>(
      [&] { kdt::local_shape_and_global_offset({4}, {2}, {kdt::Shard(1)}, {0}); },
      {"KokkosDTensor::local_shape_and_global_offset", "argument 'placements' = [S1]"});
  // A rank-0 tensor has no dim to shard.
  expect_error<std::invalid_argument>([&] { kdt::DTensorSpec(mesh, {kdt::Shard(0)}, {}); },
                                      {"argument 'placements' = [S0]", "[0, 0)"});
}

TEST(Errors, PlacementsCountNotMeshNdim) {
  const auto mesh = kdt::init_device_mesh({world_size(), 1});
  expect_error<std::invalid_argument>(
      [&] {
        kdt::DTensorSpec(mesh, {kdt::Shard(0)}, {4, 5});
      },
      {"argument 'placements' = [S0]", "one placement per mesh dim (2)"});
  expect_error<std::invalid_argument>(
      [&] {
        kdt::DTensor<float**> t("t", mesh, {4, 5},
                                {kdt::Shard(0), kdt::Replicate(), kdt::Replicate()});
      },
      {"argument 'placements' = [S0, R, R]", "(2)"});
  expect_error<std::invalid_argument>(
      [&] {
        kdt::local_shape_and_global_offset({4}, {2, 2}, {kdt::Shard(0)}, {0, 0});
      },
      {"argument 'placements' = [S0]", "(2)"});
}

TEST(Errors, NegativeExtentsAndBadCoordinate) {
  const auto mesh = kdt::init_device_mesh({world_size()});
  expect_error<std::invalid_argument>(
      [&] {
        kdt::DTensorSpec(mesh, {kdt::Replicate()}, {-1, 3});
      },
      {"argument 'global_shape' = [-1, 3]", "must not be negative"});
  expect_error<std::invalid_argument>(
      [&] { kdt::local_shape_and_global_offset({4}, {2}, {kdt::Shard(0)}, {2}); },
      {"argument 'coordinate' = [2]", "inside the mesh shape [2]"});
  expect_error<std::invalid_argument>(
      [&] { kdt::local_shape_and_global_offset({4}, {2}, {kdt::Shard(0)}, {}); },
      {"argument 'coordinate' = []"});
  expect_error<std::invalid_argument>(
      [&] { kdt::DTensor<float**> t("t", mesh, {4}, {kdt::Replicate()}); },
      {"KokkosDTensor::DTensor", "argument 'global_shape' = [4]", "one extent per View dim (2)"});
}

// Extents whose product does not fit in int64 are rejected (a wrapped-around product
// would allocate a View far smaller than its extents); extents near 2^63 shard without
// overflowing.
TEST(Errors, HugeExtents) {
  const auto mesh = kdt::init_device_mesh({world_size()});
  expect_error<std::invalid_argument>(
      [&] {
        kdt::DTensorSpec(mesh, {kdt::Replicate()}, {1ll << 40, 1ll << 40});
      },
      {"KokkosDTensor::DTensorSpec", "argument 'global_shape' = [1099511627776, 1099511627776]",
       "2^63 - 1"});
  expect_error<std::invalid_argument>(
      [&] {
        kdt::DTensor<float**> t("t", mesh, {1ll << 40, 1ll << 40}, {kdt::Shard(0)});
      },
      {"argument 'global_shape' = [1099511627776, 1099511627776]"});
  const std::int64_t max = std::numeric_limits<std::int64_t>::max();
  const auto last =
      kdt::local_shape_and_global_offset({max}, {2, 3}, {kdt::Shard(0), kdt::Shard(0)}, {1, 2});
  // chunk 2^62 at coordinate 1, then 2^62 - 1 elements over 3: chunks of 1537228672809129301.
  EXPECT_EQ(last.global_offset,
            (std::vector<std::int64_t>{(1ll << 62) + 2 * 1537228672809129301ll}));
  EXPECT_EQ(last.local_shape,
            (std::vector<std::int64_t>{(1ll << 62) - 1 - 2 * 1537228672809129301ll}));
}

TEST(Errors, PlacementParser) {
  for (const std::string text : {"", "S0,", "X", "S", "S-1", "s0", "S0,R,Q", " R", "S1x"}) {
    expect_error<std::invalid_argument>(
        [&] { kdt::parse_placements(text); },
        {"KokkosDTensor::parse_placements", "argument 'text' = \"" + text + "\"", "token"});
  }
  expect_error<std::invalid_argument>([] { kdt::parse_placements("S99999999"); },
                                      {"argument 'text' = \"S99999999\"", "too large"});
}

TEST(Errors, ViewExtentsNotMatchingLocalShape) {
  const int n = world_size();
  const auto mesh = kdt::init_device_mesh({n});
  const kdt::DTensorSpec spec(mesh, {kdt::Shard(0)}, {4 * n, 3});  // local shape [4, 3]
  Kokkos::View<float**> wrong("wrong", 3, 4);
  Kokkos::deep_copy(wrong, 42.0f);
  expect_error<std::invalid_argument>(
      [&] { kdt::DTensor<float**> t(wrong, spec); },
      {"KokkosDTensor::DTensor", "argument 'local' = [3, 4]", "local shape [4, 3]"});
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), wrong);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_EQ(host(i, j), 42.0f);
  // The right extents are accepted.
  Kokkos::View<float**> right("right", 4, 3);
  kdt::DTensor<float**> t(right, spec);
  EXPECT_EQ(t.local().data(), right.data());
}

// ---- random ops: every failure leaves state and data unchanged ------------------------------

constexpr std::uint64_t kSeed = 20240611;

template <class T>
void fill_sentinel(const Kokkos::View<T*>& v) {
  Kokkos::deep_copy(v, T(42));
}

template <class T>
void expect_sentinel(const Kokkos::View<T*>& v) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  for (std::size_t i = 0; i < host.extent(0); ++i) ASSERT_EQ(host(i), T(42)) << "element " << i;
}

// Runs op(target[, generator]) on a DTensor with the tracker, a DTensor with a Generator,
// a View with a Generator and a View with default_generator(), each at `state`, and checks
// the exception type, the message parts and that state and data did not change.
template <class Expected, class T, class Op>
void expect_random_op_error(const Op& op, const std::vector<std::string>& parts,
                            kdt::RNGState state = {kSeed, 40}, bool check_local_region = true) {
  const int n = world_size();
  const auto mesh = kdt::init_device_mesh({n});
  const std::int64_t global = 4 * n + 3;
  {
    SCOPED_TRACE("DTensor, tracker");
    kdt::DTensor<T*> t("t", mesh, {global}, {kdt::Shard(0)});
    fill_sentinel(t.local());
    kdt::manual_seed(state.seed, mesh);
    kdt::rng_tracker()->set_rng_state(state);
    expect_contains(message_of<Expected>([&] { op(t); }), parts);
    EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), state);
    expect_sentinel(t.local());
    // Also with distribute_region_enabled() false (local element counts; not for the
    // counter-space cases, whose overflow depends on the element count).
    if (check_local_region) {
      kdt::rng_tracker()->set_distribute_region_enabled(false);
      expect_contains(message_of<Expected>([&] { op(t); }), parts);
      kdt::rng_tracker()->set_distribute_region_enabled(true);
    }
    EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), state);
    expect_sentinel(t.local());
  }
  {
    SCOPED_TRACE("DTensor, Generator");
    kdt::DTensor<T*> t("t", mesh, {global}, {kdt::Shard(0)});
    fill_sentinel(t.local());
    kdt::Generator gen;
    gen.set_state(state);
    expect_contains(message_of<Expected>([&] { op(t, gen); }), parts);
    EXPECT_EQ(gen.get_state(), state);
    expect_sentinel(t.local());
  }
  {
    SCOPED_TRACE("View, Generator");
    Kokkos::View<T*> v("v", global);
    fill_sentinel(v);
    kdt::Generator gen;
    gen.set_state(state);
    expect_contains(message_of<Expected>([&] { op(v, gen); }), parts);
    EXPECT_EQ(gen.get_state(), state);
    expect_sentinel(v);
  }
  {
    SCOPED_TRACE("View, default_generator()");
    Kokkos::View<T*> v("v", global);
    fill_sentinel(v);
    const kdt::RNGState saved = kdt::default_generator().get_state();
    kdt::default_generator().set_state(state);
    expect_contains(message_of<Expected>([&] { op(v); }), parts);
    EXPECT_EQ(kdt::default_generator().get_state(), state);
    kdt::default_generator().set_state(saved);
    expect_sentinel(v);
  }
}

TEST(Errors, ProbabilityOutsideUnitInterval) {
  for (double p : {1.5, -0.25, std::nan("")}) {
    const std::string value = kdt::Impl::format_value(p);
    SCOPED_TRACE("p = " + value);
    expect_random_op_error<std::invalid_argument, float>(
        [p](auto& t, auto&... gen) { kdt::bernoulli_(t, p, gen...); },
        {"KokkosDTensor::bernoulli_", "argument 'p' = " + value, "[0, 1]"});
    expect_random_op_error<std::invalid_argument, double>(
        [p](auto& t, auto&... gen) { kdt::dropout_(t, p, gen...); },
        {"KokkosDTensor::dropout_", "argument 'p' = " + value, "[0, 1]"});
  }
  // geometric_ needs p in (0, 1): 0 never succeeds, 1 is degenerate.
  for (double p : {0.0, 1.0, 1.5, -0.25, std::nan("")}) {
    const std::string value = kdt::Impl::format_value(p);
    SCOPED_TRACE("p = " + value);
    expect_random_op_error<std::invalid_argument, float>(
        [p](auto& t, auto&... gen) { kdt::geometric_(t, p, gen...); },
        {"KokkosDTensor::geometric_", "argument 'p' = " + value, "(0, 1)"});
  }
}

TEST(Errors, FromNotBelowTo) {
  expect_random_op_error<std::invalid_argument, float>(
      [](auto& t, auto&... gen) { kdt::uniform_(t, 2.0, 1.0, gen...); },
      {"KokkosDTensor::uniform_", "argument 'from' = 2", "less than to = 1"});
  expect_random_op_error<std::invalid_argument, double>(
      [](auto& t, auto&... gen) { kdt::uniform_(t, 0.5, 0.5, gen...); },
      {"argument 'from' = 0.5", "less than to = 0.5"});
  // Distinct doubles that are one float: the check is made in the value type.
  expect_random_op_error<std::invalid_argument, float>(
      [](auto& t, auto&... gen) { kdt::uniform_(t, 1.0, 1.0 + 1e-12, gen...); },
      {"argument 'from' = 1", "(in the value type)"});
  expect_random_op_error<std::invalid_argument, std::int64_t>(
      [](auto& t, auto&... gen) { kdt::randint_(t, 5, 5, gen...); },
      {"KokkosDTensor::randint_", "argument 'high' = 5", "greater than low = 5"});
}

// Partial on a mesh dim of size > 1 (on a dim of size 1 it is accepted: Test_Random).
TEST(Errors, PartialPlacementForRandomOps) {
  if (world_size() == 1) GTEST_SKIP() << "needs a mesh dim of size > 1";
  std::vector<std::pair<std::vector<int>, std::vector<kdt::Placement>>> cases = {
      {{world_size()}, {kdt::Partial()}}};
  if (world_size() % 2 == 0 && world_size() >= 4)  // Partial on a dim of size > 1
    cases.push_back({{2, world_size() / 2}, {kdt::Shard(0), kdt::Partial()}});
  for (const auto& [shape, placements] : cases) {
    const std::string text = "(" + kdt::to_string(placements) + ")";
    SCOPED_TRACE(text);
    const auto mesh = kdt::init_device_mesh(shape);
    kdt::DTensor<float*> t("t", mesh, {9}, placements);
    fill_sentinel(t.local());
    kdt::manual_seed(kSeed, mesh);
    kdt::rng_tracker()->set_rng_state({kSeed, 40});
    expect_error<std::invalid_argument>(
        [&] { kdt::normal_(t); },
        {"KokkosDTensor::normal_", "argument 'placements' = " + text, "Partial"});
    EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), (kdt::RNGState{kSeed, 40}));
    kdt::Generator gen(kSeed);
    expect_error<std::invalid_argument>(
        [&] { kdt::bernoulli_(Kokkos::DefaultExecutionSpace(), t, 0.5, gen); },
        {"KokkosDTensor::bernoulli_", "argument 'placements' = " + text});
    EXPECT_EQ(gen.get_state(), (kdt::RNGState{kSeed, 0}));
    expect_sentinel(t.local());
  }
}

TEST(Errors, OffsetOverflowOfCounterSpace) {
  const std::uint64_t last = kMaxWord - 3;  // 2^64 - 4: the last usable offset
  expect_random_op_error<std::overflow_error, float>(
      [](auto& t, auto&... gen) { kdt::uniform_(t, 0.0, 1.0, gen...); },
      {"KokkosDTensor::uniform_", "argument 'offset' = " + std::to_string(last),
       "2^64-word counter space"},
      {kSeed, last}, false);
  // 4 * n + 3 floats need 4 * n + 4 words: from 2^64 - 4 * n - 4 the op would end exactly
  // at 2^64, which is refused too.
  const std::uint64_t words = 4 * static_cast<std::uint64_t>(world_size()) + 4;
  expect_random_op_error<std::overflow_error, double>(
      [](auto& t, auto&... gen) { kdt::normal_(t, 0.0, 1.0, gen...); },
      {"KokkosDTensor::normal_", "argument 'offset' = " + std::to_string(kMaxWord - 2 * words + 1)},
      {kSeed, kMaxWord - 2 * words + 1}, false);
  // One block below the end still works and lands on the last usable offset.
  kdt::Generator gen;
  gen.set_state({kSeed, last - 4});
  Kokkos::View<float*> v("v", 3);
  kdt::uniform_(v, 0.0, 1.0, gen);
  EXPECT_EQ(gen.get_state(), (kdt::RNGState{kSeed, last}));
}

TEST(Errors, OffsetNotMultipleOfFour) {
  kdt::Generator gen(5);
  gen.set_state({5, 8});
  expect_error<std::invalid_argument>(
      [&] {
        gen.set_state({6, 6});
      },
      {"KokkosDTensor::Generator::set_state", "argument 'state.offset' = 6", "multiple of 4"});
  EXPECT_EQ(gen.get_state(), (kdt::RNGState{5, 8}));

  const auto mesh = kdt::init_device_mesh({world_size()});
  kdt::manual_seed(7, mesh);
  kdt::rng_tracker()->set_rng_state({7, 12});
  expect_error<std::invalid_argument>(
      [&] {
        kdt::rng_tracker()->set_rng_state({8, 13});
      },
      {"KokkosDTensor::RNGTracker::set_rng_state", "argument 'state.offset' = 13"});
  EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), (kdt::RNGState{7, 12}));

  std::array<std::uint8_t, 16> bytes = kdt::RNGState{1, 2}.to_bytes();
  expect_error<std::invalid_argument>(
      [&] { kdt::RNGState::from_bytes(bytes); },
      {"KokkosDTensor::RNGState::from_bytes", "argument 'offset' = 2", "multiple of 4"});
  expect_error<std::invalid_argument>([&] { kdt::RNGState::from_bytes(bytes.data(), 15); },
                                      {"argument 'size' = 15", "must be 16"});
  expect_error<std::invalid_argument>([&] { kdt::RNGState::from_bytes(nullptr, 16); },
                                      {"argument 'size' = 0"});
}

TEST(Errors, OtherParameters) {
  expect_random_op_error<std::invalid_argument, float>(
      [](auto& t, auto&... gen) { kdt::normal_(t, 0.0, -1.0, gen...); },
      {"KokkosDTensor::normal_", "argument 'std' = -1"});
  expect_random_op_error<std::invalid_argument, double>(
      [](auto& t, auto&... gen) { kdt::exponential_(t, 0.0, gen...); },
      {"KokkosDTensor::exponential_", "argument 'lambd' = 0"});
  expect_random_op_error<std::invalid_argument, float>(
      [](auto& t, auto&... gen) { kdt::uniform_(t, 0.0, INFINITY, gen...); },
      {"argument 'to' = inf"});
  expect_random_op_error<std::invalid_argument, std::int64_t>(
      [](auto& t, auto&... gen) { kdt::randint_(t, 10, -10, gen...); },
      {"argument 'high' = -10", "greater than low = 10"});
}

// Parameter and placement errors are found before the tracker is created, so a bad call
// never starts the WORLD synchronisation (every rank throws, none waits).
TEST(Errors, FailedOpDoesNotCreateTracker) {
  const auto mesh = kdt::init_device_mesh({world_size()});
  kdt::DTensor<float*> t("t", mesh, {10}, {kdt::Shard(0)});
  kdt::DTensor<float*> p("p", mesh, {10}, {kdt::Partial()});
  kdt::reset_rng_tracker();
  EXPECT_THROW(kdt::bernoulli_(t, 2.0), std::invalid_argument);
  EXPECT_THROW(kdt::uniform_(t, 1.0, 0.0), std::invalid_argument);
  if (world_size() > 1) EXPECT_THROW(kdt::uniform_(p), std::invalid_argument);  // size-1: accepted
  EXPECT_EQ(kdt::rng_tracker(), nullptr);
}

TEST(Errors, ManualSeedOutsideMesh) {
  const int n = world_size();
  if (n < 2) GTEST_SKIP() << "needs a rank outside the mesh";
  const auto world = kdt::init_device_mesh({n});
  kdt::manual_seed(3, world);
  kdt::rng_tracker()->set_rng_state({3, 16});
  const kdt::DeviceMesh first_only({0}, {1});
  if (world_rank() == 0) {
    kdt::manual_seed(4, first_only);
    EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), (kdt::RNGState{4, 0}));
  } else {
    const std::string message =
        message_of<std::runtime_error>([&] { kdt::manual_seed(4, first_only); });
    EXPECT_EQ(
        message.rfind("manual_seed requires the current rank to be a part of the device mesh", 0),
        0u)
        << message;
    expect_contains(message, {"rank " + std::to_string(world_rank()), "[0]"});
    EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), (kdt::RNGState{3, 16}));
  }
}

TEST(Errors, DeferredDTensorNotAllocated) {
  const auto mesh = kdt::init_device_mesh({world_size()});
  kdt::DTensor<float*> t("deferred", mesh, {10}, {kdt::Shard(0)}, kdt::deferred_allocation);
  kdt::manual_seed(11, mesh);
  expect_error<std::runtime_error>([&] { kdt::uniform_(t); },
                                   {"KokkosDTensor::uniform_", "\"deferred\"", "allocate()"});
  EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), (kdt::RNGState{11, 0}));
  expect_error<std::runtime_error>([&] { t.full_tensor(); }, {"allocate()"});
}

}  // namespace
