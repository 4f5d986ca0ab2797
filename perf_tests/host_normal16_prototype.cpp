// Prototype (not part of the library or its build): the stream-version-2 normal f32 in 16
// AVX-512 lanes, three ways (gathers; 128-bit loads and a transpose; the top four octaves of
// the table in registers by vpermt2ps), against the library's AVX2 transform. Checks the bits
// against the scalar normal_from_word on a stride-257 walk over the 2^32 words, then prints
// ns per normal (words in L1, one thread). docs/performance.md, "Why it is built this way".
// Build on x86-64 against any Kokkos install (headers only):
//   g++ -std=c++17 -O3 -I include -I <kokkos>/include perf_tests/host_normal16_prototype.cpp
// It prints "no AVX-512F" and stops on CPUs without it.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <impl/KokkosDTensor_HostSimd.hpp>
#include <vector>
namespace I = KokkosDTensor::Impl;
namespace v = KokkosDTensor::Impl::host_avx2;
#define A512 __attribute__((target("avx512f,avx2,fma"), always_inline)) inline
A512 void entry_u(__m512i w, __m512i& idx, __m512& u) {
  const __m512i m = _mm512_or_si512(_mm512_slli_epi32(w, 1), _mm512_set1_epi32(1));
  const __m512i fm = _mm512_castps_si512(_mm512_cvtepu32_ps(m));  // float(m), one rounding
  idx = _mm512_sub_epi32(_mm512_srli_epi32(fm, 19), _mm512_set1_epi32(127 << 4));
  u = _mm512_mul_ps(
      _mm512_cvtepi32_ps(_mm512_sub_epi32(_mm512_and_si512(fm, _mm512_set1_epi32(0x7ffff)),
                                          _mm512_set1_epi32(0x40000))),
      _mm512_set1_ps(0x1p-19f));
}
A512 __m512 finish(__m512 c0, __m512 c1, __m512 c2, __m512 c3, __m512 u, __m512i w) {
  const __m512 z = _mm512_fmadd_ps(_mm512_fmadd_ps(_mm512_fmadd_ps(c3, u, c2), u, c1), u, c0);
  return _mm512_castsi512_ps(_mm512_xor_si512(
      _mm512_castps_si512(z), _mm512_and_si512(w, _mm512_set1_epi32((int)0x80000000u))));
}
A512 __m512 normal_gather(__m512i w, const float* t) {
  __m512i idx;
  __m512 u;
  entry_u(w, idx, u);
  const __m512i at = _mm512_slli_epi32(idx, 2);
  return finish(_mm512_i32gather_ps(at, t, 4), _mm512_i32gather_ps(at, t + 1, 4),
                _mm512_i32gather_ps(at, t + 2, 4), _mm512_i32gather_ps(at, t + 3, 4), u, w);
}
A512 __m512 normal_load(__m512i w, const float* t) {
  __m512i idx;
  __m512 u;
  entry_u(w, idx, u);
  alignas(64) std::uint32_t at[16];
  _mm512_store_si512(at, _mm512_slli_epi32(idx, 4));
  const char* b = reinterpret_cast<const char*>(t);
  auto e = [b](std::uint32_t o) { return _mm_load_ps(reinterpret_cast<const float*>(b + o)); };
  // row r lane k (128-bit) = entry of element 4k + r
  __m512 r[4];
  for (int q = 0; q < 4; ++q) {
    __m512 x = _mm512_castps128_ps512(e(at[q]));
    x = _mm512_insertf32x4(x, e(at[4 + q]), 1);
    x = _mm512_insertf32x4(x, e(at[8 + q]), 2);
    x = _mm512_insertf32x4(x, e(at[12 + q]), 3);
    r[q] = x;
  }
  // 4x4 transpose inside each 128-bit lane: c_j lane k element q = coefficient j of element 4k+q
  const __m512 t0 = _mm512_unpacklo_ps(r[0], r[1]), t1 = _mm512_unpackhi_ps(r[0], r[1]);
  const __m512 t2 = _mm512_unpacklo_ps(r[2], r[3]), t3 = _mm512_unpackhi_ps(r[2], r[3]);
  const __m512 c0 =
      _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t0), _mm512_castps_pd(t2)));
  const __m512 c1 =
      _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t0), _mm512_castps_pd(t2)));
  const __m512 c2 =
      _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t1), _mm512_castps_pd(t3)));
  const __m512 c3 =
      _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t1), _mm512_castps_pd(t3)));
  return finish(c0, c1, c2, c3, u, w);
}

// The entries of the top four octaves of q (idx 448 .. 511: 15/16 of the words) in
// registers, [coefficient]: entries 448-463, 464-479, 480-495, 496-511.
struct TopTable2 {
  __m512 a[4], b[4], c[4], d[4];
};
__attribute__((target("avx512f,avx2,fma"))) TopTable2 make_top2(const float* t) {
  TopTable2 r;
  alignas(64) float buf[4][64];
  for (int j = 0; j < 4; ++j)
    for (int e = 0; e < 64; ++e) buf[j][e] = t[4 * (448 + e) + j];
  for (int j = 0; j < 4; ++j) {
    r.a[j] = _mm512_load_ps(buf[j]);
    r.b[j] = _mm512_load_ps(buf[j] + 16);
    r.c[j] = _mm512_load_ps(buf[j] + 32);
    r.d[j] = _mm512_load_ps(buf[j] + 48);
  }
  return r;
}
A512 __m512 normal_perm(__m512i w, const float* t, const TopTable2& T) {
  __m512i idx;
  __m512 u;
  entry_u(w, idx, u);
  const __m512i rel = _mm512_sub_epi32(idx, _mm512_set1_epi32(448));
  const __mmask16 upper = _mm512_test_epi32_mask(rel, _mm512_set1_epi32(32));
  __m512 c[4];
  for (int j = 0; j < 4; ++j) {
    const __m512 low32 = _mm512_permutex2var_ps(T.a[j], rel, T.b[j]);
    const __m512 high32 = _mm512_permutex2var_ps(T.c[j], rel, T.d[j]);
    c[j] = _mm512_mask_blend_ps(upper, low32, high32);
  }
  // lanes outside 448..511 (rel unsigned >= 64)
  __mmask16 out = _mm512_cmpge_epu32_mask(rel, _mm512_set1_epi32(64));
  if (out) {
    alignas(64) std::uint32_t at[16];
    _mm512_store_si512(at, idx);
    while (out) {
      const int l = __builtin_ctz(out);
      const __mmask16 bit = __mmask16(1u << l);
      const float* e = t + 4 * at[l];
      for (int j = 0; j < 4; ++j) c[j] = _mm512_mask_mov_ps(c[j], bit, _mm512_set1_ps(e[j]));
      out = __mmask16(out & (out - 1));
    }
  }
  return finish(c[0], c[1], c[2], c[3], u, w);
}
template <int K>
__attribute__((target("avx512f,avx2,fma"))) void run(const std::uint32_t* w, float* z, int n) {
  const float* t = I::NormalTableF32::data;
  const TopTable2 T = make_top2(t);
  for (int i = 0; i < n; i += 16) {
    const __m512i x = _mm512_loadu_si512(w + i);
    _mm512_storeu_ps(z + i, K == 0   ? normal_gather(x, t)
                            : K == 1 ? normal_load(x, t)
                                     : normal_perm(x, t, T));
  }
}
__attribute__((target("avx2,fma"))) void run_avx2(const std::uint32_t* w, float* z, int n) {
  const float* t = I::NormalTableF32::data;
  for (int i = 0; i < n; i += 8)
    _mm256_storeu_ps(z + i,
                     v::normal_from_word<false>(_mm256_loadu_si256((const __m256i*)(w + i)), t));
}
template <class F>
double ns_per(F f, int n, int reps) {
  std::vector<double> s;
  for (int r = 0; r < 7; ++r) {
    auto a = std::chrono::steady_clock::now();
    for (int k = 0; k < reps; ++k) f();
    auto b = std::chrono::steady_clock::now();
    s.push_back(std::chrono::duration<double, std::nano>(b - a).count() / (double(n) * reps));
  }
  std::sort(s.begin(), s.end());
  return s[3];
}
int main() {
  if (!__builtin_cpu_supports("avx512f")) {
    std::printf("no AVX-512F\n");
    return 0;
  }
  // Bits: a stride walk over all 2^32 words (stride 257, about 16.7 M words) and every word in a
  // buffer.
  const int n = 1 << 16;
  std::vector<std::uint32_t> w(n);
  std::vector<float> z(n);
  long bad[3] = {0, 0, 0}, checked = 0;
  for (std::uint64_t start = 0; start < (1ull << 32); start += 257ull * n) {
    for (int i = 0; i < n; ++i) w[i] = static_cast<std::uint32_t>(start + 257ull * i);
    for (int k = 0; k < 3; ++k) {
      if (k == 0)
        run<0>(w.data(), z.data(), n);
      else if (k == 1)
        run<1>(w.data(), z.data(), n);
      else
        run<2>(w.data(), z.data(), n);
      for (int i = 0; i < n; ++i) {
        float ref = I::normal_from_word(w[i]);
        if (std::memcmp(&ref, &z[i], 4)) ++bad[k];
      }
    }
    checked += n;
  }
  std::printf("bits: %ld words, mismatches gather %ld, load %ld, permute %ld\n", checked, bad[0],
              bad[1], bad[2]);
  std::uint64_t s = 12345;
  for (auto& x : w) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x = static_cast<std::uint32_t>(s >> 32);
  }
  const int reps = 2000;
  std::printf(
      "ns per normal (words in L1, one thread): avx2_load %.3f  avx512_gather %.3f  avx512_load "
      "%.3f  avx512_permute %.3f\n",
      ns_per([&] { run_avx2(w.data(), z.data(), n); }, n, reps),
      ns_per([&] { run<0>(w.data(), z.data(), n); }, n, reps),
      ns_per([&] { run<1>(w.data(), z.data(), n); }, n, reps),
      ns_per([&] { run<2>(w.data(), z.data(), n); }, n, reps));
}
