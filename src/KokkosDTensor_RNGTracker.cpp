#include <impl/KokkosDTensor_Error.hpp>
#include <KokkosDTensor_Generator.hpp>
#include <KokkosDTensor_RNGTracker.hpp>

#include <Kokkos_Core.hpp>
#include <chrono>
#include <memory>
#include <mpi.h>
#include <string>
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

// Set when MPI_Finalize runs: MPI deletes the attributes of MPI_COMM_SELF first thing in
// MPI_Finalize, which calls this. Lets random ops refuse to run after MPI_Finalize
// without making an MPI call per op.
bool mpi_finalize_started = false;

int on_mpi_finalize(MPI_Comm, int, void*, void*) {
  mpi_finalize_started = true;
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
    Impl::throw_runtime_error(function, finalized ? "called after MPI_Finalize"
                                                  : "called before MPI_Init");
  }
}

// Tags of the one-time synchronisation on MPI_COMM_WORLD (below MPI's guaranteed
// minimum MPI_TAG_UB of 32767).
constexpr int kSyncReadyTag = 32601;
constexpr int kSyncStateTag = 32602;

[[noreturn]] void throw_sync_timeout(const char* function, double timeout) {
  Impl::throw_runtime_error(
      function,
      "the DTensor RNG tracker was not seeded, so this first random op synchronises rank 0's "
      "default_generator() state over MPI_COMM_WORLD, and not every rank of MPI_COMM_WORLD "
      "joined within " + Impl::format_value(timeout) +
          " s. Programs whose ranks run different code (pipeline parallelism) must call "
          "KokkosDTensor::manual_seed(seed, mesh) on each SPMD group instead "
          "(set_rng_sync_timeout() changes the timeout)");
}

// Waits for `requests` until `deadline`; on timeout cancels the unfinished ones and
// returns false. Point-to-point requests can be cancelled, collective ones cannot:
// that is why this synchronisation is not an MPI_Ibcast.
bool wait_until(std::vector<MPI_Request>& requests,
                std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    int done = 0;
    MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done, MPI_STATUSES_IGNORE);
    if (done) return true;
    if (std::chrono::steady_clock::now() >= deadline) break;
  }
  for (auto& request : requests) {
    if (request == MPI_REQUEST_NULL) continue;
    MPI_Cancel(&request);
    MPI_Request_free(&request);
  }
  return false;
}

// Rank 0's default generator state, delivered to every rank of MPI_COMM_WORLD. Every
// rank announces itself to rank 0; rank 0 answers all of them with its state once all
// have arrived. A rank that never calls leaves everyone who did waiting until the
// deadline, when they all throw instead of hanging.
RNGState synchronise_state_over_world(const char* function) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const double timeout = sync_timeout_seconds();
  const auto deadline =
      std::chrono::steady_clock::now() +
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(timeout));
  std::uint64_t words[2] = {0, 0};
  if (rank == 0) {
    const RNGState state = default_generator().get_state();
    words[0] = state.seed;
    words[1] = state.offset;
    std::vector<MPI_Request> ready(size - 1, MPI_REQUEST_NULL);
    std::vector<char> ready_flags(size, 0);
    for (int peer = 1; peer < size; ++peer) {
      MPI_Irecv(&ready_flags[peer], 1, MPI_CHAR, peer, kSyncReadyTag, MPI_COMM_WORLD,
                &ready[peer - 1]);
    }
    if (!wait_until(ready, deadline)) throw_sync_timeout(function, timeout);
    std::vector<MPI_Request> sends(size - 1, MPI_REQUEST_NULL);
    for (int peer = 1; peer < size; ++peer) {
      MPI_Isend(words, 2, MPI_UINT64_T, peer, kSyncStateTag, MPI_COMM_WORLD, &sends[peer - 1]);
    }
    MPI_Waitall(size - 1, sends.data(), MPI_STATUSES_IGNORE);
  } else {
    char ready_flag = 1;
    std::vector<MPI_Request> requests(2, MPI_REQUEST_NULL);
    MPI_Isend(&ready_flag, 1, MPI_CHAR, 0, kSyncReadyTag, MPI_COMM_WORLD, &requests[0]);
    MPI_Irecv(words, 2, MPI_UINT64_T, 0, kSyncStateTag, MPI_COMM_WORLD, &requests[1]);
    if (!wait_until(requests, deadline)) throw_sync_timeout(function, timeout);
  }
  return RNGState{words[0], words[1]};
}

}  // namespace

void RNGTracker::set_rng_state(RNGState state) {
  if (state.offset % 4 != 0) {
    Impl::throw_invalid_argument("KokkosDTensor::RNGTracker::set_rng_state", "state.offset",
                                 Impl::format_value(state.offset), "must be a multiple of 4");
  }
  state_ = state;
}

RNGTracker* rng_tracker() { return tracker_slot().get(); }

void manual_seed(std::uint64_t seed, const DeviceMesh& mesh) {
  if (!mesh.coordinate()) {
    int rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    throw std::runtime_error(
        "manual_seed requires the current rank to be a part of the device mesh, "
        "otherwise the sharding spec for the RNG is not defined: rank " +
        std::to_string(rank) + " is not in mesh " + Impl::format_value(mesh.ranks()));
  }
  watch_mpi_finalize();
  tracker_slot() = std::make_unique<RNGTracker>(RNGState{seed, 0});
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
  watch_mpi_finalize();
  tracker_slot() = std::make_unique<RNGTracker>(state);
  return *tracker_slot();
}

}  // namespace Impl
}  // namespace KokkosDTensor
