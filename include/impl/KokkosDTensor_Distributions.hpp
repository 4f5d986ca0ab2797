#ifndef KOKKOSDTENSOR_IMPL_DISTRIBUTIONS_HPP
#define KOKKOSDTENSOR_IMPL_DISTRIBUTIONS_HPP

// Validated distribution objects (docs/design.md, docs/stream.md).
//
// A distribution object is built on the host by a factory `make_<name><T>(params...,
// function)` that checks its parameters (throwing the SPEC section 5 errors, message
// "<function>: argument '<name>' = <value>: <requirement>") and precomputes everything
// that needs the host (thresholds, reciprocals, erf bounds). It is trivially copyable
// and carries
//   using value_type = T;                       // the View's value type
//   static constexpr int words_per_element;     // 1 for <= 32-bit T, 2 for 64-bit T
//   static constexpr int elements_per_block;    // 4 / words_per_element
//   static constexpr bool reads_input;          // true for dropout (in place)
//   KOKKOS_INLINE_FUNCTION void operator()(const PhiloxBlock& block,
//                                          T (&values)[elements_per_block]) const;
// The call turns one Philox block (4 words) into the values of the block's elements:
// element e of the block takes words w*e ... w*e + w - 1 (w = words_per_element). When
// reads_input is true, `values` holds the elements' current values on entry.
// For a 16-bit floating T (half_t, bhalf_t where Kokkos makes them 16-bit) each factory has
// an overload returning RoundedDistribution of the distribution it makes for float.

#include <cmath>
#include <cstdint>
#include <impl/KokkosDTensor_Error.hpp>
#include <impl/KokkosDTensor_NormalQuantile.hpp>
#include <impl/KokkosDTensor_Philox.hpp>
#include <impl/KokkosDTensor_ReducedPrecision.hpp>
#include <impl/KokkosDTensor_Transforms.hpp>
#include <limits>
#include <string>
#include <type_traits>

namespace KokkosDTensor {
namespace Impl {

// Words per element: 1 for value types of at most 32 bits, 2 for 64-bit value types,
// for every distribution.
template <class T>
KOKKOS_INLINE_FUNCTION constexpr int words_per_element_for() {
  return sizeof(T) > 4 ? 2 : 1;
}

// Shared block loop for distributions whose elements are independent: element e gets
// Derived::element(w0, w1[, current value]) with w0 = word[w*e], w1 = word[w*e + w - 1]
// (w1 == w0 for one-word elements). Words per element are those of WordsOf (T unless the
// values stand for another type's elements, as a dropout mask does).
template <class Derived, class T, class WordsOf = T>
struct ElementwiseDistribution {
  using value_type = T;
  static constexpr int words_per_element = words_per_element_for<WordsOf>();
  static constexpr int elements_per_block = 4 / words_per_element;
  static constexpr bool reads_input = false;

  KOKKOS_INLINE_FUNCTION void operator()(const PhiloxBlock& block,
                                         T (&values)[elements_per_block]) const {
    const Derived& self = static_cast<const Derived&>(*this);
    for (int e = 0; e < elements_per_block; ++e) {
      values[e] =
          self.element(block.word[words_per_element * e],
                       block.word[words_per_element * e + words_per_element - 1], values[e]);
    }
  }
};

// ---- 16-bit floating types (SPEC section 2, "Reduced precision") ---------------------------

// A distribution on a 16-bit floating T from the float distribution `dist`: the same words,
// one per element, each element the float result on its word rounded once to nearest-even
// (KokkosDTensor_ReducedPrecision.hpp); ops that read the input (dropout_) get it converted
// to float exactly. uniform_'s bound rule (pytorch/pytorch issue 96947: a value that rounds
// to `to` becomes `from`) is one compare on the float, set by rounded_uniform; only
// uniform_ draws make it.
template <class T>
struct Uniform;
template <class T>
struct StandardUniform;
template <class FloatDist>
struct takes_bound_rule : std::false_type {};
template <>
struct takes_bound_rule<Uniform<float>> : std::true_type {};
template <>
struct takes_bound_rule<StandardUniform<float>> : std::true_type {};

template <class T, class FloatDist>
struct RoundedDistribution : ElementwiseDistribution<RoundedDistribution<T, FloatDist>, T, float> {
  static_assert(is_reduced_float<T>(), "RoundedDistribution needs a 16-bit floating type");
  static_assert(std::is_same<typename FloatDist::value_type, float>::value,
                "RoundedDistribution rounds a float distribution");
  static constexpr bool reads_input = FloatDist::reads_input;
  FloatDist dist;
  // uniform_: an unclamped float value >= bound_threshold becomes bound_value (rounded_uniform);
  // equally, a rounded value at or above rounded_threshold becomes rounded_value.
  float bound_threshold = 0.0f, bound_value = 0.0f;
  std::uint16_t rounded_threshold = 0, rounded_value = 0;

  // The float value of word w before rounding.
  KOKKOS_INLINE_FUNCTION float float_value(std::uint32_t w, float input) const {
    if constexpr (takes_bound_rule<FloatDist>::value) {
      const float unclamped = dist.unclamped(w, w);
      return unclamped >= bound_threshold ? bound_value : unclamped;
    } else {
      return dist.element(w, w, input);
    }
  }
  KOKKOS_INLINE_FUNCTION T element(std::uint32_t w0, std::uint32_t, const T& current) const {
    const float input = reads_input ? reduced_to_float(current) : 0.0f;
    // Only an op that reads its input (dropout_ of a NaN) can give NaN.
    return reduced_from_bits<T>(round_to_reduced_bits<T, reads_input>(float_value(w0, input)));
  }
  // A block: the four floats rounded together (in pairs on NVIDIA devices, where the ops that
  // read their input give NaN only by float arithmetic: its one NaN).
  KOKKOS_INLINE_FUNCTION void operator()(const PhiloxBlock& block, T (&values)[4]) const {
#if defined(__CUDA_ARCH__)
    constexpr bool rule_on_pairs = takes_bound_rule<FloatDist>::value;
#else
    constexpr bool rule_on_pairs = false;
#endif
    // bf16 uniform_(0, 1): the integer (word >> 8) rounded, then scaled by 2^-24 in pairs
    // (exact: the same bits, one multiply per pair instead of one per element).
    constexpr bool scales_pairs = rule_on_pairs && ReducedFloatFormat<T>::bfloat16 &&
                                  std::is_same<FloatDist, StandardUniform<float>>::value;
    float x[4];
    if constexpr (scales_pairs) {
      for (int e = 0; e < 4; ++e) x[e] = static_cast<float>(block.word[e] >> 8);
      round_four_to_reduced<T>(x, values);
      scale_bf16_by_2_pow_minus_24(values);
      replace_at_or_above<T, false>(values, rounded_threshold, rounded_value);
    } else if constexpr (rule_on_pairs) {  // uniform_'s bound rule on the rounded pairs
      for (int e = 0; e < 4; ++e) x[e] = dist.unclamped(block.word[e], block.word[e]);
      round_four_to_reduced<T>(x, values);
      // (StandardUniform's threshold is 1's bits, never +0.)
      replace_at_or_above<T, !std::is_same<FloatDist, StandardUniform<float>>::value>(
          values, rounded_threshold, rounded_value);
    } else {
      for (int e = 0; e < 4; ++e)
        x[e] = float_value(block.word[e], reads_input ? reduced_to_float_operand(values[e]) : 0.0f);
      round_four_to_reduced<T, reads_input>(x, values);
    }
  }
};

// The distribution of a 16-bit T from the float one the same op makes.
template <class T, class FloatDist>
KOKKOS_INLINE_FUNCTION RoundedDistribution<T, FloatDist> rounded_distribution(
    const FloatDist& dist) {
  RoundedDistribution<T, FloatDist> rounded;
  rounded.dist = dist;
  return rounded;
}

// uniform_ on a 16-bit T from the float uniform `dist` on [from, to) (clamped to below_to):
// a float that rounds to `to`'s 16-bit value becomes `from`. As one compare on the value
// before the clamp: from the least float that rounds there (with the clamp's own compare
// when that float is `to` itself, and the clamp's value then never rounds there).
template <class T, class FloatUniform>
KOKKOS_INLINE_FUNCTION RoundedDistribution<T, FloatUniform> rounded_uniform(
    const FloatUniform& dist, float from, float to, float below_to) {
  auto rounded = rounded_distribution<T>(dist);
  const float least = least_float_rounding_to<T>(round_to_reduced_bits<T>(to));
  rounded.bound_threshold = least <= below_to ? least : to;
  rounded.bound_value = least <= below_to ? from : below_to;
  rounded.rounded_threshold = round_to_reduced_bits<T>(to);
  rounded.rounded_value = round_to_reduced_bits<T>(rounded.bound_value);
  return rounded;
}

// Selects a factory's overload: the usual one, or the 16-bit one.
template <class T>
using if_full_t = std::enable_if_t<!is_reduced_float<T>(), int>;
template <class T>
using if_reduced_t = std::enable_if_t<is_reduced_float<T>(), int>;

// The type whose words and thresholds a 16-bit T takes: float; T itself otherwise.
template <class T>
using words_type_t = std::conditional_t<is_reduced_float<T>(), float, T>;

// ---- host-side checks -------------------------------------------------------------------

template <class V>
void require_parameter(bool condition, const char* function, const char* argument, const V& value,
                       const std::string& requirement) {
  if (!condition) throw_invalid_argument(function, argument, format_value(value), requirement);
}

template <class T>
KOKKOS_INLINE_FUNCTION constexpr bool is_floating_value() {
  return std::is_floating_point<T>::value;
}

// log1p(x) for x in (-1, 0] on the host from the portable log only (Goldberg's
// formula: with u = 1 + x rounded, log1p(x) = log(u) * (x / (u - 1)), exact-ish to a few
// ulps), so that every platform computes the same parameter.
inline double portable_log1p_host(double x) {
  const double u = 1.0 + x;
  if (u == 1.0) return x;
  return portable_log(u) * (x / (u - 1.0));
}

// ---- uniform_ ------------------------------------------------------------------------------

// uniform in [from, to): min(fma(u, range, from), below_to), u the [0, 1) uniform of T.
template <class T>
struct Uniform : ElementwiseDistribution<Uniform<T>, T> {
  T from, range, below_to;
  KOKKOS_INLINE_FUNCTION T element(std::uint32_t w0, std::uint32_t w1, T) const {
    T u;
    uniform01(w0, w1, u);
    return uniform_from_to(u, from, range, below_to);
  }
  // The value before the clamp below `to` (a 16-bit T's bound rule takes its place).
  KOKKOS_INLINE_FUNCTION T unclamped(std::uint32_t w0, std::uint32_t w1) const {
    T u;
    uniform01(w0, w1, u);
    return portable_fma(u, range, from);
  }
};

template <class T, if_full_t<T> = 0>
Uniform<T> make_uniform(double from, double to, const char* function) {
  static_assert(is_floating_value<T>(), "uniform_ needs a float or double View");
  const T from_t = static_cast<T>(from), to_t = static_cast<T>(to);
  require_parameter(std::isfinite(from_t), function, "from", from,
                    "must be finite in the value type");
  require_parameter(std::isfinite(to_t), function, "to", to, "must be finite in the value type");
  require_parameter(from_t < to_t, function, "from", from,
                    "must be less than to = " + format_value(to) + " (in the value type)");
  const T range = to_t - from_t;
  require_parameter(std::isfinite(range), function, "to", to,
                    "to - from = " + format_value(static_cast<double>(to) - from) +
                        " must be finite in the value type");
  Uniform<T> dist;
  dist.from = from_t;
  dist.range = range;
  dist.below_to = std::nextafter(to_t, -std::numeric_limits<T>::infinity());
  return dist;
}

// A 16-bit T: the float distribution rounded, a rounded `to` becoming `from` (both rounded;
// both must be finite in T).
template <class T, if_reduced_t<T> = 0>
RoundedDistribution<T, Uniform<float>> make_uniform(double from, double to, const char* function) {
  const Uniform<float> dist = make_uniform<float>(from, to, function);
  const float from_f = static_cast<float>(from), to_f = static_cast<float>(to);
  require_parameter(std::isfinite(reduced_bits_to_float<T>(round_to_reduced_bits<T>(from_f))),
                    function, "from", from, "must be finite in the value type");
  require_parameter(std::isfinite(reduced_bits_to_float<T>(round_to_reduced_bits<T>(to_f))),
                    function, "to", to, "must be finite in the value type");
  return rounded_uniform<T>(dist, from_f, to_f, dist.below_to);
}

// uniform_(0, 1) is u itself: fma(u, 1, 0) = u and u <= below_to = 1 - ulp. The fill
// kernels run it for Uniform with from = 0, to = 1, skipping the fma and the min (same bits).
template <class T>
struct StandardUniform : ElementwiseDistribution<StandardUniform<T>, T> {
  KOKKOS_INLINE_FUNCTION T element(std::uint32_t w0, std::uint32_t w1, T) const {
    T u;
    uniform01(w0, w1, u);
    return u;
  }
  KOKKOS_INLINE_FUNCTION T unclamped(std::uint32_t w0, std::uint32_t w1) const {
    return element(w0, w1, T());
  }
};

// Whether Dist is uniform_ on a 16-bit type (the fill runs StandardUniform for (0, 1) there too).
template <class Dist>
struct is_rounded_uniform : std::false_type {};
template <class T>
struct is_rounded_uniform<RoundedDistribution<T, Uniform<float>>> : std::true_type {};
// Whether Dist is a 16-bit uniform_ as the fill kernels run it (either form: a rounded
// distribution that takes the bound rule).
template <class Dist>
struct is_16bit_uniform : std::false_type {};
template <class T, class FloatDist>
struct is_16bit_uniform<RoundedDistribution<T, FloatDist>> : takes_bound_rule<FloatDist> {};

// uniform_(0, 1) on a 16-bit T as the fill kernels run it: StandardUniform with the bound
// rule of `dist` (whose from is 0 and to 1), made as make_uniform made it.
template <class T>
RoundedDistribution<T, StandardUniform<float>> rounded_standard_uniform(
    const RoundedDistribution<T, Uniform<float>>& dist) {
  return rounded_uniform<T>(StandardUniform<float>{}, 0.0f, 1.0f, dist.dist.below_to);
}

template <class T>
bool is_standard_uniform(const Uniform<T>& dist) {
  return dist.from == T(0) && dist.range == T(1) &&
         dist.below_to == T(1) - std::numeric_limits<T>::epsilon() / 2;
}

// ---- normal_, log_normal_ (inverse CDF, stream version 2) -----------------------------------

// The standard normal of an element's words (docs/stream.md, KokkosDTensor_NormalQuantile.hpp):
// float: z = normal_from_word(w0), one word; double: z = normal_from_words(w0, w1), two words.
KOKKOS_INLINE_FUNCTION float standard_normal(std::uint32_t w0, std::uint32_t /*w1*/, float) {
  return normal_from_word(w0);
}
KOKKOS_INLINE_FUNCTION double standard_normal(std::uint32_t w0, std::uint32_t w1, double) {
  return normal_from_words(w0, w1);
}

// fma(std, z, mean), z the standard normal of the element's words.
template <class T>
struct Normal : ElementwiseDistribution<Normal<T>, T> {
  static_assert(std::is_floating_point<T>::value, "normal needs float or double");
  T mean, stddev;
  KOKKOS_INLINE_FUNCTION T from_standard(T z) const { return portable_fma(stddev, z, mean); }
  KOKKOS_INLINE_FUNCTION T element(std::uint32_t w0, std::uint32_t w1, T) const {
    return from_standard(standard_normal(w0, w1, T()));
  }
};

// exp(fma(std, z, mean)) with the words and z of Normal.
template <class T>
struct LogNormal : ElementwiseDistribution<LogNormal<T>, T> {
  static_assert(std::is_floating_point<T>::value, "log_normal needs float or double");
  T mean, stddev;
  KOKKOS_INLINE_FUNCTION T from_standard(T z) const {
    return portable_exp(portable_fma(stddev, z, mean));
  }
  KOKKOS_INLINE_FUNCTION T element(std::uint32_t w0, std::uint32_t w1, T) const {
    return from_standard(standard_normal(w0, w1, T()));
  }
};

// The distributions made from the standard normal (normal_, log_normal_), and the same
// distribution reading its table from team scratch (the device kernel of
// KokkosDTensor_FillRowsSharedTable.hpp): a plain copy of the double table, the
// NormalTableF32Shared layout of the float one, read as lane `lane`. The same coefficients
// and operations, the same bits.
template <class Dist>
struct uses_shared_normal_table : std::false_type {};
template <class T>
struct uses_shared_normal_table<Normal<T>> : std::true_type {};
template <class T>
struct uses_shared_normal_table<LogNormal<T>> : std::true_type {};
template <class T, class FloatDist>
struct uses_shared_normal_table<RoundedDistribution<T, FloatDist>>
    : uses_shared_normal_table<FloatDist> {};

// Team sizes and waves of resident teams: the fastest of 128-1024 threads and 1-4 waves on
// the H200 (docs/performance.md).
template <class Dist, class T = typename Dist::value_type>
struct OnSharedNormalTable : ElementwiseDistribution<OnSharedNormalTable<Dist>, double> {
  using table_type = double;
  static constexpr std::size_t table_bytes = sizeof(double) * normal_table_f64_doubles;
  static constexpr int team_size = 256, waves = 1;
  Dist dist;
  const double* table;
  KOKKOS_INLINE_FUNCTION static void fill(double* dst, int thread, int threads) {
    copy_normal_table_f64(dst, thread, threads);
  }
  KOKKOS_INLINE_FUNCTION void set(const Dist& d, const double* t, int /*thread*/) {
    dist = d;
    table = t;
  }
  KOKKOS_INLINE_FUNCTION double element(std::uint32_t w0, std::uint32_t w1, double) const {
    return dist.from_standard(normal_from_words(w0, w1, table));
  }
};
template <class Dist>
struct OnSharedNormalTable<Dist, float>
    : ElementwiseDistribution<OnSharedNormalTable<Dist, float>, float> {
  using table_type = float;
  static constexpr std::size_t table_bytes = sizeof(float) * NormalTableF32Shared::floats;
  static constexpr int team_size = 1024, waves = 2;
  Dist dist;
  const float* table;
  int lane = 0;
  KOKKOS_INLINE_FUNCTION static void fill(float* dst, int thread, int threads) {
    NormalTableF32Shared::fill(dst, thread, threads);
  }
  KOKKOS_INLINE_FUNCTION void set(const Dist& d, const float* t, int thread) {
    dist = d;
    table = t;
    lane = thread & 7;
  }
  KOKKOS_INLINE_FUNCTION float element(std::uint32_t w0, std::uint32_t, float) const {
    return dist.from_standard(NormalTableF32Shared::normal(w0, table, lane));
  }
};
// A 16-bit T: the float distribution on the float table, rounded.
template <class T, class FloatDist>
struct OnSharedNormalTable<RoundedDistribution<T, FloatDist>, T>
    : RoundedDistribution<T, OnSharedNormalTable<FloatDist, float>> {
  using Float = OnSharedNormalTable<FloatDist, float>;
  using table_type = float;
  static constexpr std::size_t table_bytes = Float::table_bytes;
  static constexpr int team_size = Float::team_size, waves = Float::waves;
  KOKKOS_INLINE_FUNCTION static void fill(float* dst, int thread, int threads) {
    Float::fill(dst, thread, threads);
  }
  KOKKOS_INLINE_FUNCTION void set(const RoundedDistribution<T, FloatDist>& d, const float* t,
                                  int thread) {
    this->dist.set(d.dist, t, thread);  // (no bound rule: normal_ only)
  }
};

template <class T, if_full_t<T> = 0>
Normal<T> make_normal(double mean, double stddev, const char* function) {
  static_assert(is_floating_value<T>(), "normal_ needs a float or double View");
  const T mean_t = static_cast<T>(mean), stddev_t = static_cast<T>(stddev);
  require_parameter(std::isfinite(mean_t), function, "mean", mean,
                    "must be finite in the value type");
  require_parameter(std::isfinite(stddev_t) && stddev_t >= 0, function, "std", stddev,
                    "must be >= 0 and finite in the value type");
  Normal<T> dist;
  dist.mean = mean_t;
  dist.stddev = stddev_t;
  return dist;
}

template <class T, if_reduced_t<T> = 0>
auto make_normal(double mean, double stddev, const char* function) {
  return rounded_distribution<T>(make_normal<float>(mean, stddev, function));
}

template <class T, if_full_t<T> = 0>
LogNormal<T> make_log_normal(double mean, double stddev, const char* function) {
  static_assert(is_floating_value<T>(), "log_normal_ needs a float or double View");
  const T mean_t = static_cast<T>(mean), stddev_t = static_cast<T>(stddev);
  require_parameter(std::isfinite(mean_t), function, "mean", mean,
                    "must be finite in the value type");
  require_parameter(std::isfinite(stddev_t) && stddev_t > 0, function, "std", stddev,
                    "must be > 0 and finite in the value type");
  LogNormal<T> dist;
  dist.mean = mean_t;
  dist.stddev = stddev_t;
  return dist;
}

template <class T, if_reduced_t<T> = 0>
auto make_log_normal(double mean, double stddev, const char* function) {
  return rounded_distribution<T>(make_log_normal<float>(mean, stddev, function));
}

// ---- bernoulli_, dropout_ ------------------------------------------------------------------

// Success iff the element's word(s) read as a fraction is below p, exactly:
// one word: word < floor(p * 2^32); two words: ((w0 << 32 | w1) >> 11) < floor(p * 2^53).
template <class T>
std::uint64_t bernoulli_threshold(double p) {
  return static_cast<std::uint64_t>(std::ldexp(p, words_per_element_for<T>() == 1 ? 32 : 53));
}

template <class T>
KOKKOS_INLINE_FUNCTION bool bernoulli_success(std::uint32_t w0, std::uint32_t w1,
                                              std::uint64_t threshold) {
  return words_per_element_for<T>() == 1 ? bernoulli_word(w0, threshold)
                                         : bernoulli_words(w0, w1, threshold);
}

// 1 with probability p, else 0.
template <class T>
struct Bernoulli : ElementwiseDistribution<Bernoulli<T>, T> {
  std::uint64_t threshold;
  KOKKOS_INLINE_FUNCTION T element(std::uint32_t w0, std::uint32_t w1, T) const {
    return bernoulli_success<T>(w0, w1, threshold) ? T(1) : T(0);
  }
};

template <class T, if_full_t<T> = 0>
Bernoulli<T> make_bernoulli(double p, const char* function) {
  static_assert(std::is_arithmetic<T>::value, "bernoulli_ needs an arithmetic View");
  require_parameter(p >= 0.0 && p <= 1.0, function, "p", p, "must lie in [0, 1]");
  Bernoulli<T> dist;
  dist.threshold = bernoulli_threshold<T>(p);
  return dist;
}

template <class T, if_reduced_t<T> = 0>
auto make_bernoulli(double p, const char* function) {
  return rounded_distribution<T>(make_bernoulli<float>(p, function));
}

// In place: an element is zeroed with probability p (the Bernoulli(p) success above),
// the others are multiplied by scale = T(1 / (1 - p)) (scale = 0 for p = 1).
template <class T>
struct Dropout : ElementwiseDistribution<Dropout<T>, T> {
  static constexpr bool reads_input = true;
  std::uint64_t threshold;
  T scale;
  KOKKOS_INLINE_FUNCTION T element(std::uint32_t w0, std::uint32_t w1, T current) const {
    return bernoulli_success<T>(w0, w1, threshold) ? T(0) : portable_mul(current, scale);
  }
};

template <class T, if_full_t<T> = 0>
Dropout<T> make_dropout(double p, const char* function) {
  static_assert(is_floating_value<T>(), "dropout_ needs a float or double View");
  require_parameter(p >= 0.0 && p <= 1.0, function, "p", p, "must lie in [0, 1]");
  Dropout<T> dist;
  dist.threshold = bernoulli_threshold<T>(p);
  dist.scale = p == 1.0 ? T(0) : static_cast<T>(1.0 / (1.0 - p));
  return dist;
}

template <class T, if_reduced_t<T> = 0>
auto make_dropout(double p, const char* function) {
  return rounded_distribution<T>(make_dropout<float>(p, function));
}

// The keep-mask of dropout_ on a tensor of DataT, regenerated from the words dropout_ drew:
// 1 where it kept the element, 0 where it zeroed it.
template <class T, class DataT>
struct DropoutMask : ElementwiseDistribution<DropoutMask<T, DataT>, T, DataT> {
  std::uint64_t threshold;
  KOKKOS_INLINE_FUNCTION T element(std::uint32_t w0, std::uint32_t w1, T) const {
    return bernoulli_success<DataT>(w0, w1, threshold) ? T(0) : T(1);
  }
};

template <class T, class DataT,
          std::enable_if_t<!is_reduced_float<T>() && !is_reduced_float<DataT>(), int> = 0>
DropoutMask<T, DataT> make_dropout_mask(double p, const char* function) {
  static_assert(std::is_arithmetic<T>::value, "dropout_mask_ needs an arithmetic (or bool) mask");
  static_assert(is_floating_value<DataT>(),
                "dropout_mask_ regenerates the mask of a float or "
                "double tensor");
  require_parameter(p >= 0.0 && p <= 1.0, function, "p", p, "must lie in [0, 1]");
  DropoutMask<T, DataT> dist;
  dist.threshold = bernoulli_threshold<DataT>(p);
  return dist;
}

// A 16-bit DataT takes float's words; a 16-bit mask is the float mask rounded (0 or 1).
template <class T, class DataT,
          std::enable_if_t<is_reduced_float<T>() || is_reduced_float<DataT>(), int> = 0>
auto make_dropout_mask(double p, const char* function) {
  const auto mask = make_dropout_mask<words_type_t<T>, words_type_t<DataT>>(p, function);
  if constexpr (is_reduced_float<T>())
    return rounded_distribution<T>(mask);
  else
    return mask;
}

// bernoulli_(t, probabilities): in place, each element holding its own p (copied in before
// the fill) becomes 1 with probability p, else 0, by the threshold rule of Bernoulli with
// that p: floor(p * 2^32) for one word, floor(p * 2^53) for two (exact: a power-of-two
// scaling, then truncation).
template <class T>
struct BernoulliFromInput : ElementwiseDistribution<BernoulliFromInput<T>, T> {
  static constexpr bool reads_input = true;
  KOKKOS_INLINE_FUNCTION T element(std::uint32_t w0, std::uint32_t w1, T p) const {
    constexpr bool one_word = words_per_element_for<T>() == 1;
    const double scaled =
        portable_mul(static_cast<double>(p), one_word ? 4294967296.0 : 9007199254740992.0);
    const std::uint64_t threshold = static_cast<std::uint64_t>(scaled);
    return bernoulli_success<T>(w0, w1, threshold) ? T(1) : T(0);
  }
};

template <class T, if_full_t<T> = 0>
BernoulliFromInput<T> make_bernoulli_from_input(const char* /*function*/) {
  static_assert(is_floating_value<T>(), "bernoulli_(t, probabilities) needs a float or double t");
  return BernoulliFromInput<T>{};
}

template <class T, if_reduced_t<T> = 0>
auto make_bernoulli_from_input(const char* function) {
  return rounded_distribution<T>(make_bernoulli_from_input<float>(function));
}

// ---- random_bits_, randint_ -----------------------------------------------------------------

// Raw words: uint32 = the word; uint64 = w0 << 32 | w1.
template <class T>
struct RandomBits : ElementwiseDistribution<RandomBits<T>, T> {
  KOKKOS_INLINE_FUNCTION T element(std::uint32_t w0, std::uint32_t w1, T) const {
    return words_per_element_for<T>() == 1 ? static_cast<T>(w0)
                                           : static_cast<T>(join_words(w0, w1));
  }
};

template <class T>
RandomBits<T> make_random_bits(const char* /*function*/) {
  static_assert(std::is_integral<T>::value && std::is_unsigned<T>::value &&
                    (sizeof(T) == 4 || sizeof(T) == 8),
                "random_bits_ needs a uint32 or uint64 View");
  return RandomBits<T>{};
}

// Integers in [low, high): 32-bit T: low + ((range * word) >> 32);
// 64-bit T: low + mulhi64(range, w0 << 32 | w1); range = high - low.
template <class T>
struct RandInt : ElementwiseDistribution<RandInt<T>, T> {
  std::uint64_t low, range;
  KOKKOS_INLINE_FUNCTION T element(std::uint32_t w0, std::uint32_t w1, T) const {
    const std::uint64_t value = words_per_element_for<T>() == 1 ? randint_word(w0, low, range)
                                                                : randint_words(w0, w1, low, range);
    return static_cast<T>(value);
  }
};

template <class T>
RandInt<T> make_randint(std::int64_t low, std::int64_t high, const char* function) {
  static_assert(std::is_integral<T>::value && !std::is_same<T, bool>::value &&
                    (sizeof(T) == 4 || sizeof(T) == 8),
                "randint_ needs a 32-bit or 64-bit integer View");
  require_parameter(low < high, function, "high", high,
                    "must be greater than low = " + format_value(low));
  // Every value in [low, high) must fit in T.
  if (std::is_signed<T>::value) {
    require_parameter(low >= static_cast<std::int64_t>(std::numeric_limits<T>::min()), function,
                      "low", low, "must be representable in the value type");
  } else {
    require_parameter(low >= 0, function, "low", low, "must be representable in the value type");
  }
  require_parameter(static_cast<std::uint64_t>(high - 1) <=
                            static_cast<std::uint64_t>(std::numeric_limits<T>::max()) ||
                        high - 1 < 0,
                    function, "high", high, "high - 1 must be representable in the value type");
  RandInt<T> dist;
  dist.low = static_cast<std::uint64_t>(low);
  dist.range = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low);
  return dist;
}

// ---- exponential_, geometric_ --------------------------------------------------------------

// -log(u) / lambd, u the (0, 1] uniform of T.
template <class T>
struct Exponential : ElementwiseDistribution<Exponential<T>, T> {
  T lambd;
  KOKKOS_INLINE_FUNCTION T element(std::uint32_t w0, std::uint32_t w1, T) const {
    T u;
    uniform01_open(w0, w1, u);
    return exponential_from_uniform(u, lambd);
  }
};

template <class T, if_full_t<T> = 0>
Exponential<T> make_exponential(double lambd, const char* function) {
  static_assert(is_floating_value<T>(), "exponential_ needs a float or double View");
  const T lambd_t = static_cast<T>(lambd);
  require_parameter(std::isfinite(lambd_t) && lambd_t > 0, function, "lambd", lambd,
                    "must be > 0 and finite in the value type");
  Exponential<T> dist;
  dist.lambd = lambd_t;
  return dist;
}

template <class T, if_reduced_t<T> = 0>
auto make_exponential(double lambd, const char* function) {
  return rounded_distribution<T>(make_exponential<float>(lambd, function));
}

// max(1, ceil(log(u) / log1p(-p))) in R = transform_real_t<T> (float for <= 32-bit T,
// double for 64-bit T), u the (0, 1] uniform of R; for integer T the result is clamped to
// the largest value of T.
template <class T>
struct Geometric : ElementwiseDistribution<Geometric<T>, T> {
  using R = transform_real_t<T>;
  R log1p_minus_p;
  R limit;  // R(max of T) for integer T (a power of two), +inf for floating T
  T max_value;
  KOKKOS_INLINE_FUNCTION T element(std::uint32_t w0, std::uint32_t w1, T) const {
    R u;
    uniform01_open(w0, w1, u);
    const R trials = geometric_from_uniform(u, log1p_minus_p);
    return trials < limit ? static_cast<T>(trials) : max_value;
  }
};

template <class T, if_full_t<T> = 0>
Geometric<T> make_geometric(double p, const char* function) {
  static_assert(std::is_arithmetic<T>::value && !std::is_same<T, bool>::value,
                "geometric_ needs an arithmetic View");
  using R = transform_real_t<T>;
  require_parameter(p > 0.0 && p < 1.0, function, "p", p, "must lie in (0, 1)");
  const R denominator = static_cast<R>(portable_log1p_host(-p));
  require_parameter(denominator < 0, function, "p", p,
                    "is too small: log1p(-p) rounds to 0 in the compute type");
  Geometric<T> dist;
  dist.log1p_minus_p = denominator;
  dist.limit = std::is_floating_point<T>::value ? std::numeric_limits<R>::infinity()
                                                : static_cast<R>(std::numeric_limits<T>::max());
  dist.max_value = std::numeric_limits<T>::max();
  return dist;
}

template <class T, if_reduced_t<T> = 0>
auto make_geometric(double p, const char* function) {
  return rounded_distribution<T>(make_geometric<float>(p, function));
}

// ---- trunc_normal_ ----------------------------------------------------------------------------

// Inverse-CDF truncated normal (PyTorch nn.init.trunc_normal_), see
// trunc_normal_from_uniform; u the [0, 1) uniform of T.
template <class T>
struct TruncNormal : ElementwiseDistribution<TruncNormal<T>, T> {
  T erf_lo, erf_width, scale, mean, a, b;
  KOKKOS_INLINE_FUNCTION T element(std::uint32_t w0, std::uint32_t w1, T) const {
    T u;
    uniform01(w0, w1, u);
    return trunc_normal_from_uniform(u, erf_lo, erf_width, scale, mean, a, b);
  }
};

template <class T, if_full_t<T> = 0>
TruncNormal<T> make_trunc_normal(double mean, double stddev, double a, double b,
                                 const char* function) {
  static_assert(is_floating_value<T>(), "trunc_normal_ needs a float or double View");
  require_parameter(std::isfinite(static_cast<T>(mean)), function, "mean", mean,
                    "must be finite in the value type");
  require_parameter(std::isfinite(static_cast<T>(stddev)) && static_cast<T>(stddev) > 0, function,
                    "std", stddev, "must be > 0 and finite in the value type");
  require_parameter(!std::isnan(a), function, "a", a, "must not be NaN");
  require_parameter(static_cast<T>(a) < static_cast<T>(b), function, "b", b,
                    "must be greater than a = " + format_value(a) + " (in the value type)");
  constexpr double sqrt2 = 1.4142135623730951;  // correctly rounded sqrt(2)
  const double erf_lo = portable_erf(((a - mean) / stddev) / sqrt2);
  const double erf_hi = portable_erf(((b - mean) / stddev) / sqrt2);
  TruncNormal<T> dist;
  dist.erf_lo = static_cast<T>(erf_lo);
  dist.erf_width = static_cast<T>(erf_hi) - static_cast<T>(erf_lo);
  dist.scale = static_cast<T>(stddev * sqrt2);
  dist.mean = static_cast<T>(mean);
  dist.a = static_cast<T>(a);
  dist.b = static_cast<T>(b);
  return dist;
}

template <class T, if_reduced_t<T> = 0>
auto make_trunc_normal(double mean, double stddev, double a, double b, const char* function) {
  return rounded_distribution<T>(make_trunc_normal<float>(mean, stddev, a, b, function));
}

// Whether the device columns kernel realigns its vectors between lanes for this distribution
// where a View's rows are not aligned in memory (KokkosDTensor_RealignedStores.hpp): not for
// the transforms with a logarithm, whose realigned kernel took 80 registers and ran slower
// than one row per item (exponential_ on the H200; docs/performance.md, "Layouts").
template <class Dist>
struct realigns_columns : std::true_type {};
template <class T>
struct realigns_columns<Exponential<T>> : std::false_type {};
template <class T>
struct realigns_columns<Geometric<T>> : std::false_type {};
template <class T, class FloatDist>
struct realigns_columns<RoundedDistribution<T, FloatDist>> : realigns_columns<FloatDist> {};

// Whether it also takes vector rows where rows start inside a block (each row its own shift):
// not `dropout_` on float, which ran faster with one row per item there (its 16-bit forms did
// not; the H200, docs/performance.md, "Layouts").
template <class Dist>
struct shifts_columns : realigns_columns<Dist> {};
template <>
struct shifts_columns<Dropout<float>> : std::false_type {};

// Whether one row per device work item, where rows start inside a block, draws the item's
// blocks in the shifted kernel's loop (one block more an item, where the K-block form draws
// one more per K): the transforms with a logarithm, which do not realign and are bound by
// instructions (exponential_ f32 gained 21 % on the H100); dropout_ f32 and the 8-byte types
// lost 7-20 % by it (docs/performance.md, "Layouts").
template <class Dist>
struct shifts_in_row_loop
    : std::integral_constant<bool, !realigns_columns<Dist>::value && !Dist::reads_input &&
                                       sizeof(typename Dist::value_type) <= 4> {};

// Whether its realigned kernel gives lane 0 of each warp to repeating the warp before's last
// group of rows, so that only a run's ends store by element: a 32nd more draws and transforms
// for fewer stores. Not for the ops bound by instructions, which lost by it on the H100: the
// long transforms (the normal table's, trunc_normal_) and the 16-bit ones but dropout_, which
// reads as it writes (docs/performance.md, "Layouts").
template <class Dist>
struct realigned_lookbehind : std::integral_constant<bool, !uses_shared_normal_table<Dist>::value> {
};
template <class T>
struct realigned_lookbehind<TruncNormal<T>> : std::false_type {};
template <class T, class FloatDist>
struct realigned_lookbehind<RoundedDistribution<T, FloatDist>>
    : std::integral_constant<bool, FloatDist::reads_input> {};

// The distributions whose transform is a few instructions a value: their fills are bound by
// stores, not by instructions (host lanes kernel: 2 Philox chains; device columns kernels: no
// opaque column pointer, which cost them on the H100; docs/performance.md, "Layouts").
template <class Dist>
struct has_cheap_transform : std::false_type {};
template <class T>
struct has_cheap_transform<Uniform<T>> : std::true_type {};
template <class T>
struct has_cheap_transform<StandardUniform<T>> : std::true_type {};
template <class T>
struct has_cheap_transform<Bernoulli<T>> : std::true_type {};
template <class T>
struct has_cheap_transform<RandomBits<T>> : std::true_type {};
template <class T>
struct has_cheap_transform<RandInt<T>> : std::true_type {};

// Whether its realigned kernel has a copy for warps that are one group of rows, with
// constant-mask shuffles and each whole block's stores chosen by its phase pattern: the normal
// table's transforms, bound by instructions, gained by it on the H100; so did the cheap
// transforms on the H200 (bound by issue there, with the lookbehind's stores that test no
// neighbour: 5-12 % less time), which lost up to 5 % on the H100; trunc_normal_ lost, and
// each copy is a second item loop to compile. 16-bit: the ops that read no input, bound by
// the ALU pipe, gained by it; dropout_ lost (docs/performance.md, "Layouts").
template <class Dist>
struct realigned_whole_warp : std::integral_constant<bool, uses_shared_normal_table<Dist>::value ||
                                                               has_cheap_transform<Dist>::value> {};
template <class T, class FloatDist>
struct realigned_whole_warp<RoundedDistribution<T, FloatDist>>
    : std::integral_constant<bool, !FloatDist::reads_input> {};

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
