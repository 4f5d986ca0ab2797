#ifndef KOKKOSDTENSOR_RANDOMSTREAM_HPP
#define KOKKOSDTENSOR_RANDOMSTREAM_HPP

// Random numbers inside users' own kernels (SPEC section 4c, docs/streams.md).
//
//   RandomStream s = reserve(gen, count, words_per_element);
//
// advances `gen` exactly as a random op on `count` elements at `words_per_element` words each
// (offset += round_up_to_4(words_per_element * count)) and returns the reserved range: element
// L (0 <= L < count, its global row-major index) owns the stream words
//   offset + w*L ... offset + w*L + w - 1                     (w = words_per_element)
// and `s.element(L)` is an ElementDraws that hands them out in order: 1 word for each 32-bit
// result, 2 for each 64-bit result. The first draw of element L equals what the matching op
// writes at L, bit for bit:
//
//   auto s = kdt::reserve(gen, N, 1);
//   Kokkos::parallel_for(N, KOKKOS_LAMBDA(int L) { v(L) = s.element(L).uniform<float>(); });
//   // == kdt::uniform_(v, gen) from the same state, and gen ends in the same state.
//
// RandomStream and ElementDraws are trivially copyable and device-callable; reserve() runs on
// the host and makes no allocation and no kernel launch. Drawing more than w words from one
// element is caught by a check in debug builds (KOKKOSDTENSOR_STREAM_CHECKS: KOKKOSDTENSOR_DEBUG
// or KOKKOS_ENABLE_DEBUG defined, or NDEBUG not defined), never a silent overlap with the next
// element's words.

#include <KokkosDTensor_Generator.hpp>
#include <KokkosDTensor_RNGState.hpp>
#include <Kokkos_Core.hpp>
#include <impl/KokkosDTensor_Distributions.hpp>
#include <impl/KokkosDTensor_Error.hpp>
#include <impl/KokkosDTensor_FillDispatch.hpp>
#include <impl/KokkosDTensor_Philox.hpp>
#include <impl/KokkosDTensor_StreamWords.hpp>
#include <impl/KokkosDTensor_Transforms.hpp>

#include <cstdint>
#include <type_traits>

// ElementDraws::normal is the op's normal only for an elementwise normal (stream version 2;
// version 1 drew Box-Muller pairs of elements).
static_assert(KOKKOSDTENSOR_STREAM_VERSION >= 2, "the in-kernel streams need stream version 2");

namespace KokkosDTensor {

/// The words of one element of a reservation, drawn in order. Each draw computes its value by
/// the element transform of the matching op's distribution (impl/KokkosDTensor_Distributions.hpp)
/// on the next 1 (T of at most 32 bits) or 2 (64-bit T) words; consecutive draws cost at most
/// one Philox block function per 4 words.
class ElementDraws {
 public:
  ElementDraws() = default;
  /// The stream words [first_word, end_word) of the seed whose Philox key schedule is `key`;
  /// RandomStream::element() makes these.
  KOKKOS_INLINE_FUNCTION ElementDraws(const Impl::PhiloxKeySchedule& key, std::uint64_t first_word,
                                      std::uint64_t end_word) {
    cursor_.key = key;
    cursor_.next = first_word;
    cursor_.end = end_word;
  }

  /// uniform_(t) on a float/double t: [0, 1). A 16-bit T (half_t, bhalf_t where Kokkos makes
  /// them 16-bit; SPEC section 2) takes float's word and gets the float value rounded to
  /// nearest-even, a rounded 1 becoming 0, as the op writes; so do the draws below.
  template <class T>
  KOKKOS_INLINE_FUNCTION T uniform() {
    static_assert(is_floating<T>(), "uniform<T>: T must be float, double or 16-bit floating");
    if constexpr (Impl::is_reduced_float<T>()) {
      return draw(Impl::rounded_uniform<T>(Impl::StandardUniform<float>{}, 0.0f, 1.0f,
                                           Impl::bits_to_float(0x3F7FFFFFu)));  // below 1
    } else {
      return draw(Impl::StandardUniform<T>{});
    }
  }

  /// Four float uniforms in [0, 1) from the next 4 words: the same values as four
  /// uniform<float>() calls, computed from one Philox block when the element's next word
  /// starts a block (as cuRAND's curand_uniform4; always so after a multiple of 4 words).
  KOKKOS_INLINE_FUNCTION Kokkos::Array<float, 4> uniform4() {
    std::uint32_t w[4];
    cursor_.take4(w);
    Kokkos::Array<float, 4> u;
    for (int k = 0; k < 4; ++k) u[k] = Impl::uniform01_float(w[k]);
    return u;
  }

  /// uniform_(t, from, to): [from, to) (from < to, both finite, to - from finite in T).
  template <class T>
  KOKKOS_INLINE_FUNCTION T uniform(T from, T to) {
    static_assert(is_floating<T>(), "uniform<T>: T must be float, double or 16-bit floating");
    if constexpr (Impl::is_reduced_float<T>()) {
      const float from_f = Impl::reduced_to_float(from), to_f = Impl::reduced_to_float(to);
      const auto dist = uniform_distribution(from_f, to_f);
      return draw(Impl::rounded_uniform<T>(dist, from_f, to_f, dist.below_to));
    } else {
      return draw(uniform_distribution(from, to));
    }
  }

  /// normal_(t, mean, std): the inverse-CDF normal of stream version 2 (one draw per element).
  template <class T>
  KOKKOS_INLINE_FUNCTION T normal(T mean = T(0), T std = T(1)) {
    static_assert(is_floating<T>(), "normal<T>: T must be float, double or 16-bit floating");
    if constexpr (Impl::is_reduced_float<T>()) {
      return draw_rounded<T>(
          normal_distribution(Impl::reduced_to_float(mean), Impl::reduced_to_float(std)));
    } else {
      return draw(normal_distribution(mean, std));
    }
  }

  /// exponential_(t, lambd): -log(u) / lambd, u in (0, 1] (lambd > 0).
  template <class T>
  KOKKOS_INLINE_FUNCTION T exponential(T lambd = T(1)) {
    static_assert(is_floating<T>(), "exponential<T>: T must be float, double or 16-bit floating");
    if constexpr (Impl::is_reduced_float<T>()) {
      return draw_rounded<T>(exponential_distribution(Impl::reduced_to_float(lambd)));
    } else {
      return draw(exponential_distribution(lambd));
    }
  }

  /// bernoulli_(t, p) on a t of at most 32 bits (one word): true with probability p.
  KOKKOS_INLINE_FUNCTION bool bernoulli(double p) { return bernoulli<float>(p) != 0.0f; }
  /// bernoulli_(t, p) on a t of value type T: T(1) with probability p, else T(0)
  /// (one word for T of at most 32 bits, two for 64-bit T).
  template <class T>
  KOKKOS_INLINE_FUNCTION T bernoulli(double p) {
    KOKKOSDTENSOR_IMPL_STREAM_CHECK(p >= 0.0 && p <= 1.0,
                                    "KokkosDTensor::ElementDraws::bernoulli: p outside [0, 1]");
    using Words = Impl::words_type_t<T>;
    Impl::Bernoulli<Words> dist;
    dist.threshold = Impl::bernoulli_threshold_device(p, Impl::words_per_element_for<Words>());
    if constexpr (Impl::is_reduced_float<T>()) {
      return draw_rounded<T>(dist);
    } else {
      return draw(dist);
    }
  }

  /// random_bits_(t) on a uint32 t: the word.
  KOKKOS_INLINE_FUNCTION std::uint32_t bits32() { return cursor_.take(); }
  /// random_bits_(t) on a uint64 t: `w0 << 32 | w1`.
  KOKKOS_INLINE_FUNCTION std::uint64_t bits64() {
    std::uint32_t w0, w1;
    take<std::uint64_t>(w0, w1);
    return Impl::RandomBits<std::uint64_t>{}.element(w0, w1, std::uint64_t());
  }

  /// randint_(t, low, high) on an int64 t: [low, high), two words.
  KOKKOS_INLINE_FUNCTION std::int64_t randint(std::int64_t low, std::int64_t high) {
    return randint<std::int64_t>(low, high);
  }
  /// randint_(t, low, high) on a t of value type T (a 32- or 64-bit integer; [low, high) must
  /// fit in T): one word for 32-bit T, two for 64-bit T.
  template <class T>
  KOKKOS_INLINE_FUNCTION T randint(std::int64_t low, std::int64_t high) {
    static_assert(std::is_integral<T>::value && (sizeof(T) == 4 || sizeof(T) == 8),
                  "randint<T>: T must be a 32-bit or 64-bit integer");
    KOKKOSDTENSOR_IMPL_STREAM_CHECK(low < high,
                                    "KokkosDTensor::ElementDraws::randint: low >= high");
    Impl::RandInt<T> dist;  // what make_randint<T>(low, high) computes on the host
    dist.low = static_cast<std::uint64_t>(low);
    dist.range = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low);
    std::uint32_t w0, w1;
    take<T>(w0, w1);
    return dist.element(w0, w1, T());
  }

  /// Words of the element not yet drawn.
  KOKKOS_INLINE_FUNCTION std::uint64_t words_left() const { return cursor_.end - cursor_.next; }
  /// The stream index of the next word drawn.
  KOKKOS_INLINE_FUNCTION std::uint64_t next_word() const { return cursor_.next; }

 private:
  template <class T>
  KOKKOS_INLINE_FUNCTION static constexpr bool is_floating() {
    return std::is_floating_point<T>::value || Impl::is_reduced_float<T>();
  }
  // The distributions the ops' factories make, from parameters on the device.
  template <class T>
  KOKKOS_INLINE_FUNCTION static Impl::Uniform<T> uniform_distribution(T from, T to) {
    KOKKOSDTENSOR_IMPL_STREAM_CHECK(from < to, "KokkosDTensor::ElementDraws::uniform: from >= to");
    Impl::Uniform<T> dist;  // what make_uniform<T>(from, to) computes on the host
    dist.from = from;
    dist.range = Impl::portable_sub(to, from);
    dist.below_to = Impl::next_below(to);
    return dist;
  }
  template <class T>
  KOKKOS_INLINE_FUNCTION static Impl::Normal<T> normal_distribution(T mean, T std) {
    Impl::Normal<T> dist;
    dist.mean = mean;
    dist.stddev = std;
    return dist;
  }
  template <class T>
  KOKKOS_INLINE_FUNCTION static Impl::Exponential<T> exponential_distribution(T lambd) {
    Impl::Exponential<T> dist;
    dist.lambd = lambd;
    return dist;
  }

  // The next element value of `dist` (its words_per_element words).
  template <class Dist>
  KOKKOS_INLINE_FUNCTION typename Dist::value_type draw(const Dist& dist) {
    using T = typename Dist::value_type;
    std::uint32_t w0, w1;
    take<T>(w0, w1);
    return dist.element(w0, w1, T());
  }
  // The same for a 16-bit T from the float distribution `dist`: one word, the float value
  // rounded.
  template <class T, class FloatDist>
  KOKKOS_INLINE_FUNCTION T draw_rounded(const FloatDist& dist) {
    return draw(Impl::rounded_distribution<T>(dist));
  }

  template <class T>
  KOKKOS_INLINE_FUNCTION void take(std::uint32_t& w0, std::uint32_t& w1) {
    w0 = cursor_.take();
    w1 = Impl::words_per_element_for<T>() == 2 ? cursor_.take() : w0;
  }

  Impl::WordCursor cursor_;
};

/// A reserved range of the stream: `count` elements of `words_per_element` words from
/// stream word `offset` (a multiple of 4) of seed `seed`. Trivially copyable: capture it in a
/// kernel by value.
class RandomStream {
 public:
  RandomStream() = default;

  /// The range that starts at `state` (advances nothing: reserve() is the usual way to get
  /// one). Throws std::invalid_argument for words_per_element < 1 or an offset that is not a
  /// multiple of 4, std::overflow_error if the range passes the end of the counter space.
  RandomStream(RNGState state, std::uint64_t count, int words_per_element) {
    const char* function = "KokkosDTensor::RandomStream";
    if (words_per_element < 1) {
      Impl::throw_invalid_argument(function, "words_per_element",
                                   Impl::format_value(words_per_element), "must be >= 1");
    }
    if (state.offset % 4 != 0) {
      Impl::throw_invalid_argument(function, "state.offset", Impl::format_value(state.offset),
                                   "must be a multiple of 4");
    }
    end_offset_ = Impl::offset_after(state, words_per_element, count, function);
    key_ = Impl::philox_key_schedule(state.seed);
    seed_ = state.seed;
    offset_ = state.offset;
    count_ = count;
    words_ = words_per_element;
  }

  /// Element L's words (L < count(): checked in debug builds).
  KOKKOS_INLINE_FUNCTION ElementDraws element(std::uint64_t L) const {
    KOKKOSDTENSOR_IMPL_STREAM_CHECK(
        L < count_, "KokkosDTensor::RandomStream::element: L >= the reserved count");
    const std::uint64_t first = offset_ + static_cast<std::uint64_t>(words_) * L;
    return ElementDraws(key_, first, first + static_cast<std::uint64_t>(words_));
  }

  /// The seed of the stream.
  KOKKOS_INLINE_FUNCTION std::uint64_t seed() const { return seed_; }
  /// The first word of element 0 (the state's offset before the reservation).
  KOKKOS_INLINE_FUNCTION std::uint64_t offset() const { return offset_; }
  /// The number of elements reserved.
  KOKKOS_INLINE_FUNCTION std::uint64_t count() const { return count_; }
  /// The words each element owns.
  KOKKOS_INLINE_FUNCTION int words_per_element() const { return words_; }
  /// The state the reservation starts from.
  RNGState state() const { return RNGState{seed_, offset_}; }
  /// The state just past the range (what reserve() leaves in the generator).
  RNGState end_state() const { return RNGState{seed_, end_offset_}; }

 private:
  Impl::PhiloxKeySchedule key_ = {};
  std::uint64_t seed_ = 0, offset_ = 0, count_ = 0, end_offset_ = 0;
  int words_ = 1;
};

static_assert(std::is_trivially_copyable<RandomStream>::value,
              "RandomStream must be trivially copyable");
static_assert(std::is_trivially_copyable<ElementDraws>::value,
              "ElementDraws must be trivially copyable");

/// Advances `gen` as a random op on `count` elements at `words_per_element` words each, and
/// returns the range it skipped over. Throws std::invalid_argument (words_per_element < 1) or
/// std::overflow_error (the range passes the end of the 2^64-word counter space), naming the
/// argument and its value; `gen` is then unchanged. No communication, no kernel.
inline RandomStream reserve(Generator& gen, std::uint64_t count, int words_per_element) {
  const char* function = "KokkosDTensor::reserve";
  if (words_per_element < 1) {
    Impl::throw_invalid_argument(function, "words_per_element",
                                 Impl::format_value(words_per_element), "must be >= 1");
  }
  const RNGState state = gen.get_state();
  const std::uint64_t next = Impl::offset_after(state, words_per_element, count, function);
  RandomStream stream(state, count, words_per_element);
  gen.set_state(RNGState{state.seed, next});
  return stream;
}

}  // namespace KokkosDTensor

#endif
