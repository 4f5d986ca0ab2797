#ifndef KOKKOSDTENSOR_INIT_HPP
#define KOKKOSDTENSOR_INIT_HPP

// Parameter initialisation with torch.nn.init's conventions, on plain Kokkos Views (and
// DynRankViews) and on DTensors (docs/init.md):
//
//   kaiming_uniform_(t, a = 0, mode = "fan_in", nonlinearity = "leaky_relu")
//   kaiming_normal_(t, a = 0, mode = "fan_in", nonlinearity = "leaky_relu")
//   xavier_uniform_(t, gain = 1)          xavier_normal_(t, gain = 1)
//   trunc_normal_(t, mean = 0, std = 1, a = -2, b = 2)   (the random op of
//                                         KokkosDTensor_RandomOps.hpp, available here too)
//   zeros_(t)   ones_(t)   constant_(t, value)
//   calculate_gain(nonlinearity, param)   calculate_fan_in_and_fan_out(shape or t)
//
// Fans (PyTorch's _calculate_fan_in_and_fan_out), from the GLOBAL shape of a DTensor and
// the extents of a View (a DynRankView: of its run-time rank); tensors with fewer than 2
// dims are refused:
//   receptive_field = product of shape[2:] (1 for a 2-D tensor)
//   fan_in  = shape[1] * receptive_field
//   fan_out = shape[0] * receptive_field
//   fan     = fan_in (mode "fan_in") or fan_out (mode "fan_out"; mode is case-insensitive)
// Gains (calculate_gain): linear, conv1d/2d/3d, conv_transpose1d/2d/3d, sigmoid: 1;
//   tanh: 5/3; relu: sqrt(2); leaky_relu: sqrt(2 / (1 + slope^2)), slope = param
//   (0.01 without one); selu: 3/4.
// Scales, computed on the host in double in PyTorch's order of operations:
//   kaiming:  gain = calculate_gain(nonlinearity, a); std = gain / sqrt(fan);
//             kaiming_uniform_ = uniform_(t, -bound, bound) with bound = sqrt(3) * std;
//             kaiming_normal_  = normal_(t, 0, std)
//   xavier:   std = gain * sqrt(2 / (fan_in + fan_out));
//             xavier_uniform_ = uniform_(t, -bound, bound) with bound = sqrt(3) * std;
//             xavier_normal_  = normal_(t, 0, std)
// The random inits ARE those random ops (same distribution object, same state advance),
// so they draw exactly the values of uniform_/normal_ with the same bounds and state, and
// a DTensor init equals the same init on a 1-rank tensor of the global shape, bit for bit
// (sharding invariance, no communication). Forms, as for every random op:
//   init(t, params...)            from default_generator() (View) / the RNG tracker (DTensor)
//   init(t, params..., gen)       from the Generator gen
//   init(space, t, params...[, gen])   on the execution-space instance `space`
// A tensor with no elements is left as it is (PyTorch's "no-op" for kaiming), with no
// state change. Differences from PyTorch, all in argument checking: a negative `a` or
// leaky_relu slope and a gain that is not positive and finite are refused.
//
// zeros_, ones_, constant_ draw nothing and change no RNG state. On a DTensor they fill
// the local shard; with Partial placements only the shard at coordinate 0 along the
// Partial mesh dims holds the value and the others hold 0 (as distribute_tensor does), so
// the DTensor's value is `value` everywhere.
//
// Errors (std::invalid_argument, "<function>: argument '<name>' = <value>: <requirement>",
// raised before any data or state changes): unknown mode or nonlinearity, negative or
// non-finite a, gain not positive and finite, a tensor of fewer than 2 dims, bounds not
// finite in the value type; plus the random ops' own errors (Partial placements, an
// unallocated DTensor: std::runtime_error).

#include <KokkosDTensor_DTensor.hpp>
#include <KokkosDTensor_DTensorRandom.hpp>
#include <KokkosDTensor_Generator.hpp>
#include <KokkosDTensor_Placement.hpp>
#include <KokkosDTensor_RandomOps.hpp>
#include <Kokkos_Core.hpp>
#include <Kokkos_DynRankView.hpp>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <impl/KokkosDTensor_Distributions.hpp>
#include <impl/KokkosDTensor_Error.hpp>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace KokkosDTensor {

/// fan_in and fan_out of a tensor shape (PyTorch's `_calculate_fan_in_and_fan_out`).
struct FanInAndFanOut {
  std::int64_t fan_in = 0;   ///< shape[1] times the receptive field (product of shape[2:])
  std::int64_t fan_out = 0;  ///< shape[0] times the receptive field
};

namespace Impl {

inline FanInAndFanOut fan_in_and_fan_out(const std::vector<std::int64_t>& shape,
                                         const char* function, const char* argument) {
  if (shape.size() < 2) {
    throw_invalid_argument(function, argument, "shape " + format_value(shape),
                           "must have at least 2 dims: fan in and fan out can not be computed "
                           "for a tensor with fewer than 2 dimensions");
  }
  const auto too_large = [&] {
    throw_invalid_argument(function, argument, "shape " + format_value(shape),
                           "fan in and fan out must be below 2^63");
  };
  const std::int64_t max = std::numeric_limits<std::int64_t>::max();
  std::int64_t receptive_field = 1;
  for (std::size_t d = 2; d < shape.size(); ++d) {
    if (shape[d] != 0 && receptive_field > max / shape[d]) too_large();
    receptive_field *= shape[d];
  }
  if (receptive_field != 0 &&
      (shape[0] > max / receptive_field || shape[1] > max / receptive_field))
    too_large();
  return FanInAndFanOut{shape[1] * receptive_field, shape[0] * receptive_field};
}

inline double gain_of(const std::string& nonlinearity, std::optional<double> param,
                      const char* function, const char* param_name) {
  static const char* const linear_fns[] = {
      "linear",           "conv1d",           "conv2d",           "conv3d",
      "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "sigmoid"};
  for (const char* name : linear_fns)
    if (nonlinearity == name) return 1.0;
  if (nonlinearity == "tanh") return 5.0 / 3;
  if (nonlinearity == "relu") return std::sqrt(2.0);
  if (nonlinearity == "leaky_relu") {
    const double negative_slope = param ? *param : 0.01;
    if (!(std::isfinite(negative_slope) && negative_slope >= 0)) {
      throw_invalid_argument(function, param_name, format_value(negative_slope),
                             "the leaky_relu negative slope must be finite and >= 0");
    }
    return std::sqrt(2.0 / (1 + negative_slope * negative_slope));
  }
  if (nonlinearity == "selu") return 3.0 / 4;
  throw_invalid_argument(function, "nonlinearity", format_value(nonlinearity),
                         "must be one of linear, conv1d, conv2d, conv3d, conv_transpose1d, "
                         "conv_transpose2d, conv_transpose3d, sigmoid, tanh, relu, leaky_relu, "
                         "selu");
}

// "fan_in" -> false, "fan_out" -> true (case-insensitive, as PyTorch lower-cases it).
inline bool is_fan_out_mode(const std::string& mode, const char* function) {
  std::string lower = mode;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "fan_in") return false;
  if (lower == "fan_out") return true;
  throw_invalid_argument(function, "mode", format_value(mode), "must be \"fan_in\" or \"fan_out\"");
}

// The shape the fans come from: a View's (or DynRankView's) extents, a DTensor's global shape.
template <class ViewType>
std::enable_if_t<is_view_or_dyn_rank_view<ViewType>::value, std::vector<std::int64_t>> init_shape(
    const ViewType& view) {
  return view_extents(view);
}
template <class DataType, class... Props>
std::vector<std::int64_t> init_shape(const DTensor<DataType, Props...>& t) {
  return t.global_shape();
}

inline bool has_no_elements(const std::vector<std::int64_t>& shape) {
  for (std::int64_t extent : shape)
    if (extent == 0) return true;
  return false;
}

// std = gain / sqrt(fan) with gain = calculate_gain(nonlinearity, a) (PyTorch's order).
inline double kaiming_std(const std::vector<std::int64_t>& shape, double a, const std::string& mode,
                          const std::string& nonlinearity, const char* function) {
  if (!(std::isfinite(a) && a >= 0)) {
    throw_invalid_argument(function, "a", format_value(a),
                           "the negative slope of the rectifier must be finite and >= 0");
  }
  const bool fan_out = is_fan_out_mode(mode, function);
  const double gain = gain_of(nonlinearity, a, function, "a");
  const FanInAndFanOut fans = fan_in_and_fan_out(shape, function, "t");
  const double fan = static_cast<double>(fan_out ? fans.fan_out : fans.fan_in);
  return gain / std::sqrt(fan);
}

// std = gain * sqrt(2 / (fan_in + fan_out)) (PyTorch's order).
inline double xavier_std(const std::vector<std::int64_t>& shape, double gain,
                         const char* function) {
  if (!(std::isfinite(gain) && gain > 0)) {
    throw_invalid_argument(function, "gain", format_value(gain), "must be finite and > 0");
  }
  const FanInAndFanOut fans = fan_in_and_fan_out(shape, function, "t");
  return gain * std::sqrt(2.0 / static_cast<double>(fans.fan_in + fans.fan_out));
}

// uniform_(t, -bound, bound) or normal_(t, 0, std), naming `function` in errors.
template <class ExecSpace, class Target>
void init_uniform(const ExecSpace& space, const Target& t, double bound, Generator* gen,
                  const char* function) {
  random_op(space, t, make_uniform<target_value_t<Target>>(-bound, bound, function), gen, function);
}
template <class ExecSpace, class Target>
void init_normal(const ExecSpace& space, const Target& t, double stddev, Generator* gen,
                 const char* function) {
  random_op(space, t, make_normal<target_value_t<Target>>(0.0, stddev, function), gen, function);
}

template <class ExecSpace, class Target>
void kaiming_uniform(const ExecSpace& space, const Target& t, double a, const std::string& mode,
                     const std::string& nonlinearity, Generator* gen) {
  const char* function = "KokkosDTensor::kaiming_uniform_";
  const auto shape = init_shape(t);
  const double stddev = kaiming_std(shape, a, mode, nonlinearity, function);
  if (has_no_elements(shape)) return;
  const double bound = std::sqrt(3.0) * stddev;
  init_uniform(space, t, bound, gen, function);
}

template <class ExecSpace, class Target>
void kaiming_normal(const ExecSpace& space, const Target& t, double a, const std::string& mode,
                    const std::string& nonlinearity, Generator* gen) {
  const char* function = "KokkosDTensor::kaiming_normal_";
  const auto shape = init_shape(t);
  const double stddev = kaiming_std(shape, a, mode, nonlinearity, function);
  if (has_no_elements(shape)) return;
  init_normal(space, t, stddev, gen, function);
}

template <class ExecSpace, class Target>
void xavier_uniform(const ExecSpace& space, const Target& t, double gain, Generator* gen) {
  const char* function = "KokkosDTensor::xavier_uniform_";
  const auto shape = init_shape(t);
  const double stddev = xavier_std(shape, gain, function);
  if (has_no_elements(shape)) return;
  const double bound = std::sqrt(3.0) * stddev;
  init_uniform(space, t, bound, gen, function);
}

template <class ExecSpace, class Target>
void xavier_normal(const ExecSpace& space, const Target& t, double gain, Generator* gen) {
  const char* function = "KokkosDTensor::xavier_normal_";
  const auto shape = init_shape(t);
  const double stddev = xavier_std(shape, gain, function);
  if (has_no_elements(shape)) return;
  init_normal(space, t, stddev, gen, function);
}

// Fills with `value`: a View whole; a DTensor's local shard (Partial: see the header).
template <class ExecSpace, class ViewType>
std::enable_if_t<Kokkos::is_view<ViewType>::value> fill_constant(
    const ExecSpace& space, const ViewType& view,
    const typename ViewType::non_const_value_type& value, const char* function) {
  require_kokkos_initialized(function);
  Kokkos::deep_copy(space, view, value);
}
template <class ExecSpace, class DataType, class... Props>
void fill_constant(
    const ExecSpace& space, const Kokkos::DynRankView<DataType, Props...>& view,
    const typename Kokkos::DynRankView<DataType, Props...>::non_const_value_type& value,
    const char* function) {
  require_kokkos_initialized(function);
#if KOKKOS_VERSION >= 30600
  Kokkos::deep_copy(space, view, value);
#else
  // (Kokkos < 3.6 can not deep_copy a value into a DynRankView on an instance: fenced.)
  (void)space;
  Kokkos::deep_copy(view, value);
#endif
}
template <class ExecSpace, class DataType, class... Props>
void fill_constant(const ExecSpace& space, const DTensor<DataType, Props...>& t,
                   const typename DTensor<DataType, Props...>::non_const_value_type& value,
                   const char* function) {
  using value_type = typename DTensor<DataType, Props...>::non_const_value_type;
  require_kokkos_initialized(function);
  if (!t.is_allocated()) {
    throw_runtime_error(
        function, "the DTensor \"" + t.label() + "\" is not allocated (call allocate() first)");
  }
  const auto coordinate = t.mesh().coordinate();
  if (!coordinate) return;  // not in the mesh: nothing local
  const bool holds_value = is_first_along<Partial>(t.placements(), *coordinate);
  Kokkos::deep_copy(space, t.local(), holds_value ? value : value_type(0));
}

}  // namespace Impl

// ---- calculate_gain(nonlinearity, param)
/// torch.nn.init.calculate_gain. `param` is the leaky_relu negative slope (default 0.01);
/// other nonlinearities ignore it. Throws std::invalid_argument for an unknown nonlinearity
/// or a slope that is negative or not finite.
inline double calculate_gain(const std::string& nonlinearity,
                             std::optional<double> param = std::nullopt) {
  return Impl::gain_of(nonlinearity, param, "KokkosDTensor::calculate_gain", "param");
}

// ---- calculate_fan_in_and_fan_out(shape) / (t)
/// The fans of a shape. Throws std::invalid_argument for fewer than 2 dims.
inline FanInAndFanOut calculate_fan_in_and_fan_out(const std::vector<std::int64_t>& shape) {
  return Impl::fan_in_and_fan_out(shape, "KokkosDTensor::calculate_fan_in_and_fan_out", "shape");
}
/// The fans of a View's extents or of a DTensor's global shape; throws as the shape form.
template <class Target>
std::enable_if_t<Impl::RandomTarget<Target>::is_target, FanInAndFanOut>
calculate_fan_in_and_fan_out(const Target& t) {
  return Impl::fan_in_and_fan_out(Impl::init_shape(t),
                                  "KokkosDTensor::calculate_fan_in_and_fan_out", "t");
}

// ---- kaiming_uniform_(t, a = 0, mode = "fan_in", nonlinearity = "leaky_relu")
/// torch.nn.init.kaiming_uniform_ on `space`, drawn from `gen`: uniform_(t, -bound, bound),
/// bound = sqrt(3) * calculate_gain(nonlinearity, a) / sqrt(fan), the fan chosen by `mode`
/// ("fan_in" or "fan_out"). Throws std::invalid_argument for an unknown mode or
/// nonlinearity, an `a` that is negative or not finite, or a tensor of fewer than 2 dims.
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> kaiming_uniform_(
    const ExecSpace& space, const Target& t, double a, const std::string& mode,
    const std::string& nonlinearity, Generator& gen) {
  Impl::kaiming_uniform(space, t, a, mode, nonlinearity, &gen);
}
/// kaiming_uniform_ on `space`, drawn from default_generator() (View) or the RNG
/// tracker (DTensor).
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> kaiming_uniform_(
    const ExecSpace& space, const Target& t, double a = 0, const std::string& mode = "fan_in",
    const std::string& nonlinearity = "leaky_relu") {
  Impl::kaiming_uniform(space, t, a, mode, nonlinearity, nullptr);
}
/// kaiming_uniform_ on the default execution space of `t`, drawn from `gen`.
template <class Target>
Impl::enable_if_target_t<Target> kaiming_uniform_(const Target& t, double a,
                                                  const std::string& mode,
                                                  const std::string& nonlinearity, Generator& gen) {
  Impl::kaiming_uniform(Impl::target_space_t<Target>(), t, a, mode, nonlinearity, &gen);
}
/// kaiming_uniform_ on the default execution space of `t`, drawn from
/// default_generator() (View) or the RNG tracker (DTensor).
template <class Target>
Impl::enable_if_target_t<Target> kaiming_uniform_(const Target& t, double a = 0,
                                                  const std::string& mode = "fan_in",
                                                  const std::string& nonlinearity = "leaky_relu") {
  Impl::kaiming_uniform(Impl::target_space_t<Target>(), t, a, mode, nonlinearity, nullptr);
}

// ---- kaiming_normal_(t, a = 0, mode = "fan_in", nonlinearity = "leaky_relu")
/// torch.nn.init.kaiming_normal_ on `space`, drawn from `gen`: normal_(t, 0, std),
/// std = calculate_gain(nonlinearity, a) / sqrt(fan), the fan chosen by `mode` ("fan_in" or
/// "fan_out"). Throws as kaiming_uniform_.
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> kaiming_normal_(
    const ExecSpace& space, const Target& t, double a, const std::string& mode,
    const std::string& nonlinearity, Generator& gen) {
  Impl::kaiming_normal(space, t, a, mode, nonlinearity, &gen);
}
/// kaiming_normal_ on `space`, drawn from default_generator() (View) or the RNG
/// tracker (DTensor).
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> kaiming_normal_(
    const ExecSpace& space, const Target& t, double a = 0, const std::string& mode = "fan_in",
    const std::string& nonlinearity = "leaky_relu") {
  Impl::kaiming_normal(space, t, a, mode, nonlinearity, nullptr);
}
/// kaiming_normal_ on the default execution space of `t`, drawn from `gen`.
template <class Target>
Impl::enable_if_target_t<Target> kaiming_normal_(const Target& t, double a, const std::string& mode,
                                                 const std::string& nonlinearity, Generator& gen) {
  Impl::kaiming_normal(Impl::target_space_t<Target>(), t, a, mode, nonlinearity, &gen);
}
/// kaiming_normal_ on the default execution space of `t`, drawn from
/// default_generator() (View) or the RNG tracker (DTensor).
template <class Target>
Impl::enable_if_target_t<Target> kaiming_normal_(const Target& t, double a = 0,
                                                 const std::string& mode = "fan_in",
                                                 const std::string& nonlinearity = "leaky_relu") {
  Impl::kaiming_normal(Impl::target_space_t<Target>(), t, a, mode, nonlinearity, nullptr);
}

// ---- xavier_uniform_(t, gain = 1)
/// torch.nn.init.xavier_uniform_ on `space`, drawn from `gen`: uniform_(t, -bound, bound),
/// bound = sqrt(3) * gain * sqrt(2 / (fan_in + fan_out)). Throws std::invalid_argument for a
/// gain that is not positive and finite or a tensor of fewer than 2 dims.
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> xavier_uniform_(const ExecSpace& space,
                                                                      const Target& t, double gain,
                                                                      Generator& gen) {
  Impl::xavier_uniform(space, t, gain, &gen);
}
/// xavier_uniform_ on `space`, drawn from default_generator() (View) or the RNG
/// tracker (DTensor).
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> xavier_uniform_(const ExecSpace& space,
                                                                      const Target& t,
                                                                      double gain = 1) {
  Impl::xavier_uniform(space, t, gain, nullptr);
}
/// xavier_uniform_ on the default execution space of `t`, drawn from `gen`.
template <class Target>
Impl::enable_if_target_t<Target> xavier_uniform_(const Target& t, double gain, Generator& gen) {
  Impl::xavier_uniform(Impl::target_space_t<Target>(), t, gain, &gen);
}
/// xavier_uniform_ on the default execution space of `t`, drawn from
/// default_generator() (View) or the RNG tracker (DTensor).
template <class Target>
Impl::enable_if_target_t<Target> xavier_uniform_(const Target& t, double gain = 1) {
  Impl::xavier_uniform(Impl::target_space_t<Target>(), t, gain, nullptr);
}

// ---- xavier_normal_(t, gain = 1)
/// torch.nn.init.xavier_normal_ on `space`, drawn from `gen`: normal_(t, 0, std),
/// std = gain * sqrt(2 / (fan_in + fan_out)). Throws as xavier_uniform_.
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> xavier_normal_(const ExecSpace& space,
                                                                     const Target& t, double gain,
                                                                     Generator& gen) {
  Impl::xavier_normal(space, t, gain, &gen);
}
/// xavier_normal_ on `space`, drawn from default_generator() (View) or the RNG
/// tracker (DTensor).
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> xavier_normal_(const ExecSpace& space,
                                                                     const Target& t,
                                                                     double gain = 1) {
  Impl::xavier_normal(space, t, gain, nullptr);
}
/// xavier_normal_ on the default execution space of `t`, drawn from `gen`.
template <class Target>
Impl::enable_if_target_t<Target> xavier_normal_(const Target& t, double gain, Generator& gen) {
  Impl::xavier_normal(Impl::target_space_t<Target>(), t, gain, &gen);
}
/// xavier_normal_ on the default execution space of `t`, drawn from
/// default_generator() (View) or the RNG tracker (DTensor).
template <class Target>
Impl::enable_if_target_t<Target> xavier_normal_(const Target& t, double gain = 1) {
  Impl::xavier_normal(Impl::target_space_t<Target>(), t, gain, nullptr);
}

// ---- trunc_normal_(t, mean = 0, std = 1, a = -2, b = 2): declared with the other random
// ops in KokkosDTensor_RandomOps.hpp (normal(mean, std) truncated to [a, b], transform in
// docs/stream.md); nn.init.trunc_normal_ has the same arguments and defaults.

// ---- constant_(t, value), ones_(t), zeros_(t): no randomness, no RNG state change
/// Fills `t` with `value` on `space`: a View whole, a DTensor's local shard (with Partial
/// placements only the shard at coordinate 0 along them holds `value`, the others 0).
/// Throws std::runtime_error for an unallocated DTensor.
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> constant_(
    const ExecSpace& space, const Target& t, const Impl::target_value_t<Target>& value) {
  Impl::fill_constant(space, t, value, "KokkosDTensor::constant_");
}
/// constant_ on the default execution space of `t`.
template <class Target>
Impl::enable_if_target_t<Target> constant_(const Target& t,
                                           const Impl::target_value_t<Target>& value) {
  Impl::fill_constant(Impl::target_space_t<Target>(), t, value, "KokkosDTensor::constant_");
}
/// constant_(space, t, 1).
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> ones_(const ExecSpace& space,
                                                            const Target& t) {
  Impl::fill_constant(space, t, Impl::target_value_t<Target>(1), "KokkosDTensor::ones_");
}
/// constant_(t, 1).
template <class Target>
Impl::enable_if_target_t<Target> ones_(const Target& t) {
  Impl::fill_constant(Impl::target_space_t<Target>(), t, Impl::target_value_t<Target>(1),
                      "KokkosDTensor::ones_");
}
/// constant_(space, t, 0).
template <class ExecSpace, class Target>
Impl::enable_if_space_and_target_t<ExecSpace, Target> zeros_(const ExecSpace& space,
                                                             const Target& t) {
  Impl::fill_constant(space, t, Impl::target_value_t<Target>(0), "KokkosDTensor::zeros_");
}
/// constant_(t, 0).
template <class Target>
Impl::enable_if_target_t<Target> zeros_(const Target& t) {
  Impl::fill_constant(Impl::target_space_t<Target>(), t, Impl::target_value_t<Target>(0),
                      "KokkosDTensor::zeros_");
}

}  // namespace KokkosDTensor

#endif
