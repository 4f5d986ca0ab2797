// Accuracy check of the stream-version-2 normal transform (docs/normal_v2.md):
//   float:  exhaustive over all 2^31 magnitudes m (every word up to its sign bit);
//   double: N random words (uniform words and log-uniform magnitudes, to reach every
//           octave) plus every segment boundary q and its neighbours.
// Exit status 0 when every check passes: float within 2 ulp of the correctly rounded
// -Phi^-1(q) where |z| >= 1/16 and within 1e-6 absolute below; double within 4 ulp.
//
// Reference: a Newton step for Phi(-z) = q from the double transform's own value z0,
//   z1 = z0 + (erfc(z0/sqrt2)/2 - q) / phi(z0)      (q <= 1/4)
//   z1 = z0 + ((1/2 - q) - erf(z0/sqrt2)/2) / phi(z0)  (q > 1/4; 1/2 - q is exact)
// in long double (float check) or __float128 (double check). The error of z1 is about
// z |d|^2 with d = (z1 - z0)/z0, whatever z0 came from; the check requires |d| < 1e-12
// (otherwise it iterates until the correction is below that), so the reference does not
// depend on the code under test being right.
//
// Build (host only; needs the Kokkos headers for the macros, e.g. Debian's
// libtrilinos-kokkos-dev):
//   g++ -O2 -std=c++17 -mfma -fopenmp -I include -I /usr/include/trilinos
//       tools/check_normal_accuracy.cpp -o check_normal_accuracy -lquadmath
// Usage: check_normal_accuracy [--double-samples N] [--float-stride S] [--no-float] [--no-double]
//        check_normal_accuracy --dump N   (words and result bits for tools/normal_v2_reference.py
//        --compare)
//   --float-stride S checks every S-th magnitude only (quick runs; default 1 = exhaustive).
#include <impl/KokkosDTensor_NormalQuantile.hpp>

#include <quadmath.h>

#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#ifdef _OPENMP
#include <omp.h>
#endif

using namespace KokkosDTensor::Impl;

namespace {

// ---- references ------------------------------------------------------------------------

long double ref_ld(float q, bool* ok) {
  *ok = true;
  if (q == 0.5f) return 0.0L;
  const long double ql = q;
  long double z = normal_magnitude_from_q(static_cast<double>(q));  // start (any close value)
  const long double inv_sqrt2 = 0.707106781186547524400844362104849039L;
  const long double inv_sqrt2pi = 0.398942280401432677939946059934381868L;
  for (int it = 0; it < 8; ++it) {
    const long double phi = inv_sqrt2pi * expl(-0.5L * z * z);
    const long double g =
        ql <= 0.25L ? 0.5L * erfcl(z * inv_sqrt2) - ql : (0.5L - ql) - 0.5L * erfl(z * inv_sqrt2);
    const long double d = g / phi;
    z += d;
    if (fabsl(d) <= 1e-12L * z) return z;
  }
  *ok = false;
  return z;
}

__float128 ref_q(double q, double start, bool* ok) {
  *ok = true;
  if (q == 0.5) return 0;
  const __float128 qq = q;
  __float128 z = start;
  static const __float128 inv_sqrt2 = 1 / sqrtq(2);
  static const __float128 inv_sqrt2pi = 1 / sqrtq(2 * acosq(-1));
  const __float128 quarter = 0.25, half = 0.5, tol = 1e-12;
  for (int it = 0; it < 8; ++it) {
    const __float128 phi = inv_sqrt2pi * expq(-z * z / 2);
    const __float128 g =
        qq <= quarter ? erfcq(z * inv_sqrt2) / 2 - qq : (half - qq) - erfq(z * inv_sqrt2) / 2;
    const __float128 d = g / phi;
    z += d;
    if (fabsq(d) <= tol * z) return z;
  }
  *ok = false;
  return z;
}

// ---- float -----------------------------------------------------------------------------

struct FloatStats {
  std::uint64_t checked = 0;   // magnitudes m (each is 2 words: both signs)
  std::uint64_t distinct = 0;  // distinct q evaluated
  std::uint64_t hist[4] =
      {};  // |z| >= 1/16: ulp difference to the correctly rounded value 0, 1, 2, >2
  std::uint64_t small = 0;       // |z| < 1/16
  std::uint64_t small_fail = 0;  // |z| < 1/16 and abs error > 1e-6
  std::uint64_t ref_fail = 0;
  double max_ulp_real = 0;  // |z - ref| / ulp(ref), |z| >= 1/16
  float worst_q_real = 0;
  std::uint32_t max_ulp_int = 0;
  float worst_q_int = 0;
  double max_abs_small = 0;
  float worst_q_small = 0;
};

double ulp_of_float(long double r) {  // ulp of the float binade of r > 0
  int e;
  frexpl(r, &e);  // r = f 2^e, f in [1/2, 1)
  return std::ldexp(1.0, e - 24);
}

void float_eval(float q, std::uint64_t mult, FloatStats& s) {
  bool ok;
  const long double ref = ref_ld(q, &ok);
  if (!ok) s.ref_fail += mult;
  const float z = normal_magnitude_from_q(q);
  ++s.distinct;
  s.checked += mult;
  if (ref < 0.0625L) {
    s.small += mult;
    const double a = static_cast<double>(fabsl(static_cast<long double>(z) - ref));
    if (a > 1e-6) s.small_fail += mult;
    if (a > s.max_abs_small) {
      s.max_abs_small = a;
      s.worst_q_small = q;
    }
    return;
  }
  const float rf = static_cast<float>(ref);
  const std::int64_t di =
      static_cast<std::int64_t>(float_to_bits(z)) - static_cast<std::int64_t>(float_to_bits(rf));
  const std::uint32_t du = static_cast<std::uint32_t>(di < 0 ? -di : di);
  s.hist[du > 3 ? 3 : du] += mult;
  if (du > s.max_ulp_int) {
    s.max_ulp_int = du;
    s.worst_q_int = q;
  }
  const double dr =
      static_cast<double>(fabsl(static_cast<long double>(z) - ref) / ulp_of_float(ref));
  if (dr > s.max_ulp_real) {
    s.max_ulp_real = dr;
    s.worst_q_real = q;
  }
}

void merge(FloatStats& a, const FloatStats& b) {
  a.checked += b.checked;
  a.distinct += b.distinct;
  for (int i = 0; i < 4; ++i) a.hist[i] += b.hist[i];
  a.small += b.small;
  a.small_fail += b.small_fail;
  a.ref_fail += b.ref_fail;
  if (b.max_ulp_real > a.max_ulp_real)
    a.max_ulp_real = b.max_ulp_real, a.worst_q_real = b.worst_q_real;
  if (b.max_ulp_int > a.max_ulp_int) a.max_ulp_int = b.max_ulp_int, a.worst_q_int = b.worst_q_int;
  if (b.max_abs_small > a.max_abs_small)
    a.max_abs_small = b.max_abs_small, a.worst_q_small = b.worst_q_small;
}

bool check_float(std::uint32_t stride) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::int64_t chunk = 1 << 20;  // magnitudes per work item
  const std::int64_t nchunks = (std::int64_t(1) << 31) / chunk;
  FloatStats total;
#pragma omp parallel
  {
    FloatStats local;
#pragma omp for schedule(dynamic, 4)
    for (std::int64_t c = 0; c < nchunks; ++c) {
      // magnitudes v = w & 0x7FFFFFFF in [c chunk, (c + 1) chunk); q is non-decreasing in v,
      // so equal q (many m round to one float) are evaluated once with their count.
      float prev = -1.0f;
      std::uint64_t mult = 0;
      // the magnitudes that are multiples of stride (all of them when stride = 1)
      for (std::int64_t v = (c * chunk + stride - 1) / stride * stride; v < (c + 1) * chunk;
           v += stride) {
        const float q = normal_q_from_word(static_cast<std::uint32_t>(v));
        if (q == prev) {
          ++mult;
          continue;
        }
        if (mult) float_eval(prev, mult, local);
        prev = q;
        mult = 1;
      }
      if (mult) float_eval(prev, mult, local);
    }
#pragma omp critical
    merge(total, local);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const bool pass = total.hist[3] == 0 && total.small_fail == 0 && total.ref_fail == 0 &&
                    total.checked == ((std::uint64_t(1) << 31) + stride - 1) / stride;
  std::printf("float: %s over %" PRIu64 " magnitudes (%" PRIu64 " distinct q), stride %u, %.1f s\n",
              stride == 1 ? "exhaustive" : "sampled", total.checked, total.distinct, stride, secs);
  std::printf("  |z| >= 1/16: ulp difference to correctly rounded  0: %" PRIu64 "  1: %" PRIu64
              "  2: %" PRIu64 "  >2: %" PRIu64 "\n",
              total.hist[0], total.hist[1], total.hist[2], total.hist[3]);
  std::printf("  max |diff| %u ulp at q = %a (%.9g); max real error %.4f ulp at q = %a (%.9g)\n",
              total.max_ulp_int, total.worst_q_int, total.worst_q_int, total.max_ulp_real,
              total.worst_q_real, total.worst_q_real);
  std::printf("  |z| < 1/16 (%" PRIu64
              " magnitudes): max abs error %.3g at q = %a; over 1e-6: %" PRIu64 "\n",
              total.small, total.max_abs_small, total.worst_q_small, total.small_fail);
  if (total.ref_fail)
    std::printf("  reference did not converge for %" PRIu64 " magnitudes\n", total.ref_fail);
  const float tail = normal_magnitude_from_q(0x1p-33f);
  bool ok;
  const long double rt = ref_ld(0x1p-33f, &ok);
  std::printf(
      "  tail: q = 2^-33 -> |z| = %.9g (reference %.12Lg); word 0x7FFFFFFF -> %g, 0xFFFFFFFF -> "
      "%g\n",
      tail, rt, normal_from_word(0x7fffffffu), normal_from_word(0xffffffffu));
  std::printf("  sign: word 0 -> %.9g, word 0x80000000 -> %.9g\n", normal_from_word(0u),
              normal_from_word(0x80000000u));
  const bool tail_ok = std::fabs(tail - 6.3379577f) < 1e-5f &&
                       normal_from_word(0x80000000u) == -normal_from_word(0u);
  std::printf("float: %s\n", pass && tail_ok ? "PASS" : "FAIL");
  return pass && tail_ok;
}

// ---- double ----------------------------------------------------------------------------

struct DoubleStats {
  std::uint64_t checked = 0;
  std::uint64_t hist[6] = {};  // ulp difference 0..4, >4
  std::uint64_t ref_fail = 0;
  double max_ulp_real = 0;
  double worst_q_real = 0;
  std::uint64_t max_ulp_int = 0;
  double worst_q_int = 0;
};

double ulp_of_double(__float128 r) {
  int e;
  frexpq(r, &e);
  return std::ldexp(1.0, e - 53);
}

void double_eval(double q, DoubleStats& s) {
  const double z = normal_magnitude_from_q(q);
  bool ok;
  const __float128 ref = ref_q(q, z, &ok);
  if (!ok) ++s.ref_fail;
  ++s.checked;
  if (q == 0.5) {
    s.hist[z == 0.0 ? 0 : 5]++;
    return;
  }
  const double rd = static_cast<double>(ref);
  const std::int64_t di = static_cast<std::int64_t>(double_to_bits(z) - double_to_bits(rd));
  const std::uint64_t du = static_cast<std::uint64_t>(di < 0 ? -di : di);
  s.hist[du > 5 ? 5 : du]++;
  if (du > s.max_ulp_int) s.max_ulp_int = du, s.worst_q_int = q;
  const double dr =
      static_cast<double>(fabsq(static_cast<__float128>(z) - ref) / ulp_of_double(ref));
  if (dr > s.max_ulp_real) s.max_ulp_real = dr, s.worst_q_real = q;
}

void merge(DoubleStats& a, const DoubleStats& b) {
  a.checked += b.checked;
  for (int i = 0; i < 6; ++i) a.hist[i] += b.hist[i];
  a.ref_fail += b.ref_fail;
  if (b.max_ulp_real > a.max_ulp_real)
    a.max_ulp_real = b.max_ulp_real, a.worst_q_real = b.worst_q_real;
  if (b.max_ulp_int > a.max_ulp_int) a.max_ulp_int = b.max_ulp_int, a.worst_q_int = b.worst_q_int;
}

std::uint64_t splitmix64(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void report_double(const char* what, const DoubleStats& s, double secs) {
  std::printf("double %s: %" PRIu64 " values, %.1f s\n", what, s.checked, secs);
  std::printf("  ulp difference to correctly rounded  0: %" PRIu64 "  1: %" PRIu64 "  2: %" PRIu64
              "  3: %" PRIu64 "  4: %" PRIu64 "  >4: %" PRIu64 "\n",
              s.hist[0], s.hist[1], s.hist[2], s.hist[3], s.hist[4], s.hist[5]);
  std::printf("  max |diff| %" PRIu64 " ulp at q = %a (%.17g); max real error %.4f ulp at q = %a\n",
              s.max_ulp_int, s.worst_q_int, s.worst_q_int, s.max_ulp_real, s.worst_q_real);
  if (s.ref_fail) std::printf("  reference did not converge for %" PRIu64 " values\n", s.ref_fail);
}

bool check_double(std::uint64_t samples) {
  // Segment boundaries: q = 2^e (1 + k/4), its two neighbouring doubles, and the q of the
  // odd m next to q 2^65 when they are representable.
  auto t0 = std::chrono::steady_clock::now();
  DoubleStats bnd;
  for (int e = NormalTableF64::e_min; e <= -1; ++e) {
    for (int k = 0; k < 4; ++k) {
      const double b = std::ldexp(1.0 + k / 4.0, e);
      if (b > 0.5) break;
      const double cand[4] = {std::nextafter(b, 0.0), b, std::nextafter(b, 1.0), 0.0};
      for (int i = 0; i < 3; ++i) {
        if (cand[i] >= 0x1p-65 && cand[i] <= 0.5) double_eval(cand[i], bnd);
      }
      const double B = std::ldexp(b, 65);  // b 2^65, an integer
      if (B < 0x1p64) {
        const std::uint64_t bi = static_cast<std::uint64_t>(B);
        for (std::uint64_t m : {bi - 1, bi + 1, bi - 3, bi + 3}) {
          if ((m & 1u) && m >= 1) double_eval(static_cast<double>(m) * 0x1p-65, bnd);
        }
      }
    }
  }
  // Near q = 1/2, where z -> 0 and only the factor (1/2 - u) keeps the relative accuracy.
  for (int k = 3; k <= 54; ++k) {
    for (double j : {1.0, 3.0, 5.0, 7.0}) {
      const double q = 0.5 - j * std::ldexp(1.0, -k);
      if (q >= 0.4375) double_eval(q, bnd);
    }
  }
  double_eval(0x1p-65, bnd);
  double_eval(normal_q_from_words(0xffffffffu, 0xffffffffu), bnd);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  report_double("segment boundaries and q near 1/2", bnd, secs);
  bool pass = bnd.hist[5] == 0 && bnd.ref_fail == 0;

  t0 = std::chrono::steady_clock::now();
  DoubleStats rnd;
  const std::int64_t chunk = 1 << 16;
  const std::int64_t nchunks = static_cast<std::int64_t>((samples + chunk - 1) / chunk);
#pragma omp parallel
  {
    DoubleStats local;
#pragma omp for schedule(dynamic, 4)
    for (std::int64_t c = 0; c < nchunks; ++c) {
      std::uint64_t s = 0x243f6a8885a308d3ull ^ static_cast<std::uint64_t>(c);
      const std::uint64_t lo = static_cast<std::uint64_t>(c) * chunk;
      const std::uint64_t hi = lo + chunk < samples ? lo + chunk : samples;
      for (std::uint64_t i = lo; i < hi; ++i) {
        std::uint64_t x = splitmix64(s);
        // Every other sample: a log-uniform magnitude (shift right by 0..62) to reach every octave.
        if (i & 1u)
          x = (x & 0x8000000000000000ull) | ((x & 0x7fffffffffffffffull) >> (splitmix64(s) % 63));
        double_eval(
            normal_q_from_words(static_cast<std::uint32_t>(x >> 32), static_cast<std::uint32_t>(x)),
            local);
      }
    }
#pragma omp critical
    merge(rnd, local);
  }
  secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  report_double("random words (half uniform, half log-uniform magnitude)", rnd, secs);
  pass = pass && rnd.hist[5] == 0 && rnd.ref_fail == 0;

  const double tail = normal_magnitude_from_q(0x1p-65);
  std::printf("  tail: q = 2^-65 -> |z| = %.17g; words (0,0) -> %.17g, (0x80000000,0) -> %.17g\n",
              tail, normal_from_words(0u, 0u), normal_from_words(0x80000000u, 0u));
  pass = pass && std::fabs(tail - 9.1552937726860725) < 1e-12 &&
         normal_from_words(0x80000000u, 0u) == -normal_from_words(0u, 0u);
  std::printf("double: %s\n", pass ? "PASS" : "FAIL");
  return pass;
}

// Words and results for tools/normal_v2_reference.py --compare: special words, then n
// uniform words and n log-uniform magnitudes (random sign), for float and double.
void dump(std::uint64_t n) {
  std::uint64_t s = 0x5eed0000d00dull;
  std::vector<std::uint32_t> fw = {0u,          1u,          2u,          0x7fffffffu, 0x80000000u,
                                   0xffffffffu, 0x7fffff7fu, 0x7fffff80u, 0x00ffffffu, 0x01000000u};
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t x = splitmix64(s);
    fw.push_back(static_cast<std::uint32_t>(x));
    fw.push_back(static_cast<std::uint32_t>(((x >> 32) & 0x80000000u) |
                                            ((x & 0x7fffffffu) >> ((x >> 40) % 31))));
  }
  for (std::uint32_t w : fw) std::printf("f %08x %08x\n", w, float_to_bits(normal_from_word(w)));
  std::vector<std::uint64_t> dw = {0ull,
                                   1ull,
                                   0x7fffffffffffffffull,
                                   0x8000000000000000ull,
                                   0xffffffffffffffffull,
                                   0x7ffffffffffffbffull,
                                   0x7ffffffffffffc00ull,
                                   0x3fffffffffffffffull};
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t x = splitmix64(s);
    dw.push_back(x);
    dw.push_back((x & 0x8000000000000000ull) |
                 ((x & 0x7fffffffffffffffull) >> (splitmix64(s) % 63)));
  }
  for (std::uint64_t x : dw) {
    const auto w0 = static_cast<std::uint32_t>(x >> 32), w1 = static_cast<std::uint32_t>(x);
    std::printf("d %08x %08x %016" PRIx64 "\n", w0, w1, double_to_bits(normal_from_words(w0, w1)));
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t samples = 100000000ull;
  std::uint32_t stride = 1;
  bool do_float = true, do_double = true;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--double-samples") && i + 1 < argc) {
      samples = std::strtoull(argv[++i], nullptr, 0);
    } else if (!std::strcmp(argv[i], "--float-stride") && i + 1 < argc) {
      stride = static_cast<std::uint32_t>(std::strtoul(argv[++i], nullptr, 0));
      if (stride == 0) stride = 1;
    } else if (!std::strcmp(argv[i], "--dump") && i + 1 < argc) {
      dump(std::strtoull(argv[++i], nullptr, 0));
      return 0;
    } else if (!std::strcmp(argv[i], "--no-float")) {
      do_float = false;
    } else if (!std::strcmp(argv[i], "--no-double")) {
      do_double = false;
    } else {
      std::fprintf(
          stderr,
          "usage: %s [--double-samples N (default 1e8)] [--float-stride S (default 1: exhaustive)] "
          "[--no-float] [--no-double] | --dump N\n",
          argv[0]);
      return 2;
    }
  }
#ifdef _OPENMP
  std::printf("threads: %d\n", omp_get_max_threads());
#endif
  bool pass = true;
  if (do_float) pass = check_float(stride) && pass;
  if (do_double) pass = check_double(samples) && pass;
  std::printf("%s\n", pass ? "ALL PASS" : "SOME CHECKS FAILED");
  return pass ? 0 : 1;
}
