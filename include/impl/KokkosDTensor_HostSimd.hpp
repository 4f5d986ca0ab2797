// Host only, x86-64 only: AVX2+FMA versions of Philox4x32-10 over 8 consecutive blocks (and
// an AVX-512 version over 16, for CPUs that have it) and of the transforms that dominate
// host fills (uniform and normal f32/f64, random bits, bernoulli, dropout), written with
// intrinsics so that they do not depend on the auto-vectoriser (docs/performance.md,
// "Why it is built this way"). Used by FillRowsHostFunctor (KokkosDTensor_FillRowsHost.hpp)
// in a function compiled for AVX2+FMA and chosen at run time, so the library still builds
// and runs with default flags on any x86-64 CPU.
//
// Same bits as the scalar code, by construction:
//  - Philox is integer arithmetic; the 32x32->64-bit products come from vpmuludq.
//  - Every floating-point step is the SAME correctly rounded IEEE operation, in the same
//    order, as the scalar function it mirrors (portable_log, portable_sincospi, normal_from_word,
//    uniform01_float, ... in KokkosDTensor_PortableMath.hpp / KokkosDTensor_Transforms.hpp):
//    vaddps/vsubps/vmulps/vsqrtps round exactly like the scalar +, -, *, sqrt, and
//    vfmadd..ps rounds once, exactly like std::fma. Scalar selects (a ? b : c) become
//    blends on the same condition, unary minus a sign-bit flip (which is what it is).
// If you change one of those scalar functions, change its mirror here:
// unit_tests/Test_FillPaths.cpp compares the two byte for byte for every distribution.

#ifndef KOKKOSDTENSOR_IMPL_HOSTSIMD_HPP
#define KOKKOSDTENSOR_IMPL_HOSTSIMD_HPP

#include <cstdint>
#include <impl/KokkosDTensor_Distributions.hpp>
#include <impl/KokkosDTensor_Philox.hpp>

// Whether the host fill has an AVX2+FMA version chosen at run time: GCC/Clang on x86-64,
// not in a device compiler's pass (nvcc, hipcc, nvc++ compile host code through their own
// front ends; the device backends do not use the host-style functor anyway).
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(_M_X64)) && \
    !defined(__CUDACC__) && !defined(__HIPCC__) && !defined(__NVCOMPILER) &&                 \
    !defined(KOKKOSDTENSOR_DISABLE_HOST_DISPATCH)
#define KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH 1
#else
#define KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH 0
#endif

#if KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH
#include <immintrin.h>
#endif

#include <cstdlib>
#include <cstring>

namespace KokkosDTensor {
namespace Impl {

// The environment variable KOKKOSDTENSOR_HOST_ISA caps the instruction set of the host
// fills: "avx2" (no AVX-512), "portable" (no AVX2 either); unset or anything else: the best
// the CPU has. Every level gives the same bits; the cap is for measuring and testing them.
inline int host_isa_cap() {  // 0 portable, 1 avx2, 2 avx512
  const char* cap = std::getenv("KOKKOSDTENSOR_HOST_ISA");
  if (cap && std::strcmp(cap, "portable") == 0) return 0;
  if (cap && std::strcmp(cap, "avx2") == 0) return 1;
  return 2;
}

// Whether the host fill loop may use its AVX2+FMA version (decided once per process).
inline bool host_has_avx2_fma() {
#if KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH
  static const bool has =
      __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && host_isa_cap() >= 1;
  return has;
#else
  return false;
#endif
}

// The instruction sets of the 16-lane functions: AVX-512F for the 512-bit registers, DQ
// for the 64-bit integer to double conversion (every AVX-512 server CPU has both).
#define KOKKOSDTENSOR_IMPL_AVX512_ISA "avx512f,avx512dq,avx2,fma"

// Whether it may also run Philox through AVX-512 (F and DQ), 16 blocks at a time.
inline bool host_has_avx512() {
#if KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH
  static const bool has = host_has_avx2_fma() && __builtin_cpu_supports("avx512f") &&
                          __builtin_cpu_supports("avx512dq") && host_isa_cap() >= 2;
  return has;
#else
  return false;
#endif
}

#if KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH

// Every function below is compiled for AVX2+FMA whatever the command line says, and is only
// ever called from such functions (after host_has_avx2_fma()).
#define KOKKOSDTENSOR_IMPL_AVX2 __attribute__((target("avx2,fma"), always_inline)) inline

namespace host_avx2 {

// ---- Philox4x32-10, 8 blocks in the 8 lanes --------------------------------------------

// hi/lo halves of the 32x32->64-bit products a[l] * m (m broadcast). vpmuludq multiplies the
// even 32-bit lanes only, so the odd lanes take a second multiply after a 64-bit shift.
KOKKOSDTENSOR_IMPL_AVX2 void mul_hi_lo(__m256i a, __m256i m, __m256i& hi, __m256i& lo) {
  const __m256i even = _mm256_mul_epu32(a, m);
  const __m256i odd = _mm256_mul_epu32(_mm256_srli_epi64(a, 32), m);
  hi = _mm256_blend_epi32(_mm256_srli_epi64(even, 32), odd, 0xAA);
  lo = _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
}

// Words of the blocks first_block + l, l = 0..7 (block-lane layout): word[j] lane l is word
// j of block first_block + l.
struct Words8 {
  __m256i word[4];
};

// Philox of NB groups of 8 blocks of any counters: lane l of group g is block
// hi[g] lane l << 32 | lo[g] lane l (the columns kernel's lanes are blocks of different rows).
template <int NB>
KOKKOSDTENSOR_IMPL_AVX2 void philox8_counters(const PhiloxKeySchedule& key, const __m256i (&lo)[NB],
                                              const __m256i (&hi)[NB], Words8 (&out)[NB]) {
  __m256i c0[NB], c1[NB], c2[NB], c3[NB];
  for (int g = 0; g < NB; ++g) {
    c0[g] = lo[g];
    c1[g] = hi[g];
    c2[g] = _mm256_setzero_si256();
    c3[g] = _mm256_setzero_si256();
  }
  const __m256i m0 = _mm256_set1_epi32(static_cast<int>(philox_m0));
  const __m256i m1 = _mm256_set1_epi32(static_cast<int>(philox_m1));
  for (int round = 0; round < 10; ++round) {
    const __m256i k0 = _mm256_set1_epi32(static_cast<int>(key.k0[round]));
    const __m256i k1 = _mm256_set1_epi32(static_cast<int>(key.k1[round]));
    for (int g = 0; g < NB; ++g) {
      __m256i hi0, lo0, hi1, lo1;
      mul_hi_lo(c0[g], m0, hi0, lo0);
      mul_hi_lo(c2[g], m1, hi1, lo1);
      c0[g] = _mm256_xor_si256(_mm256_xor_si256(hi1, c1[g]), k0);
      c1[g] = lo1;
      c2[g] = _mm256_xor_si256(_mm256_xor_si256(hi0, c3[g]), k1);
      c3[g] = lo0;
    }
  }
  for (int g = 0; g < NB; ++g) {
    out[g].word[0] = c0[g];
    out[g].word[1] = c1[g];
    out[g].word[2] = c2[g];
    out[g].word[3] = c3[g];
  }
}

// NB independent groups of 8 blocks (groups g at first_block + 8 g) through the 10 rounds
// together: one group is a single dependency chain (multiply latency), two keep the vector
// units busier.
template <int NB>
KOKKOSDTENSOR_IMPL_AVX2 void philox8(const PhiloxKeySchedule& key, std::uint64_t first_block,
                                     Words8 (&out)[NB]) {
  __m256i c0[NB], c1[NB];
  for (int g = 0; g < NB; ++g) {
    const std::uint64_t first = first_block + 8 * static_cast<std::uint64_t>(g);
    const std::uint32_t lo = static_cast<std::uint32_t>(first);
    if (lo <= 0xFFFFFFF8u) {  // no carry into the high counter word within the group
      c0[g] = _mm256_add_epi32(_mm256_set1_epi32(static_cast<int>(lo)),
                               _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
      c1[g] = _mm256_set1_epi32(static_cast<int>(first >> 32));
    } else {
      alignas(32) std::uint32_t l0[8], l1[8];
      for (int l = 0; l < 8; ++l) {
        l0[l] = static_cast<std::uint32_t>(first + l);
        l1[l] = static_cast<std::uint32_t>((first + l) >> 32);
      }
      c0[g] = _mm256_load_si256(reinterpret_cast<const __m256i*>(l0));
      c1[g] = _mm256_load_si256(reinterpret_cast<const __m256i*>(l1));
    }
  }
  philox8_counters<NB>(key, c0, c1, out);
}

// Block-lane layout (v[j] lane l = word/element j of block l) to stream order
// (out[k] = elements 8k .. 8k + 7 of the 8 blocks, i.e. blocks 2k and 2k + 1).
KOKKOSDTENSOR_IMPL_AVX2 void to_stream_order(const __m256i (&v)[4], __m256i (&out)[4]) {
  const __m256i t0 = _mm256_unpacklo_epi32(v[0], v[1]);  // 0 of blocks 0,1 | 4,5 ...
  const __m256i t1 = _mm256_unpackhi_epi32(v[0], v[1]);
  const __m256i t2 = _mm256_unpacklo_epi32(v[2], v[3]);
  const __m256i t3 = _mm256_unpackhi_epi32(v[2], v[3]);
  const __m256i b04 = _mm256_unpacklo_epi64(t0, t2);  // block 0 | block 4
  const __m256i b15 = _mm256_unpackhi_epi64(t0, t2);  // block 1 | block 5
  const __m256i b26 = _mm256_unpacklo_epi64(t1, t3);
  const __m256i b37 = _mm256_unpackhi_epi64(t1, t3);
  out[0] = _mm256_permute2x128_si256(b04, b15, 0x20);
  out[1] = _mm256_permute2x128_si256(b26, b37, 0x20);
  out[2] = _mm256_permute2x128_si256(b04, b15, 0x31);
  out[3] = _mm256_permute2x128_si256(b26, b37, 0x31);
}

KOKKOSDTENSOR_IMPL_AVX2 void store_stream_order(const __m256i (&v)[4], void* dst) {
  __m256i s[4];
  to_stream_order(v, s);
  for (int k = 0; k < 4; ++k) _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst) + k, s[k]);
}

// ---- Philox4x32-10, 16 blocks in the 16 lanes of AVX-512 registers ------------------------

#define KOKKOSDTENSOR_IMPL_AVX512 \
  __attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA), always_inline)) inline

// The halves are moved into place by masked vpshufd (one instruction each) where the AVX2
// version shifts and blends (two).
KOKKOSDTENSOR_IMPL_AVX512 void mul_hi_lo(__m512i a, __m512i m, __m512i& hi, __m512i& lo) {
  const __m512i even = _mm512_mul_epu32(a, m);
  const __m512i odd = _mm512_mul_epu32(_mm512_srli_epi64(a, 32), m);
  // Even lanes: the high half of `even` (word 2i + 1 moved to 2i); odd lanes: that of `odd`.
  hi = _mm512_mask_shuffle_epi32(odd, 0x5555, even, _MM_PERM_DDBB);
  // Odd lanes: the low half of `odd` (word 2i moved to 2i + 1); even lanes: that of `even`.
  lo = _mm512_mask_shuffle_epi32(even, 0xAAAA, odd, _MM_PERM_CCAA);
}

// Words of 16 consecutive blocks in the lanes of AVX-512 registers: word[j] lane l is word j
// of block l.
struct Words16 {
  __m512i word[4];
};

// Philox of NB groups of 16 blocks of any counters: lane l of group g is block
// hi[g] lane l << 32 | lo[g] lane l.
template <int NB>
KOKKOSDTENSOR_IMPL_AVX512 void philox16_counters(const PhiloxKeySchedule& key,
                                                 const __m512i (&lo)[NB], const __m512i (&hi)[NB],
                                                 Words16 (&out)[NB]) {
  __m512i c0[NB], c1[NB], c2[NB], c3[NB];
  for (int g = 0; g < NB; ++g) {
    c0[g] = lo[g];
    c1[g] = hi[g];
    c2[g] = _mm512_setzero_si512();
    c3[g] = _mm512_setzero_si512();
  }
  const __m512i m0 = _mm512_set1_epi32(static_cast<int>(philox_m0));
  const __m512i m1 = _mm512_set1_epi32(static_cast<int>(philox_m1));
  for (int round = 0; round < 10; ++round) {
    const __m512i k0 = _mm512_set1_epi32(static_cast<int>(key.k0[round]));
    const __m512i k1 = _mm512_set1_epi32(static_cast<int>(key.k1[round]));
    for (int g = 0; g < NB; ++g) {
      __m512i hi0, lo0, hi1, lo1;
      mul_hi_lo(c0[g], m0, hi0, lo0);
      mul_hi_lo(c2[g], m1, hi1, lo1);
      c0[g] = _mm512_xor_si512(_mm512_xor_si512(hi1, c1[g]), k0);
      c1[g] = lo1;
      c2[g] = _mm512_xor_si512(_mm512_xor_si512(hi0, c3[g]), k1);
      c3[g] = lo0;
    }
  }
  for (int g = 0; g < NB; ++g) {
    out[g].word[0] = c0[g];
    out[g].word[1] = c1[g];
    out[g].word[2] = c2[g];
    out[g].word[3] = c3[g];
  }
}

// NB groups of 16 blocks (group g: blocks first_block + 16 g + l, l = 0..15). Two groups:
// two dependency chains, as philox8.
template <int NB>
KOKKOSDTENSOR_IMPL_AVX512 void philox16(const PhiloxKeySchedule& key, std::uint64_t first_block,
                                        Words16 (&out)[NB]) {
  __m512i c0[NB], c1[NB];
  for (int g = 0; g < NB; ++g) {
    const std::uint64_t first = first_block + 16 * static_cast<std::uint64_t>(g);
    const std::uint32_t lo = static_cast<std::uint32_t>(first);
    if (lo <= 0xFFFFFFF0u) {  // no carry into the high counter word within the group
      c0[g] =
          _mm512_add_epi32(_mm512_set1_epi32(static_cast<int>(lo)),
                           _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
      c1[g] = _mm512_set1_epi32(static_cast<int>(first >> 32));
    } else {
      alignas(64) std::uint32_t l0[16], l1[16];
      for (int l = 0; l < 16; ++l) {
        l0[l] = static_cast<std::uint32_t>(first + l);
        l1[l] = static_cast<std::uint32_t>((first + l) >> 32);
      }
      c0[g] = _mm512_load_si512(l0);
      c1[g] = _mm512_load_si512(l1);
    }
  }
  philox16_counters<NB>(key, c0, c1, out);
}

// The same as 2 NB Words8: out[2 g] blocks 0..7 of group g, out[2 g + 1] blocks 8..15 (the
// layout philox8 gives, so the AVX2 transforms take them as they are).
template <int NB>
KOKKOSDTENSOR_IMPL_AVX512 void philox16(const PhiloxKeySchedule& key, std::uint64_t first_block,
                                        Words8 (&out)[2 * NB]) {
  Words16 words[NB];
  philox16<NB>(key, first_block, words);
  for (int g = 0; g < NB; ++g) {
    for (int j = 0; j < 4; ++j) {
      out[2 * g].word[j] = _mm512_castsi512_si256(words[g].word[j]);
      out[2 * g + 1].word[j] = _mm512_extracti64x4_epi64(words[g].word[j], 1);
    }
  }
}

// A 4x4 transpose of 128-bit lanes: out[k] lane r = b[r] lane k.
KOKKOSDTENSOR_IMPL_AVX512 void transpose_lanes(const __m512i (&b)[4], __m512i (&out)[4]) {
  const __m512i u0 = _mm512_shuffle_i32x4(b[0], b[1], 0x44);
  const __m512i u1 = _mm512_shuffle_i32x4(b[0], b[1], 0xEE);
  const __m512i u2 = _mm512_shuffle_i32x4(b[2], b[3], 0x44);
  const __m512i u3 = _mm512_shuffle_i32x4(b[2], b[3], 0xEE);
  out[0] = _mm512_shuffle_i32x4(u0, u2, 0x88);
  out[1] = _mm512_shuffle_i32x4(u0, u2, 0xDD);
  out[2] = _mm512_shuffle_i32x4(u1, u3, 0x88);
  out[3] = _mm512_shuffle_i32x4(u1, u3, 0xDD);
}

// Block-lane layout of 16 blocks to stream order: out[k] = the 16 words of blocks 4k .. 4k + 3.
KOKKOSDTENSOR_IMPL_AVX512 void to_stream_order(const __m512i (&v)[4], __m512i (&out)[4]) {
  const __m512i t0 = _mm512_unpacklo_epi32(v[0], v[1]);  // words 0, 1 of blocks 4i, 4i + 1
  const __m512i t1 = _mm512_unpackhi_epi32(v[0], v[1]);  // ... of blocks 4i + 2, 4i + 3
  const __m512i t2 = _mm512_unpacklo_epi32(v[2], v[3]);  // words 2, 3 of blocks 4i, 4i + 1
  const __m512i t3 = _mm512_unpackhi_epi32(v[2], v[3]);
  // b[r] 128-bit lane i: block 4i + r.
  const __m512i b[4] = {_mm512_unpacklo_epi64(t0, t2), _mm512_unpackhi_epi64(t0, t2),
                        _mm512_unpacklo_epi64(t1, t3), _mm512_unpackhi_epi64(t1, t3)};
  transpose_lanes(b, out);
}

// Four 16-lane vectors (block-lane layout) stored in stream order at dst (any alignment).
KOKKOSDTENSOR_IMPL_AVX512 void store_stream_order(const __m512i (&v)[4], void* dst) {
  __m512i s[4];
  to_stream_order(v, s);
  for (int k = 0; k < 4; ++k) _mm512_storeu_si512(static_cast<char*>(dst) + 64 * k, s[k]);
}

// Where a 16-lane transform writes the values of its 16 blocks (element j of block l):
// StreamOrder at dst[4 l + j] (the rows kernels), ElementOrder at dst[16 j + l] (the lanes
// kernel, whose lane l is a row: element j of the 16 rows is then one column, no shuffles).
// 8-byte elements (2 a block): dst[2 l + j] and dst[16 j + l].
// arrange: block-lane vectors (word j of 16 blocks) into the 4 vectors of dst's 64 words.
struct StreamOrder {
  template <class T>
  static constexpr int index(int j, int l) {
    return (sizeof(T) == 8 ? 2 : 4) * l + j;
  }
  static KOKKOSDTENSOR_IMPL_AVX512 void arrange(const __m512i (&v)[4], __m512i (&out)[4]) {
    to_stream_order(v, out);
  }
  static KOKKOSDTENSOR_IMPL_AVX512 void store(const __m512i (&v)[4], void* dst) {
    store_stream_order(v, dst);
  }
};
struct ElementOrder {
  template <class T>
  static constexpr int index(int j, int l) {
    return 16 * j + l;
  }
  static KOKKOSDTENSOR_IMPL_AVX512 void arrange(const __m512i (&v)[4], __m512i (&out)[4]) {
    for (int j = 0; j < 4; ++j) out[j] = v[j];
  }
  static KOKKOSDTENSOR_IMPL_AVX512 void store(const __m512i (&v)[4], void* dst) {
    for (int j = 0; j < 4; ++j) _mm512_storeu_si512(static_cast<char*>(dst) + 64 * j, v[j]);
  }
};

// bernoulli_word(word, threshold) in 16 lanes: an unsigned compare; all true at 2^32.
KOKKOSDTENSOR_IMPL_AVX512 __mmask16 bernoulli_mask16(__m512i w, std::uint64_t threshold) {
  if (threshold > 0xFFFFFFFFull) return 0xFFFF;
  return _mm512_cmplt_epu32_mask(
      w, _mm512_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(threshold))));
}

// uniform01_float in 16 lanes (as uniform01 below).
KOKKOSDTENSOR_IMPL_AVX512 __m512 uniform01(__m512i w) {
  return _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_srli_epi32(w, 8)), _mm512_set1_ps(0x1p-24f));
}

// ---- float helpers: each mirrors one scalar function step for step ------------------------

KOKKOSDTENSOR_IMPL_AVX2 __m256 fma(__m256 a, __m256 b, __m256 c) {
  return _mm256_fmadd_ps(a, b, c);
}
KOKKOSDTENSOR_IMPL_AVX2 __m256 bcast(float x) { return _mm256_set1_ps(x); }
KOKKOSDTENSOR_IMPL_AVX2 __m256 bits_ps(std::uint32_t bits) {
  return _mm256_castsi256_ps(_mm256_set1_epi32(static_cast<int>(bits)));
}
// c ? b : a, lane by lane (c: all-ones or all-zeros lanes).
KOKKOSDTENSOR_IMPL_AVX2 __m256 select(__m256 c, __m256 b, __m256 a) {
  return _mm256_blendv_ps(a, b, c);
}
KOKKOSDTENSOR_IMPL_AVX2 __m256 abs(__m256 x) { return _mm256_and_ps(x, bits_ps(0x7fffffffu)); }
KOKKOSDTENSOR_IMPL_AVX2 __m256 sign(__m256 x) { return _mm256_and_ps(x, bits_ps(0x80000000u)); }
KOKKOSDTENSOR_IMPL_AVX2 __m256 copysign(__m256 magnitude, __m256 s) {
  return _mm256_or_ps(abs(magnitude), sign(s));
}

// horner(x, c0, c1, ...) of PortableMath: acc = c0; acc = fma(acc, x, c_i).
template <int N>
KOKKOSDTENSOR_IMPL_AVX2 __m256 horner(__m256 x, const float (&c)[N]) {
  __m256 acc = bcast(c[0]);
  for (int i = 1; i < N; ++i) acc = fma(acc, x, bcast(c[i]));
  return acc;
}

// uniform01_float: (word >> 8) * 2^-24; uniform01_open_float: ((word >> 8) + 1) * 2^-24.
// The integers are below 2^24 + 1, so the signed conversion is the exact unsigned one.
KOKKOSDTENSOR_IMPL_AVX2 __m256 uniform01(__m256i w) {
  return _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_srli_epi32(w, 8)), bcast(0x1p-24f));
}
KOKKOSDTENSOR_IMPL_AVX2 __m256 uniform01_open(__m256i w) {
  return _mm256_mul_ps(
      _mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_srli_epi32(w, 8), _mm256_set1_epi32(1))),
      bcast(0x1p-24f));
}

// log_normal_positive(xs, tiny ? 23 : 0) of PortableMath (the arithmetic of portable_log
// without its special cases); MayBeTiny = false: e_shift is 0 (no `tiny` lanes).
template <bool MayBeTiny>
KOKKOSDTENSOR_IMPL_AVX2 __m256 log_core(__m256 xs, __m256 tiny) {
  const __m256i bits = _mm256_castps_si256(xs);
  const __m256i e = _mm256_srai_epi32(_mm256_sub_epi32(bits, _mm256_set1_epi32(0x3f2aaaab)), 23);
  const __m256 m = _mm256_castsi256_ps(_mm256_sub_epi32(bits, _mm256_slli_epi32(e, 23)));
  const __m256 f = _mm256_sub_ps(m, bcast(1.0f));
  static constexpr float cg[9] = {0x1.d01f96p-4f,  -0x1.fcd61ap-4f, 0x1.bf1a08p-4f,
                                  -0x1.f7579cp-4f, 0x1.24b290p-3f,  -0x1.557838p-3f,
                                  0x1.999954p-3f,  -0x1.ffffb6p-3f, 0x1.555556p-2f};
  const __m256 g = horner(f, cg);
  const __m256 t = fma(g, f, bcast(-0.5f));
  const __m256 f2 = _mm256_mul_ps(f, f);
  const __m256 p = fma(t, f2, f);
  __m256i ei = e;
  if (MayBeTiny)
    ei = _mm256_blendv_epi8(e, _mm256_sub_epi32(e, _mm256_set1_epi32(23)),
                            _mm256_castps_si256(tiny));
  const __m256 ef = _mm256_cvtepi32_ps(ei);
  return fma(ef, bcast(0x1.62e430p-1f), fma(ef, bcast(-0x1.05c610p-29f), p));
}

// portable_log(float).
KOKKOSDTENSOR_IMPL_AVX2 __m256 log(__m256 x) {
  const __m256 tiny = _mm256_cmp_ps(x, bcast(0x1p-126f), _CMP_LT_OQ);
  const __m256 r = log_core<true>(select(tiny, _mm256_mul_ps(x, bcast(0x1p23f)), x), tiny);
  // x > 0 and finite: r; x == 0: -inf; x < 0: NaN; +inf, NaN: x + x.
  const __m256 normal = _mm256_and_ps(_mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_GT_OQ),
                                      _mm256_cmp_ps(x, bcast(0x1.fffffep127f), _CMP_LE_OQ));
  __m256 out = select(_mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_LT_OQ), bits_ps(0x7fc00000u),
                      _mm256_add_ps(x, x));
  out = select(_mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_EQ_OQ), bits_ps(0xff800000u), out);
  return select(normal, r, out);
}

// portable_rint(float).
KOKKOSDTENSOR_IMPL_AVX2 __m256 rint(__m256 v) {
  const __m256 a = abs(v);
  const __m256 r = _mm256_sub_ps(_mm256_add_ps(a, bcast(0x1p23f)), bcast(0x1p23f));
  return select(_mm256_cmp_ps(a, bcast(0x1p23f), _CMP_LT_OQ), copysign(r, v), v);
}

// sincospi_reduced<MayBeTiny>(r, q) of PortableMath: sin and cos of pi (r + q/2), |r| <= 1/4.
template <bool MayBeTiny>
KOKKOSDTENSOR_IMPL_AVX2 void sincospi_reduced(__m256 r, __m256i q, __m256& s, __m256& c) {
  const __m256 z = _mm256_mul_ps(r, r);
  static constexpr float ch[4] = {0x1.4cb74ap-4f, -0x1.32ce1ep-1f, 0x1.466bc2p+1f, -0x1.4abbcep+2f};
  const __m256 h = horner(z, ch);
  __m256 sr;
  if (MayBeTiny) {
    const __m256 tiny = _mm256_cmp_ps(abs(r), bcast(0x1p-90f), _CMP_LT_OQ);
    const __m256 rr = select(tiny, _mm256_mul_ps(r, bcast(0x1p64f)), r);
    const __m256 srs =
        fma(rr, bcast(0x1.921fb6p+1f),
            fma(rr, bcast(-0x1.777a5cp-24f), _mm256_mul_ps(_mm256_mul_ps(rr, z), h)));
    sr = select(tiny, _mm256_mul_ps(srs, bcast(0x1p-64f)), srs);
  } else {
    sr = fma(r, bcast(0x1.921fb6p+1f),
             fma(r, bcast(-0x1.777a5cp-24f), _mm256_mul_ps(_mm256_mul_ps(r, z), h)));
  }
  static constexpr float ck[3] = {0x1.db6466p-3f, -0x1.55cb98p+0f, 0x1.03c1eap+2f};
  const __m256 k2 = horner(z, ck);
  const __m256 zl = _mm256_fmsub_ps(r, r, z);  // fma(r, r, -z): the same single rounding
  const __m256 c1 = bcast(-0x1.3bd3ccp+2f);
  const __m256 t = fma(z, c1, bcast(1.0f));
  const __m256 e1 = fma(z, c1, _mm256_sub_ps(bcast(1.0f), t));
  const __m256 rest =
      fma(zl, c1, fma(z, bcast(-0x1.37c8bcp-23f), _mm256_mul_ps(_mm256_mul_ps(z, z), k2)));
  const __m256 cr = _mm256_add_ps(t, _mm256_add_ps(e1, rest));
  // q & 1 swaps sin and cos; q & 2 negates sin, (q + 1) & 2 cos (a sign-bit flip, as -x).
  const __m256i one = _mm256_set1_epi32(1), two = _mm256_set1_epi32(2);
  const __m256 odd = _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(q, one), one));
  const __m256 flip_s = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_and_si256(q, two), 30));
  const __m256 flip_c =
      _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_and_si256(_mm256_add_epi32(q, one), two), 30));
  s = _mm256_xor_ps(select(odd, cr, sr), flip_s);
  c = _mm256_xor_ps(select(odd, sr, cr), flip_c);
}

// portable_sincospi(float).
KOKKOSDTENSOR_IMPL_AVX2 void sincospi(__m256 x, __m256& s, __m256& c) {
  const __m256 ax = abs(x);
  const __m256 xs = select(_mm256_cmp_ps(ax, bcast(0x1p24f), _CMP_LT_OQ), x, sign(x));
  const __m256 j = rint(_mm256_mul_ps(bcast(2.0f), xs));
  const __m256 r = fma(j, bcast(-0.5f), xs);
  const __m256i q = _mm256_and_si256(_mm256_cvttps_epi32(j), _mm256_set1_epi32(3));
  __m256 sv, cv;
  sincospi_reduced<true>(r, q, sv, cv);
  const __m256 finite = _mm256_cmp_ps(ax, bcast(0x1.fffffep127f), _CMP_LE_OQ);
  s = select(finite, sv, bits_ps(0x7fc00000u));
  c = select(finite, cv, bits_ps(0x7fc00000u));
}

// ---- the stream-version-2 normal (KokkosDTensor_NormalQuantile.hpp), 8 words at once ----

// normal_from_word(w) for the 8 words of w, as float bits. Step by step the scalar code:
//  m = ((w & 0x7FFFFFFF) << 1) | 1 = (w << 1) | 1 (up to 2^32 - 1); float(m) without an unsigned
//  conversion: hi = m >> 16 and lo = m & 0xFFFF convert exactly, hi * 2^16 is exact, so the
//  one rounding of fma(hi, 2^16, lo) is the round-to-nearest conversion of m.
//  q = float(m) 2^-33 only shifts the exponent by -33, so the table index
//  (bits(q) >> 19) - (94 << 4) is (bits(float(m)) >> 19) - (127 << 4), and the low 19
//  mantissa bits of q and float(m) are the same: u is made from float(m)'s bits directly.
//  The 4 coefficients of each lane's entry (16 contiguous bytes) come from one 128-bit load
//  per lane and a 4x4 transpose per half: 0.58 ns per normal on one Zen 4 core against
//  1.97 ns for four 8-lane gathers (normal_coefficients_gather, kept for comparison and
//  tested) and 0.61 ns with vpextrd for the indices (docs/performance.md, "Why it is built
//  this way").
//  z = fma(fma(fma(c3, u, c2), u, c1), u, c0) with the sign bit of w XORed in.
KOKKOSDTENSOR_IMPL_AVX2 void normal_coefficients_load(const float* table, __m256i idx, __m256& c0,
                                                      __m256& c1, __m256& c2, __m256& c3) {
  // Byte offsets of the entries through memory, two per 64-bit load (measured 7% faster
  // than vpextrd from the register).
  alignas(32) std::uint64_t at[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(at), _mm256_slli_epi32(idx, 4));
  const char* base = reinterpret_cast<const char*>(table);
  const auto entry = [base](std::uint64_t offset) {
    return _mm_load_ps(reinterpret_cast<const float*>(base + offset));
  };
  // Rows: lane l's (c0, c1, c2, c3); lanes l and l + 4 share a 256-bit register.
  const __m256 r0 = _mm256_insertf128_ps(_mm256_castps128_ps256(entry(at[0] & 0xffffffffu)),
                                         entry(at[2] & 0xffffffffu), 1);
  const __m256 r1 =
      _mm256_insertf128_ps(_mm256_castps128_ps256(entry(at[0] >> 32)), entry(at[2] >> 32), 1);
  const __m256 r2 = _mm256_insertf128_ps(_mm256_castps128_ps256(entry(at[1] & 0xffffffffu)),
                                         entry(at[3] & 0xffffffffu), 1);
  const __m256 r3 =
      _mm256_insertf128_ps(_mm256_castps128_ps256(entry(at[1] >> 32)), entry(at[3] >> 32), 1);
  const __m256 t0 = _mm256_unpacklo_ps(r0, r1);  // c0 of lanes 0,1 | c1 of 0,1 (and 4,5)
  const __m256 t1 = _mm256_unpackhi_ps(r0, r1);  // c2, c3 of lanes 0,1 (and 4,5)
  const __m256 t2 = _mm256_unpacklo_ps(r2, r3);
  const __m256 t3 = _mm256_unpackhi_ps(r2, r3);
  c0 = _mm256_castpd_ps(_mm256_unpacklo_pd(_mm256_castps_pd(t0), _mm256_castps_pd(t2)));
  c1 = _mm256_castpd_ps(_mm256_unpackhi_pd(_mm256_castps_pd(t0), _mm256_castps_pd(t2)));
  c2 = _mm256_castpd_ps(_mm256_unpacklo_pd(_mm256_castps_pd(t1), _mm256_castps_pd(t3)));
  c3 = _mm256_castpd_ps(_mm256_unpackhi_pd(_mm256_castps_pd(t1), _mm256_castps_pd(t3)));
}

KOKKOSDTENSOR_IMPL_AVX2 void normal_coefficients_gather(const float* table, __m256i idx, __m256& c0,
                                                        __m256& c1, __m256& c2, __m256& c3) {
  const __m256i at = _mm256_slli_epi32(idx, 2);
  c0 = _mm256_i32gather_ps(table + 0, at, 4);
  c1 = _mm256_i32gather_ps(table + 1, at, 4);
  c2 = _mm256_i32gather_ps(table + 2, at, 4);
  c3 = _mm256_i32gather_ps(table + 3, at, 4);
}

template <bool Gather = false>
KOKKOSDTENSOR_IMPL_AVX2 __m256 normal_from_word(__m256i w, const float* table) {
  const __m256i m = _mm256_or_si256(_mm256_slli_epi32(w, 1), _mm256_set1_epi32(1));  // drops bit 31
  const __m256 hi = _mm256_cvtepi32_ps(_mm256_srli_epi32(m, 16));
  const __m256 lo = _mm256_cvtepi32_ps(_mm256_and_si256(m, _mm256_set1_epi32(0xffff)));
  const __m256i fm = _mm256_castps_si256(fma(hi, bcast(0x1p16f), lo));  // bits of float(m)
  const __m256i idx = _mm256_sub_epi32(_mm256_srli_epi32(fm, 19), _mm256_set1_epi32(127 << 4));
  const __m256 u = _mm256_mul_ps(
      _mm256_cvtepi32_ps(_mm256_sub_epi32(_mm256_and_si256(fm, _mm256_set1_epi32(0x7ffff)),
                                          _mm256_set1_epi32(0x40000))),
      bcast(0x1p-19f));
  __m256 c0, c1, c2, c3;
  if (Gather)
    normal_coefficients_gather(table, idx, c0, c1, c2, c3);
  else
    normal_coefficients_load(table, idx, c0, c1, c2, c3);
  const __m256 z = fma(fma(fma(c3, u, c2), u, c1), u, c0);
  return _mm256_xor_ps(z, _mm256_castsi256_ps(_mm256_and_si256(
                              w, _mm256_set1_epi32(static_cast<int>(0x80000000u)))));
}

// The float normal table's entries of the top four octaves of q (entries 448 .. 511, where
// 15/16 of the words fall) by coefficient: coef[j][e] is coefficient j of entry first + e.
// Four 16-float rows per coefficient, for vpermt2ps lookups in 16 lanes.
struct NormalTopOctavesF32 {
  static constexpr std::uint32_t first = NormalTableF32::entries - 1 - 4 * 16, entries = 4 * 16;
  alignas(64) float coef[NormalTableF32::coefs][entries];
};
constexpr NormalTopOctavesF32 make_normal_top_octaves_f32() {
  NormalTopOctavesF32 top{};
  for (int j = 0; j < NormalTableF32::coefs; ++j)
    for (std::uint32_t e = 0; e < NormalTopOctavesF32::entries; ++e)
      top.coef[j][e] =
          NormalTableF32::data[NormalTableF32::coefs * (NormalTopOctavesF32::first + e) + j];
  return top;
}
inline constexpr NormalTopOctavesF32 normal_top_octaves_f32 = make_normal_top_octaves_f32();

// normal_from_word in 16 lanes (AVX-512F), as float bits, for the lanes whose entry is one
// of NormalTopOctavesF32's (15/16 of the words); `cold` gets the mask of the other lanes,
// whose results are not those of normal_from_word (HostAvx512Transform<Normal<float>>
// computes them with the scalar function):
//  float(m) by vcvtudq2ps, the one round-to-nearest conversion of the scalar code; the entry
//  and u from its bits, as normal_entry<33>; the coefficients by two vpermt2ps and a blend
//  each (the fastest of the 16-lane lookups measured, docs/performance.md); Horner with fma
//  and the sign bit of w, as the scalar code.
KOKKOSDTENSOR_IMPL_AVX512 __m512 normal_from_word_top(__m512i w, __mmask16& cold) {
  const __m512i m = _mm512_or_si512(_mm512_slli_epi32(w, 1), _mm512_set1_epi32(1));  // drops bit 31
  const __m512i fm = _mm512_castps_si512(_mm512_cvtepu32_ps(m));  // bits of float(m)
  const __m512i idx = _mm512_sub_epi32(_mm512_srli_epi32(fm, 19), _mm512_set1_epi32(127 << 4));
  const __m512 u =
      _mm512_sub_ps(_mm512_castsi512_ps(_mm512_or_si512(
                        _mm512_slli_epi32(_mm512_and_si512(fm, _mm512_set1_epi32(0x7ffff)), 4),
                        _mm512_set1_epi32(0x3f800000))),
                    _mm512_set1_ps(1.5f));
  const NormalTopOctavesF32& top = normal_top_octaves_f32;
  const __m512i rel = _mm512_sub_epi32(idx, _mm512_set1_epi32(NormalTopOctavesF32::first));
  const __mmask16 upper = _mm512_test_epi32_mask(rel, _mm512_set1_epi32(32));  // entries +32 ..
  __m512 c[4];
  for (int j = 0; j < 4; ++j) {
    const float* row = top.coef[j];
    const __m512 low = _mm512_permutex2var_ps(_mm512_load_ps(row), rel, _mm512_load_ps(row + 16));
    const __m512 high =
        _mm512_permutex2var_ps(_mm512_load_ps(row + 32), rel, _mm512_load_ps(row + 48));
    c[j] = _mm512_mask_blend_ps(upper, low, high);
  }
  cold = _mm512_cmpge_epu32_mask(rel, _mm512_set1_epi32(NormalTopOctavesF32::entries));
  const __m512 z =
      _mm512_fmadd_ps(_mm512_fmadd_ps(_mm512_fmadd_ps(c[3], u, c[2]), u, c[1]), u, c[0]);
  return _mm512_castsi512_ps(
      _mm512_xor_si512(_mm512_castps_si512(z),
                       _mm512_and_si512(w, _mm512_set1_epi32(static_cast<int>(0x80000000u)))));
}

// double(m) for the 4 unsigned 64-bit lanes of m: double(m >> 32) * 2^32 + double(m &
// (2^32 - 1)), each half converted exactly by the 2^52 trick, the product exact, the sum
// rounded once (so the correctly rounded double(m); exact below 2^53).
KOKKOSDTENSOR_IMPL_AVX2 __m256d u64_to_double(__m256i m) {
  const __m256i two52 = _mm256_set1_epi64x(0x4330000000000000ll);
  const __m256d hi =
      _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64(m, 32), two52)),
                    _mm256_set1_pd(0x1p52));
  const __m256d lo =
      _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(
                        _mm256_and_si256(m, _mm256_set1_epi64x(0xffffffffll)), two52)),
                    _mm256_set1_pd(0x1p52));
  return _mm256_add_pd(_mm256_mul_pd(hi, _mm256_set1_pd(0x1p32)), lo);
}

// uniform01_double for 4 elements, x = w0 << 32 | w1 in the 64-bit lanes: (x >> 11) * 2^-53,
// the 53-bit integer converted exactly and the scaling exact.
KOKKOSDTENSOR_IMPL_AVX2 __m256d uniform01_double(__m256i x) {
  return _mm256_mul_pd(u64_to_double(_mm256_srli_epi64(x, 11)), _mm256_set1_pd(0x1p-53));
}

// normal_from_words for 4 elements, x = w0 << 32 | w1 in the 64-bit lanes, as double bits.
// Mirrors the scalar host code step by step: m = (x << 1) | 1; double(m) by u64_to_double
// (the scalar code's same two halves); the entry index from double(m)'s bits (q = double(m) 2^-65
// shifts the exponent only); u = (1 + low50 2^-50) - 3/2, exact, as the scalar normal_entry;
// coefficients by 4 unaligned 32-byte loads per lane
// and 4x4 transposes (c0 .. c11), c12 by scalar loads; Horner with fma from c12 down; the
// last segment's factor 1/2 - u by a blend; the sign bit of x XORed in.
KOKKOSDTENSOR_IMPL_AVX2 __m256d normal_from_words(__m256i x, const double* table) {
  const __m256i m = _mm256_or_si256(_mm256_slli_epi64(x, 1), _mm256_set1_epi64x(1));
  const __m256i dm = _mm256_castpd_si256(u64_to_double(m));
  const __m256i idx = _mm256_sub_epi64(_mm256_srli_epi64(dm, 50), _mm256_set1_epi64x(1023 * 4));
  const __m256d u = _mm256_sub_pd(
      _mm256_castsi256_pd(_mm256_or_si256(
          _mm256_slli_epi64(_mm256_and_si256(dm, _mm256_set1_epi64x(0x3ffffffffffffll)), 2),
          _mm256_set1_epi64x(0x3ff0000000000000ll))),
      _mm256_set1_pd(1.5));
  alignas(32) std::uint64_t i[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(i), idx);
  const double* e0 = table + 13 * i[0];
  const double* e1 = table + 13 * i[1];
  const double* e2 = table + 13 * i[2];
  const double* e3 = table + 13 * i[3];
  __m256d c[13];
  for (int k = 0; k < 12; k += 4) {
    const __m256d r0 = _mm256_loadu_pd(e0 + k), r1 = _mm256_loadu_pd(e1 + k);
    const __m256d r2 = _mm256_loadu_pd(e2 + k), r3 = _mm256_loadu_pd(e3 + k);
    const __m256d t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
    const __m256d t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
    c[k] = _mm256_permute2f128_pd(t0, t2, 0x20);
    c[k + 1] = _mm256_permute2f128_pd(t1, t3, 0x20);
    c[k + 2] = _mm256_permute2f128_pd(t0, t2, 0x31);
    c[k + 3] = _mm256_permute2f128_pd(t1, t3, 0x31);
  }
  c[12] = _mm256_setr_pd(e0[12], e1[12], e2[12], e3[12]);
  __m256d p = c[12];
  for (int k = 11; k >= 0; --k) p = _mm256_fmadd_pd(p, u, c[k]);
  const __m256d last = _mm256_castsi256_pd(_mm256_cmpeq_epi64(idx, _mm256_set1_epi64x(255)));
  const __m256d d =
      _mm256_blendv_pd(_mm256_set1_pd(1.0), _mm256_sub_pd(_mm256_set1_pd(0.5), u), last);
  const __m256d z = _mm256_mul_pd(p, d);
  return _mm256_xor_pd(z,
                       _mm256_castsi256_pd(_mm256_and_si256(
                           x, _mm256_set1_epi64x(static_cast<long long>(0x8000000000000000ull)))));
}

}  // namespace host_avx2

// Dist's transform of 8 whole consecutive blocks at once, in AVX2: apply(dist, words, dst)
// writes the 8 * elements_per_block values of the blocks whose words are `words` (block-lane
// layout) to dst (any alignment). available = false: the caller runs Dist's scalar
// operator() block by block on the words instead.
template <class Dist>
struct HostAvx2Transform {
  static constexpr bool available = false;
};

template <>
struct HostAvx2Transform<StandardUniform<float>> {
  static constexpr bool available = true;
  template <class D>
  static KOKKOSDTENSOR_IMPL_AVX2 void apply(const D&, const host_avx2::Words8& w, float* dst) {
    __m256i s[4];
    host_avx2::to_stream_order(w.word, s);
    for (int k = 0; k < 4; ++k) _mm256_storeu_ps(dst + 8 * k, host_avx2::uniform01(s[k]));
  }
};

// uniform_from_to: min(fma(u, range, from), below_to) as `value < below_to ? value : below_to`,
// which is exactly vminps(value, below_to).
template <>
struct HostAvx2Transform<Uniform<float>> {
  static constexpr bool available = true;
  static KOKKOSDTENSOR_IMPL_AVX2 void apply(const Uniform<float>& d, const host_avx2::Words8& w,
                                            float* dst) {
    __m256i s[4];
    host_avx2::to_stream_order(w.word, s);
    const __m256 range = _mm256_set1_ps(d.range), from = _mm256_set1_ps(d.from);
    const __m256 below_to = _mm256_set1_ps(d.below_to);
    for (int k = 0; k < 4; ++k) {
      const __m256 value = host_avx2::fma(host_avx2::uniform01(s[k]), range, from);
      _mm256_storeu_ps(dst + 8 * k, _mm256_min_ps(value, below_to));
    }
  }
};

// Normal f32: fma(std, z, mean) per word, computed in block-lane layout, stored in stream order.
#ifndef KOKKOSDTENSOR_IMPL_NORMAL_AVX2_GATHER
#define KOKKOSDTENSOR_IMPL_NORMAL_AVX2_GATHER false
#endif
template <>
struct HostAvx2Transform<Normal<float>> {
  static constexpr bool available = true;
  static KOKKOSDTENSOR_IMPL_AVX2 void apply(const Normal<float>& d, const host_avx2::Words8& w,
                                            float* dst) {
    const __m256 stddev = _mm256_set1_ps(d.stddev), mean = _mm256_set1_ps(d.mean);
    const float* table = NormalTableF32::data;
    __m256i v[4];
    for (int j = 0; j < 4; ++j)
      v[j] = _mm256_castps_si256(host_avx2::fma(
          stddev,
          host_avx2::normal_from_word<KOKKOSDTENSOR_IMPL_NORMAL_AVX2_GATHER>(w.word[j], table),
          mean));
    host_avx2::store_stream_order(v, dst);
  }
};

namespace host_avx2 {
// An f64 transform of 8 blocks (2 elements each): element e of block l is f applied to
// x = word[2e] << 32 | word[2e + 1]; 64-bit lanes made by interleaving (blocks 0,1,4,5 and
// 2,3,6,7), results put back in stream order (dst[2l + e]).
template <class F>
KOKKOSDTENSOR_IMPL_AVX2 void transform_f64(const Words8& w, double* dst, const F& f) {
  __m256d r[2][2];  // [element][blocks 0,1,4,5 | 2,3,6,7]
  for (int e = 0; e < 2; ++e) {
    const __m256i hi = w.word[2 * e], lo = w.word[2 * e + 1];
    r[e][0] = f(_mm256_unpacklo_epi32(lo, hi));
    r[e][1] = f(_mm256_unpackhi_epi32(lo, hi));
  }
  for (int h = 0; h < 2; ++h) {
    const __m256d even = _mm256_unpacklo_pd(r[0][h], r[1][h]);  // blocks 0|4 (h=0), 2|6 (h=1)
    const __m256d odd = _mm256_unpackhi_pd(r[0][h], r[1][h]);   // blocks 1|5, 3|7
    _mm256_storeu_pd(dst + 4 * h, _mm256_permute2f128_pd(even, odd, 0x20));
    _mm256_storeu_pd(dst + 8 + 4 * h, _mm256_permute2f128_pd(even, odd, 0x31));
  }
}
}  // namespace host_avx2

template <>
struct HostAvx2Transform<StandardUniform<double>> {
  static constexpr bool available = true;
  template <class D>
  static KOKKOSDTENSOR_IMPL_AVX2 void apply(const D&, const host_avx2::Words8& w, double* dst) {
    host_avx2::transform_f64(
        w, dst, [](__m256i x) __attribute__((target("avx2,fma"), always_inline)) {
          return host_avx2::uniform01_double(x);
        });
  }
};

// uniform_from_to in double: vminpd(value, below_to) is `value < below_to ? value : below_to`.
template <>
struct HostAvx2Transform<Uniform<double>> {
  static constexpr bool available = true;
  static KOKKOSDTENSOR_IMPL_AVX2 void apply(const Uniform<double>& d, const host_avx2::Words8& w,
                                            double* dst) {
    const __m256d range = _mm256_set1_pd(d.range), from = _mm256_set1_pd(d.from);
    const __m256d below_to = _mm256_set1_pd(d.below_to);
    host_avx2::transform_f64(
        w, dst, [&](__m256i x) __attribute__((target("avx2,fma"), always_inline)) {
          return _mm256_min_pd(_mm256_fmadd_pd(host_avx2::uniform01_double(x), range, from),
                               below_to);
        });
  }
};

// Normal f64: fma(std, z, mean) of each element (host_avx2::transform_f64).
template <>
struct HostAvx2Transform<Normal<double>> {
  static constexpr bool available = true;
  static KOKKOSDTENSOR_IMPL_AVX2 void apply(const Normal<double>& d, const host_avx2::Words8& w,
                                            double* dst) {
    const __m256d stddev = _mm256_set1_pd(d.stddev), mean = _mm256_set1_pd(d.mean);
    const double* table = NormalTableF64::data;
    host_avx2::transform_f64(
        w, dst, [&](__m256i x) __attribute__((target("avx2,fma"), always_inline)) {
          return _mm256_fmadd_pd(stddev, host_avx2::normal_from_words(x, table), mean);
        });
  }
};

template <>
struct HostAvx2Transform<RandomBits<std::uint32_t>> {
  static constexpr bool available = true;
  static KOKKOSDTENSOR_IMPL_AVX2 void apply(const RandomBits<std::uint32_t>&,
                                            const host_avx2::Words8& w, std::uint32_t* dst) {
    host_avx2::store_stream_order(w.word, dst);
  }
};

namespace host_avx2 {
// bernoulli_word(word, threshold) (word < threshold, threshold <= 2^32, compared in 64 bits)
// as all-ones lanes: an unsigned 32-bit compare (signed compare after flipping the sign bits),
// or all true when threshold = 2^32.
KOKKOSDTENSOR_IMPL_AVX2 __m256 bernoulli_mask(__m256i w, std::uint64_t threshold) {
  if (threshold > 0xFFFFFFFFull) return _mm256_castsi256_ps(_mm256_set1_epi32(-1));
  const __m256i bias = _mm256_set1_epi32(static_cast<int>(0x80000000u));
  const __m256i t = _mm256_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(threshold)));
  return _mm256_castsi256_ps(
      _mm256_cmpgt_epi32(_mm256_xor_si256(t, bias), _mm256_xor_si256(w, bias)));
}
}  // namespace host_avx2

// Bernoulli f32: success ? 1 : 0.
template <>
struct HostAvx2Transform<Bernoulli<float>> {
  static constexpr bool available = true;
  static KOKKOSDTENSOR_IMPL_AVX2 void apply(const Bernoulli<float>& d, const host_avx2::Words8& w,
                                            float* dst) {
    __m256i s[4];
    host_avx2::to_stream_order(w.word, s);
    for (int k = 0; k < 4; ++k)
      _mm256_storeu_ps(dst + 8 * k, _mm256_and_ps(host_avx2::bernoulli_mask(s[k], d.threshold),
                                                  _mm256_set1_ps(1.0f)));
  }
};

// Dropout f32 (in place): success ? +0 : current * scale.
template <>
struct HostAvx2Transform<Dropout<float>> {
  static constexpr bool available = true;
  static KOKKOSDTENSOR_IMPL_AVX2 void apply(const Dropout<float>& d, const host_avx2::Words8& w,
                                            float* dst) {
    __m256i s[4];
    host_avx2::to_stream_order(w.word, s);
    const __m256 scale = _mm256_set1_ps(d.scale);
    for (int k = 0; k < 4; ++k) {
      const __m256 kept = _mm256_mul_ps(_mm256_loadu_ps(dst + 8 * k), scale);
      _mm256_storeu_ps(dst + 8 * k,
                       _mm256_andnot_ps(host_avx2::bernoulli_mask(s[k], d.threshold), kept));
    }
  }
};

// Dist's transform of 16 whole consecutive blocks in AVX-512 (uniform, normal, bits,
// bernoulli and dropout f32, uniform f64; KokkosDTensor_HostSimdDistributions.hpp: the
// others): apply<Order>(dist, words, dst) writes the 16 * elements_per_block values at dst
// (any alignment) in Order (host_avx2::StreamOrder, the default: the same as
// HostAvx2Transform on the two halves).
// available = false: the caller splits the words for HostAvx2Transform.
template <class Dist>
struct HostAvx512Transform {
  static constexpr bool available = false;
};

template <>
struct HostAvx512Transform<StandardUniform<float>> {
  static constexpr bool available = true;
  template <class Order = host_avx2::StreamOrder, class D>
  static KOKKOSDTENSOR_IMPL_AVX512 void apply(const D&, const host_avx2::Words16& w, float* dst) {
    __m512i v[4];
    for (int j = 0; j < 4; ++j) v[j] = _mm512_castps_si512(host_avx2::uniform01(w.word[j]));
    Order::store(v, dst);
  }
};

// min(fma(u, range, from), below_to), as HostAvx2Transform<Uniform<float>>.
template <>
struct HostAvx512Transform<Uniform<float>> {
  static constexpr bool available = true;
  template <class Order = host_avx2::StreamOrder>
  static KOKKOSDTENSOR_IMPL_AVX512 void apply(const Uniform<float>& d, const host_avx2::Words16& w,
                                              float* dst) {
    const __m512 range = _mm512_set1_ps(d.range), from = _mm512_set1_ps(d.from);
    const __m512 below_to = _mm512_set1_ps(d.below_to);
    __m512i v[4];
    for (int j = 0; j < 4; ++j) {
      const __m512 u = host_avx2::uniform01(w.word[j]);
      v[j] = _mm512_castps_si512(_mm512_min_ps(_mm512_fmadd_ps(u, range, from), below_to));
    }
    Order::store(v, dst);
  }
};

// Normal f32: fma(std, z, mean) per word, as HostAvx2Transform<Normal<float>>.
template <>
struct HostAvx512Transform<Normal<float>> {
  static constexpr bool available = true;
  template <class Order = host_avx2::StreamOrder>
  static KOKKOSDTENSOR_IMPL_AVX512 void apply(const Normal<float>& d, const host_avx2::Words16& w,
                                              float* dst) {
    const __m512 stddev = _mm512_set1_ps(d.stddev), mean = _mm512_set1_ps(d.mean);
    __m512i v[4];
    __mmask16 cold[4];
    for (int j = 0; j < 4; ++j)
      v[j] = _mm512_castps_si512(
          _mm512_fmadd_ps(stddev, host_avx2::normal_from_word_top(w.word[j], cold[j]), mean));
    Order::store(v, dst);
    // The cold lanes of all 64 words in one loop (one mostly-taken branch per 64 words, not
    // four unpredictable ones): word j of block l is element j of block l.
    std::uint64_t rest =
        static_cast<std::uint64_t>(cold[0]) | static_cast<std::uint64_t>(cold[1]) << 16 |
        static_cast<std::uint64_t>(cold[2]) << 32 | static_cast<std::uint64_t>(cold[3]) << 48;
    if (rest) {
      alignas(64) std::uint32_t word[4][16];
      for (int j = 0; j < 4; ++j) _mm512_store_si512(word[j], w.word[j]);
      for (; rest; rest &= rest - 1) {
        const int bit = __builtin_ctzll(rest), j = bit >> 4, l = bit & 15;
        dst[Order::template index<float>(j, l)] =
            d.from_standard(normal_from_word(word[j][l], NormalTableF32::data));
      }
    }
  }
};

template <>
struct HostAvx512Transform<RandomBits<std::uint32_t>> {
  static constexpr bool available = true;
  template <class Order = host_avx2::StreamOrder>
  static KOKKOSDTENSOR_IMPL_AVX512 void apply(const RandomBits<std::uint32_t>&,
                                              const host_avx2::Words16& w, std::uint32_t* dst) {
    Order::store(w.word, dst);
  }
};

// Bernoulli f32: word < threshold ? 1 : 0 (an unsigned compare; all true at threshold 2^32).
template <>
struct HostAvx512Transform<Bernoulli<float>> {
  static constexpr bool available = true;
  template <class Order = host_avx2::StreamOrder>
  static KOKKOSDTENSOR_IMPL_AVX512 void apply(const Bernoulli<float>& d,
                                              const host_avx2::Words16& w, float* dst) {
    __m512i v[4];
    for (int j = 0; j < 4; ++j) {
      const __mmask16 success = host_avx2::bernoulli_mask16(w.word[j], d.threshold);
      v[j] = _mm512_castps_si512(_mm512_maskz_mov_ps(success, _mm512_set1_ps(1.0f)));
    }
    Order::store(v, dst);
  }
};

// Dropout f32 (in place): success ? +0 : current * scale, as HostAvx2Transform<Dropout<float>>;
// dst holds the input in Order.
template <>
struct HostAvx512Transform<Dropout<float>> {
  static constexpr bool available = true;
  template <class Order = host_avx2::StreamOrder>
  static KOKKOSDTENSOR_IMPL_AVX512 void apply(const Dropout<float>& d, const host_avx2::Words16& w,
                                              float* dst) {
    __m512i s[4];  // the words of dst + 16 k
    Order::arrange(w.word, s);
    const __m512 scale = _mm512_set1_ps(d.scale);
    for (int k = 0; k < 4; ++k) {
      const __mmask16 success = host_avx2::bernoulli_mask16(s[k], d.threshold);
      const __m512 kept = _mm512_mul_ps(_mm512_loadu_ps(dst + 16 * k), scale);
      _mm512_storeu_ps(dst + 16 * k, _mm512_maskz_mov_ps(static_cast<__mmask16>(~success), kept));
    }
  }
};

namespace host_avx2 {
// uniform01_double in 8 lanes: x >> 11 is below 2^53, so vcvtuqq2pd (AVX-512DQ) converts it
// exactly, as u64_to_double does.
KOKKOSDTENSOR_IMPL_AVX512 __m512d uniform01_double(__m512i x) {
  return _mm512_mul_pd(_mm512_cvtepu64_pd(_mm512_srli_epi64(x, 11)), _mm512_set1_pd(0x1p-53));
}

// transform_f64 for 16 blocks: element e of block l is f(word[2e] << 32 | word[2e + 1]),
// written to dst[Order::index<double>(e, l)].
template <class Order, class F>
KOKKOSDTENSOR_IMPL_AVX512 void transform_f64(const Words16& w, double* dst, const F& f) {
  __m512d r[2][2];  // [element][128-bit lane i: blocks 4i, 4i + 1 | 4i + 2, 4i + 3]
  for (int e = 0; e < 2; ++e) {
    const __m512i hi = w.word[2 * e], lo = w.word[2 * e + 1];
    r[e][0] = f(_mm512_unpacklo_epi32(lo, hi));
    r[e][1] = f(_mm512_unpackhi_epi32(lo, hi));
  }
  if constexpr (std::is_same<Order, ElementOrder>::value) {
    // Element e of blocks 0-7, then 8-15: from blocks 0, 1, 4, 5, ... and 2, 3, 6, 7, ...
    const __m512i first = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11);
    const __m512i second = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);
    for (int e = 0; e < 2; ++e) {
      _mm512_storeu_pd(dst + 16 * e, _mm512_permutex2var_pd(r[e][0], first, r[e][1]));
      _mm512_storeu_pd(dst + 16 * e + 8, _mm512_permutex2var_pd(r[e][0], second, r[e][1]));
    }
    return;
  }
  // b[q] 128-bit lane i: the two elements of block 4i + q.
  const __m512i b[4] = {_mm512_castpd_si512(_mm512_unpacklo_pd(r[0][0], r[1][0])),
                        _mm512_castpd_si512(_mm512_unpackhi_pd(r[0][0], r[1][0])),
                        _mm512_castpd_si512(_mm512_unpacklo_pd(r[0][1], r[1][1])),
                        _mm512_castpd_si512(_mm512_unpackhi_pd(r[0][1], r[1][1]))};
  __m512i out[4];
  transpose_lanes(b, out);
  for (int k = 0; k < 4; ++k) _mm512_storeu_si512(dst + 8 * k, out[k]);
}
}  // namespace host_avx2

template <>
struct HostAvx512Transform<StandardUniform<double>> {
  static constexpr bool available = true;
  template <class Order = host_avx2::StreamOrder, class D>
  static KOKKOSDTENSOR_IMPL_AVX512 void apply(const D&, const host_avx2::Words16& w, double* dst) {
    host_avx2::transform_f64<Order>(
        w, dst,
        [](__m512i x) __attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA), always_inline)) {
          return host_avx2::uniform01_double(x);
        });
  }
};

template <>
struct HostAvx512Transform<Uniform<double>> {
  static constexpr bool available = true;
  template <class Order = host_avx2::StreamOrder>
  static KOKKOSDTENSOR_IMPL_AVX512 void apply(const Uniform<double>& d, const host_avx2::Words16& w,
                                              double* dst) {
    const __m512d range = _mm512_set1_pd(d.range), from = _mm512_set1_pd(d.from);
    const __m512d below_to = _mm512_set1_pd(d.below_to);
    host_avx2::transform_f64<Order>(
        w,
        dst, [&](__m512i x) __attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA), always_inline)) {
          return _mm512_min_pd(_mm512_fmadd_pd(host_avx2::uniform01_double(x), range, from),
                               below_to);
        });
  }
};

#undef KOKKOSDTENSOR_IMPL_AVX512
#undef KOKKOSDTENSOR_IMPL_AVX2

#endif  // KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
