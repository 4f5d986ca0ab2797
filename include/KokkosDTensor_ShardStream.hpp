#ifndef KOKKOSDTENSOR_SHARDSTREAM_HPP
#define KOKKOSDTENSOR_SHARDSTREAM_HPP

// Streams inside users' kernels over DTensor shards (SPEC section 4c, docs/streams.md).
//
//   ShardStream<DT::rank> s = reserve(dtensor, words_per_element);        // the tracker
//   ShardStream<DT::rank> s = reserve(dtensor, words_per_element, gen);   // a Generator
//
// advances the state exactly as a random op on `dtensor` would (by the global element count,
// on every rank, also on ranks outside the DTensor's mesh) and returns the reserved range.
// s.element(i0, ..., i_{r-1}) takes the LOCAL indices of the shard's View and hands out the
// words of the element's global row-major index L (global offset + local index, global
// strides), so a user kernel over the shard gives the global tensor a single process would
// compute with reserve(gen, N, w) on a View of the global shape: sharding-invariant, with no
// MPI call once the tracker exists. With the tracker's distribute_region_enabled() false,
// elements are numbered in the local shard and the state advances by the local count, as the
// ops do. Partial placements are rejected as by the ops (accepted on mesh dims of size 1).

#include <KokkosDTensor_DTensor.hpp>
#include <KokkosDTensor_Generator.hpp>
#include <KokkosDTensor_RNGTracker.hpp>
#include <KokkosDTensor_RandomStream.hpp>
#include <impl/KokkosDTensor_DTensorRandomTarget.hpp>
#include <impl/KokkosDTensor_Error.hpp>

#include <cstdint>
#include <type_traits>

namespace KokkosDTensor {

/// A reservation seen through one rank's shard: local indices to global row-major indices.
/// Trivially copyable; capture it in a kernel by value.
template <int Rank>
class ShardStream {
 public:
  ShardStream() = default;
  /// Element (i0, ..., i_{Rank-1}) of the shard is element
  /// `origin_linear + i0 * strides[0] + ...` of `stream`; reserve() makes these.
  ShardStream(const RandomStream& stream, std::uint64_t origin_linear, const std::uint64_t* strides)
      : stream_(stream), origin_(origin_linear) {
    for (int d = 0; d < Rank; ++d) stride_[d] = strides[d];
  }

  /// The words of the element with local indices (i0, ..., i_{Rank-1}) of the shard's View.
  template <class... I>
  KOKKOS_INLINE_FUNCTION ElementDraws element(I... local_indices) const {
    return stream_.element(global_index(local_indices...));
  }

  /// The element's index L in the numbering of the stream (global row-major, or local
  /// row-major with the distribute region disabled).
  template <class... I>
  KOKKOS_INLINE_FUNCTION std::uint64_t global_index(I... local_indices) const {
    static_assert(sizeof...(I) == Rank, "ShardStream::element: one index per dimension");
    static_assert((std::is_integral<I>::value && ...), "ShardStream::element: integer indices");
    std::uint64_t L = origin_;
    int d = 0;
    ((L += static_cast<std::uint64_t>(local_indices) * stride_[d++]), ...);
    (void)d;
    return L;
  }

  /// The reservation in the stream's numbering (count: the global element count, or the
  /// local one with the distribute region disabled).
  KOKKOS_INLINE_FUNCTION const RandomStream& stream() const { return stream_; }

 private:
  RandomStream stream_;
  std::uint64_t origin_ = 0;
  std::uint64_t stride_[Rank > 0 ? Rank : 1] = {};
};

namespace Impl {

template <class T>
struct is_dtensor : std::false_type {};
template <class DataType, class... Props>
struct is_dtensor<DTensor<DataType, Props...>> : std::true_type {};

inline void require_words_per_element(int words_per_element, const char* function) {
  if (words_per_element < 1) {
    throw_invalid_argument(function, "words_per_element", format_value(words_per_element),
                           "must be >= 1");
  }
}

// The reservation of `t` at `state`, which it advances (the state is unchanged on error).
template <class DT>
ShardStream<DT::rank> reserve_on_dtensor(const DT& t, int words_per_element, RNGState& state,
                                         bool distribute_region, const char* function) {
  constexpr int rank = DT::rank;
  const auto local = t.local();
  std::uint64_t stride[rank > 0 ? rank : 1] = {};
  std::uint64_t origin = 0;
  std::uint64_t count = 1;
  if (distribute_region) {
    count = global_element_count(t.global_shape(), function);
    for (int d = rank - 1; d >= 0 && count > 0; --d) {
      stride[d] =
          d == rank - 1 ? 1 : stride[d + 1] * static_cast<std::uint64_t>(t.global_shape()[d + 1]);
    }
    for (int d = 0; d < rank; ++d)
      origin += static_cast<std::uint64_t>(t.global_offset()[d]) * stride[d];
  } else {
    count = static_cast<std::uint64_t>(local.size());
    for (int d = rank - 1; d >= 0; --d) {
      stride[d] =
          d == rank - 1 ? 1 : stride[d + 1] * static_cast<std::uint64_t>(local.extent(d + 1));
    }
  }
  const std::uint64_t next = offset_after(state, words_per_element, count, function);
  const RandomStream stream(state, count, words_per_element);
  state.offset = next;
  return ShardStream<rank>(stream, origin, stride);
}

}  // namespace Impl

/// Advances the DTensor RNG tracker (created by the bounded WORLD synchronisation if none
/// exists, as by a random op) as a random op on `dtensor` at `words_per_element` words per
/// element, and returns the calling rank's view of the reserved range. Throws as the ops do
/// (std::invalid_argument for words_per_element < 1 or Partial placements, std::overflow_error
/// past the end of the counter space), changing no state.
template <class DT, class = std::enable_if_t<Impl::is_dtensor<DT>::value>>
ShardStream<DT::rank> reserve(const DT& dtensor, int words_per_element) {
  const char* function = "KokkosDTensor::reserve";
  Impl::require_words_per_element(words_per_element, function);
  Impl::require_random_op_target(dtensor, function);
  RNGTracker& tracker = Impl::tracker_for_random_op(function);
  RNGState state = tracker.get_rng_state();
  const auto stream = Impl::reserve_on_dtensor(dtensor, words_per_element, state,
                                               tracker.distribute_region_enabled(), function);
  tracker.set_rng_state(state);
  return stream;
}

/// As reserve(dtensor, words_per_element), from a Generator (global numbering, advance by
/// the global count, like the ops with a Generator). No communication.
template <class DT, class = std::enable_if_t<Impl::is_dtensor<DT>::value>>
ShardStream<DT::rank> reserve(const DT& dtensor, int words_per_element, Generator& gen) {
  const char* function = "KokkosDTensor::reserve";
  Impl::require_words_per_element(words_per_element, function);
  Impl::require_random_op_target(dtensor, function);
  RNGState state = gen.get_state();
  const auto stream = Impl::reserve_on_dtensor(dtensor, words_per_element, state, true, function);
  gen.set_state(state);
  return stream;
}

}  // namespace KokkosDTensor

#endif
