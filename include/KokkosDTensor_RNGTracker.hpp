#ifndef KOKKOSDTENSOR_RNGTRACKER_HPP
#define KOKKOSDTENSOR_RNGTRACKER_HPP

// The DTensor RNG tracker: one process-wide (seed, offset) state that every random op on
// a DTensor draws from, with the seeding semantics of PyTorch's DTensor
// (torch.distributed.tensor._random) after pytorch/pytorch#141223 "allow user to
// manual_seed different seed on device mesh; only sync RNG state in WORLD when
// manual_seed has not been called" (PyTorch 2.6) and #147025 (the sync deferred to the
// first random op, PyTorch 2.7); docs/mesh.md lists the differences with PyTorch >= 2.9:
//  - manual_seed(seed, mesh) creates the tracker eagerly, with no communication and no
//    check that ranks agree (pipeline stages pass 123 + pp_rank); on a rank that already
//    has a tracker it keeps it (and its settings) and resets its state to (seed, 0);
//  - otherwise the first random op on a DTensor creates it from rank 0's
//    default_generator() state, delivered to every rank of MPI_COMM_WORLD once, on a
//    communicator of the library's own, within a timeout.

#include <KokkosDTensor_DeviceMesh.hpp>
#include <KokkosDTensor_Generator.hpp>
#include <KokkosDTensor_RNGState.hpp>

#include <cstdint>

namespace KokkosDTensor {

/// Which (seed, offset) the tracker's random ops draw from and advance.
enum class RNGStateSource {
  /// The default: the tracker's own state, independent of default_generator() (PyTorch 2.6
  /// to 2.8).
  tracker,
  /// The process's default_generator(), so DTensor ops and ops on plain Views share one
  /// stream and seed(s) takes effect on DTensor ops (PyTorch >= 2.9, where DTensor ops draw
  /// from the default device generator and manual_seed(seed, mesh) is
  /// torch.manual_seed(seed)). The tracker's own state is kept, unused, while this is set.
  default_generator
};

/// The DTensor RNG tracker: the process-wide state that random ops on DTensors draw from,
/// and their settings. Made by manual_seed() or by the first random op on a DTensor.
class RNGTracker {
 public:
  /// A tracker at `state`, with the distribute region enabled and its own state as source.
  explicit RNGTracker(RNGState state) : state_(state) {}

  /// When true (the default) random ops on DTensors are sharding-invariant: each element
  /// is drawn from its global index. When false each rank draws its local shard as if
  /// it were a whole tensor (every rank with the same state draws the same local
  /// values), the behaviour PyTorch's tensor-parallel tests rely on.
  bool distribute_region_enabled() const { return distribute_region_enabled_; }
  /// Sets distribute_region_enabled().
  void set_distribute_region_enabled(bool enabled) { distribute_region_enabled_ = enabled; }

  /// Which state random ops draw from (RNGStateSource::tracker by default).
  RNGStateSource state_source() const { return source_; }
  /// Sets state_source().
  void set_state_source(RNGStateSource source) { source_ = source; }

  /// The state random ops draw from: the tracker's own, or default_generator()'s when
  /// state_source() is RNGStateSource::default_generator.
  RNGState get_rng_state() const {
    return source_ == RNGStateSource::default_generator ? default_generator().get_state() : state_;
  }
  /// Sets the state get_rng_state() returns (default_generator()'s, with that source).
  /// Throws std::invalid_argument (state unchanged) if state.offset is not a multiple of 4.
  void set_rng_state(RNGState state);

 private:
  RNGState state_;
  bool distribute_region_enabled_ = true;
  RNGStateSource source_ = RNGStateSource::tracker;
};

/// The tracker, or nullptr before manual_seed() or the first random op on a DTensor.
RNGTracker* rng_tracker();

/// Creates the tracker with state (seed, 0), or, on a rank that has one, keeps it (with
/// its distribute_region_enabled() and state_source() settings) and sets its state to
/// (seed, 0). No communication. Throws std::runtime_error, creating nothing, if the calling
/// rank is not part of `mesh`; the message begins with PyTorch's sentence verbatim.
void manual_seed(std::uint64_t seed, const DeviceMesh& mesh);

/// As manual_seed(seed, mesh), and sets the tracker's state_source() first: with
/// RNGStateSource::default_generator it is PyTorch >= 2.9's manual_seed(seed, mesh), that is
/// default_generator().manual_seed(seed) after the mesh check, with DTensor ops then
/// drawing from default_generator().
void manual_seed(std::uint64_t seed, const DeviceMesh& mesh, RNGStateSource source);

/// Drops the tracker; the next random op on a DTensor synchronises again over WORLD.
void reset_rng_tracker();

/// How long the first random op without manual_seed() waits for every rank of
/// MPI_COMM_WORLD to join the synchronisation before it throws (default 60 s).
/// Throws std::invalid_argument unless `seconds` > 0.
void set_rng_sync_timeout(double seconds);
/// The timeout set by set_rng_sync_timeout(), in seconds.
double rng_sync_timeout();

namespace Impl {

// The tracker for a random op on a DTensor: creates it by the bounded WORLD
// synchronisation when none exists. `function` names the op in errors. Also checks that
// Kokkos is initialised and MPI not finalised (without calling MPI).
RNGTracker& tracker_for_random_op(const char* function);

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
