#ifndef KOKKOSDTENSOR_GENERATOR_HPP
#define KOKKOSDTENSOR_GENERATOR_HPP

// The process-local Generator and the default generator that random ops on Views draw
// from when no Generator is given.

#include <KokkosDTensor_RNGState.hpp>
#include <cstdint>

namespace KokkosDTensor {

/// A process-local generator: no communication. Not thread-safe (like a Kokkos View,
/// one host thread at a time).
class Generator {
 public:
  /// A generator at state (seed, 0).
  explicit Generator(std::uint64_t seed = 0) : state_{seed, 0} {}

  /// Seed `seed`, offset back to 0.
  void manual_seed(std::uint64_t seed) { state_ = RNGState{seed, 0}; }
  /// The current seed (the state's seed).
  std::uint64_t initial_seed() const { return state_.seed; }

  /// The current (seed, offset).
  RNGState get_state() const { return state_; }
  /// Sets the current (seed, offset).
  /// Throws std::invalid_argument (state unchanged) if state.offset is not a multiple of 4.
  void set_state(RNGState state);

 private:
  RNGState state_;
};

/// The seed of default_generator() at program start (PyTorch's default seed).
constexpr std::uint64_t default_generator_seed = 67280421310721ull;

/// The process's default generator: state (default_generator_seed, 0) at start.
Generator& default_generator();

/// default_generator().manual_seed(s). No communication.
void seed(std::uint64_t s);

}  // namespace KokkosDTensor

#endif
