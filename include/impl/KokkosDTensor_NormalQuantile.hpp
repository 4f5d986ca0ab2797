#ifndef KOKKOSDTENSOR_IMPL_NORMALQUANTILE_HPP
#define KOKKOSDTENSOR_IMPL_NORMALQUANTILE_HPP

// The stream-version-2 normal transform (SPEC section 2, docs/normal_v2.md): an inverse-CDF
// normal made of one 32-bit word per float normal and two per double normal, from exactly
// rounded operations only (integer/bit operations, int->float conversion, fma, a table
// lookup), so that every backend gives the same bits.
//
// float:  sign = bit 31 of w (set -> negative); m = 2 (w & 0x7FFFFFFF) + 1;
//         q = float(m) 2^-33 (round to nearest), q in (0, 1/2];
//         z = +-P(q) with P ~ -Phi^-1(q) (Phi the standard normal CDF).
// double: x = w0 << 32 | w1; sign = bit 63 of x (set -> negative);
//         m = 2 (x & (2^63 - 1)) + 1; q = double(m) 2^-65; z = +-P(q).
// The caller applies fma(std, z, mean).
//
// P: q = 2^e (1 + (k + 1/2 + u) / S) with e the binary exponent of q, k the next
// log2(S) mantissa bits (S = 16 for float, 4 for double) and u in [-1/2, 1/2) the rest of
// the mantissa (exact). Segment (e, k) has a polynomial in u (degree 3 for float, 12 for
// double, Horner with fma) from include/impl/KokkosDTensor_NormalTable.hpp. For double the
// last segment, q in [7/16, 1/2), stores z / (1/2 - u) and is multiplied by (1/2 - u)
// (exact), so the result keeps its relative accuracy as z -> 0. q = 1/2 has its own all-zero
// entry (z = +-0).
//
// The tables: host code reads `static constexpr` arrays; CUDA/HIP device code reads a
// `__device__` copy made from the same initializer (one copy per translation unit; see the
// table accessors below). Callers that prefer their own copy (a View, shared memory) use the
// overloads that take the table pointer.

#include <Kokkos_Macros.hpp>
#include <impl/KokkosDTensor_NormalTable.hpp>
#include <impl/KokkosDTensor_PortableMath.hpp>

#include <cstdint>

namespace KokkosDTensor {
namespace Impl {

// ---- layout constants ------------------------------------------------------------------

struct NormalTableF32 {
  static constexpr int entries = KOKKOSDTENSOR_IMPL_NORMAL_F32_ENTRIES;  // 513
  static constexpr int coefs = KOKKOSDTENSOR_IMPL_NORMAL_F32_COEFS;      // 4 (c0..c3)
  static constexpr int seg_bits = 4;                                     // 16 segments per octave
  static constexpr int e_min = -33;
  alignas(16) static constexpr float data[entries * coefs] = {
      KOKKOSDTENSOR_IMPL_NORMAL_F32_TABLE_DATA};
};
struct NormalTableF64 {
  static constexpr int entries = KOKKOSDTENSOR_IMPL_NORMAL_F64_ENTRIES;  // 257
  static constexpr int coefs = KOKKOSDTENSOR_IMPL_NORMAL_F64_COEFS;      // 13 (c0..c12)
  static constexpr int seg_bits = 2;                                     // 4 segments per octave
  static constexpr int e_min = -65;
  static constexpr int last_segment = entries - 2;  // q in [7/16, 1/2): stores z / (1/2 - u)
  alignas(16) static constexpr double data[entries * coefs] = {
      KOKKOSDTENSOR_IMPL_NORMAL_F64_TABLE_DATA};
};
static_assert(NormalTableF32::entries == 32 * 16 + 1, "float table: 32 octaves x 16 + 1");
static_assert(NormalTableF64::entries == 64 * 4 + 1, "double table: 64 octaves x 4 + 1");

#if defined(__CUDACC__) || defined(__HIPCC__)
// Device copies (internal linkage: one per translation unit, no relocatable device code
// needed). Global memory rather than __constant__: the lanes of a warp read different
// entries, which __constant__ memory would serialise. On CUDA the default-table functions
// read them through the read-only data cache (__ldg; the float entry as one 16-byte load).
// Syntax-checked with nvcc 13.0 (tools/check_normal_nvcc.sh); not yet run on a GPU.
static __device__ const float
    normal_table_f32_device[NormalTableF32::entries * NormalTableF32::coefs]
    __attribute__((aligned(16))) = {KOKKOSDTENSOR_IMPL_NORMAL_F32_TABLE_DATA};
static __device__ const double
    normal_table_f64_device[NormalTableF64::entries * NormalTableF64::coefs]
    __attribute__((aligned(16))) = {KOKKOSDTENSOR_IMPL_NORMAL_F64_TABLE_DATA};
#endif

KOKKOS_INLINE_FUNCTION const float* normal_table_f32() {
#if defined(__CUDA_ARCH__) || (defined(__HIP_DEVICE_COMPILE__) && __HIP_DEVICE_COMPILE__)
  return normal_table_f32_device;
#else
  return NormalTableF32::data;
#endif
}
KOKKOS_INLINE_FUNCTION const double* normal_table_f64() {
#if defined(__CUDA_ARCH__) || (defined(__HIP_DEVICE_COMPILE__) && __HIP_DEVICE_COMPILE__)
  return normal_table_f64_device;
#else
  return NormalTableF64::data;
#endif
}

// ---- float ------------------------------------------------------------------------------

// q = float(m) 2^-33 for the 31 magnitude bits of w (exact but for the one rounding of the
// int -> float conversion, which the stream contract names).
KOKKOS_INLINE_FUNCTION float normal_q_from_word(std::uint32_t w) {
  const std::uint32_t m = ((w & 0x7fffffffu) << 1) | 1u;
  return portable_mul(static_cast<float>(m), 0x1p-33f);
}

// |z| ~ -Phi^-1(q) for q = float(m) 2^-33 (q in [2^-33, 1/2], as normal_q_from_word makes it).
// Table reads. ReadOnly = true (the built-in table only): on CUDA device code through the
// read-only data cache, __ldg; the float entry (16 bytes, 16-byte aligned) as one float4.
// ReadOnly = false (a caller's table, possibly in shared memory): ordinary loads.
template <bool ReadOnly>
KOKKOS_FORCEINLINE_FUNCTION void normal_read_entry(const float* c, float& c0, float& c1, float& c2,
                                                   float& c3) {
#if defined(__CUDA_ARCH__)
  if (ReadOnly) {
    const float4 v = __ldg(reinterpret_cast<const float4*>(c));
    c0 = v.x;
    c1 = v.y;
    c2 = v.z;
    c3 = v.w;
    return;
  }
#endif
  c0 = c[0];
  c1 = c[1];
  c2 = c[2];
  c3 = c[3];
}
template <bool ReadOnly>
KOKKOS_FORCEINLINE_FUNCTION double normal_read_coef(const double* c) {
#if defined(__CUDA_ARCH__)
  if (ReadOnly) return __ldg(c);
#endif
  return *c;
}

template <bool ReadOnly>
KOKKOS_INLINE_FUNCTION float normal_magnitude_from_q_impl(float q, const float* table) {
  const std::uint32_t b = float_to_bits(q);
  // Biased exponent (94..126) and the top 4 mantissa bits: entry 0 .. 512.
  const std::uint32_t idx =
      (b >> 19) - (static_cast<std::uint32_t>(127 + NormalTableF32::e_min) << 4);
  // u = (low 19 mantissa bits) 2^-19 - 1/2, exact.
  const float u =
      portable_mul(static_cast<float>(static_cast<std::int32_t>(b & 0x7ffffu) - 0x40000), 0x1p-19f);
  float c0, c1, c2, c3;
  normal_read_entry<ReadOnly>(table + NormalTableF32::coefs * idx, c0, c1, c2, c3);
  return portable_fma(portable_fma(portable_fma(c3, u, c2), u, c1), u, c0);
}
KOKKOS_INLINE_FUNCTION float normal_magnitude_from_q(float q, const float* table) {
  return normal_magnitude_from_q_impl<false>(q, table);
}
KOKKOS_INLINE_FUNCTION float normal_magnitude_from_q(float q) {
  return normal_magnitude_from_q_impl<true>(q, normal_table_f32());
}

// |z| for the magnitude bits of w (bit 31 ignored).
KOKKOS_INLINE_FUNCTION float normal_magnitude_from_word(std::uint32_t w, const float* table) {
  return normal_magnitude_from_q(normal_q_from_word(w), table);
}
KOKKOS_INLINE_FUNCTION float normal_magnitude_from_word(std::uint32_t w) {
  return normal_magnitude_from_q(normal_q_from_word(w));
}

// The signed standard normal of one word: bit 31 set -> negative (q = 1/2 gives +-0).
KOKKOS_INLINE_FUNCTION float normal_from_word(std::uint32_t w, const float* table) {
  return bits_to_float(float_to_bits(normal_magnitude_from_word(w, table)) ^ (w & 0x80000000u));
}
KOKKOS_INLINE_FUNCTION float normal_from_word(std::uint32_t w) {
  return bits_to_float(float_to_bits(normal_magnitude_from_word(w)) ^ (w & 0x80000000u));
}

// ---- double -----------------------------------------------------------------------------

// q = double(m) 2^-65 for the 63 magnitude bits of x = w0 << 32 | w1.
KOKKOS_INLINE_FUNCTION double normal_q_from_words(std::uint32_t w0, std::uint32_t w1) {
  const std::uint64_t x = (static_cast<std::uint64_t>(w0) << 32) | w1;
  const std::uint64_t m = ((x & 0x7fffffffffffffffull) << 1) | 1u;
#if defined(__CUDA_ARCH__) || (defined(__HIP_DEVICE_COMPILE__) && __HIP_DEVICE_COMPILE__)
  const double dm = static_cast<double>(m);  // one instruction (cvt.rn.f64.u64)
#else
  // The same correctly rounded double(m) without x86-64's branch on bit 63 of an unsigned
  // conversion (mispredicted half the time: 3x slower fills): both halves convert exactly
  // (signed conversions), hi 2^32 is exact, and the one rounding of the sum is that of m.
  const double dm =
      portable_add(portable_mul(static_cast<double>(static_cast<std::int64_t>(m >> 32)), 0x1p32),
                   static_cast<double>(static_cast<std::int64_t>(m & 0xffffffffu)));
#endif
  return portable_mul(dm, 0x1p-65);
}

// |z| ~ -Phi^-1(q) for q = double(m) 2^-65 (q in [2^-65, 1/2]).
template <bool ReadOnly>
KOKKOS_INLINE_FUNCTION double normal_magnitude_from_q_impl(double q, const double* table) {
  const std::uint64_t b = double_to_bits(q);
  // Biased exponent (958..1022) and the top 2 mantissa bits: entry 0 .. 256.
  const std::uint32_t idx = static_cast<std::uint32_t>(b >> 50) -
                            (static_cast<std::uint32_t>(1023 + NormalTableF64::e_min) << 2);
  // u = (low 50 mantissa bits) 2^-50 - 1/2, exact.
  const double u = portable_mul(
      static_cast<double>(static_cast<std::int64_t>(b & 0x3ffffffffffffull) - 0x2000000000000ll),
      0x1p-50);
  const double* c = table + NormalTableF64::coefs * idx;
  double p = normal_read_coef<ReadOnly>(c + 12);
  for (int i = 11; i >= 0; --i) p = portable_fma(p, u, normal_read_coef<ReadOnly>(c + i));
  // Last segment: p ~ z / (1/2 - u); 1/2 - u is exact (u a multiple of 2^-50 in [-1/2, 1/2)).
  const double d =
      idx == static_cast<std::uint32_t>(NormalTableF64::last_segment) ? portable_sub(0.5, u) : 1.0;
  return portable_mul(p, d);
}
KOKKOS_INLINE_FUNCTION double normal_magnitude_from_q(double q, const double* table) {
  return normal_magnitude_from_q_impl<false>(q, table);
}
KOKKOS_INLINE_FUNCTION double normal_magnitude_from_q(double q) {
  return normal_magnitude_from_q_impl<true>(q, normal_table_f64());
}

KOKKOS_INLINE_FUNCTION double normal_magnitude_from_words(std::uint32_t w0, std::uint32_t w1,
                                                          const double* table) {
  return normal_magnitude_from_q(normal_q_from_words(w0, w1), table);
}
KOKKOS_INLINE_FUNCTION double normal_magnitude_from_words(std::uint32_t w0, std::uint32_t w1) {
  return normal_magnitude_from_q(normal_q_from_words(w0, w1));
}

// The signed standard normal of two words: bit 31 of w0 (bit 63 of x) set -> negative.
KOKKOS_INLINE_FUNCTION double normal_from_words(std::uint32_t w0, std::uint32_t w1,
                                                const double* table) {
  return bits_to_double(double_to_bits(normal_magnitude_from_words(w0, w1, table)) ^
                        (static_cast<std::uint64_t>(w0 & 0x80000000u) << 32));
}
KOKKOS_INLINE_FUNCTION double normal_from_words(std::uint32_t w0, std::uint32_t w1) {
  return bits_to_double(double_to_bits(normal_magnitude_from_words(w0, w1)) ^
                        (static_cast<std::uint64_t>(w0 & 0x80000000u) << 32));
}

}  // namespace Impl
}  // namespace KokkosDTensor

#endif  // KOKKOSDTENSOR_IMPL_NORMALQUANTILE_HPP
