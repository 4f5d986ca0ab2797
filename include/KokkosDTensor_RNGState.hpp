#ifndef KOKKOSDTENSOR_RNGSTATE_HPP
#define KOKKOSDTENSOR_RNGSTATE_HPP

// The random state (seed, offset). The stream the state indexes is specified in
// docs/stream.md (SPEC section 2); KOKKOSDTENSOR_STREAM_VERSION names its version, so that
// a checkpoint can record which stream drew it.

#include <array>
#include <cstddef>
#include <cstdint>

#define KOKKOSDTENSOR_STREAM_VERSION 2

namespace KokkosDTensor {

/// (seed, offset): offset counts 32-bit words of the stream and is a multiple of 4.
struct RNGState {
  std::uint64_t seed = 0;    ///< the Philox key
  std::uint64_t offset = 0;  ///< the index of the next stream word to draw

  /// 16 bytes: seed then offset, each little-endian.
  std::array<std::uint8_t, 16> to_bytes() const;
  /// The inverse of to_bytes. Throws std::invalid_argument if the offset is not a
  /// multiple of 4 (or, for the pointer form, if size != 16).
  static RNGState from_bytes(const std::array<std::uint8_t, 16>& bytes);
  /// from_bytes of the `size` bytes at `data`.
  static RNGState from_bytes(const std::uint8_t* data, std::size_t size);
};

/// Same seed and offset.
inline bool operator==(const RNGState& a, const RNGState& b) {
  return a.seed == b.seed && a.offset == b.offset;
}
/// The negation of operator==.
inline bool operator!=(const RNGState& a, const RNGState& b) { return !(a == b); }

}  // namespace KokkosDTensor

#endif
