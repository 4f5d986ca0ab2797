#ifndef KOKKOSDTENSOR_IMPL_STREAMWORDS_HPP
#define KOKKOSDTENSOR_IMPL_STREAMWORDS_HPP

// Internals of the in-kernel streams (KokkosDTensor_RandomStream.hpp,
// KokkosDTensor_PhiloxPool.hpp, docs/streams.md): a cursor over stream words that caches
// one Philox block, the debug checks, and the device forms of the host-side parameter
// computations of the distribution factories.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <impl/KokkosDTensor_Philox.hpp>
#include <impl/KokkosDTensor_PortableMath.hpp>

// Checks in device-callable stream code (drawing past an element's words, an element
// index past the reservation, a pool state index out of range): on when
// KOKKOSDTENSOR_DEBUG or KOKKOS_ENABLE_DEBUG is defined, or NDEBUG is not. A failed check
// calls Kokkos::abort with a message (host and device).
#if !defined(KOKKOSDTENSOR_STREAM_CHECKS)
#if defined(KOKKOSDTENSOR_DEBUG) || defined(KOKKOS_ENABLE_DEBUG) || !defined(NDEBUG)
#define KOKKOSDTENSOR_STREAM_CHECKS 1
#else
#define KOKKOSDTENSOR_STREAM_CHECKS 0
#endif
#endif

#if KOKKOSDTENSOR_STREAM_CHECKS
#define KOKKOSDTENSOR_IMPL_STREAM_CHECK(condition, message) \
  do {                                                      \
    if (!(condition)) Kokkos::abort(message);               \
  } while (false)
#else
#define KOKKOSDTENSOR_IMPL_STREAM_CHECK(condition, message) \
  do {                                                      \
  } while (false)
#endif

namespace KokkosDTensor {
namespace Impl {

// The largest value below x (std::nextafter(x, -inf)) for finite x, from the bits, so that
// device code gets the value make_uniform computes on the host (below +0 and -0:
// -denorm_min).
KOKKOS_INLINE_FUNCTION float next_below(float x) {
  const std::uint32_t bits = float_to_bits(x);
  return bits_to_float((bits << 1) == 0 ? 0x80000001u : (bits >> 31) ? bits + 1 : bits - 1);
}
KOKKOS_INLINE_FUNCTION double next_below(double x) {
  const std::uint64_t bits = double_to_bits(x);
  return bits_to_double((bits << 1) == 0 ? 0x8000000000000001ull
                        : (bits >> 63)   ? bits + 1
                                         : bits - 1);
}

// bernoulli_threshold<T>(p) on the device: floor(p * 2^32) (one word) or floor(p * 2^53)
// (two words). Multiplying by a power of two is exact, so this is the host's
// static_cast<uint64_t>(std::ldexp(p, bits)) for every p in [0, 1].
KOKKOS_INLINE_FUNCTION std::uint64_t bernoulli_threshold_device(double p, int words) {
  return static_cast<std::uint64_t>(portable_mul(p, words == 1 ? 0x1p32 : 0x1p53));
}

// Consecutive words of one Philox stream, from word `next` up to (not including) word
// `end`, with the last block computed kept: k consecutive words cost ceil(k / 4) block
// functions (plus one when they straddle a block boundary). Counter words 2 and 3 are
// `c2` and `c3`: 0 for the ops' stream (SPEC section 2), the state index for a
// Random_Philox_Pool state (docs/streams.md).
struct WordCursor {
  PhiloxKeySchedule key;
  std::uint64_t next = 0;
  std::uint64_t end = 0;
  std::uint32_t c2 = 0, c3 = 0;
  std::uint64_t cached_block = ~std::uint64_t(0);  // no block index reaches 2^62
  PhiloxBlock block;

  KOKKOS_INLINE_FUNCTION std::uint32_t take() {
    check_words_left(1);
    cache_block(next >> 2);
    // Lane by selects, not block.word[lane]: a run-time index into the array puts the
    // cursor in local memory on GPUs.
    const std::uint32_t lane = static_cast<std::uint32_t>(next++) & 3u;
    const std::uint32_t low = lane & 1u ? block.word[1] : block.word[0];
    const std::uint32_t high = lane & 1u ? block.word[3] : block.word[2];
    return lane & 2u ? high : low;
  }

  // The next 4 words: one block, when `next` is at a block's start (an element of a multiple
  // of 4 words always is, offsets being multiples of 4), else 4 take()s. At a block's start
  // the cache holds an earlier block or none, and later take()s need later blocks, so the
  // block goes straight to `w` without the cache (in a kernel of uniform4() calls the cache
  // then has no code at all).
  KOKKOS_INLINE_FUNCTION void take4(std::uint32_t (&w)[4]) {
    if ((next & 3u) != 0) {
      for (int k = 0; k < 4; ++k) w[k] = take();
      return;
    }
    check_words_left(4);
    const PhiloxBlock b = block_at(next >> 2);
    next += 4;
    for (int k = 0; k < 4; ++k) w[k] = b.word[k];
  }

  KOKKOS_INLINE_FUNCTION void check_words_left(std::uint64_t count) const {
    KOKKOSDTENSOR_IMPL_STREAM_CHECK(end - next >= count,
                                    "KokkosDTensor: a stream draw takes more words than were "
                                    "reserved for the element (words_per_element)");
    (void)count;
  }

  // Block `block_index` of this cursor's stream.
  KOKKOS_INLINE_FUNCTION PhiloxBlock block_at(std::uint64_t block_index) const {
    return philox4x32_10(static_cast<std::uint32_t>(block_index),
                         static_cast<std::uint32_t>(block_index >> 32), c2, c3, key);
  }

  KOKKOS_INLINE_FUNCTION void cache_block(std::uint64_t block_index) {
    if (block_index != cached_block) {
      block = block_at(block_index);
      cached_block = block_index;
    }
  }
};

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
