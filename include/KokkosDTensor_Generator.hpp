#ifndef KOKKOSDTENSOR_GENERATOR_HPP
#define KOKKOSDTENSOR_GENERATOR_HPP

// The random ops. Each works on a plain Kokkos View and, through
// KokkosDTensor_Random.hpp, on a DTensor, and has four forms:
//   op(t, params...)                    default source: default_generator() for a View,
//                                       the DTensor RNG tracker for a DTensor
//   op(t, params..., gen)               the Generator `gen`
//   op(space, t, params...[, gen])      the same, run on the execution-space instance `space`
// A View is filled from the stream at the source's (seed, offset) as a whole tensor
// (element with row-major index L takes words offset + w*L ...), then the offset
// advances by round_up_to_4(w * view.size()). Parameters (and the counter-space overflow)
// are checked before any data or state changes. The ops are asynchronous like any Kokkos
// kernel (fence before reading on the host). docs/stream.md specifies every transform.

#include <KokkosDTensor_Distributions.hpp>
#include <KokkosDTensor_RNGState.hpp>
#include <KokkosDTensor_RandomFill.hpp>
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

namespace KokkosDTensor {
namespace Impl {

// What a random op needs to know about what it fills. Specialised here for Views and in
// KokkosDTensor_Random.hpp for DTensors. apply() runs `dist` on `t` drawing from `gen`,
// or from the target's default source when gen is null.
template <class T, class Enable = void>
struct RandomTarget {
  static constexpr bool is_target = false;
};

template <class T>
using enable_if_target_t = std::enable_if_t<RandomTarget<T>::is_target>;
template <class ExecSpace, class T>
using enable_if_space_and_target_t =
    std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value && RandomTarget<T>::is_target>;
template <class T>
using target_value_t = typename RandomTarget<T>::value_type;
template <class T>
using target_space_t = typename RandomTarget<T>::execution_space;

inline void require_kokkos_initialized(const char* function) {
  if (!Kokkos::is_initialized()) {
    throw_runtime_error(function, "called before Kokkos::initialize or after Kokkos::finalize");
  }
}

// The op on a plain View (docs/design.md): dist was validated by its factory; the
// offset is checked before the kernel runs, the state advanced after.
template <class ExecSpace, class ViewType, class Dist>
void random_op_on_view(const ExecSpace& space, const ViewType& view, const Dist& dist,
                       Generator& gen, const char* function) {
  require_kokkos_initialized(function);
  const RNGState state = gen.get_state();
  const std::uint64_t next = offset_after(state, Dist::words_per_element,
                                          static_cast<std::uint64_t>(view.size()), function);
  fill_random(space, view, dist, state, whole_view_box(view));
  gen.set_state(RNGState{state.seed, next});
}

template <class ViewType>
struct RandomTarget<ViewType, std::enable_if_t<Kokkos::is_view<ViewType>::value>> {
  static constexpr bool is_target = true;
  using value_type = typename ViewType::non_const_value_type;
  using execution_space = typename ViewType::execution_space;
  template <class ExecSpace, class Dist>
  static void apply(const ExecSpace& space, const ViewType& view, const Dist& dist, Generator* gen,
                    const char* function) {
    random_op_on_view(space, view, dist, gen ? *gen : default_generator(), function);
  }
};

template <class ExecSpace, class Target, class Dist>
void random_op(const ExecSpace& space, const Target& t, const Dist& dist, Generator* gen,
               const char* function) {
  RandomTarget<Target>::apply(space, t, dist, gen, function);
}

}  // namespace Impl

// ---- uniform_(t, from = 0, to = 1): float/double, values in [from, to)
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> uniform_(const ExecSpace& space,
                                                               const Target& t, double from,
                                                               double to, Generator& gen) {
  Impl::random_op(
      space, t,
      Impl::make_uniform<Impl::target_value_t<Target>>(from, to, "KokkosDTensor::uniform_"), &gen,
      "KokkosDTensor::uniform_");
}
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> uniform_(const ExecSpace& space,
                                                               const Target& t, double from = 0,
                                                               double to = 1) {
  Impl::random_op(
      space, t,
      Impl::make_uniform<Impl::target_value_t<Target>>(from, to, "KokkosDTensor::uniform_"),
      nullptr, "KokkosDTensor::uniform_");
}
template <class Target>
Impl::enable_if_target_t<Target> uniform_(const Target& t, double from, double to, Generator& gen) {
  uniform_(Impl::target_space_t<Target>(), t, from, to, gen);
}
template <class Target>
Impl::enable_if_target_t<Target> uniform_(const Target& t, double from = 0, double to = 1) {
  uniform_(Impl::target_space_t<Target>(), t, from, to);
}

// ---- normal_(t, mean = 0, std = 1): float/double, Box-Muller
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> normal_(const ExecSpace& space,
                                                              const Target& t, double mean,
                                                              double std, Generator& gen) {
  Impl::random_op(
      space, t,
      Impl::make_normal<Impl::target_value_t<Target>>(mean, std, "KokkosDTensor::normal_"), &gen,
      "KokkosDTensor::normal_");
}
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> normal_(const ExecSpace& space,
                                                              const Target& t, double mean = 0,
                                                              double std = 1) {
  Impl::random_op(
      space, t,
      Impl::make_normal<Impl::target_value_t<Target>>(mean, std, "KokkosDTensor::normal_"), nullptr,
      "KokkosDTensor::normal_");
}
template <class Target>
Impl::enable_if_target_t<Target> normal_(const Target& t, double mean, double std, Generator& gen) {
  normal_(Impl::target_space_t<Target>(), t, mean, std, gen);
}
template <class Target>
Impl::enable_if_target_t<Target> normal_(const Target& t, double mean = 0, double std = 1) {
  normal_(Impl::target_space_t<Target>(), t, mean, std);
}

// ---- bernoulli_(t, p = 0.5): any arithmetic type, 1 with probability p, else 0
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> bernoulli_(const ExecSpace& space,
                                                                 const Target& t, double p,
                                                                 Generator& gen) {
  Impl::random_op(
      space, t, Impl::make_bernoulli<Impl::target_value_t<Target>>(p, "KokkosDTensor::bernoulli_"),
      &gen, "KokkosDTensor::bernoulli_");
}
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> bernoulli_(const ExecSpace& space,
                                                                 const Target& t, double p = 0.5) {
  Impl::random_op(
      space, t, Impl::make_bernoulli<Impl::target_value_t<Target>>(p, "KokkosDTensor::bernoulli_"),
      nullptr, "KokkosDTensor::bernoulli_");
}
template <class Target>
Impl::enable_if_target_t<Target> bernoulli_(const Target& t, double p, Generator& gen) {
  bernoulli_(Impl::target_space_t<Target>(), t, p, gen);
}
template <class Target>
Impl::enable_if_target_t<Target> bernoulli_(const Target& t, double p = 0.5) {
  bernoulli_(Impl::target_space_t<Target>(), t, p);
}

// ---- random_bits_(t): uint32 (one word) or uint64 (two words)
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> random_bits_(const ExecSpace& space,
                                                                   const Target& t,
                                                                   Generator& gen) {
  Impl::random_op(
      space, t, Impl::make_random_bits<Impl::target_value_t<Target>>("KokkosDTensor::random_bits_"),
      &gen, "KokkosDTensor::random_bits_");
}
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> random_bits_(const ExecSpace& space,
                                                                   const Target& t) {
  Impl::random_op(
      space, t, Impl::make_random_bits<Impl::target_value_t<Target>>("KokkosDTensor::random_bits_"),
      nullptr, "KokkosDTensor::random_bits_");
}
template <class Target>
Impl::enable_if_target_t<Target> random_bits_(const Target& t, Generator& gen) {
  random_bits_(Impl::target_space_t<Target>(), t, gen);
}
template <class Target>
Impl::enable_if_target_t<Target> random_bits_(const Target& t) {
  random_bits_(Impl::target_space_t<Target>(), t);
}

// ---- randint_(t, low, high): 32/64-bit integers in [low, high)
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> randint_(const ExecSpace& space,
                                                               const Target& t, std::int64_t low,
                                                               std::int64_t high, Generator& gen) {
  Impl::random_op(
      space, t,
      Impl::make_randint<Impl::target_value_t<Target>>(low, high, "KokkosDTensor::randint_"), &gen,
      "KokkosDTensor::randint_");
}
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> randint_(const ExecSpace& space,
                                                               const Target& t, std::int64_t low,
                                                               std::int64_t high) {
  Impl::random_op(
      space, t,
      Impl::make_randint<Impl::target_value_t<Target>>(low, high, "KokkosDTensor::randint_"),
      nullptr, "KokkosDTensor::randint_");
}
template <class Target>
Impl::enable_if_target_t<Target> randint_(const Target& t, std::int64_t low, std::int64_t high,
                                          Generator& gen) {
  randint_(Impl::target_space_t<Target>(), t, low, high, gen);
}
template <class Target>
Impl::enable_if_target_t<Target> randint_(const Target& t, std::int64_t low, std::int64_t high) {
  randint_(Impl::target_space_t<Target>(), t, low, high);
}

// ---- exponential_(t, lambd = 1): float/double, -log(u) / lambd
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> exponential_(const ExecSpace& space,
                                                                   const Target& t, double lambd,
                                                                   Generator& gen) {
  Impl::random_op(
      space, t,
      Impl::make_exponential<Impl::target_value_t<Target>>(lambd, "KokkosDTensor::exponential_"),
      &gen, "KokkosDTensor::exponential_");
}
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> exponential_(const ExecSpace& space,
                                                                   const Target& t,
                                                                   double lambd = 1) {
  Impl::random_op(
      space, t,
      Impl::make_exponential<Impl::target_value_t<Target>>(lambd, "KokkosDTensor::exponential_"),
      nullptr, "KokkosDTensor::exponential_");
}
template <class Target>
Impl::enable_if_target_t<Target> exponential_(const Target& t, double lambd, Generator& gen) {
  exponential_(Impl::target_space_t<Target>(), t, lambd, gen);
}
template <class Target>
Impl::enable_if_target_t<Target> exponential_(const Target& t, double lambd = 1) {
  exponential_(Impl::target_space_t<Target>(), t, lambd);
}

// ---- log_normal_(t, mean = 1, std = 2): float/double, exp(normal(mean, std))
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> log_normal_(const ExecSpace& space,
                                                                  const Target& t, double mean,
                                                                  double std, Generator& gen) {
  Impl::random_op(
      space, t,
      Impl::make_log_normal<Impl::target_value_t<Target>>(mean, std, "KokkosDTensor::log_normal_"),
      &gen, "KokkosDTensor::log_normal_");
}
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> log_normal_(const ExecSpace& space,
                                                                  const Target& t, double mean = 1,
                                                                  double std = 2) {
  Impl::random_op(
      space, t,
      Impl::make_log_normal<Impl::target_value_t<Target>>(mean, std, "KokkosDTensor::log_normal_"),
      nullptr, "KokkosDTensor::log_normal_");
}
template <class Target>
Impl::enable_if_target_t<Target> log_normal_(const Target& t, double mean, double std,
                                             Generator& gen) {
  log_normal_(Impl::target_space_t<Target>(), t, mean, std, gen);
}
template <class Target>
Impl::enable_if_target_t<Target> log_normal_(const Target& t, double mean = 1, double std = 2) {
  log_normal_(Impl::target_space_t<Target>(), t, mean, std);
}

// ---- geometric_(t, p): float/double/integers, trials up to the first success (>= 1)
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> geometric_(const ExecSpace& space,
                                                                 const Target& t, double p,
                                                                 Generator& gen) {
  Impl::random_op(
      space, t, Impl::make_geometric<Impl::target_value_t<Target>>(p, "KokkosDTensor::geometric_"),
      &gen, "KokkosDTensor::geometric_");
}
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> geometric_(const ExecSpace& space,
                                                                 const Target& t, double p) {
  Impl::random_op(
      space, t, Impl::make_geometric<Impl::target_value_t<Target>>(p, "KokkosDTensor::geometric_"),
      nullptr, "KokkosDTensor::geometric_");
}
template <class Target>
Impl::enable_if_target_t<Target> geometric_(const Target& t, double p, Generator& gen) {
  geometric_(Impl::target_space_t<Target>(), t, p, gen);
}
template <class Target>
Impl::enable_if_target_t<Target> geometric_(const Target& t, double p) {
  geometric_(Impl::target_space_t<Target>(), t, p);
}

// ---- dropout_(t, p): float/double, in place: zero with probability p, else x / (1 - p)
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> dropout_(const ExecSpace& space,
                                                               const Target& t, double p,
                                                               Generator& gen) {
  Impl::random_op(space, t,
                  Impl::make_dropout<Impl::target_value_t<Target>>(p, "KokkosDTensor::dropout_"),
                  &gen, "KokkosDTensor::dropout_");
}
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> dropout_(const ExecSpace& space,
                                                               const Target& t, double p) {
  Impl::random_op(space, t,
                  Impl::make_dropout<Impl::target_value_t<Target>>(p, "KokkosDTensor::dropout_"),
                  nullptr, "KokkosDTensor::dropout_");
}
template <class Target>
Impl::enable_if_target_t<Target> dropout_(const Target& t, double p, Generator& gen) {
  dropout_(Impl::target_space_t<Target>(), t, p, gen);
}
template <class Target>
Impl::enable_if_target_t<Target> dropout_(const Target& t, double p) {
  dropout_(Impl::target_space_t<Target>(), t, p);
}

// ---- trunc_normal_(t, mean = 0, std = 1, a = -2, b = 2): float/double, normal(mean, std)
// truncated to [a, b]
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> trunc_normal_(const ExecSpace& space,
                                                                    const Target& t, double mean,
                                                                    double std, double a, double b,
                                                                    Generator& gen) {
  Impl::random_op(space, t,
                  Impl::make_trunc_normal<Impl::target_value_t<Target>>(
                      mean, std, a, b, "KokkosDTensor::trunc_normal_"),
                  &gen, "KokkosDTensor::trunc_normal_");
}
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> trunc_normal_(const ExecSpace& space,
                                                                    const Target& t,
                                                                    double mean = 0, double std = 1,
                                                                    double a = -2, double b = 2) {
  Impl::random_op(space, t,
                  Impl::make_trunc_normal<Impl::target_value_t<Target>>(
                      mean, std, a, b, "KokkosDTensor::trunc_normal_"),
                  nullptr, "KokkosDTensor::trunc_normal_");
}
template <class Target>
Impl::enable_if_target_t<Target> trunc_normal_(const Target& t, double mean, double std, double a,
                                               double b, Generator& gen) {
  trunc_normal_(Impl::target_space_t<Target>(), t, mean, std, a, b, gen);
}
template <class Target>
Impl::enable_if_target_t<Target> trunc_normal_(const Target& t, double mean = 0, double std = 1,
                                               double a = -2, double b = 2) {
  trunc_normal_(Impl::target_space_t<Target>(), t, mean, std, a, b);
}

}  // namespace KokkosDTensor

#endif
