#include <KokkosDTensor_Generator.hpp>
#include <KokkosDTensor_RNGTracker.hpp>
#include <impl/KokkosDTensor_Error.hpp>

#include <Kokkos_Core.hpp>
#include <chrono>
#include <memory>
#include <mpi.h>
#include <string>
#include <thread>
#include <vector>

namespace KokkosDTensor {
namespace {

std::unique_ptr<RNGTracker>& tracker_slot() {
  static std::unique_ptr<RNGTracker> tracker;
  return tracker;
}

double& sync_timeout_seconds() {
  static double seconds = 60.0;
  return seconds;
}

using Clock = std::chrono::steady_clock;

// Calls `done()` until it returns true (then returns true) or `deadline` passes (then
// returns false). Yields between polls: the ranks that wait may share cores with the one
// they wait for.
template <class Done>
bool poll_until(Done done, Clock::time_point deadline) {
  for (;;) {
    if (done()) return true;
    if (Clock::now() >= deadline) return false;
    std::this_thread::yield();
  }
}

bool test_all(std::vector<MPI_Request>& requests) {
  int done = 0;
  MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done, MPI_STATUSES_IGNORE);
  return done != 0;
}

// The library's own communicator over all ranks of MPI_COMM_WORLD: the lazy
// synchronisation never puts a message on a communicator the application owns. Made by
// one MPI_Comm_idup(MPI_COMM_WORLD) per process, posted by the first synchronisation and
// polled against each synchronisation's deadline. A collective request cannot be
// cancelled, so a duplication that times out (some rank has not joined) stays pending and
// the next synchronisation on this rank resumes it; it completes when the missing ranks
// post theirs. Freed at MPI_Finalize.
struct PrivateWorld {
  MPI_Comm comm = MPI_COMM_NULL;           // valid once `request` has completed
  MPI_Request request = MPI_REQUEST_NULL;  // the pending MPI_Comm_idup
  bool posted = false;
};

PrivateWorld& private_world() {
  static PrivateWorld world;
  return world;
}

// One synchronisation, seen from this rank: its point-to-point requests on the private
// communicator and their buffers. Rank 0 receives a "ready" message from every other rank,
// then sends each of them its state; every other rank sends "ready" and receives the
// state. A synchronisation that times out is not abandoned: its requests stay posted and
// the next random op that needs a synchronisation on this rank resumes it, so every rank's
// k-th synchronisation pairs with rank 0's k-th (MPI's non-overtaking order on one
// communicator) and no message is ever cancelled. Sessions live until MPI_Finalize, which
// releases the requests still pending; there is one per synchronisation (one, unless
// reset_rng_tracker() is called).
constexpr int kReadyTag = 1;
constexpr int kStateTag = 2;

struct SyncSession {
  bool started = false;
  bool finished = false;
  std::uint64_t words[2] = {0, 0};
  char ready_flag = 1;
  std::vector<char> ready_flags;      // rank 0: one per peer
  std::vector<MPI_Request> receives;  // rank 0: the readies; others: the state
  std::vector<MPI_Request> sends;     // rank 0: the states; others: the ready
};

std::vector<std::unique_ptr<SyncSession>>& sync_sessions() {
  static std::vector<std::unique_ptr<SyncSession>> sessions;
  return sessions;
}

// The unfinished session on this rank, or a new one.
SyncSession& current_session() {
  auto& sessions = sync_sessions();
  if (sessions.empty() || sessions.back()->finished) {
    sessions.push_back(std::make_unique<SyncSession>());
  }
  return *sessions.back();
}

// Set when MPI_Finalize runs: MPI deletes the attributes of MPI_COMM_SELF first thing in
// MPI_Finalize, which calls this. Lets random ops refuse to run after MPI_Finalize
// without making an MPI call per op. Also releases what the synchronisation holds: the
// requests still pending (a rank that never joined), and the private communicator.
bool mpi_finalize_started = false;

int on_mpi_finalize(MPI_Comm, int, void*, void*) {
  mpi_finalize_started = true;
  for (auto& session : sync_sessions()) {
    // Receives still pending are cancelled; sends still pending are left to complete
    // on their own.
    for (auto& request : session->receives) {
      if (request != MPI_REQUEST_NULL) MPI_Cancel(&request);
    }
    for (auto* requests : {&session->receives, &session->sends}) {
      for (auto& request : *requests) {
        if (request != MPI_REQUEST_NULL) MPI_Request_free(&request);
      }
    }
  }
  PrivateWorld& world = private_world();
  if (world.request != MPI_REQUEST_NULL) {
    int done = 0;
    MPI_Test(&world.request, &done, MPI_STATUS_IGNORE);
  }
  // A duplication some rank never joined stays pending: MPI offers no way to cancel or
  // free a collective request. MPI_Finalize does not wait for it (Open MPI 4.1, checked by
  // Test_RNGSyncTimeout); docs/design.md says what else it costs.
  if (world.request == MPI_REQUEST_NULL && world.comm != MPI_COMM_NULL) {
    MPI_Comm_free(&world.comm);
  }
  return MPI_SUCCESS;
}

void watch_mpi_finalize() {
  static bool watching = false;
  if (watching) return;
  int keyval = MPI_KEYVAL_INVALID;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, on_mpi_finalize, &keyval, nullptr);
  MPI_Comm_set_attr(MPI_COMM_SELF, keyval, nullptr);
  watching = true;
}

void require_mpi_usable(const char* function) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) {
    Impl::throw_runtime_error(function,
                              finalized ? "called after MPI_Finalize" : "called before MPI_Init");
  }
}

// `idup_pending`: the timeout came before the private communicator existed on this rank.
[[noreturn]] void throw_sync_timeout(const char* function, double timeout, bool idup_pending) {
  const std::string pending =
      idup_pending
          ? "Until every rank has joined, the library's MPI_Comm_idup(MPI_COMM_WORLD) stays "
            "pending here and the next random op on a DTensor resumes it; creating "
            "communicators meanwhile may block, so treat this error as fatal unless the "
            "missing ranks join (MPI_Finalize still completes)"
          : "Its messages stay posted on the library's own communicator and the next random "
            "op on a DTensor resumes them";
  Impl::throw_runtime_error(
      function,
      "the DTensor RNG tracker was not seeded, so this first random op synchronises rank 0's "
      "default_generator() state over MPI_COMM_WORLD, and not every rank of MPI_COMM_WORLD "
      "joined within " +
          Impl::format_value(timeout) +
          " s. Programs whose ranks run different code (pipeline parallelism) must call "
          "KokkosDTensor::manual_seed(seed, mesh) on each SPMD group instead "
          "(set_rng_sync_timeout() changes the timeout). " +
          pending + ".");
}

// Rank 0's default generator state, delivered to every rank of MPI_COMM_WORLD over the
// private communicator. A rank that never calls leaves everyone who did waiting until
// their deadline, when they throw instead of hanging (and resume on their next call).
RNGState synchronise_state_over_world(const char* function) {
  const double timeout = sync_timeout_seconds();
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(timeout));
  watch_mpi_finalize();  // releases what a timed-out synchronisation leaves pending
  PrivateWorld& world = private_world();
  if (!world.posted) {
    MPI_Comm_idup(MPI_COMM_WORLD, &world.comm, &world.request);
    world.posted = true;
  }
  const bool have_comm = poll_until(
      [&] {
        int done = 0;
        MPI_Test(&world.request, &done, MPI_STATUS_IGNORE);
        return done != 0;
      },
      deadline);
  if (!have_comm) throw_sync_timeout(function, timeout, true);

  int rank = 0, size = 1;
  MPI_Comm_rank(world.comm, &rank);
  MPI_Comm_size(world.comm, &size);
  SyncSession& session = current_session();
  if (rank == 0) {
    if (!session.started) {
      session.ready_flags.assign(size, 0);
      session.receives.assign(size - 1, MPI_REQUEST_NULL);
      for (int peer = 1; peer < size; ++peer) {
        MPI_Irecv(&session.ready_flags[peer], 1, MPI_CHAR, peer, kReadyTag, world.comm,
                  &session.receives[peer - 1]);
      }
      session.started = true;
    }
    if (!poll_until([&] { return test_all(session.receives); }, deadline)) {
      throw_sync_timeout(function, timeout, false);
    }
    // Every rank has joined: send the state as it is now. The sends complete at once
    // (16 bytes, and every receiver has its receive posted); they are tested here and
    // otherwise released at MPI_Finalize, never waited for.
    const RNGState state = default_generator().get_state();
    session.words[0] = state.seed;
    session.words[1] = state.offset;
    session.sends.assign(size - 1, MPI_REQUEST_NULL);
    for (int peer = 1; peer < size; ++peer) {
      MPI_Isend(session.words, 2, MPI_UINT64_T, peer, kStateTag, world.comm,
                &session.sends[peer - 1]);
    }
    test_all(session.sends);
  } else {
    if (!session.started) {
      session.receives.assign(1, MPI_REQUEST_NULL);
      session.sends.assign(1, MPI_REQUEST_NULL);
      MPI_Irecv(session.words, 2, MPI_UINT64_T, 0, kStateTag, world.comm, &session.receives[0]);
      MPI_Isend(&session.ready_flag, 1, MPI_CHAR, 0, kReadyTag, world.comm, &session.sends[0]);
      session.started = true;
    }
    if (!poll_until([&] { return test_all(session.receives); }, deadline)) {
      throw_sync_timeout(function, timeout, false);
    }
    test_all(session.sends);
  }
  session.finished = true;
  return RNGState{session.words[0], session.words[1]};
}

[[noreturn]] void throw_not_in_mesh(const DeviceMesh& mesh) {
  int rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  throw std::runtime_error(
      "manual_seed requires the current rank to be a part of the device mesh otherwise "
      "DTensor RNG state on the rank will not be initialized and the behavior of DTensor "
      "random ops is undefined. KokkosDTensor::manual_seed: rank " +
      std::to_string(rank) + " of MPI_COMM_WORLD is not part of " + mesh.to_string());
}

}  // namespace

void RNGTracker::set_rng_state(RNGState state) {
  if (state.offset % 4 != 0) {
    Impl::throw_invalid_argument("KokkosDTensor::RNGTracker::set_rng_state", "state.offset",
                                 Impl::format_value(state.offset), "must be a multiple of 4");
  }
  if (source_ == RNGStateSource::default_generator) {
    default_generator().set_state(state);
  } else {
    state_ = state;
  }
}

RNGTracker* rng_tracker() { return tracker_slot().get(); }

void manual_seed(std::uint64_t seed, const DeviceMesh& mesh) {
  if (!mesh.coordinate()) throw_not_in_mesh(mesh);
  watch_mpi_finalize();
  if (RNGTracker* tracker = rng_tracker()) {
    tracker->set_rng_state(RNGState{seed, 0});
  } else {
    tracker_slot() = std::make_unique<RNGTracker>(RNGState{seed, 0});
  }
}

void manual_seed(std::uint64_t seed, const DeviceMesh& mesh, RNGStateSource source) {
  if (!mesh.coordinate()) throw_not_in_mesh(mesh);
  watch_mpi_finalize();
  if (!rng_tracker()) tracker_slot() = std::make_unique<RNGTracker>(RNGState{seed, 0});
  rng_tracker()->set_state_source(source);
  rng_tracker()->set_rng_state(RNGState{seed, 0});
}

void reset_rng_tracker() { tracker_slot().reset(); }

void set_rng_sync_timeout(double seconds) {
  if (!(seconds > 0)) {
    Impl::throw_invalid_argument("KokkosDTensor::set_rng_sync_timeout", "seconds",
                                 Impl::format_value(seconds), "must be > 0");
  }
  sync_timeout_seconds() = seconds;
}

double rng_sync_timeout() { return sync_timeout_seconds(); }

namespace Impl {

RNGTracker& tracker_for_random_op(const char* function) {
  if (!Kokkos::is_initialized()) {
    throw_runtime_error(function, "called before Kokkos::initialize (or after Kokkos::finalize)");
  }
  if (mpi_finalize_started) throw_runtime_error(function, "called after MPI_Finalize");
  if (RNGTracker* tracker = rng_tracker()) return *tracker;
  require_mpi_usable(function);
  const RNGState state = synchronise_state_over_world(function);
  tracker_slot() = std::make_unique<RNGTracker>(state);
  return *tracker_slot();
}

}  // namespace Impl
}  // namespace KokkosDTensor
