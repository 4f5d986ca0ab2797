// Reduced precision (SPEC section 2, issue 29): half_t and bhalf_t take float's words and an
// element is the float result of the same op rounded once to nearest-even.
//  - The rounding functions against an independent reference (the nearest value of a table
//    of every 16-bit value, decoded with ldexp in double): ties, subnormals, overflow, NaN.
//  - Every op's distribution on private 16-bit types (TestHalf, TestBHalf: declared 16-bit
//    formats below), so that the 16-bit kernels run in host-only builds, where Kokkos' half_t
//    is float: each element equals the rounded float fill bit for bit, the offset advances as
//    float's. To keep the compile time down, the private types take the generic kernel for
//    every op, the other kernels (automatic, rows_device) for dropout_ and normal_ only.
//  - The same on Kokkos' half_t and bhalf_t, on the test's execution space and the host's:
//    where they are 16-bit (GPU builds) the rounded float fill, where they are float (and
//    Kokkos 3.4 has no bhalf_t: half_t again) exactly float's fill.

#include <gtest/gtest.h>

#include "TestSpace.hpp"

#include <KokkosDTensor_Rng.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <impl/KokkosDTensor_FillDispatch.hpp>
#include <impl/KokkosDTensor_ReducedPrecision.hpp>
#include <random>
#include <string>
#include <vector>

// Two private 16-bit floating types: binary16 and bfloat16 storage only.
struct TestHalf {
  std::uint16_t bits;
  explicit operator double() const;  // (bernoulli_(t, probabilities) checks p on the host)
};
struct TestBHalf {
  std::uint16_t bits;
  explicit operator double() const;
};
namespace KokkosDTensor {
namespace Impl {
template <>
struct ReducedFloatFormat<TestHalf> : std::true_type {
  static constexpr bool bfloat16 = false;
};
template <>
struct ReducedFloatFormat<TestBHalf> : std::true_type {
  static constexpr bool bfloat16 = true;
};
}  // namespace Impl
}  // namespace KokkosDTensor
TestHalf::operator double() const { return KokkosDTensor::Impl::f16_bits_to_float(bits); }
TestBHalf::operator double() const { return KokkosDTensor::Impl::bf16_bits_to_float(bits); }

namespace kdt = KokkosDTensor;
namespace Impl = KokkosDTensor::Impl;

namespace {

// ---- the rounding functions against an independent reference --------------------------

std::uint32_t bits_of_float(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}
float float_of_bits(std::uint32_t u) {
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

// The value of every non-negative 16-bit pattern up to the largest finite one, decoded in
// double from its fields, then one more: the value the format would have next if its
// exponent went on (the overflow threshold: IEEE rounds to infinity from there).
struct Format16 {
  int mantissa_bits;  // 10 (binary16) or 7 (bfloat16)
  int bias;           // 15 or 127
  std::uint16_t infinity;
  std::vector<double> value;  // value[bits] for bits = 0 .. infinity (the last: 2^(emax+1))

  Format16(int m, int e_bits) : mantissa_bits(m), bias((1 << (e_bits - 1)) - 1) {
    infinity = static_cast<std::uint16_t>(((1 << e_bits) - 1) << m);
    for (std::uint32_t bits = 0; bits <= infinity; ++bits) {
      const int exponent = static_cast<int>(bits >> m);
      const double mantissa = static_cast<double>(bits & ((1u << m) - 1));
      value.push_back(exponent == 0
                          ? std::ldexp(mantissa, 1 - bias - m)
                          : std::ldexp(mantissa + std::ldexp(1.0, m), exponent - bias - m));
    }
  }

  // Round to nearest, ties to the even pattern, of a finite float, by search in the table.
  std::uint16_t round(float x) const {
    const std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
    const double a = std::fabs(static_cast<double>(x));
    if (a >= value.back()) return sign | infinity;
    const auto above = std::lower_bound(value.begin(), value.end(), a);
    std::size_t hi = static_cast<std::size_t>(above - value.begin());
    if (value[hi] == a) return static_cast<std::uint16_t>(sign | hi);
    const std::size_t lo = hi - 1;
    const double below = a - value[lo], over = value[hi] - a;
    const std::size_t pick = below < over ? lo : over < below ? hi : (lo % 2 == 0 ? lo : hi);
    return static_cast<std::uint16_t>(sign | pick);
  }
};

const Format16& binary16() {
  static const Format16 format(10, 5);
  return format;
}
const Format16& bfloat16() {
  static const Format16 format(7, 8);
  return format;
}

// Compares both directions for `x`; returns false (once reported) on a difference.
bool check_rounding(float x, int& failures) {
  const std::uint16_t h = Impl::float_to_f16_bits(x), b = Impl::float_to_bf16_bits(x);
  if (std::isnan(x)) {
    // A quiet NaN of x's sign (binary16: quiet bit 0x200, bfloat16: 0x40).
    const std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
    const bool ok = (h & 0x8000) == sign && (h & 0x7E00) == 0x7E00 && (b & 0x8000) == sign &&
                    (b & 0x7FC0) == 0x7FC0;
    if (!ok && failures++ < 10)
      ADD_FAILURE() << "NaN " << std::hex << bits_of_float(x) << ": f16 " << h << " bf16 " << b;
    return ok;
  }
  const std::uint16_t h_ref = binary16().round(x), b_ref = bfloat16().round(x);
  const bool ok = h == h_ref && b == b_ref;
  if (!ok && failures++ < 10)
    ADD_FAILURE() << "float " << std::hex << bits_of_float(x) << " (" << std::hexfloat << x
                  << "): f16 " << h << " reference " << h_ref << ", bf16 " << b << " reference "
                  << b_ref;
  return ok;
}

// The float patterns that decide a rounding: for every sign, exponent and the kept high
// mantissa bits of both formats, the dropped low bits 0, 1, just below half, half, just
// above half, all ones, and a random pattern.
std::vector<std::uint32_t> dense_float_sample() {
  std::vector<std::uint32_t> sample;
  std::mt19937 random(29);
  for (std::uint32_t high = 0; high < (1u << 19); ++high) {  // sign, exponent, 10 bits
    const std::uint32_t base = high << 13;
    for (std::uint32_t low : {0u, 1u, 0xFFFu, 0x1000u, 0x1001u, 0x1FFFu,
                              static_cast<std::uint32_t>(random() & 0x1FFFu)})
      sample.push_back(base | low);
  }
  for (std::uint32_t high = 0; high < (1u << 16); ++high) {  // sign, exponent, 7 bits
    const std::uint32_t base = high << 16;
    for (std::uint32_t low :
         {1u, 0x7FFFu, 0x8000u, 0x8001u, 0xFFFFu, static_cast<std::uint32_t>(random() & 0xFFFFu)})
      sample.push_back(base | low);
  }
  // binary16 subnormals drop 14 to 24 bits: halves and their neighbours at every shift.
  for (std::uint32_t exponent = 100; exponent <= 113; ++exponent) {
    for (std::uint32_t kept = 0; kept < 64; ++kept) {
      for (std::uint32_t shift = 13; shift <= 24; ++shift) {
        const std::uint32_t half = 1u << (shift - 1);
        for (std::uint32_t low : {half - 1, half, half + 1}) {
          const std::uint32_t mantissa = ((kept << shift) | low) & 0x7FFFFFu;
          sample.push_back(exponent << 23 | mantissa);
          sample.push_back(0x80000000u | exponent << 23 | mantissa);
        }
      }
    }
  }
  for (int i = 0; i < 1000000; ++i) sample.push_back(static_cast<std::uint32_t>(random()));
  return sample;
}

TEST(ReducedPrecisionRounding, KnownValues) {
  EXPECT_EQ(Impl::float_to_f16_bits(1.0f), 0x3C00);
  EXPECT_EQ(Impl::float_to_f16_bits(-2.0f), 0xC000);
  EXPECT_EQ(Impl::float_to_f16_bits(65504.0f), 0x7BFF);
  EXPECT_EQ(Impl::float_to_f16_bits(65519.99609375f), 0x7BFF);
  EXPECT_EQ(Impl::float_to_f16_bits(65520.0f), 0x7C00);  // the tie goes to the even: infinity
  EXPECT_EQ(Impl::float_to_f16_bits(0x1p-24f), 0x0001);
  EXPECT_EQ(Impl::float_to_f16_bits(0x1p-25f), 0x0000);         // tie: to +0
  EXPECT_EQ(Impl::float_to_f16_bits(0x1.000002p-25f), 0x0001);  // above the tie
  EXPECT_EQ(Impl::float_to_f16_bits(0x3p-25f), 0x0002);         // tie 1.5 ulp: to even 2
  EXPECT_EQ(Impl::float_to_f16_bits(-0.0f), 0x8000);
  EXPECT_EQ(Impl::float_to_f16_bits(1.0f + 0x1p-11f), 0x3C00);  // tie: to even 1
  EXPECT_EQ(Impl::float_to_f16_bits(1.0f + 0x3p-11f), 0x3C02);  // tie: to even
  EXPECT_EQ(Impl::float_to_bf16_bits(1.0f), 0x3F80);
  EXPECT_EQ(Impl::float_to_bf16_bits(1.0f + 0x1p-8f), 0x3F80);  // tie: to even 1
  EXPECT_EQ(Impl::float_to_bf16_bits(1.0f + 0x3p-8f), 0x3F82);
  EXPECT_EQ(Impl::float_to_bf16_bits(3.40282347e38f), 0x7F80);  // rounds past the largest
  EXPECT_EQ(Impl::float_to_bf16_bits(0x1p-149f), 0x0000);       // float subnormal: tie to 0
  EXPECT_EQ(Impl::float_to_bf16_bits(0x1p-133f), 0x0001);       // smallest bf16 subnormal
  EXPECT_EQ(Impl::float_to_bf16_bits(-std::numeric_limits<float>::infinity()), 0xFF80);
  EXPECT_EQ(Impl::float_to_f16_bits(std::numeric_limits<float>::infinity()), 0x7C00);
  EXPECT_EQ(Impl::float_to_f16_bits(float_of_bits(0x7F800001u)), 0x7E00);  // signalling: quiet
  EXPECT_EQ(Impl::float_to_bf16_bits(float_of_bits(0xFF800001u)), 0xFFC0);
}

// Every float of the dense sample (about 5.5 million) against the table reference.
TEST(ReducedPrecisionRounding, DenseSampleMatchesReference) {
  int failures = 0;
  for (const std::uint32_t u : dense_float_sample()) check_rounding(float_of_bits(u), failures);
  EXPECT_EQ(failures, 0);
}

// All 2^32 floats (166 s on one Zen 4 core): --gtest_also_run_disabled_tests.
TEST(ReducedPrecisionRounding, DISABLED_EveryFloatMatchesReference) {
  int failures = 0;
  std::uint32_t u = 0;
  do {
    check_rounding(float_of_bits(u), failures);
  } while (++u != 0);
  EXPECT_EQ(failures, 0);
}

// 16-bit to float is exact: every pattern's value is the table's; NaN stays NaN (quiet,
// same sign), and rounding the float back gives the pattern.
TEST(ReducedPrecisionRounding, EveryPatternConvertsToFloatExactly) {
  for (std::uint32_t bits = 0; bits < 0x10000u; ++bits) {
    const std::uint16_t b16 = static_cast<std::uint16_t>(bits);
    const bool negative = bits & 0x8000u;
    const std::uint32_t magnitude = bits & 0x7FFFu;
    for (const bool bf : {false, true}) {
      const Format16& format = bf ? bfloat16() : binary16();
      const float x = bf ? Impl::bf16_bits_to_float(b16) : Impl::f16_bits_to_float(b16);
      const std::uint16_t back = bf ? Impl::float_to_bf16_bits(x) : Impl::float_to_f16_bits(x);
      if (magnitude > format.infinity) {
        EXPECT_TRUE(std::isnan(x)) << std::hex << bits;
        EXPECT_EQ(std::signbit(x), negative) << std::hex << bits;
        EXPECT_TRUE(bits_of_float(x) & 0x400000u) << std::hex << bits;  // quiet
        continue;
      }
      const double expected = magnitude == format.infinity ? std::numeric_limits<double>::infinity()
                                                           : format.value[magnitude];
      EXPECT_EQ(static_cast<double>(x), negative ? -expected : expected) << std::hex << bits;
      EXPECT_EQ(std::signbit(x), negative) << std::hex << bits;
      EXPECT_EQ(back, b16) << std::hex << bits;
    }
  }
}

// Every 16-bit pattern converted to float on TestSpace (by the conversion instructions on
// NVIDIA devices) gives the host's bits: the words of float element i and 65536 + i.
struct ConvertEveryPattern {
  Kokkos::View<std::uint32_t*, TestSpace> out;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    const std::uint16_t b16 = static_cast<std::uint16_t>(i);
    out(i) = Impl::float_to_bits(Impl::f16_bits_to_float(b16));
    out(0x10000 + i) = Impl::float_to_bits(Impl::bf16_bits_to_float(b16));
  }
};

TEST(ReducedPrecisionRounding, EveryPatternConvertsOnTheTestSpaceAsOnTheHost) {
  ConvertEveryPattern convert{Kokkos::View<std::uint32_t*, TestSpace>("out", 0x20000)};
  Kokkos::parallel_for(Kokkos::RangePolicy<TestSpace>(0, 0x10000), convert);
  const auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), convert.out);
  int mismatches = 0;
  for (std::uint32_t bits = 0; bits < 0x10000u; ++bits) {
    const std::uint16_t b16 = static_cast<std::uint16_t>(bits);
    const std::uint32_t f16 = bits_of_float(Impl::f16_bits_to_float(b16));
    const std::uint32_t bf16 = bits_of_float(Impl::bf16_bits_to_float(b16));
    if (got(bits) != f16 || got(0x10000 + bits) != bf16) {
      if (++mismatches <= 8)
        ADD_FAILURE() << std::hex << "pattern " << bits << ": f16 " << got(bits) << " (host " << f16
                      << "), bf16 " << got(0x10000 + bits) << " (host " << bf16 << ")";
    }
  }
  EXPECT_EQ(mismatches, 0);
}

// uniform_'s bound rule is one compare with Impl::least_float_rounding_to: for every finite
// pattern, that float rounds to the pattern (table reference) and the float below it does
// not; TestSpace (the conversion instructions on NVIDIA devices) gives the host's floats.
template <class T>
struct LeastFloatEveryPattern {
  Kokkos::View<std::uint32_t*, TestSpace> out;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    out(i) = Impl::float_to_bits(Impl::least_float_rounding_to<T>(static_cast<std::uint16_t>(i)));
  }
};

template <class T>
void check_least_float_rounding_to() {
  const Format16& format = Impl::ReducedFloatFormat<T>::bfloat16 ? bfloat16() : binary16();
  LeastFloatEveryPattern<T> least{Kokkos::View<std::uint32_t*, TestSpace>("least", 0x10000)};
  Kokkos::parallel_for(Kokkos::RangePolicy<TestSpace>(0, 0x10000), least);
  const auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), least.out);
  int failures = 0, checked = 0;
  for (std::uint32_t bits = 0; bits < 0x10000u; ++bits) {
    if ((bits & 0x7FFFu) >= format.infinity) continue;  // not finite
    const std::uint16_t b16 = static_cast<std::uint16_t>(bits);
    const float t = Impl::least_float_rounding_to<T>(b16);
    const float below = std::nextafter(t, -std::numeric_limits<float>::infinity());
    ++checked;
    if (format.round(t) == b16 && format.round(below) != b16 && got(bits) == bits_of_float(t))
      continue;
    if (failures++ < 8)
      ADD_FAILURE() << std::hex << "pattern " << bits << ": least float " << std::hexfloat << t
                    << " rounds to " << format.round(t) << ", the float below to "
                    << format.round(below) << "; TestSpace gave " << got(bits);
  }
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(checked, 2 * format.infinity);
}

TEST(ReducedPrecisionRounding, LeastFloatRoundingToEveryPattern) {
  check_least_float_rounding_to<TestHalf>();
  check_least_float_rounding_to<TestBHalf>();
}

// ---- the ops on 16-bit Views against the rounded float fill ------------------------------

// The bits of a value (of float: its 32 bits; of a 16-bit type: its 16).
template <class T>
std::uint32_t bits_of(const T& value) {
  if constexpr (Impl::is_reduced_float<T>())
    return Impl::reduced_to_bits(value);
  else
    return bits_of_float(static_cast<float>(value));
}

// T holding `x` (exactly representable in T where used).
template <class T>
T from_float(float x) {
  if constexpr (Impl::is_reduced_float<T>())
    return Impl::round_to_reduced<T>(x);
  else
    return static_cast<T>(x);
}

// What a T element is where the float fill has `x`: its bits rounded (a rounded `to`
// becoming `from` when the op is a uniform_ on [from, to)), or x itself where T is float.
template <class T>
std::uint32_t expected_bits(float x, const float* bounds) {
  if constexpr (Impl::is_reduced_float<T>()) {
    const std::uint16_t bits = Impl::round_to_reduced_bits<T>(x);
    if (bounds && bits == Impl::round_to_reduced_bits<T>(bounds[1]))
      return Impl::round_to_reduced_bits<T>(bounds[0]);
    return bits;
  } else {
    return bits_of_float(x);
  }
}

// A block of four words through `rounded` on TestSpace: the fill kernels' form of the rule
// (on NVIDIA devices a packed compare on the rounded pairs, not the float compare).
template <class T, class Rounded>
struct BoundRuleBlocks {
  Rounded rounded;
  Kokkos::View<std::uint32_t*, TestSpace> words;
  Kokkos::View<std::uint16_t*, TestSpace> out;
  KOKKOS_INLINE_FUNCTION void operator()(const int b) const {
    Impl::PhiloxBlock block;
    for (int e = 0; e < 4; ++e) block.word[e] = words(4 * b + e);
    T values[4] = {};
    rounded(block, values);
    for (int e = 0; e < 4; ++e) out(4 * b + e) = Impl::reduced_to_bits(values[e]);
  }
};

template <class T, class Rounded>
std::vector<std::uint16_t> blocks_on_test_space(const Rounded& rounded,
                                                const std::vector<std::uint32_t>& words) {
  BoundRuleBlocks<T, Rounded> f{rounded,
                                Kokkos::View<std::uint32_t*, TestSpace>("words", words.size()),
                                Kokkos::View<std::uint16_t*, TestSpace>("out", words.size())};
  Kokkos::deep_copy(
      f.words, Kokkos::View<const std::uint32_t*, Kokkos::HostSpace>(words.data(), words.size()));
  Kokkos::parallel_for(Kokkos::RangePolicy<TestSpace>(0, static_cast<int>(words.size() / 4)), f);
  const auto out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.out);
  return std::vector<std::uint16_t>(out.data(), out.data() + out.size());
}

// The bound rule at the words that reach it: a draw of uniform_(from, to) on T equals the
// float draw rounded, a rounded `to` becoming `from`, for the words whose float value is
// nearest `to` (and a sample), element by element on the host and in blocks on TestSpace
// (for (0, 1) also as the fill kernels run it: StandardUniform with the same rule). 1 - 2^-12
// rounds to 1 in binary16 by a tie: the least float that rounds there is `to` itself, so the
// float's clamp below `to` decides.
template <class T>
void check_bound_rule_words(float from, float to) {
  const auto rounded = Impl::make_uniform<T>(from, to, "test");
  const auto dist = Impl::make_uniform<float>(from, to, "test");
  const float bounds[2] = {from, to};
  std::mt19937 random(30);
  std::vector<std::uint32_t> words(1u << 18), want(words.size());
  int failures = 0;
  for (std::uint32_t k = 0; k < words.size(); ++k) {
    const std::uint32_t w = k < (1u << 17) ? 0xFFFFFFFFu - k * 0x80u : random();
    words[k] = w;
    want[k] = expected_bits<T>(dist.element(w, w, 0.0f), bounds);
    const std::uint32_t got = Impl::reduced_to_bits(rounded.element(w, w, T()));
    if (got != want[k] && failures++ < 5)
      ADD_FAILURE() << "uniform_(" << from << ", " << to << ") word " << std::hex << w << ": "
                    << got << ", the rounded float draw " << want[k];
  }
  const auto check_blocks = [&](const std::vector<std::uint16_t>& got, const char* form) {
    for (std::size_t k = 0; k < words.size(); ++k)
      if (got[k] != want[k] && failures++ < 5)
        ADD_FAILURE() << form << " uniform_(" << from << ", " << to << ") word " << std::hex
                      << words[k] << ": " << got[k] << ", the rounded float draw " << want[k];
  };
  check_blocks(blocks_on_test_space<T>(rounded, words), "blocks");
  if (from == 0 && to == 1)
    check_blocks(blocks_on_test_space<T>(Impl::rounded_standard_uniform(rounded), words),
                 "standard blocks");
  EXPECT_EQ(failures, 0);
}

TEST(ReducedPrecisionRounding, BoundRuleAtTheTopWords) {
  for (const float to : {1.0f, 2.0f, 3.0f, 1.0f - 0x1p-12f, 1.0f - 0x1p-9f, 65504.0f}) {
    check_bound_rule_words<TestHalf>(0.5f, to);
    check_bound_rule_words<TestBHalf>(0.5f, to);
  }
  check_bound_rule_words<TestHalf>(0.0f, 1.0f);
  check_bound_rule_words<TestBHalf>(0.0f, 1.0f);
  check_bound_rule_words<TestHalf>(-2.0f, 3.0f);
  check_bound_rule_words<TestBHalf>(-1.0f, -0x1p-30f);  // `to` rounds to -0
  check_bound_rule_words<TestHalf>(-1.0f, 0x1p-30f);    // `to` rounds to +0
  check_bound_rule_words<TestHalf>(-0.25f, 0x1p-30f);   // ... and the top word's value to -0
}

// The rule on rounded values (Impl::replace_at_or_above, the fill kernels' form: on NVIDIA
// devices a packed compare of two values) for every finite pattern against thresholds at the
// zeros, at +-1, at the smallest and largest values: replaced exactly when the value is at or
// above the threshold in the table's order, where -0 lies below +0 (the float rule's order).
template <class T>
struct ReplaceEveryPattern {
  std::uint16_t threshold, replacement;
  Kokkos::View<std::uint16_t*, TestSpace> out;
  KOKKOS_INLINE_FUNCTION void operator()(const int b) const {
    T values[4];
    for (int e = 0; e < 4; ++e) values[e] = Impl::reduced_from_bits<T>(std::uint16_t(4 * b + e));
    Impl::replace_at_or_above(values, threshold, replacement);
    for (int e = 0; e < 4; ++e) out(4 * b + e) = Impl::reduced_to_bits(values[e]);
  }
};

template <class T>
void check_replace_at_or_above() {
  const Format16& format = Impl::ReducedFloatFormat<T>::bfloat16 ? bfloat16() : binary16();
  // A pattern's place in the order: its value, -0 just below +0.
  const auto place = [&](std::uint16_t bits) {
    const double magnitude = format.value[bits & 0x7FFFu];
    if (bits == 0x8000u) return -std::ldexp(format.value[1], -1);
    return (bits & 0x8000u) ? -magnitude : magnitude;
  };
  const std::uint16_t largest = static_cast<std::uint16_t>(format.infinity - 1);
  const std::uint16_t one = format.round(1.0f);
  for (const std::uint16_t threshold :
       {std::uint16_t(0), std::uint16_t(0x8000), one, std::uint16_t(one | 0x8000), std::uint16_t(1),
        std::uint16_t(0x8001), largest, std::uint16_t(largest | 0x8000)}) {
    const std::uint16_t replacement = format.round(-0.375f);
    ReplaceEveryPattern<T> f{threshold, replacement,
                             Kokkos::View<std::uint16_t*, TestSpace>("out", 0x10000)};
    Kokkos::parallel_for(Kokkos::RangePolicy<TestSpace>(0, 0x4000), f);
    const auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.out);
    int failures = 0;
    for (std::uint32_t bits = 0; bits < 0x10000u; ++bits) {
      if ((bits & 0x7FFFu) >= format.infinity) continue;  // not finite
      const std::uint16_t b16 = static_cast<std::uint16_t>(bits);
      const std::uint16_t want = place(b16) >= place(threshold) ? replacement : b16;
      if (got(bits) != want && failures++ < 5)
        ADD_FAILURE() << std::hex << "threshold " << threshold << ", pattern " << bits << ": "
                      << got(bits) << ", expected " << want;
    }
    EXPECT_EQ(failures, 0) << "threshold " << std::hex << threshold;
  }
}

TEST(ReducedPrecisionRounding, ReplaceAtOrAboveEveryPattern) {
  check_replace_at_or_above<TestHalf>();
  check_replace_at_or_above<TestBHalf>();
}

// An input value for the ops that read one (dropout_, bernoulli_ probabilities): exact in
// float, binary16 and bfloat16; NaN at every 23rd (a NaN stays NaN).
float input_value(std::size_t i) {
  if (i % 23 == 22) return std::numeric_limits<float>::quiet_NaN();
  return static_cast<float>(static_cast<int>(i % 23) - 11) / 8;
}
float probability_value(std::size_t i) { return static_cast<float>(i % 9) / 8; }

template <class ViewType>
void set_inputs(const ViewType& view, float (*value)(std::size_t)) {
  using T = typename ViewType::non_const_value_type;
  auto host = Kokkos::create_mirror_view(view);
  for (std::size_t i = 0; i < host.extent(0); ++i)
    for (std::size_t j = 0; j < host.extent(1); ++j)
      host(i, j) = from_float<T>(value(i * host.extent(1) + j));
  Kokkos::deep_copy(view, host);
}

constexpr std::size_t kRows = 37, kCols = 29;  // rows of 29: blocks straddle them
const kdt::RNGState kStart{0x123456789ABCDEFull, 4096};

// Runs op(view, gen) on a float View and on a T View from the same state (after `prepare`
// on each), and expects the same state after, and each T element the rounded float element.
template <class T, class Space, class Layout, class Op>
void expect_rounded_float_fill(const std::string& name, Op op, const float* bounds = nullptr) {
  Kokkos::View<float**, Layout, Space> f("f", kRows, kCols);
  Kokkos::View<T**, Layout, Space> h("h", kRows, kCols);
  kdt::Generator gen_f, gen_h;
  gen_f.set_state(kStart);
  gen_h.set_state(kStart);
  op(f, gen_f);
  op(h, gen_h);
  Kokkos::fence();
  EXPECT_EQ(gen_h.get_state().offset, gen_f.get_state().offset) << name;
  EXPECT_EQ(gen_h.get_state().offset, kStart.offset + (kRows * kCols + 3) / 4 * 4) << name;
  const auto host_f = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f);
  const auto host_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), h);
  int failures = 0;
  for (std::size_t i = 0; i < kRows; ++i) {
    for (std::size_t j = 0; j < kCols; ++j) {
      const std::uint32_t got = bits_of(host_h(i, j));
      const std::uint32_t want = expected_bits<T>(host_f(i, j), bounds);
      if (got != want && failures++ < 5)
        ADD_FAILURE() << name << " at (" << i << ", " << j << "): " << std::hex << got
                      << ", the rounded float fill " << want << " (float " << std::hexfloat
                      << host_f(i, j) << ")";
    }
  }
  EXPECT_EQ(failures, 0) << name;
}

// The ops of check_every_op: `Op()(v, gen)` runs the public op, `Op::dist<T>()` makes its
// distribution for T (KDT_TEST_OP: CALL and DIST). Structs, not generic lambdas: nvcc 13's
// front end crashed on those lambdas inside check_every_op (a function template).
#define KDT_TEST_OP(NAME, CALL, DIST)                      \
  struct NAME {                                            \
    template <class V>                                     \
    void operator()(const V& v, kdt::Generator& g) const { \
      CALL;                                                \
    }                                                      \
    template <class T>                                     \
    static auto dist() {                                   \
      return DIST;                                         \
    }                                                      \
  };
KDT_TEST_OP(UniformOneTwo, kdt::uniform_(v, 1, 2, g), Impl::make_uniform<T>(1, 2, "test"))
KDT_TEST_OP(UniformDefault, kdt::uniform_(v, g), Impl::make_uniform<T>(0, 1, "test"))
KDT_TEST_OP(UniformWide, kdt::uniform_(v, -2, 3, g), Impl::make_uniform<T>(-2, 3, "test"))
KDT_TEST_OP(NormalOp, kdt::normal_(v, 0.5, 2, g), Impl::make_normal<T>(0.5, 2, "test"))
KDT_TEST_OP(DropoutOp, kdt::dropout_(v, 0.4, g), Impl::make_dropout<T>(0.4, "test"))
KDT_TEST_OP(LogNormalOp, kdt::log_normal_(v, 0.2, 0.7, g),
            Impl::make_log_normal<T>(0.2, 0.7, "test"))
KDT_TEST_OP(ExponentialOp, kdt::exponential_(v, 1.5, g), Impl::make_exponential<T>(1.5, "test"))
KDT_TEST_OP(TruncNormalOp, kdt::trunc_normal_(v, 0, 1, -1, 2, g),
            Impl::make_trunc_normal<T>(0, 1, -1, 2, "test"))
KDT_TEST_OP(GeometricOp, kdt::geometric_(v, 0.2, g), Impl::make_geometric<T>(0.2, "test"))
KDT_TEST_OP(BernoulliOp, kdt::bernoulli_(v, 0.3, g), Impl::make_bernoulli<T>(0.3, "test"))
#undef KDT_TEST_OP
struct BernoulliProbabilitiesOp {
  template <class V>
  void operator()(const V& v, kdt::Generator& g) const {
    V p("p", v.extent(0), v.extent(1));
    set_inputs(p, probability_value);
    kdt::bernoulli_(v, p, g);
  }
  template <class T>
  static auto dist() {
    return Impl::make_bernoulli_from_input<T>("test");
  }
};
// The ops that replay a state: from the generator's, which they leave where it is; the
// generator then draws a dropout_ of the same size, so that the offsets compare too.
template <bool Mask>  // dropout_mask_, else dropout_backward_
struct DropoutReplayOp {
  template <class V>
  void operator()(const V& v, kdt::Generator& g) const {
    if constexpr (Mask)
      kdt::dropout_mask_(v, 0.4, g.get_state());
    else
      kdt::dropout_backward_(v, 0.4, g.get_state());
    V other("other", v.extent(0), v.extent(1));
    kdt::dropout_(other, 0.4, g);
  }
  template <class T>
  static auto dist() {
    if constexpr (Mask)
      return Impl::make_dropout_mask<T, T>(0.4, "test");
    else
      return Impl::make_dropout<T>(0.4, "test");
  }
};
// native_dropout_ writes two Views: the one checked is the mask or the data.
template <bool CheckMask>
struct NativeDropoutOp {
  template <class V>
  void operator()(const V& v, kdt::Generator& g) const {
    V other("other", v.extent(0), v.extent(1));
    set_inputs(CheckMask ? other : v, input_value);
    if (CheckMask)
      kdt::native_dropout_(other, v, 0.4, g);
    else
      kdt::native_dropout_(v, other, 0.4, g);
  }
};

// An op for expect_rounded_float_fill: Op()(v, gen) (the public op) on a float View, and on
// a T View too unless Generic; with Generic, on a T View the distribution Op::dist<T>()
// through the generic kernel from the generator's state, which then advances as the op's
// (for the private types: few kernels to compile; check_paths runs the others). `input`, if
// any, sets the Views' values first (dropout_ reads them, bernoulli_ takes them as p).
template <bool Generic, class Op>
struct OpOrDistribution {
  float (*input)(std::size_t) = nullptr;
  template <class ViewType>
  void operator()(const ViewType& v, kdt::Generator& g) const {
    using T = typename ViewType::value_type;
    if (input) set_inputs(v, input);
    if constexpr (!Generic || std::is_same<T, float>::value) {
      Op()(v, g);
    } else {
      const auto state = g.get_state();
      Impl::fill_random_with<Impl::FillPath::generic>(typename ViewType::execution_space(), v,
                                                      Op::template dist<T>(), state,
                                                      Impl::whole_view_box(v));
      g.set_state({state.seed, Impl::offset_after(state, 1, v.size(), "test")});
    }
  }
};

template <class T, class Space, class Layout, bool Generic, class Op>
void check_op(const char* name, const float* bounds = nullptr,
              float (*input)(std::size_t) = nullptr) {
  expect_rounded_float_fill<T, Space, Layout>(name, OpOrDistribution<Generic, Op>{input}, bounds);
}

// Every floating op on T Views of `Layout` in `Space` (Generic: see OpOrDistribution; not
// AllOps: uniform_(1, 2), normal_ and dropout_ only).
template <class T, class Space, class Layout, bool Generic, bool AllOps = true>
void check_every_op() {
  static const float unit[2] = {0.0f, 1.0f}, wide[2] = {-2.0f, 3.0f}, one_two[2] = {1.0f, 2.0f};
  check_op<T, Space, Layout, Generic, UniformOneTwo>("uniform_(1, 2)", one_two);
  check_op<T, Space, Layout, Generic, NormalOp>("normal_");
  check_op<T, Space, Layout, Generic, DropoutOp>("dropout_", nullptr, input_value);
  if constexpr (AllOps) {
    check_op<T, Space, Layout, Generic, UniformDefault>("uniform_", unit);
    check_op<T, Space, Layout, Generic, UniformWide>("uniform_(-2, 3)", wide);
    check_op<T, Space, Layout, Generic, LogNormalOp>("log_normal_");
    check_op<T, Space, Layout, Generic, ExponentialOp>("exponential_");
    check_op<T, Space, Layout, Generic, TruncNormalOp>("trunc_normal_");
    check_op<T, Space, Layout, Generic, GeometricOp>("geometric_");
    check_op<T, Space, Layout, Generic, BernoulliOp>("bernoulli_(p)");
    check_op<T, Space, Layout, Generic, BernoulliProbabilitiesOp>("bernoulli_(probabilities)",
                                                                  nullptr, probability_value);
    check_op<T, Space, Layout, Generic, DropoutReplayOp<false>>("dropout_backward_", nullptr,
                                                                input_value);
    check_op<T, Space, Layout, Generic, DropoutReplayOp<true>>("dropout_mask_");
    if constexpr (!Generic) {
      check_op<T, Space, Layout, false, NativeDropoutOp<true>>("native_dropout_ (mask)");
      check_op<T, Space, Layout, false, NativeDropoutOp<false>>("native_dropout_ (data)");
    }
  }
}

// Device-callable: a parameter of a stream draw as a V (exact values only).
template <class V>
KOKKOS_INLINE_FUNCTION V value_as(float x) {
  if constexpr (Impl::is_reduced_float<V>())
    return Impl::round_to_reduced<V>(x);
  else
    return static_cast<V>(x);
}

// The stream draws, as the ops that match them.
struct UniformDraw {
  template <class V>
  KOKKOS_INLINE_FUNCTION V get(kdt::ElementDraws e) const {
    return e.uniform<V>();
  }
};
struct UniformFromToDraw {
  template <class V>
  KOKKOS_INLINE_FUNCTION V get(kdt::ElementDraws e) const {
    return e.uniform<V>(value_as<V>(-2.0f), value_as<V>(3.0f));
  }
};
struct NormalDraw {
  template <class V>
  KOKKOS_INLINE_FUNCTION V get(kdt::ElementDraws e) const {
    return e.normal<V>(value_as<V>(0.5f), value_as<V>(2.0f));
  }
};
struct ExponentialDraw {
  template <class V>
  KOKKOS_INLINE_FUNCTION V get(kdt::ElementDraws e) const {
    return e.exponential<V>(value_as<V>(1.5f));
  }
};
struct BernoulliDraw {
  template <class V>
  KOKKOS_INLINE_FUNCTION V get(kdt::ElementDraws e) const {
    return e.bernoulli<V>(0.3);
  }
};

// v(L) = draw(element L) for a contiguous View, over a reservation of the View's size.
template <class V, class Space, class Draw>
struct StreamFill {
  Kokkos::View<V*, Space> flat;
  kdt::RandomStream stream;
  Draw draw;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t L) const {
    flat(L) = draw.template get<V>(stream.element(L));
  }
};

template <class Space, class Draw>
struct StreamOp {
  template <class ViewType>
  void operator()(const ViewType& v, kdt::Generator& g) const {
    using V = typename ViewType::value_type;
    StreamFill<V, Space, Draw> fill{Kokkos::View<V*, Space>(v.data(), v.size()),
                                    kdt::reserve(g, v.size(), 1), Draw{}};
    Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, v.size()), fill);
  }
};

// The draws of the in-kernel streams equal the ops' elements.
template <class T, class Space>
void check_stream_draws() {
  using LR = Kokkos::LayoutRight;
  const float unit[2] = {0.0f, 1.0f}, wide[2] = {-2.0f, 3.0f};
  expect_rounded_float_fill<T, Space, LR>("uniform<T>()", StreamOp<Space, UniformDraw>{}, unit);
  expect_rounded_float_fill<T, Space, LR>("uniform<T>(-2, 3)", StreamOp<Space, UniformFromToDraw>{},
                                          wide);
  expect_rounded_float_fill<T, Space, LR>("normal<T>(0.5, 2)", StreamOp<Space, NormalDraw>{});
  expect_rounded_float_fill<T, Space, LR>("exponential<T>(1.5)",
                                          StreamOp<Space, ExponentialDraw>{});
  expect_rounded_float_fill<T, Space, LR>("bernoulli<T>(0.3)", StreamOp<Space, BernoulliDraw>{});
}

// Every kernel path gives the automatic path's values for T (the 16-bit stores and the
// normals' table in team scratch, which the rows_device path runs on host spaces too), on two
// strided subviews: rows that start inside blocks, and rows of 5 blocks whose starts are
// 16-byte aligned (the runs of two blocks a store of the ops that only write, the last run
// one block).
template <class T, class Space, Impl::FillPath First, Impl::FillPath... Others, class Dist>
void check_paths(const std::string& name, const Dist& dist) {
  using Big = Kokkos::View<T**, Kokkos::LayoutRight, Space>;
  struct Shape {
    int big_cols, first_col, cols;
    Impl::GlobalBox box;
  };
  const Shape shapes[2] = {{int(kCols) + 6, 2, 29, Impl::box_2d(kRows + 5, 33, 3, 1)},
                           {40, 8, 20, Impl::box_2d(kRows + 1, 20, 1, 0)}};
  for (const Shape& shape : shapes) {
    Big big("big", kRows + 3, shape.big_cols);
    const auto sub = Kokkos::subview(big, std::make_pair(1, 1 + int(kRows)),
                                     std::make_pair(shape.first_col, shape.first_col + shape.cols));
    const auto fill = [&](auto path) {
      set_inputs(big, input_value);  // (dropout_ reads it)
      Impl::fill_random_with<decltype(path)::value>(Space(), sub, dist, kStart, shape.box);
      Kokkos::fence();
      // The whole View to the host: a strided subview of a device View can not be copied there.
      const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), big);
      std::vector<std::uint32_t> bits;
      for (std::size_t i = 0; i < sub.extent(0); ++i)
        for (std::size_t j = 0; j < sub.extent(1); ++j)
          bits.push_back(bits_of(host(1 + i, shape.first_col + j)));
      return bits;
    };
    const auto first = fill(std::integral_constant<Impl::FillPath, First>{});
    const auto same = [&](auto path) {
      EXPECT_EQ(fill(path), first) << name << " path " << static_cast<int>(decltype(path)::value)
                                   << ", subview of " << shape.cols << " columns";
    };
    (same(std::integral_constant<Impl::FillPath, Others>{}), ...);
  }
}

// The same on LayoutLeft subviews, which take the columns kernels (rows_device: the device
// style on host spaces too; the shapes of DeviceColumnsKernelsEqualHost below): columns at
// every phase of a vector (realigned rows), rows that start inside blocks with groups of rows
// aligned (the shifted kernel's vector stores) and not (the realigned shifted kernel). The
// whole parent View is compared: nothing outside the subview is written.
template <class T, class Space, Impl::FillPath First, Impl::FillPath... Others, class Dist>
void check_columns_paths(const std::string& name, const Dist& dist) {
  struct Shape {
    std::size_t rows, cols, row_begin, row_end, col_begin, col_end;
  };
  const Shape shapes[] = {{64, 36, 0, 64, 0, 36},
                          {259, 44, 1, 257, 2, 42},
                          {40, 29, 0, 40, 0, 29},
                          {37, 29, 0, 37, 0, 29},
                          {259, 45, 1, 257, 2, 43}};
  for (const Shape& s : shapes) {
    Kokkos::View<T**, Kokkos::LayoutLeft, Space> v("v", s.rows, s.cols);
    const auto sub = Kokkos::subview(v, std::make_pair(s.row_begin, s.row_end),
                                     std::make_pair(s.col_begin, s.col_end));
    const Impl::GlobalBox box = Impl::whole_view_box(sub);
    const auto fill = [&](auto path) {
      set_inputs(v, input_value);  // (dropout_ reads it)
      Impl::fill_random_with<decltype(path)::value>(Space(), sub, dist, kStart, box);
      Kokkos::fence();
      const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
      std::vector<std::uint32_t> bits;
      for (std::size_t i = 0; i < s.rows; ++i)
        for (std::size_t j = 0; j < s.cols; ++j) bits.push_back(bits_of(host(i, j)));
      return bits;
    };
    const auto first = fill(std::integral_constant<Impl::FillPath, First>{});
    const auto same = [&](auto path) {
      EXPECT_EQ(fill(path), first) << name << " path " << static_cast<int>(decltype(path)::value)
                                   << ", LayoutLeft " << s.rows << " x " << s.cols;
    };
    (same(std::integral_constant<Impl::FillPath, Others>{}), ...);
  }
}

// uniform_ never writes `to` and writes `from` where the float value rounds to `to`.
// (Generic: through the generic kernel, as check_every_op.)
template <class T, class Space, bool Generic = false>
void check_uniform_bound_rule() {
  Kokkos::View<T*, Space> h("h", 1 << 16);
  kdt::Generator gen(7);
  if constexpr (Generic) {
    Impl::fill_random_with<Impl::FillPath::generic>(Space(), h, Impl::make_uniform<T>(1, 2, "test"),
                                                    gen.get_state(), Impl::whole_view_box(h));
  } else {
    kdt::uniform_(h, 1, 2, gen);
  }
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), h);
  std::size_t ones = 0;
  for (std::size_t i = 0; i < host.extent(0); ++i) {
    const float x = static_cast<float>(static_cast<double>(host(i)));
    EXPECT_TRUE(x >= 1.0f && x < 2.0f) << x;
    ones += x == 1.0f;
  }
  // A float in [2 - ulp / 2, 2) rounds to 2: about 2^16 * 2^-9 (bfloat16), 2^-11 (binary16).
  if constexpr (Impl::is_reduced_float<T>()) EXPECT_GT(ones, 16u);
}

// Random_Philox_Pool draws (Kokkos::rand on a 16-bit T, Impl::PhiloxRand16): frand's float
// rounded, a rounded end of the range becoming its start. Three draws per state.
template <class T, class Space>
struct PoolDraws {
  kdt::Random_Philox_Pool<Space> pool;
  Kokkos::View<T*, Space> out;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    auto gen = pool.get_state(i);
    if constexpr (Impl::is_reduced_float<T>()) {
      using Rand16 = Impl::PhiloxRand16<typename kdt::Random_Philox_Pool<Space>::generator_type, T>;
      out(3 * i) = Rand16::draw(gen);
      out(3 * i + 1) = Rand16::draw(gen, value_as<T>(4.0f));
      out(3 * i + 2) = Rand16::draw(gen, value_as<T>(1.0f), value_as<T>(2.0f));
    } else {
      out(3 * i) = gen.frand();
      out(3 * i + 1) = gen.frand(4.0f);
      out(3 * i + 2) = gen.frand(1.0f, 2.0f);
    }
    pool.free_state(gen);
  }
};

template <class T, class Space>
void check_pool_draws() {
  constexpr int states = 1000;
  PoolDraws<float, Space> reference{kdt::Random_Philox_Pool<Space>(11, states),
                                    Kokkos::View<float*, Space>("reference", 3 * states)};
  PoolDraws<T, Space> draws{kdt::Random_Philox_Pool<Space>(11, states),
                            Kokkos::View<T*, Space>("draws", 3 * states)};
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, states), reference);
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, states), draws);
  const auto ref = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), reference.out);
  const auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), draws.out);
  const float bounds[3][2] = {{0.0f, 1.0f}, {0.0f, 4.0f}, {1.0f, 2.0f}};
  for (std::size_t i = 0; i < got.extent(0); ++i)
    ASSERT_EQ(bits_of(got(i)), expected_bits<T>(ref(i), bounds[i % 3])) << "draw " << i;
}

// Kokkos::fill_random(view, Random_Philox_Pool, begin, end) on Kokkos' T (half_t, bhalf_t):
// the float fill rounded, with the bound rule.
template <class T, class Space>
void check_pool_fill_random() {
  Kokkos::View<float*, Space> f("f", 4099);
  Kokkos::View<T*, Space> h("h", 4099);
  Kokkos::fill_random(f, kdt::Random_Philox_Pool<Space>(5), 1.0f, 2.0f);
  Kokkos::fill_random(h, kdt::Random_Philox_Pool<Space>(5), T(1.0f), T(2.0f));
  const auto ref = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f);
  const auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), h);
  const float bounds[2] = {1.0f, 2.0f};
  for (std::size_t i = 0; i < got.extent(0); ++i)
    ASSERT_EQ(bits_of(got(i)), expected_bits<T>(ref(i), bounds)) << "element " << i;
}

}  // namespace

// Every op's distribution on the private types (the generic kernel; check_paths: the others).
TEST(ReducedPrecisionOps, PrivateTypesEveryOpLayoutRight) {
  check_every_op<TestHalf, TestSpace, Kokkos::LayoutRight, true>();
  check_every_op<TestBHalf, TestSpace, Kokkos::LayoutRight, true, false>();
}
TEST(ReducedPrecisionOps, PrivateTypesEveryOpLayoutLeft) {
  check_every_op<TestHalf, TestSpace, Kokkos::LayoutLeft, true>();
  check_every_op<TestBHalf, TestSpace, Kokkos::LayoutLeft, true, false>();
}
// A public op on a private type, through every kernel the automatic path picks (dropout_:
// 16-bit loads and stores; one op, to keep the test's compile time down).
TEST(ReducedPrecisionOps, PrivateTypesPublicOp) {
  const auto dropout = [](auto v, auto& g) {
    set_inputs(v, input_value);
    kdt::dropout_(v, 0.4, g);
  };
  expect_rounded_float_fill<TestHalf, TestSpace, Kokkos::LayoutRight>("dropout_", dropout);
  expect_rounded_float_fill<TestHalf, TestSpace, Kokkos::LayoutLeft>("dropout_", dropout);
}
TEST(ReducedPrecisionOps, PrivateTypesStreamDraws) {
  check_stream_draws<TestHalf, TestSpace>();
  check_stream_draws<TestBHalf, TestSpace>();
}
TEST(ReducedPrecisionOps, PrivateTypesEveryPath) {
  using P = Impl::FillPath;
  check_paths<TestHalf, TestSpace, P::automatic, P::generic, P::rows_device>(
      "dropout_", Impl::make_dropout<TestHalf>(0.4, "test"));
  // (rows_device runs the normals' table in team scratch, on host spaces too.)
  check_paths<TestBHalf, TestSpace, P::generic, P::rows_device>(
      "normal_", Impl::make_normal<TestBHalf>(0.5, 2, "test"));
  check_paths<TestBHalf, TestSpace, P::automatic, P::generic, P::rows_device>(
      "uniform_", Impl::make_uniform<TestBHalf>(-2, 3, "test"));
  check_columns_paths<TestHalf, TestSpace, P::generic, P::rows_device>(
      "dropout_", Impl::make_dropout<TestHalf>(0.4, "test"));
  check_columns_paths<TestBHalf, TestSpace, P::generic, P::rows_device>(
      "normal_", Impl::make_normal<TestBHalf>(0.5, 2, "test"));
  check_columns_paths<TestBHalf, TestSpace, P::generic, P::rows_device>(
      "uniform_", Impl::make_uniform<TestBHalf>(-2, 3, "test"));
}
TEST(ReducedPrecisionOps, PrivateTypesUniformBoundRule) {
  check_uniform_bound_rule<TestHalf, TestSpace, true>();
  check_uniform_bound_rule<TestBHalf, TestSpace, true>();
}
TEST(ReducedPrecisionOps, PrivateTypesParameterChecks) {
  // from and to must be finite after rounding: 70000 is infinity in binary16, not bfloat16.
  EXPECT_THROW(Impl::make_uniform<TestHalf>(0, 70000, "test"), std::invalid_argument);
  EXPECT_NO_THROW(Impl::make_uniform<TestBHalf>(0, 70000, "test"));
  EXPECT_THROW(Impl::make_uniform<TestHalf>(2, 1, "test"), std::invalid_argument);
  Kokkos::View<TestHalf*, TestSpace> h("h", 4);
  kdt::Generator gen;
  EXPECT_THROW(kdt::dropout_(h, 1.5, gen), std::invalid_argument);
  EXPECT_EQ(gen.get_state().offset, 0u);  // the failed op advanced nothing
  kdt::dropout_(h, 0.5, gen);
  EXPECT_EQ(gen.get_state().offset, 4u);
}

TEST(ReducedPrecisionOps, PrivateTypesPoolDraws) {
  check_pool_draws<TestHalf, TestSpace>();
  check_pool_draws<TestBHalf, TestSpace>();
}

// ---- Kokkos' half_t and bhalf_t: 16-bit in GPU builds, float elsewhere -----------------------

using KokkosHalf = Kokkos::Experimental::half_t;
#if defined(KOKKOS_BHALF_T_IS_FLOAT)
using KokkosBHalf = Kokkos::Experimental::bhalf_t;
#else
using KokkosBHalf = Kokkos::Experimental::half_t;  // Kokkos 3.4 has no bhalf_t
#endif
using HostSpace = Kokkos::DefaultHostExecutionSpace;
constexpr bool kHostIsOther = !std::is_same<TestSpace, HostSpace>::value;

template <class T, class Space>
void check_kokkos_type() {
  check_every_op<T, Space, Kokkos::LayoutRight, false>();
  check_every_op<T, Space, Kokkos::LayoutLeft, false>();
  check_stream_draws<T, Space>();
  check_uniform_bound_rule<T, Space>();
  check_pool_draws<T, Space>();
  check_pool_fill_random<T, Space>();
}

TEST(ReducedPrecisionKokkosTypes, HalfEqualsRoundedFloat) {
  std::printf("half_t is %s\n", Impl::is_reduced_float<KokkosHalf>() ? "16-bit" : "float");
  check_kokkos_type<KokkosHalf, TestSpace>();
  if constexpr (kHostIsOther) check_kokkos_type<KokkosHalf, HostSpace>();
}

TEST(ReducedPrecisionKokkosTypes, BHalfEqualsRoundedFloat) {
  std::printf("bhalf_t is %s\n", Impl::is_reduced_float<KokkosBHalf>() ? "16-bit" : "float");
  check_kokkos_type<KokkosBHalf, TestSpace>();
  if constexpr (kHostIsOther) check_kokkos_type<KokkosBHalf, HostSpace>();
}

// The device and the host write the same 16-bit bits (where they differ).
TEST(ReducedPrecisionKokkosTypes, DeviceEqualsHost) {
  if constexpr (!kHostIsOther) GTEST_SKIP() << "one execution space in this build";
  const auto fill = [](auto space, auto zero) {
    using T = decltype(zero);
    using Space = decltype(space);
    Kokkos::View<T**, Kokkos::LayoutLeft, Space> v("v", kRows, kCols);
    std::vector<std::uint32_t> bits;
    kdt::Generator gen(3);
    for (int op = 0; op < 3; ++op) {
      if (op == 0) kdt::uniform_(v, -1, 1, gen);
      if (op == 1) kdt::normal_(v, 0, 3, gen);
      if (op == 2) kdt::exponential_(v, 2, gen);
      const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
      for (std::size_t i = 0; i < kRows; ++i)
        for (std::size_t j = 0; j < kCols; ++j) bits.push_back(bits_of(host(i, j)));
    }
    return bits;
  };
  EXPECT_EQ(fill(TestSpace(), KokkosHalf()), fill(HostSpace(), KokkosHalf()));
  EXPECT_EQ(fill(TestSpace(), KokkosBHalf()), fill(HostSpace(), KokkosBHalf()));
}

// The bits of the whole 2-d View `parent` after each of the first `ops` of uniform_, normal_,
// dropout_ (which reads normal_'s values) and exponential_ on `sub`, in turn from `gen`.
template <class Sub, class Parent>
std::vector<std::uint32_t> parent_bits_after_ops(const Sub& sub, const Parent& parent,
                                                 kdt::Generator& gen, const int ops) {
  std::vector<std::uint32_t> bits;
  for (int op = 0; op < ops; ++op) {
    if (op == 0) kdt::uniform_(sub, -1, 1, gen);
    if (op == 1) kdt::normal_(sub, 0, 3, gen);
    if (op == 2) kdt::dropout_(sub, 0.3, gen);
    if (op == 3) kdt::exponential_(sub, 2, gen);
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), parent);
    for (std::size_t i = 0; i < parent.extent(0); ++i)
      for (std::size_t j = 0; j < parent.extent(1); ++j) bits.push_back(bits_of(host(i, j)));
  }
  return bits;
}

// The same through the device's columns kernels for 16-bit rows (docs/performance.md,
// "Layouts"): LayoutLeft 64 x 36 (8 rows' 16-byte vectors), 20 x 36 (runs not divisible by 8:
// realigned rows and one row per item), a 256 x 40 subview of 259 x 44 (columns at every phase
// of a vector: realigned), 40 x 29 (rows inside blocks, groups of 8 aligned: the shifted
// kernel's vectors), 37 x 29 (rows inside blocks) and a 256 x 41 subview of 259 x 45 (rows
// inside blocks at every phase: the realigned shifted kernel, warps of 32 lanes whole). The
// whole parent View is compared: nothing outside the subview is written.
TEST(ReducedPrecisionKokkosTypes, DeviceColumnsKernelsEqualHost) {
  if constexpr (!kHostIsOther) GTEST_SKIP() << "one execution space in this build";
  struct Shape {
    std::size_t rows, cols, row_begin, row_end, col_begin, col_end;
  };
  const Shape shapes[] = {{64, 36, 0, 64, 0, 36}, {20, 36, 0, 20, 0, 36}, {259, 44, 1, 257, 2, 42},
                          {40, 29, 0, 40, 0, 29}, {37, 29, 0, 37, 0, 29}, {259, 45, 1, 257, 2, 43}};
  const auto fill = [](auto space, auto zero, const Shape& s) {
    using T = decltype(zero);
    using Space = decltype(space);
    Kokkos::View<T**, Kokkos::LayoutLeft, Space> v("v", s.rows, s.cols);
    set_inputs(v, input_value);
    const auto sub = Kokkos::subview(v, Kokkos::make_pair(s.row_begin, s.row_end),
                                     Kokkos::make_pair(s.col_begin, s.col_end));
    kdt::Generator gen(5);
    return parent_bits_after_ops(sub, v, gen, 4);
  };
  for (const Shape& s : shapes) {
    const std::string name = std::to_string(s.rows) + " x " + std::to_string(s.cols);
    EXPECT_EQ(fill(TestSpace(), KokkosHalf(), s), fill(HostSpace(), KokkosHalf(), s)) << name;
    EXPECT_EQ(fill(TestSpace(), KokkosBHalf(), s), fill(HostSpace(), KokkosBHalf(), s)) << name;
  }
}

// The realigned kernels' stores chosen by a block's phase pattern (the phase of its first
// column in its 8-row vector and the phase a column step adds: 64 patterns of 2-byte types,
// 16 of 4-byte ones): subviews of 256 rows (a warp of 8-row groups, whole) of LayoutLeft Views
// whose leading extent is 8 k + s for every s, from row r for every r, columns from 2 on
// (rows on blocks: 40 and 136 columns; inside them: 41 and 133, the last block of each item's
// rows partial; 136 and 133: 3 items a row). Every block of each subview starts at one of the
// phases r + (2 + 4 j) s (mod 8): together every pattern. The whole parent View compared.
TEST(ReducedPrecisionKokkosTypes, DeviceRealignedPhasePatternsEqualHost) {
  if constexpr (!kHostIsOther) GTEST_SKIP() << "one execution space in this build";
  const auto fill = [](auto space, auto zero, const std::size_t s, const std::size_t r,
                       const std::size_t cols) {
    using T = decltype(zero);
    using Space = decltype(space);
    Kokkos::View<T**, Kokkos::LayoutLeft, Space> v("v", 264 + s, cols + 4);
    set_inputs(v, input_value);
    const auto sub = Kokkos::subview(v, Kokkos::make_pair(r, r + 256),
                                     Kokkos::make_pair(std::size_t(2), 2 + cols));
    kdt::Generator gen(7);
    return parent_bits_after_ops(sub, v, gen, 3);
  };
  for (std::size_t cols : {40, 41, 136, 133})
    for (std::size_t s = 0; s < 8; ++s)
      for (std::size_t r = 0; r < 8; ++r) {
        const std::string name = "leading extent 8k+" + std::to_string(s) + ", rows from " +
                                 std::to_string(r) + ", " + std::to_string(cols) + " columns";
        EXPECT_EQ(fill(TestSpace(), KokkosHalf(), s, r, cols),
                  fill(HostSpace(), KokkosHalf(), s, r, cols))
            << name;
        EXPECT_EQ(fill(TestSpace(), KokkosBHalf(), s, r, cols),
                  fill(HostSpace(), KokkosBHalf(), s, r, cols))
            << name;
        EXPECT_EQ(fill(TestSpace(), 0.0f, s, r, cols), fill(HostSpace(), 0.0f, s, r, cols)) << name;
      }
}
