// Host only, x86-64 only: the AVX2 (8 and 4 lanes) and AVX-512 (16 lanes) transforms of the
// distributions built on the portable log and exp (exponential_, log_normal_, geometric_,
// trunc_normal_) and of randint_ and 64-bit random_bits_, for the host rows kernel
// (KokkosDTensor_FillRowsHost.hpp). The rules of KokkosDTensor_HostSimd.hpp hold here: every
// floating-point step is the correctly rounded IEEE operation of the scalar function it mirrors,
// in the same order (portable_log, portable_exp, portable_erfinv, ... in
// KokkosDTensor_PortableMath.hpp, the transforms in KokkosDTensor_Transforms.hpp), so the bits
// are the scalar ones. Lanes whose input leaves the range a vector function covers (the log of a
// zero or subnormal in trunc_normal_, the rare tails) are recomputed with the scalar element
// function. If you change one of those scalar functions, change its mirror here:
// unit_tests/Test_FillPaths.cpp compares the two bit for bit.

#ifndef KOKKOSDTENSOR_IMPL_HOSTSIMDDISTRIBUTIONS_HPP
#define KOKKOSDTENSOR_IMPL_HOSTSIMDDISTRIBUTIONS_HPP

#include <cstdint>
#include <impl/KokkosDTensor_Distributions.hpp>
#include <impl/KokkosDTensor_HostSimd.hpp>
#include <limits>

#if KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH

namespace KokkosDTensor {
namespace Impl {

#define KOKKOSDTENSOR_IMPL_AVX2 __attribute__((target("avx2,fma"), always_inline)) inline
#define KOKKOSDTENSOR_IMPL_AVX512 \
  __attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA), always_inline)) inline
// The scalar element functions of the cold lanes, compiled for the same ISA with every call
// inlined (flatten): portable_fma is then vfmadd, not a call to libm's fma (same bits).
#define KOKKOSDTENSOR_IMPL_SCALAR_AVX2 __attribute__((target("avx2,fma"), flatten))
#define KOKKOSDTENSOR_IMPL_SCALAR_AVX512 \
  __attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA), flatten))

namespace host_avx2 {

// ---- float: exp, and what the distributions need around the log ---------------------------

// portable_exp(float): the clamps as vmaxps/vminps (`x > -104 ? x : -104` is vmaxps(x, -104),
// NaN included; `xc < 89 ? xc : 89` is vminps(xc, 89)); exp_reduced step by step, with
// k = int(kf) read from the bits of t = 1.5 2^23 + kf (exact: |kf| <= 150); the two
// power-of-two factors as in the scalar code.
KOKKOSDTENSOR_IMPL_AVX2 __m256 exp(__m256 x) {
  __m256 xc = _mm256_max_ps(x, bcast(-104.0f));
  xc = _mm256_min_ps(xc, bcast(89.0f));
  const __m256 t = fma(xc, bcast(0x1.715476p+0f), bcast(0x1.8p23f));
  const __m256 kf = _mm256_sub_ps(t, bcast(0x1.8p23f));
  const __m256 r1 = fma(kf, bcast(-0x1.62e430p-1f), xc);
  const __m256 r = fma(kf, bcast(0x1.05c610p-29f), r1);
  static constexpr float cg[5] = {0x1.6d117cp-10f, 0x1.120be2p-7f, 0x1.555518p-5f, 0x1.5554dcp-3f,
                                  0x1.000000p-1f};
  const __m256 g = horner(r, cg);
  const __m256i k = _mm256_sub_epi32(_mm256_castps_si256(t), _mm256_set1_epi32(0x4b400000));
  const __m256 hi = _mm256_add_ps(bcast(1.0f), r);
  const __m256 lo = _mm256_add_ps(_mm256_sub_ps(bcast(1.0f), hi), r);
  const __m256 e = _mm256_add_ps(hi, fma(_mm256_mul_ps(r, r), g, lo));
  const __m256i a = _mm256_srai_epi32(k, 1);
  const __m256i bias = _mm256_set1_epi32(127);
  const __m256 pa = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(a, bias), 23));
  const __m256 pb =
      _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(_mm256_sub_epi32(k, a), bias), 23));
  const __m256 result = _mm256_mul_ps(_mm256_mul_ps(e, pa), pb);
  return select(_mm256_cmp_ps(x, x, _CMP_ORD_Q), result, _mm256_add_ps(x, x));
}

// -x, as the scalar unary minus: a sign-bit flip.
KOKKOSDTENSOR_IMPL_AVX2 __m256 negate(__m256 x) { return _mm256_xor_ps(x, bits_ps(0x80000000u)); }

// Lanes of v in `mask` (bit l: lane l) replaced by scalar(word l of w) (one-word elements).
template <class F>
KOKKOSDTENSOR_IMPL_AVX2 __m256 patch_lanes(__m256 v, __m256i w, int mask, const F& scalar) {
  alignas(32) std::uint32_t word[8];
  alignas(32) float out[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(word), w);
  _mm256_store_ps(out, v);
  for (; mask; mask &= mask - 1) {
    const int l = __builtin_ctz(static_cast<unsigned>(mask));
    out[l] = scalar(word[l]);
  }
  return _mm256_load_ps(out);
}

// ---- double: log of a normal positive number, exp ----------------------------------------

KOKKOSDTENSOR_IMPL_AVX2 __m256d bcast(double x) { return _mm256_set1_pd(x); }
KOKKOSDTENSOR_IMPL_AVX2 __m256d fma(__m256d a, __m256d b, __m256d c) {
  return _mm256_fmadd_pd(a, b, c);
}
KOKKOSDTENSOR_IMPL_AVX2 __m256d select(__m256d c, __m256d b, __m256d a) {
  return _mm256_blendv_pd(a, b, c);
}
KOKKOSDTENSOR_IMPL_AVX2 __m256d negate(__m256d x) {
  return _mm256_xor_pd(
      x, _mm256_castsi256_pd(_mm256_set1_epi64x(static_cast<long long>(0x8000000000000000ull))));
}
template <int N>
KOKKOSDTENSOR_IMPL_AVX2 __m256d horner(__m256d x, const double (&c)[N]) {
  __m256d acc = bcast(c[0]);
  for (int i = 1; i < N; ++i) acc = fma(acc, x, bcast(c[i]));
  return acc;
}
// double(e) for 64-bit integer lanes |e| < 2^51, exactly: 1.5 2^52 + e has e in its low bits.
KOKKOSDTENSOR_IMPL_AVX2 __m256d small_i64_to_double(__m256i e) {
  return _mm256_sub_pd(
      _mm256_castsi256_pd(_mm256_add_epi64(e, _mm256_set1_epi64x(0x4338000000000000ll))),
      bcast(0x1.8p52));
}

// log_normal_positive(xs, 0) of PortableMath for normal positive finite xs (the arithmetic of
// portable_log(double) on them). e = (bits - c) >> 52 (arithmetic) is the 12-bit field of the
// logical shift, sign-extended; e << 52 only needs that field.
KOKKOSDTENSOR_IMPL_AVX2 __m256d log_core(__m256d xs) {
  const __m256i bits = _mm256_castpd_si256(xs);
  const __m256i field =
      _mm256_srli_epi64(_mm256_sub_epi64(bits, _mm256_set1_epi64x(0x3fe6a09e667f3bcdll)), 52);
  const __m256d m = _mm256_castsi256_pd(_mm256_sub_epi64(bits, _mm256_slli_epi64(field, 52)));
  const __m256i sign_bit = _mm256_set1_epi64x(0x800);
  const __m256d ed =
      small_i64_to_double(_mm256_sub_epi64(_mm256_xor_si256(field, sign_bit), sign_bit));
  const __m256d f = _mm256_sub_pd(m, bcast(1.0));
  const __m256d s = _mm256_div_pd(f, _mm256_add_pd(bcast(2.0), f));
  const __m256d z = _mm256_mul_pd(s, s);
  static constexpr double cr[7] = {0x1.2b5900de53b32p-3, 0x1.39fe51a7c18f9p-3, 0x1.7462b51cb66b1p-3,
                                   0x1.c71c62e3f11e6p-3, 0x1.2492492df281ap-2, 0x1.99999999952d7p-2,
                                   0x1.5555555555558p-1};
  const __m256d R = _mm256_mul_pd(z, horner(z, cr));
  const __m256d hf = _mm256_mul_pd(bcast(0.5), f);
  const __m256d t1 = fma(hf, f, R);
  const __m256d u = fma(s, t1, _mm256_mul_pd(ed, bcast(0x1.abc9e3b39803fp-56)));
  const __m256d v = _mm256_fmsub_pd(hf, f, u);  // fma(hf, f, -u): the same single rounding
  const __m256d w = _mm256_sub_pd(f, v);
  return fma(ed, bcast(0x1.62e42fefa39efp-1), w);
}

// portable_exp(double), as exp(float): k from the bits of t = 1.5 2^52 + kf; a = k >> 1
// (arithmetic) as ((k + 2048) >> 1) - 1024 with a logical shift (k >= -1077).
KOKKOSDTENSOR_IMPL_AVX2 __m256d exp(__m256d x) {
  __m256d xc = _mm256_max_pd(x, bcast(-746.0));
  xc = _mm256_min_pd(xc, bcast(710.0));
  const __m256d t = fma(xc, bcast(0x1.71547652b82fep+0), bcast(0x1.8p52));
  const __m256d kf = _mm256_sub_pd(t, bcast(0x1.8p52));
  const __m256d r1 = fma(kf, bcast(-0x1.62e42fefa39efp-1), xc);
  const __m256d r = fma(kf, bcast(-0x1.abc9e3b39803fp-56), r1);
  static constexpr double cg[10] = {
      0x1.af390ba7e6f47p-26, 0x1.2891d4ffbb0f9p-22, 0x1.71de0d85293b8p-19, 0x1.a019b8ca26fcfp-16,
      0x1.a01a01a7cebcdp-13, 0x1.6c16c1789d1d7p-10, 0x1.11111111109a6p-7,  0x1.5555555553d37p-5,
      0x1.5555555555556p-3,  0x1.0000000000001p-1};
  const __m256d g = horner(r, cg);
  const __m256i k =
      _mm256_sub_epi64(_mm256_castpd_si256(t), _mm256_set1_epi64x(0x4338000000000000ll));
  const __m256d hi = _mm256_add_pd(bcast(1.0), r);
  const __m256d lo = _mm256_add_pd(_mm256_sub_pd(bcast(1.0), hi), r);
  const __m256d e = _mm256_add_pd(hi, fma(_mm256_mul_pd(r, r), g, lo));
  const __m256i a =
      _mm256_sub_epi64(_mm256_srli_epi64(_mm256_add_epi64(k, _mm256_set1_epi64x(2048)), 1),
                       _mm256_set1_epi64x(1024));
  const __m256i bias = _mm256_set1_epi64x(1023);
  const __m256d pa = _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_add_epi64(a, bias), 52));
  const __m256d pb =
      _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_add_epi64(_mm256_sub_epi64(k, a), bias), 52));
  const __m256d result = _mm256_mul_pd(_mm256_mul_pd(e, pa), pb);
  return select(_mm256_cmp_pd(x, x, _CMP_ORD_Q), result, _mm256_add_pd(x, x));
}

// uniform01_open_double for x = w0 << 32 | w1 in 64-bit lanes: ((x >> 11) + 1) 2^-53, the
// integer (at most 2^53) converted exactly.
KOKKOSDTENSOR_IMPL_AVX2 __m256d uniform01_open_double(__m256i x) {
  return _mm256_mul_pd(
      u64_to_double(_mm256_add_epi64(_mm256_srli_epi64(x, 11), _mm256_set1_epi64x(1))),
      bcast(0x1p-53));
}

// Lanes of v in `mask` (bit l: lane l) replaced by scalar(w0, w1) of that lane's x.
template <class F>
KOKKOSDTENSOR_IMPL_AVX2 __m256d patch_lanes(__m256d v, __m256i x, int mask, const F& scalar) {
  alignas(32) std::uint64_t word[4];
  alignas(32) double out[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(word), x);
  _mm256_store_pd(out, v);
  for (; mask; mask &= mask - 1) {
    const int l = __builtin_ctz(static_cast<unsigned>(mask));
    out[l] = scalar(static_cast<std::uint32_t>(word[l] >> 32), static_cast<std::uint32_t>(word[l]));
  }
  return _mm256_load_pd(out);
}

// A one-word transform of 8 blocks: f(word vector j) for the 4 words of each block, computed
// in block-lane layout and stored in stream order (element 4 l + j).
template <class F>
KOKKOSDTENSOR_IMPL_AVX2 void transform_f32(const Words8& w, void* dst, const F& f) {
  __m256i v[4];
  for (int j = 0; j < 4; ++j) v[j] = f(w.word[j]);
  store_stream_order(v, dst);
}

// mulhi(word, range) for 32-bit words and range < 2^32: the high halves of the products.
KOKKOSDTENSOR_IMPL_AVX2 __m256i mul_hi_u32(__m256i a, __m256i m) {
  const __m256i even = _mm256_mul_epu32(a, m);
  const __m256i odd = _mm256_mul_epu32(_mm256_srli_epi64(a, 32), m);
  return _mm256_blend_epi32(_mm256_srli_epi64(even, 32), odd, 0xAA);
}

// mul_high_64(range, x) for the 64-bit lanes of x, by the scalar code's four 32x32-bit
// products (integer arithmetic: any exact method gives these bits).
KOKKOSDTENSOR_IMPL_AVX2 __m256i mul_high_64(__m256i x, std::uint64_t range) {
  const __m256i a_lo = _mm256_set1_epi64x(static_cast<long long>(range & 0xFFFFFFFFu));
  const __m256i a_hi = _mm256_set1_epi64x(static_cast<long long>(range >> 32));
  const __m256i b_hi = _mm256_srli_epi64(x, 32);
  const __m256i low32 = _mm256_set1_epi64x(0xFFFFFFFFll);
  const __m256i lo_lo = _mm256_mul_epu32(x, a_lo);
  const __m256i hi_lo = _mm256_mul_epu32(x, a_hi);
  const __m256i lo_hi = _mm256_mul_epu32(b_hi, a_lo);
  const __m256i hi_hi = _mm256_mul_epu32(b_hi, a_hi);
  const __m256i middle = _mm256_add_epi64(
      _mm256_add_epi64(_mm256_srli_epi64(lo_lo, 32), _mm256_and_si256(hi_lo, low32)),
      _mm256_and_si256(lo_hi, low32));
  return _mm256_add_epi64(
      _mm256_add_epi64(hi_hi, _mm256_srli_epi64(hi_lo, 32)),
      _mm256_add_epi64(_mm256_srli_epi64(lo_hi, 32), _mm256_srli_epi64(middle, 32)));
}

// ---- the transforms' cores, shared by 8 and 16 lanes where they exist in both --------------

// ceil_nonnegative then max(., 1) of geometric_from_uniform: vroundps/vroundpd toward +inf is
// the exact ceiling; it differs from ceil_nonnegative only in the sign of a zero (ceil(-0) =
// -0, the scalar +0), which max(., 1) turns into 1 either way. vmaxps(t, 1) is t > 1 ? t : 1.
KOKKOSDTENSOR_IMPL_AVX2 __m256 geometric_trials(__m256 u, __m256 log1p_minus_p) {
  const __m256 q = _mm256_div_ps(log_core<false>(u, u), log1p_minus_p);
  return _mm256_max_ps(_mm256_round_ps(q, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC), bcast(1.0f));
}
KOKKOSDTENSOR_IMPL_AVX2 __m256d geometric_trials(__m256d u, __m256d log1p_minus_p) {
  const __m256d q = _mm256_div_pd(log_core(u), log1p_minus_p);
  return _mm256_max_pd(_mm256_round_pd(q, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC), bcast(1.0));
}

// trunc_normal_from_uniform(float) for u in [0, 1): v = fma(u, width, lo), erfinv(v) as
// portable_erfinv (both polynomials where the lanes need both, blended on w < 5), then
// fma(., scale, mean) clamped as `x < a ? a : x` = vmaxps(a, x) and `y > b ? b : y` =
// vminps(b, y). `cold`: the lanes whose 1 - v^2 is not a normal float or |v| >= 1 (log's and
// erfinv's special cases), left to the scalar code.
KOKKOSDTENSOR_IMPL_AVX2 __m256 trunc_normal(__m256 u, const TruncNormal<float>& d, int& cold) {
  const __m256 v = fma(u, bcast(d.erf_width), bcast(d.erf_lo));
  const __m256 arg = _mm256_fnmadd_ps(v, v, bcast(1.0f));  // fma(-v, v, 1)
  const __m256 w = negate(log_core<false>(arg, arg));
  const __m256 bad = _mm256_or_ps(_mm256_cmp_ps(arg, bcast(0x1p-126f), _CMP_NGE_UQ),
                                  _mm256_cmp_ps(abs(v), bcast(1.0f), _CMP_NLT_UQ));
  cold = _mm256_movemask_ps(bad);
  const __m256 central = _mm256_cmp_ps(w, bcast(5.0f), _CMP_LT_OQ);
  const int central_lanes = _mm256_movemask_ps(central);
  __m256 p = _mm256_setzero_ps();
  if (central_lanes) {
    static constexpr float c1[10] = {
        -0x1.32e60ep-27f, 0x1.90e8acp-26f,  0x1.f6a6f8p-22f, -0x1.d0eda0p-19f, -0x1.4db186p-18f,
        0x1.c9e970p-13f,  -0x1.48650cp-10f, -0x1.11c506p-8f, 0x1.f91e8ap-3f,   0x1.805c5ep+0f};
    p = horner(_mm256_sub_ps(w, bcast(2.5f)), c1);
  }
  if (central_lanes != 0xFF) {
    static constexpr float c2[10] = {
        0x1.0b565cp-13f, -0x1.4e5612p-12f, -0x1.33e522p-14f, 0x1.8828b2p-10f, -0x1.d67114p-9f,
        0x1.7472e8p-8f,  -0x1.f49ee8p-8f,  0x1.358440p-7f,   0x1.006dc6p+0f,  0x1.6a9efcp+1f};
    p = select(central, p, horner(_mm256_sub_ps(_mm256_sqrt_ps(w), bcast(3.0f)), c2));
  }
  const __m256 x = fma(_mm256_mul_ps(v, p), bcast(d.scale), bcast(d.mean));
  return _mm256_min_ps(bcast(d.b), _mm256_max_ps(bcast(d.a), x));
}

// The same in double (portable_erfinv(double): w < 6.25, else sqrt(w) < 4, else).
KOKKOSDTENSOR_IMPL_AVX2 __m256d trunc_normal(__m256d u, const TruncNormal<double>& d, int& cold) {
  const __m256d v = fma(u, bcast(d.erf_width), bcast(d.erf_lo));
  const __m256d arg = _mm256_fnmadd_pd(v, v, bcast(1.0));  // fma(-v, v, 1)
  const __m256d w = negate(log_core(arg));
  const __m256d abs_v =
      _mm256_and_pd(v, _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffll)));
  const __m256d bad = _mm256_or_pd(_mm256_cmp_pd(arg, bcast(0x1p-1022), _CMP_NGE_UQ),
                                   _mm256_cmp_pd(abs_v, bcast(1.0), _CMP_NLT_UQ));
  cold = _mm256_movemask_pd(bad);
  const __m256d central = _mm256_cmp_pd(w, bcast(6.25), _CMP_LT_OQ);
  const int central_lanes = _mm256_movemask_pd(central);
  __m256d p = _mm256_setzero_pd();
  if (central_lanes) {
    static constexpr double c1[24] = {
        0x1.e9b8ae7230c25p-69,  -0x1.5087a244b0f6cp-70, -0x1.9d290dd3bcb70p-62,
        0x1.536d397f9b9b1p-60,  0x1.1f4ba5de5dc3fp-56,  -0x1.2c266176e7096p-53,
        -0x1.73898c37dc54ap-55, 0x1.db523eb040288p-48,  -0x1.686642b67610ap-45,
        -0x1.6d9ec5e3ec6afp-44, 0x1.723527b7cff86p-39,  -0x1.c89564c5d1004p-37,
        -0x1.dc3ee8b6c53ccp-35, 0x1.20f4e6bf074cfp-30,  -0x1.1a9eb1bc8f0f0p-28,
        -0x1.f36ce4ae847fdp-26, 0x1.c6b4f890935ddp-22,  -0x1.6e8a53f106129p-20,
        -0x1.d1d1f7ca4030fp-17, 0x1.879c2a20da432p-13,  -0x1.84576948353e1p-11,
        -0x1.8b6c33114eeaep-8,  0x1.ebd80d9b13df9p-3,   0x1.a755e7c99ae86p+0};
    p = horner(_mm256_sub_pd(w, bcast(3.125)), c1);
  }
  if (central_lanes != 0xF) {
    const __m256d sw = _mm256_sqrt_pd(w);
    const __m256d mid = _mm256_cmp_pd(sw, bcast(4.0), _CMP_LT_OQ);
    const int mid_raw = _mm256_movemask_pd(mid);
    const int mid_lanes = ~central_lanes & mid_raw & 0xF,
              tail_lanes = ~central_lanes & ~mid_raw & 0xF;
    __m256d q = _mm256_setzero_pd();
    if (mid_lanes) {
      static constexpr double c2[20] = {
          -0x1.03765b5ec5c93p-26, 0x1.7f235c757454ep-31,  0x1.1969ef2a93940p-23,
          -0x1.235ac6aaf025ep-22, -0x1.cfedcff902170p-26, 0x1.924ec74d8058bp-20,
          -0x1.0b8068913d37bp-18, 0x1.88af4a1d56a98p-19,  0x1.a242f876789c6p-17,
          -0x1.8cf0bea0971c6p-15, 0x1.1e6ab36be6c27p-14,  0x1.932d7684a6a52p-16,
          -0x1.7448bc8217f18p-12, 0x1.f3cc552091e2bp-11,  -0x1.ba9240d9b7431p-10,
          0x1.468eeca71fc73p-9,   -0x1.ebadabb9fd945p-9,  0x1.5ffcfe5b71831p-8,
          0x1.0158a6d641d54p+0,   0x1.8abcc380d5a48p+1};
      q = horner(_mm256_sub_pd(sw, bcast(3.25)), c2);
    }
    if (tail_lanes) {
      static constexpr double c3[20] = {
          0x1.6edf70d76ec8fp-38,  -0x1.6927e3b78c381p-36, 0x1.3b2e4e86f33d3p-36,
          0x1.349c870b2772ap-34,  -0x1.a9b091082aa26p-32, 0x1.6971309ea43aep-30,
          -0x1.e4c4e552d49b8p-29, 0x1.0cc7021c767c9p-27,  -0x1.057250ebde40cp-26,
          0x1.f286f0390e0aep-26,  -0x1.22370fcc1d79bp-24, 0x1.ebe3371222de4p-23,
          -0x1.0a90386bfc2a7p-20, 0x1.2fbcfd6199301p-18,  -0x1.4a34903ab4d6bp-16,
          0x1.3ebf4efb4f2afp-14,  -0x1.c2f36aa16c077p-13, -0x1.22ea5df1ccc96p-13,
          0x1.02a30d1fba10bp+0,   0x1.3664ddd1ad7fbp+2};
      q = select(mid, q, horner(_mm256_sub_pd(sw, bcast(5.0)), c3));
    }
    p = select(central, p, q);
  }
  const __m256d x = fma(_mm256_mul_pd(v, p), bcast(d.scale), bcast(d.mean));
  return _mm256_min_pd(bcast(d.b), _mm256_max_pd(bcast(d.a), x));
}

}  // namespace host_avx2

// ---- 8 blocks in AVX2 ---------------------------------------------------------------------

// Exponential: -log(u) / lambd, u the (0, 1] uniform (at least 2^-24: log_core's domain).
template <>
struct HostAvx2Transform<Exponential<float>> {
  static constexpr bool available = true;
  static KOKKOSDTENSOR_IMPL_AVX2 void apply(const Exponential<float>& d, const host_avx2::Words8& w,
                                            float* dst) {
    namespace v = host_avx2;
    const __m256 lambd = v::bcast(d.lambd);
    v::transform_f32(
        w, dst, [&](__m256i word) __attribute__((target("avx2,fma"), always_inline)) {
          const __m256 u = v::uniform01_open(word);
          return _mm256_castps_si256(_mm256_div_ps(v::negate(v::log_core<false>(u, u)), lambd));
        });
  }
};

template <>
struct HostAvx2Transform<Exponential<double>> {
  static constexpr bool available = true;
  static KOKKOSDTENSOR_IMPL_AVX2 void apply(const Exponential<double>& d,
                                            const host_avx2::Words8& w, double* dst) {
    namespace v = host_avx2;
    const __m256d lambd = v::bcast(d.lambd);
    v::transform_f64(
        w, dst, [&](__m256i x) __attribute__((target("avx2,fma"), always_inline)) {
          return _mm256_div_pd(v::negate(v::log_core(v::uniform01_open_double(x))), lambd);
        });
  }
};

// LogNormal: exp(fma(std, z, mean)), z the normal of HostAvx2Transform<Normal<T>>.
template <>
struct HostAvx2Transform<LogNormal<float>> {
  static constexpr bool available = true;
  static KOKKOSDTENSOR_IMPL_AVX2 void apply(const LogNormal<float>& d, const host_avx2::Words8& w,
                                            float* dst) {
    namespace v = host_avx2;
    const __m256 stddev = v::bcast(d.stddev), mean = v::bcast(d.mean);
    v::transform_f32(
        w, dst, [&](__m256i word) __attribute__((target("avx2,fma"), always_inline)) {
          const __m256 z = v::normal_from_word<false>(word, NormalTableF32::data);
          return _mm256_castps_si256(v::exp(v::fma(stddev, z, mean)));
        });
  }
};

template <>
struct HostAvx2Transform<LogNormal<double>> {
  static constexpr bool available = true;
  static KOKKOSDTENSOR_IMPL_AVX2 void apply(const LogNormal<double>& d, const host_avx2::Words8& w,
                                            double* dst) {
    namespace v = host_avx2;
    const __m256d stddev = v::bcast(d.stddev), mean = v::bcast(d.mean);
    v::transform_f64(
        w, dst, [&](__m256i x) __attribute__((target("avx2,fma"), always_inline)) {
          return v::exp(v::fma(stddev, v::normal_from_words(x, NormalTableF64::data), mean));
        });
  }
};

// Geometric with a float compute type: trials < limit ? T(trials) : max_value (float T: the
// value itself, limit +inf; int32: vcvttps2dq, exact below limit = 2^31).
template <class T>
struct HostAvx2GeometricF32 {
  static constexpr bool available = true;
  static KOKKOSDTENSOR_IMPL_AVX2 void apply(const Geometric<T>& d, const host_avx2::Words8& w,
                                            T* dst) {
    namespace v = host_avx2;
    const __m256 denominator = v::bcast(d.log1p_minus_p), limit = v::bcast(d.limit);
    v::transform_f32(
        w, dst, [&](__m256i word) __attribute__((target("avx2,fma"), always_inline)) {
          const __m256 trials = v::geometric_trials(v::uniform01_open(word), denominator);
          const __m256 below = _mm256_cmp_ps(trials, limit, _CMP_LT_OQ);
          if constexpr (std::is_same<T, float>::value) {
            return _mm256_castps_si256(v::select(below, trials, v::bcast(d.max_value)));
          } else {
            return _mm256_blendv_epi8(_mm256_set1_epi32(static_cast<int>(d.max_value)),
                                      _mm256_cvttps_epi32(trials), _mm256_castps_si256(below));
          }
        });
  }
};
template <>
struct HostAvx2Transform<Geometric<float>> : HostAvx2GeometricF32<float> {};
template <>
struct HostAvx2Transform<Geometric<std::int32_t>> : HostAvx2GeometricF32<std::int32_t> {};

// Geometric f64 (limit +inf: the trials themselves).
template <>
struct HostAvx2Transform<Geometric<double>> {
  static constexpr bool available = true;
  static KOKKOSDTENSOR_IMPL_AVX2 void apply(const Geometric<double>& d, const host_avx2::Words8& w,
                                            double* dst) {
    namespace v = host_avx2;
    const __m256d denominator = v::bcast(d.log1p_minus_p), limit = v::bcast(d.limit);
    const __m256d max_value = v::bcast(d.max_value);
    v::transform_f64(
        w, dst, [&](__m256i x) __attribute__((target("avx2,fma"), always_inline)) {
          const __m256d trials = v::geometric_trials(v::uniform01_open_double(x), denominator);
          return v::select(_mm256_cmp_pd(trials, limit, _CMP_LT_OQ), trials, max_value);
        });
  }
};

// TruncNormal: trunc_normal_from_uniform on the [0, 1) uniform; cold lanes by the scalar code.
template <>
struct HostAvx2Transform<TruncNormal<float>> {
  static constexpr bool available = true;
  static KOKKOSDTENSOR_IMPL_AVX2 void apply(const TruncNormal<float>& d, const host_avx2::Words8& w,
                                            float* dst) {
    namespace v = host_avx2;
    v::transform_f32(
        w, dst, [&](__m256i word) __attribute__((target("avx2,fma"), always_inline)) {
          int cold;
          __m256 x = v::trunc_normal(v::uniform01(word), d, cold);
          if (cold)
            x = v::patch_lanes(x, word, cold, [&](std::uint32_t w0) KOKKOSDTENSOR_IMPL_SCALAR_AVX2 {
              return d.element(w0, w0, 0.0f);
            });
          return _mm256_castps_si256(x);
        });
  }
};

template <>
struct HostAvx2Transform<TruncNormal<double>> {
  static constexpr bool available = true;
  static KOKKOSDTENSOR_IMPL_AVX2 void apply(const TruncNormal<double>& d,
                                            const host_avx2::Words8& w, double* dst) {
    namespace v = host_avx2;
    v::transform_f64(
        w, dst, [&](__m256i x) __attribute__((target("avx2,fma"), always_inline)) {
          int cold;
          __m256d r = v::trunc_normal(v::uniform01_double(x), d, cold);
          if (cold)
            r = v::patch_lanes(
                r, x, cold, [&](std::uint32_t w0, std::uint32_t w1) KOKKOSDTENSOR_IMPL_SCALAR_AVX2 {
                  return d.element(w0, w1, 0.0);
                });
          return r;
        });
  }
};

// RandInt 32-bit: low + ((range * word) >> 32), kept modulo 2^32: the high half of
// word * range (range < 2^32), or the word itself (range = 2^32), plus low's low half.
template <class T>
struct HostAvx2RandInt32 {
  static constexpr bool available = true;
  static KOKKOSDTENSOR_IMPL_AVX2 void apply(const RandInt<T>& d, const host_avx2::Words8& w,
                                            T* dst) {
    namespace v = host_avx2;
    const __m256i low = _mm256_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(d.low)));
    if (d.range > 0xFFFFFFFFull) {
      v::transform_f32(
          w, dst, [&](__m256i word) __attribute__((target("avx2,fma"), always_inline)) {
            return _mm256_add_epi32(word, low);
          });
      return;
    }
    const __m256i range = _mm256_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(d.range)));
    v::transform_f32(
        w, dst, [&](__m256i word) __attribute__((target("avx2,fma"), always_inline)) {
          return _mm256_add_epi32(v::mul_hi_u32(word, range), low);
        });
  }
};
template <>
struct HostAvx2Transform<RandInt<std::int32_t>> : HostAvx2RandInt32<std::int32_t> {};
template <>
struct HostAvx2Transform<RandInt<std::uint32_t>> : HostAvx2RandInt32<std::uint32_t> {};

// RandInt 64-bit: low + mul_high_64(range, w0 << 32 | w1), modulo 2^64.
template <class T>
struct HostAvx2RandInt64 {
  static constexpr bool available = true;
  static KOKKOSDTENSOR_IMPL_AVX2 void apply(const RandInt<T>& d, const host_avx2::Words8& w,
                                            T* dst) {
    namespace v = host_avx2;
    const __m256i low = _mm256_set1_epi64x(static_cast<long long>(d.low));
    const std::uint64_t range = d.range;
    v::transform_f64(
        w, reinterpret_cast<double*>(dst),
        [&](__m256i x) __attribute__((target("avx2,fma"), always_inline)) {
          return _mm256_castsi256_pd(_mm256_add_epi64(v::mul_high_64(x, range), low));
        });
  }
};
template <>
struct HostAvx2Transform<RandInt<std::int64_t>> : HostAvx2RandInt64<std::int64_t> {};
template <>
struct HostAvx2Transform<RandInt<std::uint64_t>> : HostAvx2RandInt64<std::uint64_t> {};

// RandomBits u64: w0 << 32 | w1, the words interleaved.
template <>
struct HostAvx2Transform<RandomBits<std::uint64_t>> {
  static constexpr bool available = true;
  static KOKKOSDTENSOR_IMPL_AVX2 void apply(const RandomBits<std::uint64_t>&,
                                            const host_avx2::Words8& w, std::uint64_t* dst) {
    host_avx2::transform_f64(w, reinterpret_cast<double*>(dst), AsDoubleBits{});
  }
  // A function object, not a lambda: a captureless lambda's conversion to a function pointer
  // would be compiled for the baseline ISA (a -Wpsabi warning).
  struct AsDoubleBits {
    KOKKOSDTENSOR_IMPL_AVX2 __m256d operator()(__m256i x) const { return _mm256_castsi256_pd(x); }
  };
};

// ---- 16 blocks in AVX-512 (float compute types and randint 32-bit) -------------------------

namespace host_avx2 {

KOKKOSDTENSOR_IMPL_AVX512 __m512 bcast16(float x) { return _mm512_set1_ps(x); }
template <int N>
KOKKOSDTENSOR_IMPL_AVX512 __m512 horner(__m512 x, const float (&c)[N]) {
  __m512 acc = bcast16(c[0]);
  for (int i = 1; i < N; ++i) acc = _mm512_fmadd_ps(acc, x, bcast16(c[i]));
  return acc;
}
KOKKOSDTENSOR_IMPL_AVX512 __m512 negate(__m512 x) {
  return _mm512_castsi512_ps(
      _mm512_xor_si512(_mm512_castps_si512(x), _mm512_set1_epi32(static_cast<int>(0x80000000u))));
}

// uniform01_open_float in 16 lanes (as the 8-lane one).
KOKKOSDTENSOR_IMPL_AVX512 __m512 uniform01_open(__m512i w) {
  return _mm512_mul_ps(
      _mm512_cvtepi32_ps(_mm512_add_epi32(_mm512_srli_epi32(w, 8), _mm512_set1_epi32(1))),
      bcast16(0x1p-24f));
}

// log_core<false> in 16 lanes: log_normal_positive(xs, 0) for normal positive finite xs.
KOKKOSDTENSOR_IMPL_AVX512 __m512 log_core(__m512 xs) {
  const __m512i bits = _mm512_castps_si512(xs);
  const __m512i e = _mm512_srai_epi32(_mm512_sub_epi32(bits, _mm512_set1_epi32(0x3f2aaaab)), 23);
  const __m512 m = _mm512_castsi512_ps(_mm512_sub_epi32(bits, _mm512_slli_epi32(e, 23)));
  const __m512 f = _mm512_sub_ps(m, bcast16(1.0f));
  static constexpr float cg[9] = {0x1.d01f96p-4f,  -0x1.fcd61ap-4f, 0x1.bf1a08p-4f,
                                  -0x1.f7579cp-4f, 0x1.24b290p-3f,  -0x1.557838p-3f,
                                  0x1.999954p-3f,  -0x1.ffffb6p-3f, 0x1.555556p-2f};
  const __m512 g = horner(f, cg);
  const __m512 t = _mm512_fmadd_ps(g, f, bcast16(-0.5f));
  const __m512 p = _mm512_fmadd_ps(t, _mm512_mul_ps(f, f), f);
  const __m512 ef = _mm512_cvtepi32_ps(e);
  return _mm512_fmadd_ps(ef, bcast16(0x1.62e430p-1f),
                         _mm512_fmadd_ps(ef, bcast16(-0x1.05c610p-29f), p));
}

// portable_exp(float) in 16 lanes (as the 8-lane exp).
KOKKOSDTENSOR_IMPL_AVX512 __m512 exp(__m512 x) {
  __m512 xc = _mm512_max_ps(x, bcast16(-104.0f));
  xc = _mm512_min_ps(xc, bcast16(89.0f));
  const __m512 t = _mm512_fmadd_ps(xc, bcast16(0x1.715476p+0f), bcast16(0x1.8p23f));
  const __m512 kf = _mm512_sub_ps(t, bcast16(0x1.8p23f));
  const __m512 r1 = _mm512_fmadd_ps(kf, bcast16(-0x1.62e430p-1f), xc);
  const __m512 r = _mm512_fmadd_ps(kf, bcast16(0x1.05c610p-29f), r1);
  static constexpr float cg[5] = {0x1.6d117cp-10f, 0x1.120be2p-7f, 0x1.555518p-5f, 0x1.5554dcp-3f,
                                  0x1.000000p-1f};
  const __m512 g = horner(r, cg);
  const __m512i k = _mm512_sub_epi32(_mm512_castps_si512(t), _mm512_set1_epi32(0x4b400000));
  const __m512 hi = _mm512_add_ps(bcast16(1.0f), r);
  const __m512 lo = _mm512_add_ps(_mm512_sub_ps(bcast16(1.0f), hi), r);
  const __m512 e = _mm512_add_ps(hi, _mm512_fmadd_ps(_mm512_mul_ps(r, r), g, lo));
  const __m512i a = _mm512_srai_epi32(k, 1);
  const __m512i bias = _mm512_set1_epi32(127);
  const __m512 pa = _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_add_epi32(a, bias), 23));
  const __m512 pb =
      _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_add_epi32(_mm512_sub_epi32(k, a), bias), 23));
  const __m512 result = _mm512_mul_ps(_mm512_mul_ps(e, pa), pb);
  return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(x, x, _CMP_ORD_Q), _mm512_add_ps(x, x), result);
}

// geometric_trials in 16 lanes (vrndscaleps toward +inf: the exact ceiling).
KOKKOSDTENSOR_IMPL_AVX512 __m512 geometric_trials(__m512 u, __m512 log1p_minus_p) {
  const __m512 q = _mm512_div_ps(log_core(u), log1p_minus_p);
  return _mm512_max_ps(_mm512_roundscale_ps(q, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC),
                       bcast16(1.0f));
}

// trunc_normal (float) in 16 lanes, as the 8-lane one.
KOKKOSDTENSOR_IMPL_AVX512 __m512 trunc_normal(__m512 u, const TruncNormal<float>& d,
                                              __mmask16& cold) {
  const __m512 v = _mm512_fmadd_ps(u, bcast16(d.erf_width), bcast16(d.erf_lo));
  const __m512 arg = _mm512_fnmadd_ps(v, v, bcast16(1.0f));  // fma(-v, v, 1)
  const __m512 w = negate(log_core(arg));
  cold = _mm512_cmp_ps_mask(arg, bcast16(0x1p-126f), _CMP_NGE_UQ) |
         _mm512_cmp_ps_mask(_mm512_abs_ps(v), bcast16(1.0f), _CMP_NLT_UQ);
  const __mmask16 central = _mm512_cmp_ps_mask(w, bcast16(5.0f), _CMP_LT_OQ);
  __m512 p = _mm512_setzero_ps();
  if (central) {
    static constexpr float c1[10] = {
        -0x1.32e60ep-27f, 0x1.90e8acp-26f,  0x1.f6a6f8p-22f, -0x1.d0eda0p-19f, -0x1.4db186p-18f,
        0x1.c9e970p-13f,  -0x1.48650cp-10f, -0x1.11c506p-8f, 0x1.f91e8ap-3f,   0x1.805c5ep+0f};
    p = horner(_mm512_sub_ps(w, bcast16(2.5f)), c1);
  }
  if (central != 0xFFFF) {
    static constexpr float c2[10] = {
        0x1.0b565cp-13f, -0x1.4e5612p-12f, -0x1.33e522p-14f, 0x1.8828b2p-10f, -0x1.d67114p-9f,
        0x1.7472e8p-8f,  -0x1.f49ee8p-8f,  0x1.358440p-7f,   0x1.006dc6p+0f,  0x1.6a9efcp+1f};
    p = _mm512_mask_blend_ps(central, horner(_mm512_sub_ps(_mm512_sqrt_ps(w), bcast16(3.0f)), c2),
                             p);
  }
  const __m512 x = _mm512_fmadd_ps(_mm512_mul_ps(v, p), bcast16(d.scale), bcast16(d.mean));
  return _mm512_min_ps(bcast16(d.b), _mm512_max_ps(bcast16(d.a), x));
}

// A one-word transform of 16 blocks: f(word vector j, cold mask) for the 4 words of each
// block, in block-lane layout, stored in Order (StreamOrder: element 4 l + j); then the lanes
// f marked cold (rare) by scalar(word), in one loop over the 64 words.
template <class Order, class T, class F, class Scalar>
KOKKOSDTENSOR_IMPL_AVX512 void transform_f32(const Words16& w, T* dst, const F& f,
                                             const Scalar& scalar) {
  __m512i v[4];
  __mmask16 cold[4];
  for (int j = 0; j < 4; ++j) v[j] = f(w.word[j], cold[j]);
  Order::store(v, dst);
  std::uint64_t rest =
      static_cast<std::uint64_t>(cold[0]) | static_cast<std::uint64_t>(cold[1]) << 16 |
      static_cast<std::uint64_t>(cold[2]) << 32 | static_cast<std::uint64_t>(cold[3]) << 48;
  if (rest) {
    alignas(64) std::uint32_t word[4][16];
    for (int j = 0; j < 4; ++j) _mm512_store_si512(word[j], w.word[j]);
    for (; rest; rest &= rest - 1) {
      const int bit = __builtin_ctzll(rest), j = bit >> 4, l = bit & 15;
      dst[Order::template index<T>(j, l)] = scalar(word[j][l]);
    }
  }
}

// The high halves of the 32x32-bit products a * m, 16 lanes (as mul_hi_lo).
KOKKOSDTENSOR_IMPL_AVX512 __m512i mul_hi_u32(__m512i a, __m512i m) {
  const __m512i even = _mm512_mul_epu32(a, m);
  const __m512i odd = _mm512_mul_epu32(_mm512_srli_epi64(a, 32), m);
  return _mm512_mask_shuffle_epi32(odd, 0x5555, even, _MM_PERM_DDBB);
}

}  // namespace host_avx2

template <>
struct HostAvx512Transform<Exponential<float>> {
  static constexpr bool available = true;
  template <class Order = host_avx2::StreamOrder>
  static KOKKOSDTENSOR_IMPL_AVX512 void apply(const Exponential<float>& d,
                                              const host_avx2::Words16& w, float* dst) {
    namespace v = host_avx2;
    const __m512 lambd = _mm512_set1_ps(d.lambd);
    v::transform_f32<Order>(
        w, dst,
        [&](__m512i word, __mmask16 & cold)
            __attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA), always_inline)) {
              cold = 0;
              return _mm512_castps_si512(
                  _mm512_div_ps(v::negate(v::log_core(v::uniform01_open(word))), lambd));
            },
        [&](std::uint32_t w0) KOKKOSDTENSOR_IMPL_SCALAR_AVX512 { return d.element(w0, w0, 0.0f); });
  }
};

// LogNormal f32: exp(fma(std, z, mean)), z from normal_from_word_top; the z of its cold lanes
// (the words outside the table's top four octaves, 1/16) by the scalar normal_from_word, in
// one loop over the 64 words (one mostly-taken branch, as HostAvx512Transform<Normal<float>>),
// before the exp of all 64.
template <>
struct HostAvx512Transform<LogNormal<float>> {
  static constexpr bool available = true;
  template <class Order = host_avx2::StreamOrder>
  static KOKKOSDTENSOR_IMPL_AVX512 void apply(const LogNormal<float>& d,
                                              const host_avx2::Words16& w, float* dst) {
    namespace v = host_avx2;
    const __m512 stddev = _mm512_set1_ps(d.stddev), mean = _mm512_set1_ps(d.mean);
    __m512 z[4];
    __mmask16 cold[4];
    for (int j = 0; j < 4; ++j) z[j] = v::normal_from_word_top(w.word[j], cold[j]);
    std::uint64_t rest =
        static_cast<std::uint64_t>(cold[0]) | static_cast<std::uint64_t>(cold[1]) << 16 |
        static_cast<std::uint64_t>(cold[2]) << 32 | static_cast<std::uint64_t>(cold[3]) << 48;
    if (rest) {
      alignas(64) std::uint32_t word[4][16];
      alignas(64) float zs[4][16];
      for (int j = 0; j < 4; ++j) {
        _mm512_store_si512(word[j], w.word[j]);
        _mm512_store_ps(zs[j], z[j]);
      }
      for (; rest; rest &= rest - 1) {
        const int bit = __builtin_ctzll(rest), j = bit >> 4, l = bit & 15;
        zs[j][l] = normal_from_word(word[j][l], NormalTableF32::data);
      }
      for (int j = 0; j < 4; ++j) z[j] = _mm512_load_ps(zs[j]);
    }
    __m512i out[4];
    for (int j = 0; j < 4; ++j)
      out[j] = _mm512_castps_si512(v::exp(_mm512_fmadd_ps(stddev, z[j], mean)));
    Order::store(out, dst);
  }
};

template <class T>
struct HostAvx512GeometricF32 {
  static constexpr bool available = true;
  template <class Order = host_avx2::StreamOrder>
  static KOKKOSDTENSOR_IMPL_AVX512 void apply(const Geometric<T>& d, const host_avx2::Words16& w,
                                              T* dst) {
    namespace v = host_avx2;
    const __m512 denominator = _mm512_set1_ps(d.log1p_minus_p), limit = _mm512_set1_ps(d.limit);
    v::transform_f32<Order>(
        w, dst,
        [&](__m512i word, __mmask16 & cold)
            __attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA), always_inline)) {
              cold = 0;
              const __m512 trials = v::geometric_trials(v::uniform01_open(word), denominator);
              const __mmask16 below = _mm512_cmp_ps_mask(trials, limit, _CMP_LT_OQ);
              if constexpr (std::is_same<T, float>::value) {
                return _mm512_castps_si512(
                    _mm512_mask_blend_ps(below, _mm512_set1_ps(d.max_value), trials));
              } else {
                return _mm512_mask_blend_epi32(below, _mm512_set1_epi32(d.max_value),
                                               _mm512_cvttps_epi32(trials));
              }
            },
        [&](std::uint32_t w0) KOKKOSDTENSOR_IMPL_SCALAR_AVX512 { return d.element(w0, w0, T()); });
  }
};
template <>
struct HostAvx512Transform<Geometric<float>> : HostAvx512GeometricF32<float> {};
template <>
struct HostAvx512Transform<Geometric<std::int32_t>> : HostAvx512GeometricF32<std::int32_t> {};

template <>
struct HostAvx512Transform<TruncNormal<float>> {
  static constexpr bool available = true;
  template <class Order = host_avx2::StreamOrder>
  static KOKKOSDTENSOR_IMPL_AVX512 void apply(const TruncNormal<float>& d,
                                              const host_avx2::Words16& w, float* dst) {
    namespace v = host_avx2;
    v::transform_f32<Order>(
        w, dst,
        [&](__m512i word, __mmask16 & cold)
            __attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA), always_inline)) {
              return _mm512_castps_si512(v::trunc_normal(v::uniform01(word), d, cold));
            },
        [&](std::uint32_t w0) KOKKOSDTENSOR_IMPL_SCALAR_AVX512 { return d.element(w0, w0, 0.0f); });
  }
};

// RandInt 32-bit in 16 lanes, as HostAvx2RandInt32.
template <class T>
struct HostAvx512RandInt32 {
  static constexpr bool available = true;
  template <class Order = host_avx2::StreamOrder>
  static KOKKOSDTENSOR_IMPL_AVX512 void apply(const RandInt<T>& d, const host_avx2::Words16& w,
                                              T* dst) {
    const __m512i low = _mm512_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(d.low)));
    const bool full = d.range > 0xFFFFFFFFull;
    const __m512i range = _mm512_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(d.range)));
    __m512i v[4];
    for (int j = 0; j < 4; ++j)
      v[j] = _mm512_add_epi32(full ? w.word[j] : host_avx2::mul_hi_u32(w.word[j], range), low);
    Order::store(v, dst);
  }
};
template <>
struct HostAvx512Transform<RandInt<std::int32_t>> : HostAvx512RandInt32<std::int32_t> {};
template <>
struct HostAvx512Transform<RandInt<std::uint32_t>> : HostAvx512RandInt32<std::uint32_t> {};

#undef KOKKOSDTENSOR_IMPL_SCALAR_AVX512
#undef KOKKOSDTENSOR_IMPL_SCALAR_AVX2
#undef KOKKOSDTENSOR_IMPL_AVX512
#undef KOKKOSDTENSOR_IMPL_AVX2

}  // namespace Impl
}  // namespace KokkosDTensor

#endif  // KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH

#endif
