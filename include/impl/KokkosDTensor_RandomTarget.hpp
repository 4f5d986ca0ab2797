#ifndef KOKKOSDTENSOR_IMPL_RANDOMTARGET_HPP
#define KOKKOSDTENSOR_IMPL_RANDOMTARGET_HPP

// What a random op needs to know about what it fills, and how an op's arguments reach it.
// RandomTarget is specialised here for Views and DynRankViews and in
// KokkosDTensor_DTensorRandomTarget.hpp for DTensors, so that each op is written once
// (KokkosDTensor_RandomOps.hpp).

#include <KokkosDTensor_Generator.hpp>
#include <Kokkos_Core.hpp>
#include <Kokkos_DynRankView.hpp>
#include <cstddef>
#include <cstdint>
#include <impl/KokkosDTensor_Distributions.hpp>
#include <impl/KokkosDTensor_Error.hpp>
#include <impl/KokkosDTensor_FillDispatch.hpp>
#include <impl/KokkosDTensor_ViewHelpers.hpp>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace KokkosDTensor {
namespace Impl {

// apply() runs a validated distribution on the target, drawing from `gen`, or from the
// target's default source when gen is null, and returns the state it drew from.
template <class T, class Enable = void>
struct RandomTarget {
  static constexpr bool is_target = false;
};

template <class T, class Result = void>
using enable_if_target_t = std::enable_if_t<RandomTarget<T>::is_target, Result>;
template <class ExecSpace, class T>
using enable_if_space_and_target_t =
    std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value && RandomTarget<T>::is_target>;
template <class T>
using target_value_t = typename RandomTarget<T>::value_type;
template <class T>
using target_space_t = typename RandomTarget<T>::execution_space;

// What an op does to its target between its checks and the fill (most ops: nothing).
struct NoPrepare {
  template <class T>
  void operator()(const T&) const {}
};

inline void require_state_offset(const RNGState& state, const char* function) {
  if (state.offset % 4 != 0) {
    throw_invalid_argument(function, "state.offset", format_value(state.offset),
                           "must be a multiple of 4");
  }
}

// The op on a plain View (docs/design.md): dist was validated by its factory; the offset
// is checked before the kernel runs, the state advanced after.
template <class ExecSpace, class ViewType, class Dist, class Prepare = NoPrepare>
RNGState random_op_on_view(const ExecSpace& space, const ViewType& view, const Dist& dist,
                           Generator& gen, const char* function, const Prepare& prepare = {}) {
  require_kokkos_initialized(function);
  const RNGState state = gen.get_state();
  const std::uint64_t next = offset_after(state, Dist::words_per_element,
                                          static_cast<std::uint64_t>(view.size()), function);
  prepare(view);
  fill_random(space, view, dist, state, whole_view_box(view));
  gen.set_state(RNGState{state.seed, next});
  return state;
}

template <class T>
struct is_view_or_dyn_rank_view
    : std::integral_constant<bool,
                             Kokkos::is_view<T>::value || Kokkos::is_dyn_rank_view<T>::value> {};

// A View, or a DynRankView: filled as the View of its run-time rank (the fill_random
// overloads of KokkosDTensor_FillDispatch.hpp), so with that View's values and kernels.
template <class ViewType>
struct RandomTarget<ViewType, std::enable_if_t<is_view_or_dyn_rank_view<ViewType>::value>> {
  static constexpr bool is_target = true;
  using value_type = typename ViewType::non_const_value_type;
  using execution_space = typename ViewType::execution_space;
  static ViewType local_view(const ViewType& view) { return view; }
  // Global index of local element 0 (per dim), for error messages.
  static std::vector<std::int64_t> index_origin(const ViewType& view) {
    return std::vector<std::int64_t>(view_extents(view).size(), 0);
  }
  // Whether `other` has the same elements in the same places (an element-wise operand).
  template <class Other>
  static bool same_shape(const ViewType& view, const Other& other) {
    if constexpr (is_view_or_dyn_rank_view<Other>::value) {
      return view_extents(view) == view_extents(other);
    } else {
      return false;
    }
  }
  template <class ExecSpace, class Dist, class Prepare = NoPrepare>
  static RNGState apply(const ExecSpace& space, const ViewType& view, const Dist& dist,
                        Generator* gen, const char* function, const Prepare& prepare = {}) {
    return random_op_on_view(space, view, dist, gen ? *gen : default_generator(), function,
                             prepare);
  }

  // Fills from `state` (the state an earlier op drew from) and advances nothing.
  template <class ExecSpace, class Dist>
  static void apply_at(const ExecSpace& space, const ViewType& view, const Dist& dist,
                       const RNGState& state, const char* function) {
    require_kokkos_initialized(function);
    require_state_offset(state, function);
    offset_after(state, Dist::words_per_element, static_cast<std::uint64_t>(view.size()), function);
    fill_random(space, view, dist, state, whole_view_box(view));
  }
};

template <class ExecSpace, class Target, class Dist>
RNGState random_op(const ExecSpace& space, const Target& t, const Dist& dist, Generator* gen,
                   const char* function) {
  return RandomTarget<Target>::apply(space, t, dist, gen, function);
}

// ---- the arguments of an op: [space,] target, parameters..., [generator] ------------------

template <class T>
using is_generator = std::is_same<std::decay_t<T>, Generator>;

template <class T>
constexpr bool is_space_or_target() {
  return Kokkos::is_execution_space<std::decay_t<T>>::value ||
         RandomTarget<std::decay_t<T>>::is_target;
}

// The op's overloads exist for calls whose first argument is an execution space or a target.
template <class First, class...>
using enable_if_op_args_t = std::enable_if_t<is_space_or_target<First>()>;

template <class Op, class ExecSpace, class Target, class Params, std::size_t... I>
RNGState run_op(const ExecSpace& space, const Target& t, Generator* gen, const Params& params,
                std::index_sequence<I...>) {
  static_assert(RandomTarget<Target>::is_target,
                "KokkosDTensor random ops take a Kokkos::View, DynRankView or DTensor");
  return RandomTarget<Target>::apply(
      space, t, Op::template make<target_value_t<Target>>(std::get<I>(params)...), gen, Op::name);
}

template <class Op, class ExecSpace, class Target, class... Rest>
RNGState run_op_in(const ExecSpace& space, const Target& t, Rest&... rest) {
  const auto params = std::forward_as_tuple(rest...);
  constexpr std::size_t n = sizeof...(Rest);
  if constexpr (n > 0 &&
                is_generator<
                    std::tuple_element_t<n == 0 ? 0 : n - 1, std::tuple<Rest..., void*>>>::value) {
    return run_op<Op>(space, t, &std::get<n - 1>(params), params,
                      std::make_index_sequence<n - 1>{});
  } else {
    return run_op<Op>(space, t, nullptr, params, std::make_index_sequence<n>{});
  }
}

// Runs Op on `args`: an optional execution-space instance (else the target's default
// space), the target, the op's parameters, an optional Generator (else the default source).
template <class Op, class First, class... Rest>
RNGState run_random_op(First& first, Rest&... rest) {
  if constexpr (Kokkos::is_execution_space<std::decay_t<First>>::value) {
    return run_op_in<Op>(first, rest...);
  } else {
    return run_op_in<Op>(target_space_t<std::decay_t<First>>(), first, rest...);
  }
}

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
