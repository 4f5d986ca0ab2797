#ifndef KOKKOSDTENSOR_RNGSTATE_HPP
#define KOKKOSDTENSOR_RNGSTATE_HPP

// The random state (seed, offset) and the process-local Generator that holds one.
// The stream the state indexes is specified in docs/stream.md (SPEC section 2).

#include <array>
#include <cstddef>
#include <cstdint>

namespace KokkosDTensor {

// (seed, offset): offset counts 32-bit words of the stream and is a multiple of 4.
struct RNGState {
  std::uint64_t seed = 0;
  std::uint64_t offset = 0;

  // 16 bytes: seed then offset, each little-endian.
  std::array<std::uint8_t, 16> to_bytes() const;
  // The inverse of to_bytes. Throws std::invalid_argument if the offset is not a
  // multiple of 4 (or, for the pointer form, if size != 16).
  static RNGState from_bytes(const std::array<std::uint8_t, 16>& bytes);
  static RNGState from_bytes(const std::uint8_t* data, std::size_t size);
};

inline bool operator==(const RNGState& a, const RNGState& b) {
  return a.seed == b.seed && a.offset == b.offset;
}
inline bool operator!=(const RNGState& a, const RNGState& b) { return !(a == b); }

// A process-local generator: no communication. Not thread-safe (like a Kokkos View,
// one host thread at a time).
class Generator {
 public:
  explicit Generator(std::uint64_t seed = 0) : state_{seed, 0} {}

  // Seed `seed`, offset back to 0.
  void manual_seed(std::uint64_t seed) { state_ = RNGState{seed, 0}; }
  std::uint64_t initial_seed() const { return state_.seed; }

  RNGState get_state() const { return state_; }
  // Throws std::invalid_argument (state unchanged) if state.offset is not a multiple of 4.
  void set_state(RNGState state);

 private:
  RNGState state_;
};

// The seed of default_generator() at program start (PyTorch's default seed).
constexpr std::uint64_t default_generator_seed = 67280421310721ull;

// The process's default generator: state (default_generator_seed, 0) at start.
Generator& default_generator();

// default_generator().manual_seed(s). No communication.
void seed(std::uint64_t s);

}  // namespace KokkosDTensor

#endif
