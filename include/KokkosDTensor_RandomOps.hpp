#ifndef KOKKOSDTENSOR_RANDOMOPS_HPP
#define KOKKOSDTENSOR_RANDOMOPS_HPP

// The random ops. Each works on a plain Kokkos View and, with KokkosDTensor_DTensorRandom.hpp,
// on a DTensor, in four forms:
//   op(t, params...)                    default source: default_generator() for a View,
//                                       the DTensor RNG tracker for a DTensor
//   op(t, params..., gen)               the Generator `gen`
//   op(space, t, params...[, gen])      the same, run on the execution-space instance `space`
// A View is filled from the stream at the source's (seed, offset) as a whole tensor
// (element with row-major index L takes words offset + w*L ...), then the offset
// advances by round_up_to_4(w * view.size()). Parameters (and the counter-space overflow)
// are checked before any data or state changes. The ops are asynchronous like any Kokkos
// kernel (fence before reading on the host). docs/stream.md specifies every transform.
//
//   uniform_(t, from = 0, to = 1)       float/double, values in [from, to)
//   normal_(t, mean = 0, std = 1)       float/double
//   bernoulli_(t, p = 0.5)              any arithmetic type: 1 with probability p, else 0
//   random_bits_(t)                     uint32 (one word) or uint64 (two words)
//   randint_(t, low, high)              32/64-bit integers in [low, high)
//   exponential_(t, lambd = 1)          float/double, -log(u) / lambd
//   log_normal_(t, mean = 1, std = 2)   float/double, exp(normal(mean, std))
//   geometric_(t, p)                    trials up to the first success (>= 1)
//   dropout_(t, p)                      float/double, in place: zero with probability p,
//                                       else x / (1 - p); returns the state it drew from
//                                       (dropout_backward_, dropout_mask_ below)
//   trunc_normal_(t, mean = 0, std = 1, a = -2, b = 2)   normal truncated to [a, b]
// A Kokkos::DynRankView is a target too: it gets the values of the View of its rank and
// extents, from the same compiled kernels. Every op that takes float also takes Kokkos'
// half_t and bhalf_t (where they are 16-bit types): float's words, the float value rounded
// once to nearest-even (docs/stream.md, "Reduced precision").

#include <KokkosDTensor_Generator.hpp>
#include <KokkosDTensor_HostCopy.hpp>
#include <KokkosDTensor_RNGState.hpp>
#include <Kokkos_DynRankView.hpp>
#include <cstdint>
#include <impl/KokkosDTensor_RandomTarget.hpp>
#include <impl/KokkosDTensor_StridedCopy.hpp>

namespace KokkosDTensor {
namespace Impl {

// Each op: its name in errors and the factory that validates its parameters.
#define KOKKOSDTENSOR_IMPL_OP(OP, NAME, FACTORY, PARAMS, ARGS) \
  struct OP {                                                  \
    static constexpr const char* name = NAME;                  \
    template <class T>                                         \
    static auto make PARAMS {                                  \
      return FACTORY<T> ARGS;                                  \
    }                                                          \
  };
KOKKOSDTENSOR_IMPL_OP(UniformOp, "KokkosDTensor::uniform_", make_uniform,
                      (double from = 0, double to = 1), (from, to, name))
KOKKOSDTENSOR_IMPL_OP(NormalOp, "KokkosDTensor::normal_", make_normal,
                      (double mean = 0, double std = 1), (mean, std, name))
KOKKOSDTENSOR_IMPL_OP(BernoulliOp, "KokkosDTensor::bernoulli_", make_bernoulli, (double p = 0.5),
                      (p, name))
KOKKOSDTENSOR_IMPL_OP(RandomBitsOp, "KokkosDTensor::random_bits_", make_random_bits, (), (name))
KOKKOSDTENSOR_IMPL_OP(RandIntOp, "KokkosDTensor::randint_", make_randint,
                      (std::int64_t low, std::int64_t high), (low, high, name))
KOKKOSDTENSOR_IMPL_OP(ExponentialOp, "KokkosDTensor::exponential_", make_exponential,
                      (double lambd = 1), (lambd, name))
KOKKOSDTENSOR_IMPL_OP(LogNormalOp, "KokkosDTensor::log_normal_", make_log_normal,
                      (double mean = 1, double std = 2), (mean, std, name))
KOKKOSDTENSOR_IMPL_OP(GeometricOp, "KokkosDTensor::geometric_", make_geometric, (double p),
                      (p, name))
KOKKOSDTENSOR_IMPL_OP(DropoutOp, "KokkosDTensor::dropout_", make_dropout, (double p), (p, name))
KOKKOSDTENSOR_IMPL_OP(TruncNormalOp, "KokkosDTensor::trunc_normal_", make_trunc_normal,
                      (double mean = 0, double std = 1, double a = -2, double b = 2),
                      (mean, std, a, b, name))
#undef KOKKOSDTENSOR_IMPL_OP

// ---- ops that take a second tensor or a state -------------------------------------------

// Throws std::invalid_argument naming the first element of `probabilities` (by its global
// index) that is not in [0, 1]; `t` must have the same shape (and, for DTensors, spec).
template <class Target, class Probabilities>
void require_probabilities(const Target& t, const Probabilities& probabilities,
                           const char* function) {
  if (!RandomTarget<Target>::same_shape(t, probabilities)) {
    throw_invalid_argument(function, "probabilities", "(a tensor of another shape or spec)",
                           "must have the shape (and placements) of the tensor it fills");
  }
  const auto local = RandomTarget<Probabilities>::local_view(probabilities);
  const auto host = to_host_row_major(local);
  const auto extents = view_extents(local);
  for (std::size_t i = 0; i < host.size(); ++i) {
    const double p = static_cast<double>(host.data()[i]);
    if (p >= 0.0 && p <= 1.0) continue;
    std::vector<std::int64_t> index = RandomTarget<Probabilities>::index_origin(probabilities);
    std::size_t rest = i;
    for (int d = static_cast<int>(extents.size()) - 1; d >= 0; --d) {
      index[d] += static_cast<std::int64_t>(rest % static_cast<std::size_t>(extents[d]));
      rest /= static_cast<std::size_t>(extents[d]);
    }
    throw_invalid_argument(function, "probabilities",
                           format_value(p) + " at index " + format_value(index),
                           "must lie in [0, 1]");
  }
}

// Whether A and B are Views of one rank. A trait, so that no compiler reads `rank` of a
// DynRankView (a member function there): nvcc's front end did in a discarded branch.
template <class A, class B, class = void>
struct same_view_rank : std::false_type {};
template <class A, class B>
struct same_view_rank<A, B,
                      std::enable_if_t<Kokkos::is_view<A>::value && Kokkos::is_view<B>::value>>
    : std::integral_constant<bool, static_cast<int>(A::rank) == static_cast<int>(B::rank)> {};

// bernoulli_(space, t, probabilities[, gen]): copies each element's p into t once every
// check has passed, then draws in place (BernoulliFromInput).
template <class ExecSpace, class Target, class Probabilities>
RNGState bernoulli_with_probabilities(const ExecSpace& space, const Target& t,
                                      const Probabilities& probabilities, Generator* gen) {
  const char* function = "KokkosDTensor::bernoulli_";
  require_kokkos_initialized(function);
  require_probabilities(t, probabilities, function);
  const auto source = RandomTarget<Probabilities>::local_view(probabilities);
  const auto copy_in = [&](const auto& local) {
    using Local = std::decay_t<decltype(local)>;
    using Source = std::decay_t<decltype(source)>;
    // A DynRankView (which Kokkos 3.4 can not deep_copy on an instance): element by element.
    // (Ranks that differ were rejected above; the rank test only keeps such calls compiling.)
    if constexpr (Kokkos::is_dyn_rank_view<Local>::value || Kokkos::is_dyn_rank_view<Source>::value)
      copy_elements(space, local, source);
    else if constexpr (same_view_rank<Local, Source>::value)
      Kokkos::deep_copy(space, local, source);
  };
  return RandomTarget<Target>::apply(space, t,
                                     make_bernoulli_from_input<target_value_t<Target>>(function),
                                     gen, function, copy_in);
}

template <class ExecSpace, class Target, class... Rest>
RNGState run_bernoulli_in(const ExecSpace& space, const Target& t, Rest&... rest) {
  if constexpr (sizeof...(Rest) > 0) {
    using First = std::tuple_element_t<0, std::tuple<std::decay_t<Rest>...>>;
    if constexpr (RandomTarget<First>::is_target) {
      const auto params = std::forward_as_tuple(rest...);
      if constexpr (sizeof...(Rest) == 2) {
        return bernoulli_with_probabilities(space, t, std::get<0>(params), &std::get<1>(params));
      } else {
        return bernoulli_with_probabilities(space, t, std::get<0>(params), nullptr);
      }
    } else {
      return run_op_in<BernoulliOp>(space, t, rest...);
    }
  } else {
    return run_op_in<BernoulliOp>(space, t, rest...);
  }
}

}  // namespace Impl

#define KOKKOSDTENSOR_IMPL_PUBLIC_OP(NAME, OP, RESULT)                            \
  template <class First, class... Rest, class = Impl::enable_if_op_args_t<First>> \
  RESULT NAME(First&& first, Rest&&... rest) {                                    \
    return static_cast<RESULT>(Impl::run_random_op<Impl::OP>(first, rest...));    \
  }
/// uniform_([space,] t, from = 0, to = 1[, gen]): float/double values in [from, to). Draws
/// from `gen`, else default_generator() (View) or the RNG tracker (DTensor); runs on `space`,
/// else the default execution space of `t`. Throws std::invalid_argument unless from < to.
KOKKOSDTENSOR_IMPL_PUBLIC_OP(uniform_, UniformOp, void)
/// normal_([space,] t, mean = 0, std = 1[, gen]): float/double normal values (std >= 0).
KOKKOSDTENSOR_IMPL_PUBLIC_OP(normal_, NormalOp, void)
/// random_bits_([space,] t[, gen]): the raw stream words, on uint32 (one) or uint64 (two).
KOKKOSDTENSOR_IMPL_PUBLIC_OP(random_bits_, RandomBitsOp, void)
/// randint_([space,] t, low, high[, gen]): 32/64-bit integers in [low, high) (low < high).
KOKKOSDTENSOR_IMPL_PUBLIC_OP(randint_, RandIntOp, void)
/// exponential_([space,] t, lambd = 1[, gen]): float/double -log(u) / lambd (lambd > 0).
KOKKOSDTENSOR_IMPL_PUBLIC_OP(exponential_, ExponentialOp, void)
/// log_normal_([space,] t, mean = 1, std = 2[, gen]): float/double exp(normal(mean, std))
/// (std > 0).
KOKKOSDTENSOR_IMPL_PUBLIC_OP(log_normal_, LogNormalOp, void)
/// geometric_([space,] t, p[, gen]): trials up to the first success (>= 1), p in (0, 1).
KOKKOSDTENSOR_IMPL_PUBLIC_OP(geometric_, GeometricOp, void)
/// dropout_([space,] t, p[, gen]): float/double, in place: zero with probability p, else
/// x / (1 - p). Returns the state it drew from (for dropout_backward_ and dropout_mask_).
KOKKOSDTENSOR_IMPL_PUBLIC_OP(dropout_, DropoutOp, RNGState)
/// trunc_normal_([space,] t, mean = 0, std = 1, a = -2, b = 2[, gen]): normal values
/// truncated to [a, b] (std > 0, a < b).
KOKKOSDTENSOR_IMPL_PUBLIC_OP(trunc_normal_, TruncNormalOp, void)
#undef KOKKOSDTENSOR_IMPL_PUBLIC_OP

/// bernoulli_(t, p = 0.5) and bernoulli_(t, probabilities): the second form takes each
/// element's p from a tensor of t's shape (a View, or a DTensor with t's spec), as
/// torch.bernoulli(input); a p outside [0, 1] is an error naming the first bad index.
/// Both also take an execution-space instance first and a Generator last, as every op.
template <class First, class... Rest, class = Impl::enable_if_op_args_t<First>>
void bernoulli_(First&& first, Rest&&... rest) {
  if constexpr (Kokkos::is_execution_space<std::decay_t<First>>::value) {
    Impl::run_bernoulli_in(first, rest...);
  } else {
    Impl::run_bernoulli_in(Impl::target_space_t<std::decay_t<First>>(), first, rest...);
  }
}

// dropout_ for training: `state` is what dropout_(t, p) returned.
//   dropout_backward_(grad, p, state)   grad *= the mask dropout_ applied (0 or 1 / (1 - p))
//   dropout_mask_(mask, p, state)       mask = 1 where dropout_ kept the element, else 0; a
//                                       mask of bool or integers stands for a float tensor's
//                                       mask: dropout_mask_<double>(...) for a double one's
//   native_dropout_(t, mask, p[, gen])  dropout_ and its mask at once; returns the state
// Each also takes an execution-space instance first. Nothing advances: the mask comes from
// the words dropout_ drew (on a DTensor: the global numbering, or the local one while the
// tracker's distribute region is disabled).

/// grad *= the mask that dropout_(t, p) applied (0 or 1 / (1 - p)), `state` being what it
/// returned; on `space`. Advances no state.
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> dropout_backward_(const ExecSpace& space,
                                                                        const Target& grad,
                                                                        double p,
                                                                        const RNGState& state) {
  const char* function = "KokkosDTensor::dropout_backward_";
  Impl::RandomTarget<Target>::apply_at(
      space, grad, Impl::make_dropout<Impl::target_value_t<Target>>(p, function), state, function);
}
/// dropout_backward_ on the default execution space of `grad`.
template <class Target>
Impl::enable_if_target_t<Target> dropout_backward_(const Target& grad, double p,
                                                   const RNGState& state) {
  dropout_backward_(Impl::target_space_t<Target>(), grad, p, state);
}

/// mask = 1 where dropout_(t, p) kept the element, else 0, `state` being what it returned;
/// on `space`; advances no state. `DataT` is the value type of `t` (default: the mask's if
/// floating point, else float).
template <class DataT = void, class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> dropout_mask_(const ExecSpace& space,
                                                                    const Target& mask, double p,
                                                                    const RNGState& state) {
  using MaskT = Impl::target_value_t<Target>;
  using Data =
      std::conditional_t<std::is_void<DataT>::value,
                         std::conditional_t<std::is_floating_point<MaskT>::value, MaskT, float>,
                         DataT>;
  const char* function = "KokkosDTensor::dropout_mask_";
  Impl::RandomTarget<Target>::apply_at(
      space, mask, Impl::make_dropout_mask<MaskT, Data>(p, function), state, function);
}
/// dropout_mask_ on the default execution space of `mask`.
template <class DataT = void, class Target>
Impl::enable_if_target_t<Target> dropout_mask_(const Target& mask, double p,
                                               const RNGState& state) {
  dropout_mask_<DataT>(Impl::target_space_t<Target>(), mask, p, state);
}

/// dropout_(space, t, p, gen), then its mask into `mask` (as dropout_mask_); returns the
/// state dropout_ drew from.
template <class ExecSpace, class Target, class Mask>
std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value, RNGState> native_dropout_(
    const ExecSpace& space, const Target& t, const Mask& mask, double p, Generator& gen) {
  const RNGState state = dropout_(space, t, p, gen);
  dropout_mask_<Impl::target_value_t<Target>>(space, mask, p, state);
  return state;
}
/// native_dropout_ on `space`, drawn from default_generator() (View) or the RNG tracker
/// (DTensor).
template <class ExecSpace, class Target, class Mask>
std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value, RNGState> native_dropout_(
    const ExecSpace& space, const Target& t, const Mask& mask, double p) {
  const RNGState state = dropout_(space, t, p);
  dropout_mask_<Impl::target_value_t<Target>>(space, mask, p, state);
  return state;
}
/// native_dropout_ on the default execution space of `t`, drawn from `gen`.
template <class Target, class Mask>
Impl::enable_if_target_t<Target, RNGState> native_dropout_(const Target& t, const Mask& mask,
                                                           double p, Generator& gen) {
  return native_dropout_(Impl::target_space_t<Target>(), t, mask, p, gen);
}
/// native_dropout_ on the default execution space of `t`, drawn from default_generator()
/// (View) or the RNG tracker (DTensor).
template <class Target, class Mask>
Impl::enable_if_target_t<Target, RNGState> native_dropout_(const Target& t, const Mask& mask,
                                                           double p) {
  return native_dropout_(Impl::target_space_t<Target>(), t, mask, p);
}

}  // namespace KokkosDTensor

#endif
