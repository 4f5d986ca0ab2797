// The fill kernels of Impl::fill_random (docs/performance.md): the rows path in its device
// style (one block per work item, vector stores) and host style (chunks, batched Philox;
// its explicit AVX-512 or AVX2+FMA version where the CPU has it, and its portable loop) give the
// same bytes as the generic kernel for every distribution, with row starts not aligned to a block,
// odd row lengths, tiny Views, sub-boxes, subviews with unaligned data pointers, LayoutLeft and
// LayoutRight, ranks 1 to 3 (the columns kernels on LayoutLeft and LayoutStride); and every
// layout gives the bytes of LayoutRight through the ops, ranks 1 to 8. The checks:
// FillPathsCheck.hpp; bernoulli_, dropout_, random_bits_, randint_: Test_FillPathsOps.cpp.

#include "FillPathsCheck.hpp"

TEST(FillPaths, Uniform) {
  check_every_shape<float>([] { return kdt::Impl::make_uniform<float>(0, 1, "t"); }, "uniform f32");
  check_every_shape<float>([] { return kdt::Impl::make_uniform<float>(-2, 3, "t"); },
                           "uniform f32 -2..3");
  check_every_shape<double>([] { return kdt::Impl::make_uniform<double>(0, 1, "t"); },
                            "uniform f64");
}

TEST(FillPaths, Normal) {
  check_every_shape<float>([] { return kdt::Impl::make_normal<float>(0.5, 2, "t"); }, "normal f32");
  check_rows<double>([] { return kdt::Impl::make_normal<double>(0, 1, "t"); }, "normal f64");
}

TEST(FillPaths, OthersAndLogNormal) {
  check_rows<float>([] { return kdt::Impl::make_log_normal<float>(0, 1, "t"); }, "log_normal f32");
  check_rows<float>([] { return kdt::Impl::make_exponential<float>(2, "t"); }, "exponential f32");
  check_columns<float>([] { return kdt::Impl::make_exponential<float>(2, "t"); },
                       "exponential f32");
  check_rows<double>([] { return kdt::Impl::make_trunc_normal<double>(0, 1, -2, 2, "t"); },
                     "trunc_normal f64");
}

namespace {

// The elements of the View whose host copy is `host`, in row-major order over `extents`,
// each index moved by `shift` (1: the inner block of a View one larger in every dimension).
template <class HostView>
std::vector<unsigned char> row_major_bytes(const HostView& host,
                                           const std::vector<std::int64_t>& extents,
                                           std::int64_t shift) {
  using T = typename HostView::value_type;
  std::vector<unsigned char> out;
  std::vector<std::int64_t> index(extents.size(), 0), at(extents.size());
  std::int64_t total = 1;
  for (auto e : extents) total *= e;
  for (std::int64_t k = 0; k < total; ++k) {
    for (std::size_t d = 0; d < extents.size(); ++d) at[d] = index[d] + shift;
    const T value = kdt::Impl::host_element(host, at.data());
    const auto* p = reinterpret_cast<const unsigned char*>(&value);
    out.insert(out.end(), p, p + sizeof(T));
    for (int d = static_cast<int>(extents.size()) - 1; d >= 0; --d) {
      if (++index[d] < extents[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

template <class View>
auto host_copy(const View& v) {
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
}

template <class View, std::size_t... I>
auto inner_subview(const View& base, std::index_sequence<I...>) {
  return Kokkos::subview(base, Kokkos::make_pair(std::size_t(1), base.extent(I) - 1)...);
}

// Rank R: a LayoutLeft View, a LayoutStride subview (of a LayoutLeft View one larger in every
// dimension) and a LayoutRight View of the same extents, each through `op` from the same state:
// the same bytes at every index.
template <class T, int R, class Op>
void check_layouts_at_rank(const std::vector<std::int64_t>& extents, const Op& op,
                           const char* name) {
  using Data = typename kdt::Impl::RankDataType<T, R>::type;
  using Right = Kokkos::View<Data, Kokkos::LayoutRight, TestSpace>;
  using Left = Kokkos::View<Data, Kokkos::LayoutLeft, TestSpace>;
  std::vector<std::int64_t> larger(extents);
  for (auto& e : larger) e += 2;
  const Right right = kdt::Impl::allocate_view<Right>("right", extents);
  const Left left = kdt::Impl::allocate_view<Left>("left", extents);
  const Left base = kdt::Impl::allocate_view<Left>("base", larger);
  const Kokkos::View<Data, Kokkos::LayoutStride, TestSpace> strided =
      inner_subview(base, std::make_index_sequence<R>{});
  for (std::uint64_t offset : {std::uint64_t(0), (std::uint64_t(1) << 34) - 20}) {
    // dropout_ reads its input: the same values in every layout, different at every index.
    // (The strided View's border is set through its contiguous base: Kokkos 3.4's deep_copy
    // of a scalar into a rank-7 LayoutStride View crashes.)
    Kokkos::deep_copy(right, T(3));
    Kokkos::deep_copy(left, T(3));
    Kokkos::deep_copy(base, T(3));
    if constexpr (std::is_floating_point<T>::value) {
      for (const auto input : {0, 1, 2}) {
        kdt::Generator gen(2024);
        if (input == 0) kdt::uniform_(right, 1.0, 2.0, gen);
        if (input == 1) kdt::uniform_(left, 1.0, 2.0, gen);
        if (input == 2) kdt::uniform_(strided, 1.0, 2.0, gen);
      }
    }
    op(right, offset);
    op(left, offset);
    op(strided, offset);
    Kokkos::fence();
    const auto want = row_major_bytes(host_copy(right), extents, 0);
    EXPECT_EQ(row_major_bytes(host_copy(left), extents, 0), want)
        << name << " LayoutLeft rank " << R;
    EXPECT_EQ(row_major_bytes(host_copy(base), extents, 1), want)
        << name << " LayoutStride rank " << R;
  }
}

template <class T, class Op>
void check_layouts(const Op& op, const char* name) {
  const std::int64_t e[8] = {5, 3, 127, 2, 1, 3, 2, 2};
  const auto first = [&](int r) { return std::vector<std::int64_t>(e, e + r); };
  check_layouts_at_rank<T, 1>({4097}, op, name);
  check_layouts_at_rank<T, 2>({4097, 5}, op, name);
  check_layouts_at_rank<T, 2>({3, 4097}, op, name);
  check_layouts_at_rank<T, 2>({127, 1}, op, name);
  // A unit-stride extent of 16 or more: the host's lanes kernel for 4- and 8-byte types,
  // here with rows a whole number of blocks long (4097 x 5: rows that start inside a block).
  check_layouts_at_rank<T, 2>({4097, 8}, op, name);
  check_layouts_at_rank<T, 3>({37, 3, 12}, op, name);
  check_layouts_at_rank<T, 3>(first(3), op, name);
  check_layouts_at_rank<T, 4>(first(4), op, name);
  check_layouts_at_rank<T, 5>(first(5), op, name);
  check_layouts_at_rank<T, 6>(first(6), op, name);
  check_layouts_at_rank<T, 7>(first(7), op, name);
  check_layouts_at_rank<T, 8>(first(8), op, name);
}

}  // namespace

// Through the ops (the compiled kernels), on the execution space of the tests.
TEST(FillPaths, EveryLayoutGivesTheBytesOfLayoutRight) {
  const auto with_offset = [](std::uint64_t offset) {
    kdt::Generator gen(77);
    gen.set_state(kdt::RNGState{77, offset});
    return gen;
  };
  check_layouts<float>(
      [&](const auto& v, std::uint64_t offset) {
        auto gen = with_offset(offset);
        kdt::uniform_(ExecSpace(), v, -1.0, 2.0, gen);
      },
      "uniform f32");
  check_layouts<float>(
      [&](const auto& v, std::uint64_t offset) {
        auto gen = with_offset(offset);
        kdt::normal_(ExecSpace(), v, 0.5, 2.0, gen);
      },
      "normal f32");
  check_layouts<double>(
      [&](const auto& v, std::uint64_t offset) {
        auto gen = with_offset(offset);
        kdt::normal_(ExecSpace(), v, 0.0, 1.0, gen);
      },
      "normal f64");
  check_layouts<float>(
      [&](const auto& v, std::uint64_t offset) {
        auto gen = with_offset(offset);
        kdt::dropout_(ExecSpace(), v, 0.3, gen);
      },
      "dropout f32");
  check_layouts<double>(
      [&](const auto& v, std::uint64_t offset) {
        auto gen = with_offset(offset);
        kdt::dropout_(ExecSpace(), v, 0.3, gen);
      },
      "dropout f64");
  check_layouts<std::int8_t>(
      [&](const auto& v, std::uint64_t offset) {
        auto gen = with_offset(offset);
        kdt::bernoulli_(ExecSpace(), v, 0.4, gen);
      },
      "bernoulli i8");
  check_layouts<std::uint64_t>(
      [&](const auto& v, std::uint64_t offset) {
        auto gen = with_offset(offset);
        kdt::random_bits_(ExecSpace(), v, gen);
      },
      "bits u64");
}

TEST(FillPaths, KeyScheduleAndBatchMatchTheBlockFunction) {
  for (std::uint64_t seed : {0ull, 1ull, 0xFFFFFFFFFFFFFFFFull, 67280421310721ull}) {
    const auto key = kdt::Impl::philox_key_schedule(seed);
    for (std::uint64_t first : {0ull, (1ull << 32) - 3, (1ull << 62) + 5}) {
      std::uint32_t word[4 * 8];
      kdt::Impl::philox4x32_10_batch<8>(key, first, word);
      for (int l = 0; l < 8; ++l) {
        const auto a = kdt::Impl::stream_block(seed, first + l);
        const auto b = kdt::Impl::stream_block(key, first + l);
        for (int j = 0; j < 4; ++j) {
          EXPECT_EQ(a.word[j], b.word[j]);
          EXPECT_EQ(a.word[j], word[4 * l + j]);
        }
      }
    }
  }
}

#if KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH
// Groups of 8 blocks in block-lane layout (from philox8, philox16) are blocks first,
// first + 1, ... of the stream of `seed`.
template <int N>
__attribute__((target("avx2,fma"))) void expect_stream_blocks(
    std::uint64_t seed, std::uint64_t first, const kdt::Impl::host_avx2::Words8 (&w)[N]) {
  for (int g = 0; g < N; ++g) {
    alignas(32) std::uint32_t word[32];
    kdt::Impl::host_avx2::store_stream_order(w[g].word, word);
    for (int l = 0; l < 8; ++l) {
      const auto b = kdt::Impl::stream_block(seed, first + 8 * g + l);
      for (int j = 0; j < 4; ++j) ASSERT_EQ(b.word[j], word[4 * l + j]) << first << " " << l;
    }
  }
}

// The AVX2 mirrors of the scalar functions, over whole domains including special values
// (the fills above only reach the values u1 in [2^-24, 1], 2 u2 in [0, 2)).
// Words for the stream-version-2 normal's SIMD versions: every word of a stride-1031 walk
// over all 2^32 words (each segment of the table many times, both signs), every word whose
// q is a segment boundary or next to one, and the extremes.
std::vector<std::uint32_t> normal_test_words() {
  std::vector<std::uint32_t> words = {0x00000000u, 0x80000000u, 0x7fffffffu, 0xffffffffu,
                                      0x7ffffffeu, 0xfffffffeu, 0x00000001u, 0x80000001u};
  for (std::uint64_t x = 0; x < (1ull << 32); x += 1031)
    words.push_back(static_cast<std::uint32_t>(x));
  for (std::uint32_t e = 0; e < 32; ++e)
    for (std::uint32_t k = 0; k < 16; ++k) {
      // magnitudes a with 2a + 1 near 2^e (1 + k / 16)
      const std::uint64_t edge = (1ull << e) + (static_cast<std::uint64_t>(k) << e) / 16;
      for (int d = -2; d <= 2; ++d) {
        const std::int64_t m = static_cast<std::int64_t>(edge) + d;
        if (m < 1 || m >= (1ll << 32)) continue;
        const std::uint32_t a = static_cast<std::uint32_t>(m / 2);
        words.push_back(a);
        words.push_back(a | 0x80000000u);
      }
    }
  return words;
}

__attribute__((target("avx2,fma"))) void check_avx2_mirrors() {
  namespace v = kdt::Impl::host_avx2;
  for (std::uint64_t seed : {0ull, 0xFFFFFFFFFFFFFFFFull, 67280421310721ull}) {
    const auto key = kdt::Impl::philox_key_schedule(seed);
    for (std::uint64_t first : {0ull, (1ull << 32) - 3, (1ull << 32) - 8, (1ull << 32) - 9,
                                (1ull << 62) + 5, ~0ull - 10}) {
      v::Words8 w[2];
      v::philox8<2>(key, first, w);
      expect_stream_blocks(seed, first, w);
    }
  }
  // Inputs: special values, every power of two, and pseudo-random bit patterns.
  std::vector<std::uint32_t> bits = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u,
                                     0x7fc00000u, 0xffc00000u, 0x7f7fffffu, 0x00000001u,
                                     0x007fffffu, 0x00800000u, 0x3f800000u, 0xbf800000u,
                                     0x4b800000u, 0x4b7fffffu, 0x4c000000u, 0x3e800000u};
  for (std::uint32_t e = 0; e < 256; ++e) bits.push_back(e << 23);
  for (std::uint32_t i = 0; i < 200000; ++i) bits.push_back(kdt::Impl::stream_word(42, i));
  while (bits.size() % 8) bits.push_back(0);
  for (std::size_t i = 0; i < bits.size(); i += 8) {
    alignas(32) float x[8], lg[8], s[8], c[8];
    std::memcpy(x, &bits[i], sizeof x);
    const __m256 xv = _mm256_load_ps(x);
    _mm256_store_ps(lg, v::log(xv));
    __m256 sv, cv;
    v::sincospi(xv, sv, cv);
    _mm256_store_ps(s, sv);
    _mm256_store_ps(c, cv);
    for (int l = 0; l < 8; ++l) {
      float s_ref, c_ref;
      kdt::Impl::portable_sincospi(x[l], &s_ref, &c_ref);
      const float lg_ref = kdt::Impl::portable_log(x[l]);
      ASSERT_EQ(kdt::Impl::float_to_bits(lg[l]), kdt::Impl::float_to_bits(lg_ref))
          << "log " << x[l];
      ASSERT_EQ(kdt::Impl::float_to_bits(s[l]), kdt::Impl::float_to_bits(s_ref))
          << "sinpi " << x[l];
      ASSERT_EQ(kdt::Impl::float_to_bits(c[l]), kdt::Impl::float_to_bits(c_ref))
          << "cospi " << x[l];
    }
  }
  // The stream-version-2 normal (both coefficient loads).
  std::vector<std::uint32_t> words = normal_test_words();
  while (words.size() % 8) words.push_back(0);
  for (std::size_t i = 0; i < words.size(); i += 8) {
    const __m256i wv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&words[i]));
    alignas(32) float z_load[8], z_gather[8];
    _mm256_store_ps(z_load, v::normal_from_word<false>(wv, kdt::Impl::NormalTableF32::data));
    _mm256_store_ps(z_gather, v::normal_from_word<true>(wv, kdt::Impl::NormalTableF32::data));
    for (int l = 0; l < 8; ++l) {
      const std::uint32_t ref = kdt::Impl::float_to_bits(kdt::Impl::normal_from_word(words[i + l]));
      ASSERT_EQ(kdt::Impl::float_to_bits(z_load[l]), ref) << "normal (loads) word " << words[i + l];
      ASSERT_EQ(kdt::Impl::float_to_bits(z_gather[l]), ref)
          << "normal (gathers) word " << words[i + l];
    }
  }
  // double: x = w0 << 32 | w1 with w0 from the list above (every float segment edge is a
  // double octave edge too) and w1 random, plus the segment edges of the double table.
  std::vector<std::uint64_t> xs = {0ull, 0x8000000000000000ull, 0x7fffffffffffffffull, ~0ull};
  for (std::size_t i = 0; i < words.size(); ++i)
    xs.push_back(static_cast<std::uint64_t>(words[i]) << 32 | kdt::Impl::stream_word(43, i));
  for (std::uint32_t e = 0; e < 64; ++e)
    for (std::uint32_t k = 0; k < 4; ++k) {
      const unsigned __int128 edge = (static_cast<unsigned __int128>(1) << e) * (4 + k) / 4;
      for (int d = -2; d <= 2; ++d) {
        const unsigned __int128 m = edge + d;
        if (m < 1 || m >= (static_cast<unsigned __int128>(1) << 64)) continue;
        const std::uint64_t a = static_cast<std::uint64_t>(m / 2);
        xs.push_back(a);
        xs.push_back(a | 0x8000000000000000ull);
      }
    }
  while (xs.size() % 4) xs.push_back(0);
  for (std::size_t i = 0; i < xs.size(); i += 4) {
    alignas(32) double z[4];
    _mm256_store_pd(
        z, v::normal_from_words(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(&xs[i])),
                                kdt::Impl::NormalTableF64::data));
    for (int l = 0; l < 4; ++l) {
      const double ref = kdt::Impl::normal_from_words(static_cast<std::uint32_t>(xs[i + l] >> 32),
                                                      static_cast<std::uint32_t>(xs[i + l]));
      ASSERT_EQ(kdt::Impl::double_to_bits(z[l]), kdt::Impl::double_to_bits(ref))
          << "normal f64 x " << xs[i + l];
    }
  }
}

TEST(FillPaths, Avx2MirrorsMatchTheScalarFunctions) {
  if (!kdt::Impl::host_has_avx2_fma()) GTEST_SKIP() << "CPU without AVX2+FMA";
  check_avx2_mirrors();
}

// philox16 (AVX-512) gives the blocks of the scalar Philox, across the 2^32-block carry too.
__attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA))) void check_philox16() {
  namespace v = kdt::Impl::host_avx2;
  for (std::uint64_t seed : {0ull, 0xFFFFFFFFFFFFFFFFull, 67280421310721ull}) {
    const auto key = kdt::Impl::philox_key_schedule(seed);
    for (std::uint64_t first : {0ull, 5ull, (1ull << 32) - 32, (1ull << 32) - 31, (1ull << 32) - 16,
                                (1ull << 32) - 1, (1ull << 62) + 5, ~0ull - 40}) {
      v::Words8 w[4];
      v::philox16<2>(key, first, w);
      expect_stream_blocks(seed, first, w);
    }
  }
}

TEST(FillPaths, Avx512PhiloxMatchesTheScalarPhilox) {
  if (!kdt::Impl::host_has_avx512()) GTEST_SKIP() << "CPU without AVX-512F/DQ (or capped)";
  check_philox16();
}

// The 16-lane transforms (HostAvx512Transform) write what the 8-lane ones write for the same
// 32 blocks, byte for byte, and philox16's two output layouts hold the same words.
template <class T, class Dist>
__attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA))) void check_avx512_transform(
    const Dist& dist, const char* name) {
  namespace v = kdt::Impl::host_avx2;
  constexpr int n = 32 * Dist::elements_per_block;
  for (std::uint64_t first : {0ull, 40ull, (1ull << 32) - 20, ~0ull - 100}) {
    const auto key = kdt::Impl::philox_key_schedule(first + 11);
    v::Words16 w16[2];
    v::Words8 w8[4];
    v::philox16<2>(key, first, w16);
    v::philox16<2>(key, first, w8);
    T wide[n], narrow[n];
    for (int g = 0; g < 2; ++g)
      kdt::Impl::HostAvx512Transform<Dist>::apply(dist, w16[g], wide + n / 2 * g);
    for (int g = 0; g < 4; ++g)
      kdt::Impl::HostAvx2Transform<Dist>::apply(dist, w8[g], narrow + n / 4 * g);
    EXPECT_EQ(std::memcmp(wide, narrow, sizeof wide), 0) << name << " first " << first;
  }
}

// The 16-lane normal f32 transform (entries 448 .. 511 by vpermt2ps, the other words by the
// scalar function) gives the scalar transform's bits on the words of normal_test_words:
// word j of block l in lane l of Words16::word[j], its value at element 4 l + j.
__attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA))) void check_avx512_normal() {
  namespace v = kdt::Impl::host_avx2;
  const auto dist = kdt::Impl::make_normal<float>(0.5, 2, "t");
  std::vector<std::uint32_t> words = normal_test_words();
  while (words.size() % 64) words.push_back(0);
  for (std::size_t i = 0; i < words.size(); i += 64) {
    alignas(64) std::uint32_t lanes[4][16];
    for (int l = 0; l < 16; ++l)
      for (int j = 0; j < 4; ++j) lanes[j][l] = words[i + 4 * l + j];
    v::Words16 w;
    for (int j = 0; j < 4; ++j) w.word[j] = _mm512_load_si512(lanes[j]);
    float z[64];
    kdt::Impl::HostAvx512Transform<kdt::Impl::Normal<float>>::apply(dist, w, z);
    for (int e = 0; e < 64; ++e)
      ASSERT_EQ(
          kdt::Impl::float_to_bits(z[e]),
          kdt::Impl::float_to_bits(dist.from_standard(kdt::Impl::normal_from_word(words[i + e]))))
          << "normal (16 lanes) word " << words[i + e];
  }
}

TEST(FillPaths, Avx512NormalMatchesTheScalarOne) {
  if (!kdt::Impl::host_has_avx512()) GTEST_SKIP() << "CPU without AVX-512F/DQ (or capped)";
  check_avx512_normal();
}

TEST(FillPaths, Avx512TransformsMatchTheAvx2Ones) {
  if (!kdt::Impl::host_has_avx512()) GTEST_SKIP() << "CPU without AVX-512F/DQ (or capped)";
  check_avx512_transform<float>(kdt::Impl::StandardUniform<float>{}, "uniform f32");
  check_avx512_transform<float>(kdt::Impl::make_uniform<float>(-2, 3, "t"), "uniform f32 -2..3");
  check_avx512_transform<std::uint32_t>(kdt::Impl::RandomBits<std::uint32_t>{}, "bits u32");
  for (double p : {0.0, 0.3, 0.5, 1.0})
    check_avx512_transform<float>(kdt::Impl::make_bernoulli<float>(p, "t"), "bernoulli f32");
  check_avx512_transform<double>(kdt::Impl::StandardUniform<double>{}, "uniform f64");
  check_avx512_transform<double>(kdt::Impl::make_uniform<double>(-2, 3, "t"), "uniform f64 -2..3");
  check_avx512_transform<float>(kdt::Impl::make_normal<float>(0.5, 2, "t"), "normal f32");
}
#endif

TEST(FillPaths, FastDivider) {
  for (std::uint32_t d : {1u, 2u, 3u, 5u, 7u, 255u, 256u, 1000u, 65535u, 65537u, 1u << 30,
                          (1u << 31) - 1, 1u << 31}) {
    const kdt::Impl::FastDivider32 div(d);
    for (std::uint32_t n :
         {0u, 1u, d - 1, d, d + 1, 12345678u, (1u << 31) - 1, (1u << 31) - 2, 2u * d - 1}) {
      if (n >= (1u << 31)) continue;
      EXPECT_EQ(div.divide(n), n / d) << n << " / " << d;
    }
  }
}
