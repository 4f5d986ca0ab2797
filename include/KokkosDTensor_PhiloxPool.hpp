#ifndef KOKKOSDTENSOR_PHILOXPOOL_HPP
#define KOKKOSDTENSOR_PHILOXPOOL_HPP

// Random_Philox_Pool<DeviceType>: a drop-in for Kokkos::Random_XorShift64_Pool<DeviceType>
// (SPEC section 4c, docs/streams.md). Same constructors (Kokkos 4.7's Pool(exec, seed[, n])
// too, on every Kokkos version), init, get_state(), get_state(index), free_state(gen),
// generator_type with urand/urand64/rand/rand64/frand/drand/normal and the MAX_* constants,
// so existing kernels and Kokkos::fill_random(view, pool, range) / fill_random(view, pool,
// begin, end) work unchanged, on Views and DynRankViews.
//
// State `index` is its own Philox4x32-10 stream: its word W is lane W % 4 of
//   philox4x32_10(counter = {lo32(W/4), hi32(W/4), lo32(index), hi32(index) | 0x80000000},
//                 key = {lo32(seed), hi32(seed)}),
// so no pool word is ever a word of the ops' stream (whose counter words 2 and 3 are 0) nor
// of another state. The pool keeps, in one View zeroed by one deep_copy (construction is one
// device allocation and one fill, no host loop), one 64-bit counter per state (the words it
// has used) and one lock per state; the position of its fill stream is a host value that
// the pool's copies share.
//  - Kokkos::fill_random(view, pool, ...) takes the overloads below, not Kokkos' functor:
//    element L (row-major over the View's extents) draws, through Kokkos::rand, words
//    F + L * W ... of the pool's fill stream (the stream of state index -1; W = one word per
//    4 bytes of the value type), F the fill position, which then moves past the fill to the
//    next block. Deterministic on every backend and thread count, and at memory speed.
//  - get_state(index): deterministic. The generator of state `index`, continuing where the
//    last free_state of that index left it. Use one index per work item (say the iteration
//    index, with as many states as items) for results that do not depend on the backend or
//    the thread count.
//  - get_state(): Kokkos' way: a free state chosen by the calling thread's id and an atomic
//    lock (linear probing), released by free_state. Which state a work item gets, and so
//    its numbers, depends on scheduling: not reproducible on GPUs or with several threads.
// For numbers keyed on the element (sharding-invariant, equal to the ops), use reserve()
// (KokkosDTensor_RandomStream.hpp) instead.

#include <KokkosDTensor_RNGState.hpp>
#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>
#include <impl/KokkosDTensor_Distributions.hpp>
#include <impl/KokkosDTensor_Philox.hpp>
#include <impl/KokkosDTensor_PoolFillRandom.hpp>
#include <impl/KokkosDTensor_ReducedPrecision.hpp>
#include <impl/KokkosDTensor_StreamWords.hpp>
#include <impl/KokkosDTensor_Transforms.hpp>

#include <cstdint>
#include <limits>
#include <string>

static_assert(KOKKOSDTENSOR_STREAM_VERSION >= 2,
              "Random_Philox_Pool::normal needs the elementwise normal of stream version 2");

namespace KokkosDTensor {

template <class DeviceType>
class Random_Philox_Pool;

/// The bit set in counter word 3 of every pool stream (docs/streams.md).
constexpr std::uint32_t philox_pool_stream_flag = 0x80000000u;
/// The state index whose stream Kokkos::fill_random draws from (no state has it).
constexpr int philox_pool_fill_index = -1;

/// One state of a Random_Philox_Pool, as returned by get_state. Draws as
/// Kokkos::Random_XorShift64 names them; docs/streams.md gives each mapping from words.
template <class DeviceType>
class Random_Philox {
 public:
  /// The pool's device type.
  using device_type = DeviceType;
  /// The pool this generator comes from.
  using pool_type = Random_Philox_Pool<DeviceType>;

  /// The largest urand() value.
  constexpr static std::uint32_t MAX_URAND = std::numeric_limits<std::uint32_t>::max();
  /// The largest urand64() value.
  constexpr static std::uint64_t MAX_URAND64 = std::numeric_limits<std::uint64_t>::max();
  /// The largest rand() value.
  constexpr static std::int32_t MAX_RAND = std::numeric_limits<std::int32_t>::max();
  /// The largest rand64() value.
  constexpr static std::int64_t MAX_RAND64 = std::numeric_limits<std::int64_t>::max();

  Random_Philox() = default;
  /// The generator of state `index` of the pool with key schedule `key`, `words_used` words
  /// into its stream (`locked`: get_state() took the state's lock). The pool makes these.
  KOKKOS_INLINE_FUNCTION Random_Philox(const Impl::PhiloxKeySchedule& key, int index,
                                       std::uint64_t words_used, bool locked = false)
      : index_(index), locked_(locked) {
    cursor_.key = key;
    cursor_.next = words_used;
    cursor_.end = ~std::uint64_t(0);
    const std::uint64_t i = static_cast<std::uint64_t>(static_cast<std::int64_t>(index));
    cursor_.c2 = static_cast<std::uint32_t>(i);
    cursor_.c3 = static_cast<std::uint32_t>(i >> 32) | philox_pool_stream_flag;
  }

  /// One word: [0, 2^32).
  KOKKOS_INLINE_FUNCTION std::uint32_t urand() { return cursor_.take(); }
  /// [0, range): (range * word) >> 32, one word, no rejection loop (each value's probability
  /// is within 2^-32 of 1 / range); range 0 gives 0.
  KOKKOS_INLINE_FUNCTION std::uint32_t urand(const std::uint32_t& range) {
    return static_cast<std::uint32_t>(Impl::randint_word(urand(), 0, range));
  }
  /// [start, end): urand(end - start) + start.
  KOKKOS_INLINE_FUNCTION std::uint32_t urand(const std::uint32_t& start, const std::uint32_t& end) {
    return urand(end - start) + start;
  }

  /// Two words w0, w1: `w0 << 32 | w1`.
  KOKKOS_INLINE_FUNCTION std::uint64_t urand64() {
    const std::uint32_t w0 = cursor_.take();
    return Impl::join_words(w0, cursor_.take());
  }
  /// [0, range): mulhi64(range, urand64()).
  KOKKOS_INLINE_FUNCTION std::uint64_t urand64(const std::uint64_t& range) {
    return Impl::mul_high_64(range, urand64());
  }
  /// [start, end): urand64(end - start) + start.
  KOKKOS_INLINE_FUNCTION std::uint64_t urand64(const std::uint64_t& start,
                                               const std::uint64_t& end) {
    return urand64(end - start) + start;
  }

  /// [0, MAX_RAND]: word >> 1.
  KOKKOS_INLINE_FUNCTION int rand() { return static_cast<int>(urand() >> 1); }
  /// [0, range) for range > 0 (one word, as urand(range)); 0 for range <= 0.
  KOKKOS_INLINE_FUNCTION int rand(const int& range) {
    const std::uint32_t word = urand();
    return range > 0
               ? static_cast<int>(Impl::randint_word(word, 0, static_cast<std::uint64_t>(range)))
               : 0;
  }
  /// [start, end): rand(end - start) + start.
  KOKKOS_INLINE_FUNCTION int rand(const int& start, const int& end) {
    return rand(end - start) + start;
  }

  /// [0, MAX_RAND64]: urand64() >> 1.
  KOKKOS_INLINE_FUNCTION std::int64_t rand64() { return static_cast<std::int64_t>(urand64() >> 1); }
  /// [0, range) for range > 0 (two words, as urand64(range)); 0 for range <= 0.
  KOKKOS_INLINE_FUNCTION std::int64_t rand64(const std::int64_t& range) {
    const std::uint64_t x = urand64();
    return range > 0
               ? static_cast<std::int64_t>(Impl::mul_high_64(static_cast<std::uint64_t>(range), x))
               : 0;
  }
  /// [start, end): rand64(end - start) + start.
  KOKKOS_INLINE_FUNCTION std::int64_t rand64(const std::int64_t& start, const std::int64_t& end) {
    return rand64(end - start) + start;
  }

  /// [0, 1): (word >> 8) * 2^-24, one word (the float uniform of the ops).
  KOKKOS_INLINE_FUNCTION float frand() { return Impl::uniform01_float(urand()); }
  /// range * frand().
  KOKKOS_INLINE_FUNCTION float frand(const float& range) {
    return Impl::portable_mul(range, frand());
  }
  /// [start, end) for start < end: the ops' uniform_(from, to) mapping.
  KOKKOS_INLINE_FUNCTION float frand(const float& start, const float& end) {
    return from_to(frand(), start, end);
  }

  /// [0, 1): `((w0 << 32 | w1) >> 11) * 2^-53`, two words (the double uniform of the ops).
  KOKKOS_INLINE_FUNCTION double drand() {
    const std::uint32_t w0 = cursor_.take();
    return Impl::uniform01_double(w0, cursor_.take());
  }
  /// range * drand().
  KOKKOS_INLINE_FUNCTION double drand(const double& range) {
    return Impl::portable_mul(range, drand());
  }
  /// [start, end) for start < end: the ops' uniform_(from, to) mapping, in double.
  KOKKOS_INLINE_FUNCTION double drand(const double& start, const double& end) {
    return from_to(drand(), start, end);
  }

  /// Standard normal (double): the ops' inverse-CDF normal (stream version 2) of two words.
  KOKKOS_INLINE_FUNCTION double normal() {
    Impl::Normal<double> dist;
    dist.mean = 0.0;
    dist.stddev = 1.0;
    const std::uint32_t w0 = cursor_.take();
    return dist.element(w0, cursor_.take(), 0.0);
  }
  /// fma(std_dev, normal(), mean).
  KOKKOS_INLINE_FUNCTION double normal(const double& mean, const double& std_dev = 1.0) {
    return Impl::portable_fma(std_dev, normal(), mean);
  }

  /// The state's index in its pool.
  KOKKOS_INLINE_FUNCTION int state_index() const { return index_; }
  /// The words the state's stream has used so far.
  KOKKOS_INLINE_FUNCTION std::uint64_t words_used() const { return cursor_.next; }

 private:
  friend class Random_Philox_Pool<DeviceType>;

  template <class T>
  KOKKOS_INLINE_FUNCTION static T from_to(T u, T start, T end) {
    const T value = Impl::portable_fma(u, Impl::portable_sub(end, start), start);
    if (!(start < end)) return value;
    const T below_end = Impl::next_below(end);
    return value < below_end ? value : below_end;
  }

  Impl::WordCursor cursor_;
  int index_ = 0;
  bool locked_ = false;
};

/// A drop-in for `Kokkos::Random_XorShift64_Pool<DeviceType>` whose every state is its own
/// Philox stream. get_state(index) is deterministic; get_state() picks a free state as Kokkos
/// does, so its numbers depend on scheduling.
template <class DeviceType = Kokkos::DefaultExecutionSpace>
class Random_Philox_Pool {
 public:
  /// The generator get_state() returns.
  using generator_type = Random_Philox<DeviceType>;
  /// Where the pool's states live and its generators run.
  using device_type = DeviceType;
  /// The device type's execution space.
  using execution_space = typename DeviceType::execution_space;
  /// The device type's memory space.
  using memory_space = typename DeviceType::memory_space;

  /// An empty pool; call init() before use.
  Random_Philox_Pool() = default;
  /// As many states as the execution space's concurrency, as Kokkos' pools.
  Random_Philox_Pool(std::uint64_t seed) { init(seed, execution_space().concurrency()); }
  /// `num_states` states (1 if `num_states` < 1).
  Random_Philox_Pool(std::uint64_t seed, int num_states) { init(seed, num_states); }
  /// Pool(seed), initialised on `exec` (Kokkos 4.7's form): as many states as
  /// exec.concurrency(), the same streams. Not fenced: fence `exec` before using the pool on
  /// another instance.
  Random_Philox_Pool(const execution_space& exec, std::uint64_t seed) {
    init(exec, seed, exec.concurrency());
  }
  /// Pool(seed, num_states), initialised on `exec`; not fenced.
  Random_Philox_Pool(const execution_space& exec, std::uint64_t seed, int num_states) {
    init(exec, seed, num_states);
  }

  /// (Re)starts the pool: every state, and the fill stream, at the beginning of its stream.
  /// One allocation and one deep_copy of zeros; no loop over states on the host. Fenced.
  void init(std::uint64_t seed, int num_states) {
    init(execution_space(), seed, num_states);
    execution_space().fence();
  }
  /// init(seed, num_states) on `exec`, not fenced (the streams do not depend on `exec`).
  void init(const execution_space& exec, std::uint64_t seed, int num_states) {
    if (num_states < 1) num_states = 1;
    seed_ = seed;
    key_ = Impl::philox_key_schedule(seed);
    num_states_ = num_states;
    counters_ = Kokkos::View<std::uint64_t*, DeviceType>(
        Kokkos::view_alloc(exec, Kokkos::WithoutInitializing,
                           "KokkosDTensor::Random_Philox_Pool::counters"),
        2 * static_cast<std::size_t>(num_states));
    Kokkos::deep_copy(exec, counters_, std::uint64_t(0));
    fill_position_ = Kokkos::View<std::uint64_t, Kokkos::HostSpace>(
        "KokkosDTensor::Random_Philox_Pool::fill_position");
  }

  /// A free state, chosen as Kokkos' pools choose it (thread id, then atomic locks with
  /// linear probing): not deterministic. Release it with free_state.
  KOKKOS_INLINE_FUNCTION generator_type get_state() const {
    KOKKOSDTENSOR_IMPL_STREAM_CHECK(
        num_states_ > 0, "KokkosDTensor::Random_Philox_Pool::get_state: pool not initialised");
    const int index = acquire();
    return generator_type(key_, index, words_used(index), true);
  }

  /// State `index` (0 <= index < num_states()), continuing where its last free_state left
  /// it: deterministic. No lock: one work item at a time per index (as in Kokkos).
  KOKKOS_INLINE_FUNCTION generator_type get_state(const int index) const {
    KOKKOSDTENSOR_IMPL_STREAM_CHECK(
        index >= 0 && index < num_states_,
        "KokkosDTensor::Random_Philox_Pool::get_state: index out of range");
    return generator_type(key_, index, words_used(index), false);
  }

  /// Writes the state's position back (the next get_state of its index continues there) and
  /// releases the lock if get_state() took one.
  KOKKOS_INLINE_FUNCTION void free_state(const generator_type& gen) const {
    words_used(gen.index_) = gen.cursor_.next;
    if (gen.locked_) {
      Kokkos::memory_fence();
      Kokkos::atomic_exchange(&lock(gen.index_), std::uint64_t(0));
    }
  }

  /// The number of states (0 before init()).
  KOKKOS_INLINE_FUNCTION int num_states() const { return num_states_; }
  /// The seed given to init().
  KOKKOS_INLINE_FUNCTION std::uint64_t seed() const { return seed_; }

  /// Where the next Kokkos::fill_random with this pool starts in the fill stream (a word
  /// index, a multiple of 4). Host only; shared by the pool's copies.
  std::uint64_t& fill_position() const { return fill_position_(); }
  /// A generator on the pool's fill stream (state index philox_pool_fill_index), `word`
  /// words in.
  KOKKOS_INLINE_FUNCTION generator_type fill_stream_generator(std::uint64_t word) const {
    return generator_type(key_, philox_pool_fill_index, word);
  }

 private:
  KOKKOS_INLINE_FUNCTION int acquire() const {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    // Kokkos' Random_UniqueIndex for CUDA and HIP.
    const int i_offset = (threadIdx.x * blockDim.y + threadIdx.y) * blockDim.z + threadIdx.z;
    int i = (((blockIdx.x * gridDim.y + blockIdx.y) * gridDim.z + blockIdx.z) * blockDim.x *
                 blockDim.y * blockDim.z +
             i_offset) %
            num_states_;
    while (Kokkos::atomic_compare_exchange(&lock(i), std::uint64_t(0), std::uint64_t(1))) {
      i += blockDim.x * blockDim.y * blockDim.z;
      if (i >= num_states_) i = i_offset % num_states_;
    }
    return i;
#else
    int i = 0;
    if constexpr (Kokkos::SpaceAccessibility<execution_space, Kokkos::HostSpace>::accessible) {
      i = execution_space::impl_hardware_thread_id() % num_states_;
    }
    while (Kokkos::atomic_compare_exchange(&lock(i), std::uint64_t(0), std::uint64_t(1)))
      i = (i + 1) % num_states_;
    return i;
#endif
  }

  // counters_: the words used of state i at i, its lock at num_states_ + i.
  KOKKOS_INLINE_FUNCTION std::uint64_t& words_used(int i) const { return counters_(i); }
  KOKKOS_INLINE_FUNCTION std::uint64_t& lock(int i) const {
    return counters_(static_cast<std::size_t>(num_states_) + i);
  }

  Impl::PhiloxKeySchedule key_ = {};
  std::uint64_t seed_ = 0;
  int num_states_ = 0;
  Kokkos::View<std::uint64_t*, DeviceType> counters_;
  // On the host, so that fill_random passes it to its kernel as a value: a copy of the pool
  // in a device kernel carries the handle but never reads it.
  Kokkos::View<std::uint64_t, Kokkos::HostSpace> fill_position_;
};

namespace Impl {

// Kokkos::rand<Random_Philox, T> for a 16-bit T (as Kokkos' own for half_t and bhalf_t:
// frand's float, here rounded by the library's integer rounding, SPEC section 2), with
// uniform_'s bound rule: a rounded value equal to the end of the range becomes its start.
template <class Generator, class T>
struct PhiloxRand16 {
  KOKKOS_INLINE_FUNCTION static T max() { return round_to_reduced<T>(1.0f); }
  KOKKOS_INLINE_FUNCTION static T draw(Generator& gen) { return rounded(gen.frand(), 1.0f, 0.0f); }
  KOKKOS_INLINE_FUNCTION static T draw(Generator& gen, const T& range) {
    const float r = reduced_to_float(range);
    return rounded(gen.frand(r), r, 0.0f);
  }
  KOKKOS_INLINE_FUNCTION static T draw(Generator& gen, const T& start, const T& end) {
    const float s = reduced_to_float(start), e = reduced_to_float(end);
    return rounded(gen.frand(s, e), e, s);
  }

 private:
  KOKKOS_INLINE_FUNCTION static T rounded(float value, float end, float start) {
    const std::uint16_t bits = round_to_reduced_bits<T>(value);
    return reduced_from_bits<T>(
        bits == round_to_reduced_bits<T>(end) ? round_to_reduced_bits<T>(start) : bits);
  }
};

}  // namespace Impl
}  // namespace KokkosDTensor

// Kokkos::rand on Kokkos' 16-bit types, where they are 16-bit (elsewhere they are float).
namespace Kokkos {
#if KOKKOSDTENSOR_HALF_T_IS_16BIT
template <class DeviceType>
struct rand<KokkosDTensor::Random_Philox<DeviceType>, Kokkos::Experimental::half_t>
    : KokkosDTensor::Impl::PhiloxRand16<KokkosDTensor::Random_Philox<DeviceType>,
                                        Kokkos::Experimental::half_t> {};
#endif
#if KOKKOSDTENSOR_BHALF_T_IS_16BIT
template <class DeviceType>
struct rand<KokkosDTensor::Random_Philox<DeviceType>, Kokkos::Experimental::bhalf_t>
    : KokkosDTensor::Impl::PhiloxRand16<KokkosDTensor::Random_Philox<DeviceType>,
                                        Kokkos::Experimental::bhalf_t> {};
#endif
}  // namespace Kokkos

// Kokkos::fill_random with a Random_Philox_Pool: more specialised than Kokkos' templates, so
// the calls users already write take these (Impl::pool_fill_random) instead of Kokkos'
// functor. Same signatures and fences as Kokkos 4's; the range forms fill [0, range).
namespace Kokkos {

/// Fills `a` with values in [begin, end) from the pool's fill stream, on `exec`, without
/// fencing (docs/streams.md: element L takes words F + L * W ...).
template <class ExecutionSpace, class ViewType, class DeviceType, class IndexType = int64_t>
void fill_random(const ExecutionSpace& exec, ViewType a,
                 KokkosDTensor::Random_Philox_Pool<DeviceType> g,
                 typename ViewType::const_value_type begin,
                 typename ViewType::const_value_type end) {
  KokkosDTensor::Impl::pool_fill_random(exec, a, g, begin, end);
}

/// Fills `a` with values in [0, range) from the pool's fill stream, on `exec`.
template <class ExecutionSpace, class ViewType, class DeviceType, class IndexType = int64_t>
void fill_random(const ExecutionSpace& exec, ViewType a,
                 KokkosDTensor::Random_Philox_Pool<DeviceType> g,
                 typename ViewType::const_value_type range) {
  KokkosDTensor::Impl::pool_fill_random(exec, a, g, 0, range);
}

/// Fills `a` with values in [begin, end) from the pool's fill stream, fenced before and
/// after, on the View's execution space.
template <class ViewType, class DeviceType, class IndexType = int64_t>
void fill_random(ViewType a, KokkosDTensor::Random_Philox_Pool<DeviceType> g,
                 typename ViewType::const_value_type begin,
                 typename ViewType::const_value_type end) {
  Kokkos::fence();  // (Kokkos 3 has no named fences)
  typename ViewType::execution_space exec;
  KokkosDTensor::Impl::pool_fill_random(exec, a, g, begin, end);
  exec.fence();
}

/// Fills `a` with values in [0, range) from the pool's fill stream, fenced before and after.
template <class ViewType, class DeviceType, class IndexType = int64_t>
void fill_random(ViewType a, KokkosDTensor::Random_Philox_Pool<DeviceType> g,
                 typename ViewType::const_value_type range) {
  fill_random(a, g, 0, range);
}

}  // namespace Kokkos

#endif
