#ifndef KOKKOSDTENSOR_RNGTRACKER_HPP
#define KOKKOSDTENSOR_RNGTRACKER_HPP

// The DTensor RNG tracker: one process-wide (seed, offset) state that every random op on
// a DTensor draws from, with the seeding semantics of PyTorch's DTensor
// (torch.distributed.tensor._random) after the change "allow user to manual_seed
// different seed on device mesh; only sync RNG state in WORLD when manual_seed has not
// been called":
//  - manual_seed(seed, mesh) creates the tracker eagerly, with no communication and no
//    check that ranks agree (pipeline stages pass 123 + pp_rank);
//  - otherwise the first random op on a DTensor creates it from rank 0's
//    default_generator() state, synchronised over MPI_COMM_WORLD once, within a timeout.

#include <KokkosDTensor_DeviceMesh.hpp>
#include <KokkosDTensor_RNGState.hpp>

#include <cstdint>

namespace KokkosDTensor {

class RNGTracker {
 public:
  explicit RNGTracker(RNGState state) : state_(state) {}

  // When true (the default) random ops on DTensors are sharding-invariant: each element
  // is drawn from its global index. When false each rank draws its local shard as if
  // it were a whole tensor (every rank with the same state draws the same local
  // values), the behaviour PyTorch's tensor-parallel tests rely on.
  bool distribute_region_enabled() const { return distribute_region_enabled_; }
  void set_distribute_region_enabled(bool enabled) { distribute_region_enabled_ = enabled; }

  RNGState get_rng_state() const { return state_; }
  void set_rng_state(RNGState state);

 private:
  RNGState state_;
  bool distribute_region_enabled_ = true;
};

// The tracker, or nullptr before manual_seed() or the first random op on a DTensor.
RNGTracker* rng_tracker();

// Creates (or re-creates) the tracker with state (seed, 0). No communication. Throws
// std::runtime_error if the calling rank is not part of `mesh`.
void manual_seed(std::uint64_t seed, const DeviceMesh& mesh);

// Drops the tracker; the next random op on a DTensor synchronises again over WORLD.
void reset_rng_tracker();

// How long the first random op without manual_seed() waits for every rank of
// MPI_COMM_WORLD to join the synchronisation before it throws (default 60 s).
void set_rng_sync_timeout(double seconds);
double rng_sync_timeout();

namespace Impl {

// The tracker for a random op on a DTensor: creates it by the bounded WORLD
// synchronisation when none exists. `function` names the op in errors. Also checks that
// Kokkos is initialised and MPI not finalised (without calling MPI).
RNGTracker& tracker_for_random_op(const char* function);

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
