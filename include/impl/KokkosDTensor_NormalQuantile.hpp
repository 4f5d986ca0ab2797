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
// overloads that take the table pointer; the device fills keep one in shared memory
// (NormalTableF32Shared, copy_normal_table_f64, KokkosDTensor_FillRowsSharedTable.hpp).

#include <Kokkos_Macros.hpp>
#include <impl/KokkosDTensor_NormalTable.hpp>
#include <impl/KokkosDTensor_PortableMath.hpp>

#include <cstddef>
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

// float(m), m = 2 (w & 0x7FFFFFFF) + 1 = (w << 1) | 1 for the 31 magnitude bits of w: the one
// rounding that the stream contract names (int -> float, to nearest). q = float(m) 2^-33 has
// its mantissa, so the transform reads the entry and u from float(m)'s bits directly.
KOKKOS_INLINE_FUNCTION float normal_m_from_word(std::uint32_t w) {
  return static_cast<float>((w << 1) | 1u);
}
// q = float(m) 2^-33 (exact but for float(m)'s rounding).
KOKKOS_INLINE_FUNCTION float normal_q_from_word(std::uint32_t w) {
  return portable_mul(normal_m_from_word(w), 0x1p-33f);
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

// The table entry of q and u from the bits b of q 2^Scale (Scale = 0: q; 33: float(m)): the
// entry is q's biased exponent (94 .. 126) less 94, times 16, plus its top 4 mantissa bits
// (0 .. 512); u = (low 19 mantissa bits) 2^-19 - 1/2, formed exactly as
// (1 + low19 2^-19) - 3/2 (bit operations and one exact subtraction, no conversion).
template <int Scale>
KOKKOS_FORCEINLINE_FUNCTION std::uint32_t normal_entry(std::uint32_t b, float& u) {
  u = portable_sub(bits_to_float(0x3f800000u | ((b & 0x7ffffu) << 4)), 1.5f);
  return (b >> 19) - (static_cast<std::uint32_t>(127 + NormalTableF32::e_min + Scale) << 4);
}

// The segment's cubic c0 + u (c1 + u (c2 + u c3)), Horner with fma.
KOKKOS_FORCEINLINE_FUNCTION float normal_cubic(float c0, float c1, float c2, float c3, float u) {
  return portable_fma(portable_fma(portable_fma(c3, u, c2), u, c1), u, c0);
}

// |z| from the bits b of q 2^Scale.
template <bool ReadOnly, int Scale>
KOKKOS_FORCEINLINE_FUNCTION float normal_magnitude_impl(std::uint32_t b, const float* table) {
  float u;
  const std::uint32_t idx = normal_entry<Scale>(b, u);
  float c0, c1, c2, c3;
  normal_read_entry<ReadOnly>(table + NormalTableF32::coefs * idx, c0, c1, c2, c3);
  return normal_cubic(c0, c1, c2, c3, u);
}
KOKKOS_INLINE_FUNCTION float normal_magnitude_from_q(float q, const float* table) {
  return normal_magnitude_impl<false, 0>(float_to_bits(q), table);
}
KOKKOS_INLINE_FUNCTION float normal_magnitude_from_q(float q) {
  return normal_magnitude_impl<true, 0>(float_to_bits(q), normal_table_f32());
}

// |z| for the magnitude bits of w (bit 31 ignored): the same as from q = normal_q_from_word(w).
KOKKOS_INLINE_FUNCTION float normal_magnitude_from_word(std::uint32_t w, const float* table) {
  return normal_magnitude_impl<false, 33>(float_to_bits(normal_m_from_word(w)), table);
}
KOKKOS_INLINE_FUNCTION float normal_magnitude_from_word(std::uint32_t w) {
  return normal_magnitude_impl<true, 33>(float_to_bits(normal_m_from_word(w)), normal_table_f32());
}

// The magnitude z with the sign of word w: bit 31 set -> negative (q = 1/2 gives +-0).
KOKKOS_FORCEINLINE_FUNCTION float with_sign_of_word(float z, std::uint32_t w) {
  return bits_to_float(float_to_bits(z) ^ (w & 0x80000000u));
}

// The signed standard normal of one word.
KOKKOS_INLINE_FUNCTION float normal_from_word(std::uint32_t w, const float* table) {
  return with_sign_of_word(normal_magnitude_from_word(w, table), w);
}
KOKKOS_INLINE_FUNCTION float normal_from_word(std::uint32_t w) {
  return with_sign_of_word(normal_magnitude_from_word(w), w);
}

// The float table laid out for GPU shared memory: the entries of the top 6 octaves of q
// (and q = 1/2), where all but 2^-6 of the words fall, 8 times, interleaved so that copy c
// of entry i is the 16 bytes at 128 i + 16 c; then the whole table once. A 16-byte shared
// load serves 8 lanes a cycle, and lane l reading copy l & 7 of a hot entry shares no bank
// with the 7 others.
struct NormalTableF32Shared {
  static constexpr int copies = 8;
  static constexpr std::uint32_t hot_entries = 6 * 16 + 1;
  static constexpr std::uint32_t hot_first = NormalTableF32::entries - hot_entries;
  static constexpr int cold_offset = hot_entries * copies * NormalTableF32::coefs;  // floats
  static constexpr int floats = cold_offset + NormalTableF32::entries * NormalTableF32::coefs;

  KOKKOS_INLINE_FUNCTION static void fill(float* dst, int thread, int threads) {
    constexpr int coefs = NormalTableF32::coefs;
    const float* src = normal_table_f32();
    for (int i = thread; i < floats; i += threads) {
      const int entry = i < cold_offset ? static_cast<int>(hot_first) + i / (coefs * copies)
                                        : (i - cold_offset) / coefs;
      dst[i] = src[entry * coefs + i % coefs];
    }
  }

  // normal_from_word(w) read from the layout at `table` by lane `lane` (0 .. 7).
  KOKKOS_FORCEINLINE_FUNCTION static float normal(std::uint32_t w, const float* table, int lane) {
    float u;
    const std::uint32_t idx = normal_entry<33>(float_to_bits(normal_m_from_word(w)), u);
    const std::uint32_t at =
        idx >= hot_first ? (idx - hot_first) * 32u + 4u * lane : cold_offset + 4u * idx;
    const float* c = table + at;
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    const float4 v = *reinterpret_cast<const float4*>(c);
    const float z = normal_cubic(v.x, v.y, v.z, v.w, u);
#else
    const float z = normal_cubic(c[0], c[1], c[2], c[3], u);
#endif
    return with_sign_of_word(z, w);
  }
};

// ---- double -----------------------------------------------------------------------------

// double(m), m = 2 (x & (2^63 - 1)) + 1 = (x << 1) | 1 for the 63 magnitude bits of
// x = w0 << 32 | w1 (one rounding, to nearest); q = double(m) 2^-65 has its mantissa.
KOKKOS_INLINE_FUNCTION double normal_m_from_words(std::uint32_t w0, std::uint32_t w1) {
  const std::uint64_t x = (static_cast<std::uint64_t>(w0) << 32) | w1;
  const std::uint64_t m = (x << 1) | 1u;
#if defined(__CUDA_ARCH__) || (defined(__HIP_DEVICE_COMPILE__) && __HIP_DEVICE_COMPILE__)
  return static_cast<double>(m);  // one instruction (cvt.rn.f64.u64)
#else
  // The same correctly rounded double(m) without x86-64's branch on bit 63 of an unsigned
  // conversion (mispredicted half the time: 3x slower fills): both halves convert exactly
  // (signed conversions), hi 2^32 is exact, and the one rounding of the sum is that of m.
  return portable_add(portable_mul(static_cast<double>(static_cast<std::int64_t>(m >> 32)), 0x1p32),
                      static_cast<double>(static_cast<std::int64_t>(m & 0xffffffffu)));
#endif
}
// q = double(m) 2^-65.
KOKKOS_INLINE_FUNCTION double normal_q_from_words(std::uint32_t w0, std::uint32_t w1) {
  return portable_mul(normal_m_from_words(w0, w1), 0x1p-65);
}

// The entry and u from the bits b of q 2^Scale (Scale = 0: q; 65: double(m)): the entry is
// q's biased exponent (958 .. 1022) less 958, times 4, plus its top 2 mantissa bits
// (0 .. 256); u = (low 50 mantissa bits) 2^-50 - 1/2 = (1 + low50 2^-50) - 3/2, exact.
template <int Scale>
KOKKOS_FORCEINLINE_FUNCTION std::uint32_t normal_entry(std::uint64_t b, double& u) {
  u = portable_sub(bits_to_double(0x3ff0000000000000ull | ((b & 0x3ffffffffffffull) << 2)), 1.5);
  return static_cast<std::uint32_t>(b >> 50) -
         (static_cast<std::uint32_t>(1023 + NormalTableF64::e_min + Scale) << 2);
}

// |z| ~ -Phi^-1(q) from the bits b of q 2^Scale (q in [2^-65, 1/2]).
template <bool ReadOnly, int Scale>
KOKKOS_FORCEINLINE_FUNCTION double normal_magnitude_impl(std::uint64_t b, const double* table) {
  double u;
  const std::uint32_t idx = normal_entry<Scale>(b, u);
  const double* c = table + NormalTableF64::coefs * idx;
  double p = normal_read_coef<ReadOnly>(c + 12);
  for (int i = 11; i >= 0; --i) p = portable_fma(p, u, normal_read_coef<ReadOnly>(c + i));
  // Last segment: p ~ z / (1/2 - u); 1/2 - u is exact (u a multiple of 2^-50 in [-1/2, 1/2)).
  const double d =
      idx == static_cast<std::uint32_t>(NormalTableF64::last_segment) ? portable_sub(0.5, u) : 1.0;
  return portable_mul(p, d);
}
KOKKOS_INLINE_FUNCTION double normal_magnitude_from_q(double q, const double* table) {
  return normal_magnitude_impl<false, 0>(double_to_bits(q), table);
}
KOKKOS_INLINE_FUNCTION double normal_magnitude_from_q(double q) {
  return normal_magnitude_impl<true, 0>(double_to_bits(q), normal_table_f64());
}

KOKKOS_INLINE_FUNCTION double normal_magnitude_from_words(std::uint32_t w0, std::uint32_t w1,
                                                          const double* table) {
  return normal_magnitude_impl<false, 65>(double_to_bits(normal_m_from_words(w0, w1)), table);
}
KOKKOS_INLINE_FUNCTION double normal_magnitude_from_words(std::uint32_t w0, std::uint32_t w1) {
  return normal_magnitude_impl<true, 65>(double_to_bits(normal_m_from_words(w0, w1)),
                                         normal_table_f64());
}

// The magnitude z with the sign of x = w0 << 32 | w1: bit 31 of w0 (bit 63 of x) set ->
// negative.
KOKKOS_FORCEINLINE_FUNCTION double with_sign_of_word(double z, std::uint32_t w0) {
  return bits_to_double(double_to_bits(z) ^ (static_cast<std::uint64_t>(w0 & 0x80000000u) << 32));
}

// The signed standard normal of two words.
KOKKOS_INLINE_FUNCTION double normal_from_words(std::uint32_t w0, std::uint32_t w1,
                                                const double* table) {
  return with_sign_of_word(normal_magnitude_from_words(w0, w1, table), w0);
}
KOKKOS_INLINE_FUNCTION double normal_from_words(std::uint32_t w0, std::uint32_t w1) {
  return with_sign_of_word(normal_magnitude_from_words(w0, w1), w0);
}

// The double table's size, and a copy of it made by `threads` threads (thread `thread`
// writes its share at dst), for a kernel that keeps it in GPU shared memory.
constexpr int normal_table_f64_doubles = NormalTableF64::entries * NormalTableF64::coefs;
KOKKOS_INLINE_FUNCTION void copy_normal_table_f64(double* dst, int thread, int threads) {
  const double* src = normal_table_f64();
  for (int i = thread; i < normal_table_f64_doubles; i += threads) dst[i] = src[i];
}

}  // namespace Impl
}  // namespace KokkosDTensor

#endif  // KOKKOSDTENSOR_IMPL_NORMALQUANTILE_HPP
