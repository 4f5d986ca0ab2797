#ifndef KOKKOSDTENSOR_IMPL_FILLCOLUMNSHOST_HPP
#define KOKKOSDTENSOR_IMPL_FILLCOLUMNSHOST_HPP

// The host-style columns kernels (the device style is in KokkosDTensor_FillColumns.hpp):
// lanes, for runs of 16 rows or more of 4- and 8-byte elements on CPUs with AVX2, and tiles
// through a buffer for the rest (Views with no unit stride among them).

#include <algorithm>
#include <cstdint>
#include <impl/KokkosDTensor_FillColumns.hpp>
#include <impl/KokkosDTensor_FillRowsHost.hpp>
#include <impl/KokkosDTensor_HostSimd.hpp>
#include <type_traits>

namespace KokkosDTensor {
namespace Impl {

#if KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH
// out[k][r] = in[r][k] for a block of elements moved as raw bits (shuffles only, no
// arithmetic): 8 x 8 of 4-byte elements or 4 x 4 of 8-byte ones in AVX2 registers.
// in[r] and out[k] each point at N consecutive elements.
__attribute__((target("avx2"))) inline void transpose_block(const float* const (&in)[8],
                                                            float* const (&out)[8]) {
  __m256 r[8], t[8];
  for (int i = 0; i < 8; ++i) r[i] = _mm256_loadu_ps(in[i]);
  for (int i = 0; i < 4; ++i) {
    t[2 * i] = _mm256_unpacklo_ps(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm256_unpackhi_ps(r[2 * i], r[2 * i + 1]);
  }
  for (int h = 0; h < 2; ++h) {
    for (int i = 0; i < 2; ++i) {
      r[4 * h + 2 * i] = _mm256_shuffle_ps(t[4 * h + i], t[4 * h + i + 2], 0x44);
      r[4 * h + 2 * i + 1] = _mm256_shuffle_ps(t[4 * h + i], t[4 * h + i + 2], 0xEE);
    }
  }
  for (int k = 0; k < 4; ++k) {
    _mm256_storeu_ps(out[k], _mm256_permute2f128_ps(r[k], r[k + 4], 0x20));
    _mm256_storeu_ps(out[k + 4], _mm256_permute2f128_ps(r[k], r[k + 4], 0x31));
  }
}
__attribute__((target("avx2"))) inline void transpose_block(const double* const (&in)[4],
                                                            double* const (&out)[4]) {
  __m256d r[4], t[4];
  for (int i = 0; i < 4; ++i) r[i] = _mm256_loadu_pd(in[i]);
  t[0] = _mm256_unpacklo_pd(r[0], r[1]);
  t[1] = _mm256_unpackhi_pd(r[0], r[1]);
  t[2] = _mm256_unpacklo_pd(r[2], r[3]);
  t[3] = _mm256_unpackhi_pd(r[2], r[3]);
  _mm256_storeu_pd(out[0], _mm256_permute2f128_pd(t[0], t[2], 0x20));
  _mm256_storeu_pd(out[1], _mm256_permute2f128_pd(t[1], t[3], 0x20));
  _mm256_storeu_pd(out[2], _mm256_permute2f128_pd(t[0], t[2], 0x31));
  _mm256_storeu_pd(out[3], _mm256_permute2f128_pd(t[1], t[3], 0x31));
}
#endif

// Lanes: 16 rows that are neighbours in memory draw chunk k of each row (its elements k E ..
// k E + E - 1) in the 16 lanes of one Philox call (philox16_counters; 2 x 8 lanes with AVX2),
// so that element e of the chunk, for the 16 rows, is one 64-byte store into column k E + e:
// whole cache lines, written down the columns, and Philox at full width whatever the tile.
// The AVX-512 transforms write by element (host_avx2::ElementOrder), which is by column
// here: no shuffles; the others write in stream order, permuted into columns.
// A row that starts on a block boundary takes chunk k from its block k; one that starts
// `shift` elements into a block takes it from its blocks k and k + 1 (the lane's words
// moved by a blend per word, block k + 1 kept for the next chunk: one Philox call a chunk).
// A work item takes band_groups groups of 16 rows by chunk_blocks chunks of each; rows of a
// run (the column dimension's extent) that do not fill a group go block by block. 32 x 4: a
// thread writes 16 columns, 2 KiB down each, before its next item (few, long write streams:
// 8 x 8 items, 32 columns of 512 bytes, ran the memory-bound fills on 16 Xeon cores slower),
// and 4 chunks keep the 4 Philox chains of float's long transforms (docs/performance.md,
// "Layouts").
template <class T, class Dist>
struct FillColumnsLanesFunctor : FillColumnsGeometry<T, Dist, std::uint64_t> {
  static constexpr bool is_host_style = true;
  static constexpr int E = Dist::elements_per_block;
  static constexpr int L = 16;  // rows per group
  int band_groups = 32;
  int chunk_blocks = 4;       // rows that start inside a block draw one block more per item
  int passes = 1;             // passes of chunk_blocks chunks per item (> 1: blocks carried)
  std::uint64_t run;          // rows that are neighbours in memory (the column dimension's extent)
  std::uint64_t runs;         // rows / run
  std::uint64_t bands;        // work items along a run
  std::uint64_t lane_stride;  // stream elements from a row to the next one of its run
  // The transforms of whole blocks (fill_8_avx2: Dist's AVX2 or scalar transform).
  FillRowsHostFunctor<T, Dist, true, std::uint64_t> blocks;
  // Chunks drawn together in AVX-512 (independent Philox chains, as the rows kernel's
  // philox16<2>): 4 for float's long transforms (the fastest of 1, 2 and 4 on one Zen 4 core),
  // 2 for the rest. Float's cheap transforms ran faster with 2 where rows or columns are not
  // aligned and as fast elsewhere (one Xeon core); the ops that read their input prefetch their
  // loads and carry rows inside blocks from pass to pass (docs/performance.md, "Layouts").
  static constexpr bool float_draws = std::is_same<T, float>::value && !Dist::reads_input;
  static constexpr int chains = float_draws && !has_cheap_transform<Dist>::value ? 4 : 2;
  // Ops that read their input and those whose transform is long prefetch the group this many
  // further down the columns: the loads from 16 columns at once waited without it, and so did
  // the long transforms' stores; the cheap transforms ran slower with it (docs/performance.md,
  // "Layouts").
  static constexpr bool prefetches = Dist::reads_input || !has_cheap_transform<Dist>::value;
  static constexpr int prefetch_groups = 4;
  // Rows that start inside a block need each lane's block k0 as well: drawn in one batch with
  // the first chunks' blocks, not in a chain of its own, which waits out the rounds' latency
  // alone (odd extents' cheap ops +10-20 % on one Zen 4 core). Only for the cheap transforms:
  // the others lost more to one more inlined copy of their transform (docs/performance.md).
  static constexpr bool fold_first_block = chains > 1 && has_cheap_transform<Dist>::value;
  // Items of pair_chunks chunks (chains / 2: float's long transforms) draw two groups' chunks
  // together.
  static constexpr int pair_chunks = 2;
  // The most groups a band may have when items carry blocks from pass to pass (passes > 1).
  static constexpr int max_carried_groups = 64;
  // Rows that start inside a block on several threads: items of carried passes as on one, but
  // for the cheap 4-byte transforms, which ran slower with them on 16 Xeon threads; the rest
  // drew a block more per 2 chunks (exponential_ 1.5 transforms an element; docs/performance.md,
  // "Layouts").
  static constexpr bool carries_on_threads = !(sizeof(T) == 4 && has_cheap_transform<Dist>::value);
  // Items of 64 groups x pair_chunks chunks (8 columns) on one thread too, for every 4-byte
  // type but the long transforms where rows start inside a block (those draw fewer blocks in
  // 32 x 4 items): faster than 32 x 4 on one Zen 4 core where rows start on blocks, on one Zen 5
  // core for the cheap transforms and dropout_ everywhere (docs/performance.md, "Layouts").
  static constexpr bool narrow_items_alone(const bool rows_aligned) {
    return sizeof(T) == 4 &&
           (rows_aligned || has_cheap_transform<Dist>::value || Dist::reads_input);
  }

  // 4-byte elements 4 to a block, 8-byte ones 2: a block is 16 bytes.
  static constexpr bool takes_type = (sizeof(T) == 4 || sizeof(T) == 8) && sizeof(T) * E == 16;

  // Whether the kernel takes T and the CPU (AVX2 at least).
  static bool available() {
#if KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH
    return takes_type && host_has_avx2_fma();
#else
    return false;
#endif
  }

  // Chunks of E elements in a row (the last may be partial).
  std::uint64_t chunks_per_row() const { return (this->row_length + E - 1) / E; }

  // Items: bands fastest, so that a thread's next item goes on down the same columns. An item
  // runs its passes of chunk_blocks chunks one after the other down the band; rows that start
  // inside a block carry each group's last block drawn to its next pass (AVX-512).
  void operator()(const std::uint64_t item) const {
#if KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH
    const std::uint64_t band = item % bands;
    const std::uint64_t rest = item / bands;
    const std::uint64_t run_index = rest % runs;
    const std::uint64_t k0 = rest / runs * chunk_blocks * passes;
    const std::uint64_t k1 = std::min<std::uint64_t>(
        k0 + static_cast<std::uint64_t>(chunk_blocks) * passes, chunks_per_row());
    const std::uint64_t first = band * L * band_groups;
    const std::uint64_t last = std::min<std::uint64_t>(first + L * band_groups, run);
    // Block k of each lane of each group (the band's last rows: the last one), for the next pass.
    alignas(64) host_avx2::Words16 carry[max_carried_groups + 1];
    host_avx2::Words16* const carry_slots = passes > 1 ? carry : nullptr;
    for (std::uint64_t k = k0; k < k1; k += chunk_blocks)
      band_pass(run_index, first, last, k, std::min<std::uint64_t>(k + chunk_blocks, k1),
                carry_slots, k > k0);
#else
    (void)item;
#endif
  }

#if KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH
  // Chunks [k0, k1) of the band's rows [first, last) of run run_index. carry: a block per
  // group, block k0 of each lane if `carried`, block k1 after (nullptr: none kept).
  void band_pass(const std::uint64_t run_index, const std::uint64_t first, const std::uint64_t last,
                 const std::uint64_t k0, const std::uint64_t k1, host_avx2::Words16* const carry,
                 const bool carried) const {
    // Row q of the run: its data, and its start in the stream (row_start).
    const auto row_of_run = [&](const std::uint64_t q, std::uint64_t& row_start) {
      std::int64_t memory_offset;
      this->locate_row(run_index * run + q, memory_offset, row_start);
      return this->data + memory_offset;
    };
    // Carry slot g (none without a carry).
    const auto slot = [&](const std::uint64_t g) { return carry ? carry + g : nullptr; };
    // Rows q .. q + L - 1 (AVX-512: those in `keep` stored, for the ops that read their input).
    const auto group = [&](const std::uint64_t q, const __mmask16 keep, const std::uint64_t g) {
      std::uint64_t row_start;
      T* const rows = row_of_run(q, row_start);
      if (blocks.use_avx512)
        group_avx512(rows, start_lanes_avx512(row_start, k0), k0, k1, keep, slot(g), carried);
      else
        group_avx2(rows, row_start, k0, k1);
    };
    std::uint64_t q = first;
    if (takes_type && blocks.use_avx512 && q + L <= last) {
      // The band's groups from its first one's lanes, not each from a scalar loop over its 16
      // rows (about a chunk's time): a group's rows are L elements further on in memory (the
      // column dimension has unit stride), its counters L * lane_stride / E blocks further
      // (L * lane_stride is a multiple of E), its lanes' starts the same.
      std::uint64_t row_start;
      T* rows = row_of_run(q, row_start);
      LanesAvx512 lanes = start_lanes_avx512(row_start, k0);
      const std::uint64_t step = L * lane_stride / E;
      if constexpr (chains == 2 * pair_chunks) {
        // Items of pair_chunks chunks: two groups at once, so that their Philox chains are
        // as many as an item of `chains` chunks draws.
        if (k1 - k0 == pair_chunks) {
          for (; q + 2 * L <= last; q += 2 * L) {
            group_pair_avx512(rows, lanes, step, k0, slot((q - first) / L), carried);
            rows += 2 * L;
            next_lanes_avx512(lanes, 2 * step);
          }
        }
      }
      for (; q + L <= last; q += L) {
        group_avx512(rows, lanes, k0, k1, 0xFFFF, slot((q - first) / L), carried);
        rows += L;
        next_lanes_avx512(lanes, step);
      }
    }
    for (; takes_type && q + L <= last; q += L) group(q, 0xFFFF, (q - first) / L);
    // The band's last rows, fewer than L: its last L rows as a group again (the rows already
    // written get the same values again); for an op that reads its input, with the stores
    // masked to the rows not yet written (AVX-512 only); else one by one.
    if (takes_type && (!Dist::reads_input || blocks.use_avx512) && q < last && last - first >= L) {
      group(last - L, static_cast<__mmask16>(0xFFFFu << (L - (last - q))), max_carried_groups);
      q = last;
    }
    for (; q < last; ++q) {
      std::uint64_t row_start;
      T* const row = row_of_run(q, row_start);
      // Blocks k0 .. k1 - 1 of the row, and the last item its blocks past the last chunk
      // (one more where the row starts inside a block).
      const std::uint64_t row_blocks = (row_start % E + this->row_length + E - 1) / E;
      const std::uint64_t end = k1 == chunks_per_row() ? row_blocks : k1;
      for (std::uint64_t k = k0; k < end; ++k) {
        const std::uint64_t b = row_start / E + k;
        this->fill_strided_block(row, row_start, b, stream_block(this->key, this->first_block + b),
                                 this->dist);
      }
    }
  }
#endif

#if KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH
  // The 64-bit counter of block k0 of each of the 16 rows from row_start (lane 0's row start,
  // relative to first_block) as low and high words, and each row's start in its block in
  // words. Whether any row starts inside a block.
  bool lane_counters(std::uint64_t row_start, std::uint64_t k0, std::uint32_t* lane_lo,
                     std::uint32_t* lane_hi, std::uint32_t* lane_shift) const {
    bool shifted = false;
    for (int l = 0; l < L; ++l) {
      const std::uint64_t start = row_start + static_cast<std::uint64_t>(l) * lane_stride;
      const std::uint64_t c = this->first_block + start / E + k0;
      lane_lo[l] = static_cast<std::uint32_t>(c);
      lane_hi[l] = static_cast<std::uint32_t>(c >> 32);
      lane_shift[l] = static_cast<std::uint32_t>(start % E) * (4 / E);
      shifted = shifted || lane_shift[l] != 0;
    }
    return shifted;
  }

  // +1 on 64-bit counters held as low and high words: a carry where the low word wraps.
  __attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA))) static void advance_avx512(__m512i& lo,
                                                                                    __m512i& hi) {
    const __m512i one = _mm512_set1_epi32(1);
    lo = _mm512_add_epi32(lo, one);
    hi = _mm512_mask_add_epi32(hi, _mm512_cmpeq_epi32_mask(lo, _mm512_setzero_si512()), hi, one);
  }
  __attribute__((target("avx2,fma"))) static void advance_avx2(__m256i& lo, __m256i& hi) {
    lo = _mm256_add_epi32(lo, _mm256_set1_epi32(1));
    hi = _mm256_sub_epi32(hi, _mm256_cmpeq_epi32(lo, _mm256_setzero_si256()));
  }

  // A lane's chunk from its blocks k (`block`) and k + 1 (`next`): word m is word m + t of
  // the two, t the lane's start in its block in words, taken by t's bits (bit[b]: the lanes
  // whose t has bit b set): the words 2 on, then 1 on. 9 blends for the 4 words (4 where t
  // is even: 8-byte types), not 3 a word: the join is most of what rows inside blocks cost
  // the cheap ops on one core (docs/performance.md, "Layouts").
  __attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA))) static host_avx2::Words16 join_avx512(
      const host_avx2::Words16& block, const host_avx2::Words16& next, const __mmask16 (&bit)[2]) {
    const __m512i window[8] = {block.word[0], block.word[1], block.word[2], block.word[3],
                               next.word[0],  next.word[1],  next.word[2],  next.word[3]};
    __m512i two_on[5];  // window[j + 2 * bit 1 of t]
    for (int j = 0; j < 5; ++j)
      two_on[j] = _mm512_mask_blend_epi32(bit[1], window[j], window[j + 2]);
    host_avx2::Words16 chunk;
    for (int m = 0; m < 4; ++m)
      chunk.word[m] =
          E == 4 ? _mm512_mask_blend_epi32(bit[0], two_on[m], two_on[m + 1]) : two_on[m];
    return chunk;
  }
  __attribute__((target("avx2,fma"))) static host_avx2::Words8 join_avx2(
      const host_avx2::Words8& block, const host_avx2::Words8& next, const __m256i (&bit)[2]) {
    const __m256i window[8] = {block.word[0], block.word[1], block.word[2], block.word[3],
                               next.word[0],  next.word[1],  next.word[2],  next.word[3]};
    __m256i two_on[5];
    for (int j = 0; j < 5; ++j) two_on[j] = _mm256_blendv_epi8(window[j], window[j + 2], bit[1]);
    host_avx2::Words8 chunk;
    for (int m = 0; m < 4; ++m)
      chunk.word[m] = E == 4 ? _mm256_blendv_epi8(two_on[m], two_on[m + 1], bit[0]) : two_on[m];
    return chunk;
  }

  // A group's 16 lanes: their next blocks' counters, where their chunks start in a block.
  struct LanesAvx512 {
    __m512i lo, hi;
    __mmask16 bit[2];  // bit[b]: the lanes whose chunk starts at a word of their block with bit b
    bool shifted;      // whether any lane's does not start at word 0
  };
  // The lanes of the group whose lane 0 starts at row_start, at chunk k0.
  __attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA))) LanesAvx512 start_lanes_avx512(
      std::uint64_t row_start, std::uint64_t k0) const {
    alignas(64) std::uint32_t lane_lo[L], lane_hi[L], lane_shift[L];
    LanesAvx512 lanes;
    lanes.shifted = lane_counters(row_start, k0, lane_lo, lane_hi, lane_shift);
    lanes.lo = _mm512_load_si512(lane_lo);
    lanes.hi = _mm512_load_si512(lane_hi);
    const __m512i shift = _mm512_load_si512(lane_shift);
    for (int b = 0; b < 2; ++b)
      lanes.bit[b] = _mm512_test_epi32_mask(shift, _mm512_set1_epi32(1 << b));
    return lanes;
  }
  // The lanes `step` blocks further on (64-bit counters as low and high words).
  __attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA))) static void next_lanes_avx512(
      LanesAvx512& lanes, std::uint64_t step) {
    const __m512i step_lo = _mm512_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(step)));
    lanes.lo = _mm512_add_epi32(lanes.lo, step_lo);
    const __mmask16 carry = _mm512_cmplt_epu32_mask(lanes.lo, step_lo);
    lanes.hi = _mm512_add_epi32(lanes.hi, _mm512_set1_epi32(static_cast<int>(step >> 32)));
    lanes.hi = _mm512_mask_add_epi32(lanes.hi, carry, lanes.hi, _mm512_set1_epi32(1));
  }

  // Group `rows` (its lanes `lanes` at chunk k0), chunks [k0, k1) of each, in AVX-512.
  // Only the rows in `keep` are stored (ops that read their input, the band's last rows).
  // Rows that start inside a block: `carry` (if any) holds block k0 of each lane if `carried`,
  // and takes block k1.
  __attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA))) void group_avx512(
      T* rows, const LanesAvx512& lanes, std::uint64_t k0, std::uint64_t k1, __mmask16 keep,
      host_avx2::Words16* carry, bool carried) const {
    __m512i lo = lanes.lo, hi = lanes.hi;
    const bool shifted = lanes.shifted;
    const __mmask16 bit[2] = {lanes.bit[0], lanes.bit[1]};
    host_avx2::Words16 current[1];  // block k of each lane, when shifted
    alignas(64) T values[L * E];
    std::uint64_t k = k0;
    bool first_drawn = false;
    if (shifted && carry && carried) {
      current[0] = *carry;
      advance_avx512(lo, hi);
      first_drawn = true;
    }
    if constexpr (fold_first_block) {
      if (shifted && !first_drawn && k + chains <= k1) {
        // Block k0 in one batch with the first chains chunks' blocks (chains + 1 chains).
        constexpr int NB = chains + 1;
        host_avx2::Words16 words[NB];
        next_blocks_avx512(lo, hi, words);
        current[0] = words[0];
        for (int g = 1; g < NB; ++g)
          chunk_avx512(rows, k + g - 1, words[g], current[0], shifted, bit, values, keep);
        k += chains;
        first_drawn = true;
      }
    }
    if (shifted && !first_drawn) next_blocks_avx512(lo, hi, current);
    chunks_avx512<chains>(rows, k, k1, lo, hi, current[0], shifted, bit, values, keep);
    chunks_avx512<1>(rows, k, k1, lo, hi, current[0], shifted, bit, values, keep);
    if (shifted && carry) *carry = current[0];
  }

  // Two groups, `rows` and rows + L (its lanes `step` blocks after `lanes`), pair_chunks
  // chunks of each from chunk k0 of `lanes`: the two groups' blocks in one Philox call. carry:
  // as group_avx512's, two slots.
  __attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA))) void group_pair_avx512(
      T* rows, const LanesAvx512& lanes, std::uint64_t step, std::uint64_t k0,
      host_avx2::Words16* carry, bool carried) const {
    constexpr int P = pair_chunks;
    LanesAvx512 second = lanes;
    next_lanes_avx512(second, step);
    __m512i lo[2] = {lanes.lo, second.lo}, hi[2] = {lanes.hi, second.hi};
    // (A group's rows start at the same words of their blocks as the group before.)
    const bool shifted = lanes.shifted;
    host_avx2::Words16 current[2];  // block k of each lane, when shifted
    if (shifted) {
      if (carry && carried)
        for (int g = 0; g < 2; ++g) current[g] = carry[g];
      else
        host_avx2::philox16_counters<2>(this->key, lo, hi, current);
      for (int g = 0; g < 2; ++g) advance_avx512(lo[g], hi[g]);
    }
    __m512i lo_n[2 * P], hi_n[2 * P];
    for (int g = 0; g < 2; ++g) {
      for (int c = 0; c < P; ++c) {
        lo_n[g * P + c] = lo[g];
        hi_n[g * P + c] = hi[g];
        advance_avx512(lo[g], hi[g]);
      }
    }
    host_avx2::Words16 words[2 * P];
    host_avx2::philox16_counters<2 * P>(this->key, lo_n, hi_n, words);
    alignas(64) T values[L * E];
    for (int g = 0; g < 2; ++g)
      for (int c = 0; c < P; ++c)
        chunk_avx512(rows + g * L, k0 + c, words[g * P + c], current[g], shifted, lanes.bit, values,
                     0xFFFF);
    if (shifted && carry)
      for (int g = 0; g < 2; ++g) carry[g] = current[g];
  }

  // The next NB blocks of each lane (counters lo, hi; they move on), as NB Philox chains.
  template <int NB>
  __attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA), always_inline)) inline void
  next_blocks_avx512(__m512i& lo, __m512i& hi, host_avx2::Words16 (&words)[NB]) const {
    __m512i lo_n[NB], hi_n[NB];
    for (int g = 0; g < NB; ++g) {
      lo_n[g] = lo;
      hi_n[g] = hi;
      advance_avx512(lo, hi);
    }
    host_avx2::philox16_counters<NB>(this->key, lo_n, hi_n, words);
  }

  // Chunks k, k + 1, ... NB at a time while NB remain before k1 (k moves on).
  template <int NB>
  __attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA), always_inline)) inline void chunks_avx512(
      T* rows, std::uint64_t& k, std::uint64_t k1, __m512i& lo, __m512i& hi,
      host_avx2::Words16& current, bool shifted, const __mmask16 (&bit)[2], T* values,
      __mmask16 keep) const {
    for (; k + NB <= k1; k += NB) {
      host_avx2::Words16 words[NB];
      next_blocks_avx512(lo, hi, words);  // blocks k.. (or k + 1..)
      for (int g = 0; g < NB; ++g)
        chunk_avx512(rows, k + g, words[g], current, shifted, bit, values, keep);
    }
  }

  // Chunk k of the group from `words` (block k of each lane; k + 1 when shifted, `current`
  // holding block k and taking k + 1).
  __attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA), always_inline)) inline void chunk_avx512(
      T* rows, std::uint64_t k, host_avx2::Words16 words, host_avx2::Words16& current, bool shifted,
      const __mmask16 (&bit)[2], T* values, __mmask16 keep) const {
    if (shifted) {
      const host_avx2::Words16 chunk = join_avx512(current, words, bit);
      current = words;
      words = chunk;
    }
    if constexpr (prefetches) prefetch_group(rows, k);
    if constexpr (HostAvx512Transform<Dist>::available) {
      // By element: values[16 e + l] is element e of row l, column k E + e of the 16 rows.
      if (Dist::reads_input) load_elements_avx512(rows, k, values);
      HostAvx512Transform<Dist>::template apply<host_avx2::ElementOrder>(this->dist, words, values);
      store_elements_avx512(rows, k, values, keep);
    } else {
      // In stream order, the AVX2 transform of each half, then permuted into columns.
      if (Dist::reads_input) load_columns_avx512(rows, k, values);
      for (int h = 0; h < 2; ++h) {
        host_avx2::Words8 half;
        for (int j = 0; j < 4; ++j)
          half.word[j] = h == 0 ? _mm512_castsi512_si256(words.word[j])
                                : _mm512_extracti64x4_epi64(words.word[j], 1);
        blocks.fill_8_avx2(values + 8 * h * E, half);
      }
      store_columns_avx512(rows, k, values, keep);
    }
  }

  // Chunk k's columns of the group prefetch_groups after `rows` into L1, a prefetch per 64
  // bytes (an address past the View is never read: a prefetch does not fault).
  __attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA), always_inline)) inline void prefetch_group(
      const T* rows, std::uint64_t k) const {
    const std::uintptr_t ahead =
        reinterpret_cast<std::uintptr_t>(rows) + prefetch_groups * L * sizeof(T);
    for (int e = 0; e < E; ++e) {
      const std::uintptr_t column =
          ahead + (static_cast<std::int64_t>(k) * E + e) * this->element_step * sizeof(T);
      for (int h = 0; h < static_cast<int>(sizeof(T)) / 4; ++h)
        _mm_prefetch(reinterpret_cast<const char*>(column + 64 * h), _MM_HINT_T0);
    }
  }

  // (Dists without an AVX-512 transform.) The input of chunk k into values, in stream order
  // (values[l E + e] is element k E + e of row l, row l of the group at rows + l): column e is
  // one 64-byte load (two for 8-byte T), moved into stream order by two-source permutes (the
  // inverse of store_columns_avx512); columns past the row's end give T().
  __attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA))) void load_columns_avx512(const T* rows,
                                                                                  std::uint64_t k,
                                                                                  T* values) const {
    const std::int64_t step = this->element_step;
    const std::int64_t length = static_cast<std::int64_t>(this->row_length);
    __m512i c[E][2];  // column e, rows 0-15 (4-byte T) or rows 0-7 and 8-15 (8-byte T)
    for (int e = 0; e < E; ++e) {
      const std::int64_t j = static_cast<std::int64_t>(k) * E + e;
      const char* const in = reinterpret_cast<const char*>(rows + j * step);
      c[e][0] = c[e][1] = _mm512_setzero_si512();
      if (j < length) {  // (a branch: no load past the row's end)
        c[e][0] = _mm512_loadu_si512(in);
        if constexpr (sizeof(T) == 8) c[e][1] = _mm512_loadu_si512(in + 64);
      }
    }
    char* const out = reinterpret_cast<char*>(values);
    for (int q = 0; q < 4; ++q) {  // values[16 q / (sizeof(T) / 4) ..]: rows 4 q .. 4 q + 3
      if constexpr (sizeof(T) == 4) {
        // Lane i: row 4 q + i / 4, element i % 4 (columns 0, 1 from c[0], c[1]; 2, 3 from
        // c[2], c[3]).
        const __m512i row =
            _mm512_add_epi32(_mm512_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3),
                             _mm512_set1_epi32(4 * q));
        const __m512i index = _mm512_add_epi32(
            row, _mm512_setr_epi32(0, 16, 0, 16, 0, 16, 0, 16, 0, 16, 0, 16, 0, 16, 0, 16));
        const __m512i low = _mm512_permutex2var_epi32(c[0][0], index, c[1][0]);
        const __m512i high = _mm512_permutex2var_epi32(c[2][0], index, c[3][0]);
        _mm512_store_si512(out + 64 * q, _mm512_mask_blend_epi32(0xCCCC, low, high));
      } else {
        // Lane i: row 4 q + i / 2, element i % 2.
        const int half = q / 2;
        const __m512i index = _mm512_add_epi64(_mm512_setr_epi64(0, 8, 1, 9, 2, 10, 3, 11),
                                               _mm512_set1_epi64(4 * (q % 2)));
        _mm512_store_si512(out + 64 * q, _mm512_permutex2var_epi64(c[0][half], index, c[1][half]));
      }
    }
  }

  // Before the transform, the input of chunk k into values by element (values[16 e + l]):
  // column e of the 16 rows is 16 consecutive values; columns past the row's end give T().
  __attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA))) void load_elements_avx512(
      const T* rows, std::uint64_t k, T* values) const {
    const std::int64_t length = static_cast<std::int64_t>(this->row_length);
    for (int e = 0; e < E; ++e) {
      const std::int64_t j = static_cast<std::int64_t>(k) * E + e;
      const char* const in = reinterpret_cast<const char*>(rows + j * this->element_step);
      char* const out = reinterpret_cast<char*>(values + 16 * e);
      for (int h = 0; h < static_cast<int>(sizeof(T)) / 4; ++h) {
        if (j < length)  // (a branch: no load past the row's end)
          _mm512_store_si512(out + 64 * h, _mm512_loadu_si512(in + 64 * h));
        else
          _mm512_store_si512(out + 64 * h, _mm512_setzero_si512());
      }
    }
  }

  // values (element order: values[16 e + l]) to the columns k E .. k E + E - 1 of the 16
  // rows: column e is 16 consecutive values.
  // 64 bytes of a column at `out`: rows 0-15 of 4-byte T, or rows 8 half .. 8 half + 7 of
  // 8-byte T; only the rows in `keep` for ops that read their input (the others store all).
  __attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA), always_inline)) static inline void
  store_rows(char* out, __m512i v, __mmask16 keep, int half) {
    if constexpr (!Dist::reads_input) {
      (void)keep;
      (void)half;
      _mm512_storeu_si512(out, v);
    } else if constexpr (sizeof(T) == 4) {
      _mm512_mask_storeu_epi32(out, keep, v);
    } else {
      _mm512_mask_storeu_epi64(out, static_cast<__mmask8>(keep >> (8 * half)), v);
    }
  }
  __attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA))) void store_elements_avx512(
      T* rows, std::uint64_t k, const T* values, __mmask16 keep) const {
    const std::int64_t length = static_cast<std::int64_t>(this->row_length);
    for (int e = 0; e < E; ++e) {
      const std::int64_t j = static_cast<std::int64_t>(k) * E + e;
      if (j >= length) break;
      char* const out = reinterpret_cast<char*>(rows + j * this->element_step);
      const char* const in = reinterpret_cast<const char*>(values + 16 * e);
      store_rows(out, _mm512_load_si512(in), keep, 0);
      if constexpr (sizeof(T) == 8) store_rows(out + 64, _mm512_load_si512(in + 64), keep, 1);
    }
  }

  // values (stream order) to the columns k E .. k E + E - 1 of the 16 rows: column e is
  // values[l E + e], l = 0..15, gathered by two-source permutes.
  __attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA))) void store_columns_avx512(
      T* rows, std::uint64_t k, const T* values, __mmask16 keep) const {
    const std::int64_t step = this->element_step;
    const std::int64_t length = static_cast<std::int64_t>(this->row_length);
    __m512i s[4];
    for (int q = 0; q < 4; ++q)
      s[q] = _mm512_load_si512(reinterpret_cast<const char*>(values) + 64 * q);
    for (int e = 0; e < E; ++e) {
      const std::int64_t j = static_cast<std::int64_t>(k) * E + e;
      if (j >= length) break;
      char* const out = reinterpret_cast<char*>(rows + j * step);
      if constexpr (sizeof(T) == 4) {
        const __m512i index = _mm512_add_epi32(
            _mm512_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28, 0, 4, 8, 12, 16, 20, 24, 28),
            _mm512_set1_epi32(e));
        const __m512i low = _mm512_permutex2var_epi32(s[0], index, s[1]);
        const __m512i high = _mm512_permutex2var_epi32(s[2], index, s[3]);
        store_rows(out, _mm512_inserti64x4(low, _mm512_castsi512_si256(high), 1), keep, 0);
      } else {
        const __m512i index =
            _mm512_add_epi64(_mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14), _mm512_set1_epi64(e));
        store_rows(out, _mm512_permutex2var_epi64(s[0], index, s[1]), keep, 0);
        store_rows(out + 64, _mm512_permutex2var_epi64(s[2], index, s[3]), keep, 1);
      }
    }
  }

  // The same in AVX2: the group's rows 0-7 and 8-15 as two groups of 8 lanes.
  __attribute__((target("avx2,fma"))) void group_avx2(T* rows, std::uint64_t row_start,
                                                      std::uint64_t k0, std::uint64_t k1) const {
    alignas(32) std::uint32_t lane_lo[L], lane_hi[L], lane_shift[L];
    const bool shifted = lane_counters(row_start, k0, lane_lo, lane_hi, lane_shift);
    __m256i lo[2], hi[2], bit[2][2];
    for (int h = 0; h < 2; ++h) {
      lo[h] = _mm256_load_si256(reinterpret_cast<const __m256i*>(lane_lo + 8 * h));
      hi[h] = _mm256_load_si256(reinterpret_cast<const __m256i*>(lane_hi + 8 * h));
      const __m256i shift = _mm256_load_si256(reinterpret_cast<const __m256i*>(lane_shift + 8 * h));
      for (int b = 0; b < 2; ++b) {
        const __m256i set = _mm256_set1_epi32(1 << b);
        bit[h][b] = _mm256_cmpeq_epi32(_mm256_and_si256(shift, set), set);
      }
    }
    host_avx2::Words8 current[2];  // block k of each lane, when shifted
    if (shifted) {
      host_avx2::philox8_counters<2>(this->key, lo, hi, current);
      for (int h = 0; h < 2; ++h) advance_avx2(lo[h], hi[h]);
    }
    alignas(32) T values[L * E];
    for (std::uint64_t k = k0; k < k1; ++k) {
      host_avx2::Words8 words[2];
      host_avx2::philox8_counters<2>(this->key, lo, hi, words);  // block k, or k + 1
      for (int h = 0; h < 2; ++h) advance_avx2(lo[h], hi[h]);
      for (int h = 0; shifted && h < 2; ++h) {
        const host_avx2::Words8 chunk = join_avx2(current[h], words[h], bit[h]);
        current[h] = words[h];
        words[h] = chunk;
      }
      if (Dist::reads_input) load_columns_avx2(rows, k, values);
      for (int h = 0; h < 2; ++h) blocks.fill_8_avx2(values + 8 * h * E, words[h]);
      store_columns_avx2(rows, k, values);
    }
  }

  // The same in AVX2: the columns' 32-byte loads into stream order (8 rows per half), the
  // inverse of store_columns_avx2.
  __attribute__((target("avx2,fma"))) void load_columns_avx2(const T* rows, std::uint64_t k,
                                                             T* values) const {
    const std::int64_t step = this->element_step;
    const std::int64_t length = static_cast<std::int64_t>(this->row_length);
    constexpr int parts = sizeof(T) == 4 ? 2 : 4;
    __m256i column[E][parts];  // element e of rows 8p .. 8p + 7 (4-byte) or 4p .. 4p + 3
    for (int e = 0; e < E; ++e) {
      const std::int64_t j = static_cast<std::int64_t>(k) * E + e;
      const __m256i* const in = reinterpret_cast<const __m256i*>(rows + j * step);
      for (int p = 0; p < parts; ++p) {
        column[e][p] = _mm256_setzero_si256();
        if (j < length) column[e][p] = _mm256_loadu_si256(in + p);  // (no load past the end)
      }
    }
    for (int h = 0; h < 2; ++h) {
      __m256i* const out = reinterpret_cast<__m256i*>(values + 8 * h * E);
      if constexpr (sizeof(T) == 4) {
        // u[r] 128-bit lane i: row r + 4 i of the half, its 4 elements; out[q]: rows 2q, 2q + 1.
        const __m256i c0 = column[0][h], c1 = column[1 % E][h];
        const __m256i c2 = column[2 % E][h], c3 = column[3 % E][h];
        const __m256i t0 = _mm256_unpacklo_epi32(c0, c1), t1 = _mm256_unpackhi_epi32(c0, c1);
        const __m256i t2 = _mm256_unpacklo_epi32(c2, c3), t3 = _mm256_unpackhi_epi32(c2, c3);
        const __m256i u0 = _mm256_unpacklo_epi64(t0, t2), u1 = _mm256_unpackhi_epi64(t0, t2);
        const __m256i u2 = _mm256_unpacklo_epi64(t1, t3), u3 = _mm256_unpackhi_epi64(t1, t3);
        _mm256_store_si256(out, _mm256_permute2x128_si256(u0, u1, 0x20));
        _mm256_store_si256(out + 1, _mm256_permute2x128_si256(u2, u3, 0x20));
        _mm256_store_si256(out + 2, _mm256_permute2x128_si256(u0, u1, 0x31));
        _mm256_store_si256(out + 3, _mm256_permute2x128_si256(u2, u3, 0x31));
      } else {
        // Per 4 rows: unpacks give rows (0, 2) and (1, 3) as element pairs; out[q]: rows
        // 2q, 2q + 1.
        for (int p = 0; p < 2; ++p) {
          const __m256d e0 = _mm256_castsi256_pd(column[0][2 * h + p]);
          const __m256d e1 = _mm256_castsi256_pd(column[1 % E][2 * h + p]);
          const __m256d lo = _mm256_unpacklo_pd(e0, e1), hi = _mm256_unpackhi_pd(e0, e1);
          _mm256_store_si256(out + 2 * p,
                             _mm256_castpd_si256(_mm256_permute2f128_pd(lo, hi, 0x20)));
          _mm256_store_si256(out + 2 * p + 1,
                             _mm256_castpd_si256(_mm256_permute2f128_pd(lo, hi, 0x31)));
        }
      }
    }
  }

  // values (stream order, 8 rows per half) to the columns. 4-byte elements: the inverse of
  // to_stream_order per half; 8-byte ones: unpacks and a lane permute per 4 rows.
  __attribute__((target("avx2,fma"))) void store_columns_avx2(T* rows, std::uint64_t k,
                                                              const T* values) const {
    const std::int64_t step = this->element_step;
    const std::int64_t length = static_cast<std::int64_t>(this->row_length);
    // column[e][p]: element e of rows 4p .. 4p + 3 (8-byte) or 8p .. 8p + 7 (4-byte).
    constexpr int parts = sizeof(T) == 4 ? 2 : 4;
    __m256i column[E][parts];
    for (int h = 0; h < 2; ++h) {
      const __m256i* in = reinterpret_cast<const __m256i*>(values + 8 * h * E);
      const __m256i s0 = _mm256_load_si256(in), s1 = _mm256_load_si256(in + 1);
      const __m256i s2 = _mm256_load_si256(in + 2), s3 = _mm256_load_si256(in + 3);
      if constexpr (sizeof(T) == 4) {
        // s[q]: rows 2q and 2q + 1 of the half; a[r] 128-bit lane i: row r + 4 i.
        const __m256i a0 = _mm256_permute2x128_si256(s0, s2, 0x20);
        const __m256i a1 = _mm256_permute2x128_si256(s0, s2, 0x31);
        const __m256i a2 = _mm256_permute2x128_si256(s1, s3, 0x20);
        const __m256i a3 = _mm256_permute2x128_si256(s1, s3, 0x31);
        const __m256i t0 = _mm256_unpacklo_epi32(a0, a1), t1 = _mm256_unpackhi_epi32(a0, a1);
        const __m256i t2 = _mm256_unpacklo_epi32(a2, a3), t3 = _mm256_unpackhi_epi32(a2, a3);
        const __m256i c[4] = {_mm256_unpacklo_epi64(t0, t2), _mm256_unpackhi_epi64(t0, t2),
                              _mm256_unpacklo_epi64(t1, t3), _mm256_unpackhi_epi64(t1, t3)};
        for (int e = 0; e < E; ++e) column[e][h] = c[e];
      } else {
        // s[q]: rows 2q and 2q + 1 of the half, two elements each.
        const __m256d d[4] = {_mm256_castsi256_pd(s0), _mm256_castsi256_pd(s1),
                              _mm256_castsi256_pd(s2), _mm256_castsi256_pd(s3)};
        for (int p = 0; p < 2; ++p) {
          const __m256d even = _mm256_unpacklo_pd(d[2 * p], d[2 * p + 1]);  // rows 0 2 1 3
          const __m256d odd = _mm256_unpackhi_pd(d[2 * p], d[2 * p + 1]);
          column[0][2 * h + p] = _mm256_castpd_si256(_mm256_permute4x64_pd(even, 0xD8));
          column[1 % E][2 * h + p] = _mm256_castpd_si256(_mm256_permute4x64_pd(odd, 0xD8));
        }
      }
    }
    for (int e = 0; e < E; ++e) {
      const std::int64_t j = static_cast<std::int64_t>(k) * E + e;
      if (j >= length) break;
      __m256i* const out = reinterpret_cast<__m256i*>(rows + j * step);
      for (int p = 0; p < parts; ++p) _mm256_storeu_si256(out + p, column[e][p]);
    }
  }
#endif
};

// Tiles: tile_rows rows (128 bytes along the column dimension, 16 rows at least) by
// column_chunk elements of each, through a buffer of about 17 KiB: the Views the lanes kernel
// does not take (runs under 16 rows, 1-byte elements, CPUs without AVX2). Work items
// take the tiles of a chunk of columns in turn along the column dimension, so that a thread's next
// item writes the next bytes of the same memory pages (docs/performance.md, "Layouts": this order
// and the row groups innermost below took LayoutLeft uniform_ from 0.19 to 0.32-0.40 of
// LayoutRight on one Zen 4 core; still far from the rows path).
template <class T, class Dist>
struct FillColumnsHostFunctor : FillColumnsGeometry<T, Dist, std::uint64_t> {
  static constexpr bool is_host_style = true;
  static constexpr int E = Dist::elements_per_block;
  static constexpr int max_tile_rows = 512;
  static constexpr int buffer_elements = 32768 / static_cast<int>(sizeof(T));
  int tile_rows = sizeof(T) >= 8 ? 16 : static_cast<int>(128 / sizeof(T));
  int column_chunk = 128;
  int buffer_row = column_chunk + 2 * E;  // a chunk's blocks, both ends partial
  std::uint64_t tiles;                    // of tile_rows rows
  // Writes whole blocks into the buffer: the rows kernels' chunk loop on one long row.
  FillRowsHostFunctor<T, Dist, true, std::uint64_t> blocks;

  void operator()(const std::uint64_t item) const {
    const std::uint64_t chunk = item / tiles;
    const std::uint64_t tile = item - chunk * tiles;
    const std::uint64_t first_row = tile * tile_rows;
    const int count = static_cast<int>(std::min<std::uint64_t>(tile_rows, this->rows - first_row));
    const std::int64_t j0 = static_cast<std::int64_t>(chunk) * column_chunk;
    const std::int64_t j1 =
        std::min<std::int64_t>(j0 + column_chunk, static_cast<std::int64_t>(this->row_length));
    const std::int64_t step = this->element_step;
    T storage[buffer_elements];
    T* buffer[max_tile_rows];
    T* row[max_tile_rows];
    int shift[max_tile_rows];  // buffer position of element j0 of each row
    std::uint64_t first_block_of[max_tile_rows];
    int blocks_of[max_tile_rows];
    for (int r = 0; r < count; ++r) buffer[r] = storage + r * buffer_row;
    for (int r = 0; r < count; ++r) {
      std::int64_t memory_offset;
      std::uint64_t row_start;
      this->locate_row(first_row + r, memory_offset, row_start);
      row[r] = this->data + memory_offset;
      const std::uint64_t begin = (row_start + j0) / E;
      const std::uint64_t end = (row_start + j1 + E - 1) / E;
      shift[r] = static_cast<int>(row_start + j0 - begin * E);
      first_block_of[r] = begin;
      blocks_of[r] = static_cast<int>(end - begin);
    }
    // Element j0 + j of row r: source[r][j] in the buffer, target[r][j * step] in memory.
    T* source[max_tile_rows];
    T* target[max_tile_rows];
    for (int r = 0; r < count; ++r) {
      source[r] = buffer[r] + shift[r];
      target[r] = row[r] + j0 * step;
    }
    const std::int64_t n = j1 - j0;
    if (Dist::reads_input) {
      // The input; the buffer's elements outside [j0, j1) are drawn but never stored.
      for (int r = 0; r < count; ++r)
        for (int i = 0; i < buffer_row; ++i) buffer[r][i] = T();
      copy_tile(source, target, count, n, step, true);
    }
    for (int r = 0; r < count; ++r) {
      const std::uint64_t begin = first_block_of[r];
      blocks.fill_blocks(buffer[r], begin * E, begin, begin + blocks_of[r]);
    }
    copy_tile(source, target, count, n, step, false);
  }

  // Elements [0, n) of `count` rows: buffer[r][j] -> row[r][j * step] (or back, to_buffer),
  // through transposed blocks in AVX2 registers where rows are neighbours in memory.
  void copy_tile(T* const* buffer, T* const* row, int count, std::int64_t n, std::int64_t step,
                 bool to_buffer) const {
    if (count == 1 && !to_buffer) {
      // One row (a View with no unit stride): the plain loop, about deep_copy's (the general
      // one below took 1.4 times as long on one Zen 4 core; docs/performance.md, "Layouts").
      const T* const in = buffer[0];
      T* out = row[0];
      for (std::int64_t j = 0; j < n; ++j, out += step) *out = in[j];
      return;
    }
    std::int64_t done = 0;
    int r = 0;
#if KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH
    if (blocks.use_avx2_fma) done = copy_tile_avx2(buffer, row, count, n, step, to_buffer, r);
#endif
    // Element by element what is left: rows [r, count) of elements [0, done), all rows of
    // [done, n). Rows innermost, so that each line of memory is written whole at once.
    for (std::int64_t j = 0; j < n; ++j) {
      for (int q = j < done ? r : 0; q < count; ++q) {
        if (to_buffer)
          buffer[q][j] = row[q][j * step];
        else
          row[q][j * step] = buffer[q][j];
      }
    }
  }

#if KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH
  // Groups of N neighbouring rows (row[q + k] == row[q] + k), N x N blocks of elements
  // (N = 8 for 4-byte, 4 for 8-byte T). Returns the first element not copied in rows
  // [0, rows_done); rows_done: the rows it covered.
  __attribute__((target("avx2"))) std::int64_t copy_tile_avx2(T* const* buffer, T* const* row,
                                                              int count, std::int64_t n,
                                                              std::int64_t step, bool to_buffer,
                                                              int& rows_done) const {
    constexpr int N = sizeof(T) == 4 ? 8 : sizeof(T) == 8 ? 4 : 0;
    if constexpr (N == 0) {
      return 0;
    } else {
      using Lane = typename std::conditional<sizeof(T) == 4, float, double>::type;
      const std::int64_t end = n / N * N;
      int rows = 0;
      while (rows + N <= count) {
        bool neighbours = true;
        for (int k = 1; k < N; ++k) neighbours = neighbours && row[rows + k] == row[rows] + k;
        if (!neighbours) break;
        rows += N;
      }
      // Row groups innermost: the blocks of one column group complete their lines of memory
      // one after the other, rather than each line in pieces far apart in time.
      for (std::int64_t j = 0; j < end; j += N) {
        for (int q = 0; q < rows; q += N) {
          const Lane* in[N];
          Lane* out[N];
          for (int k = 0; k < N; ++k) {
            T* const in_buffer = buffer[q + k] + j;
            T* const in_memory = row[q] + (j + k) * step;
            in[k] = reinterpret_cast<const Lane*>(to_buffer ? in_memory : in_buffer);
            out[k] = reinterpret_cast<Lane*>(to_buffer ? in_buffer : in_memory);
          }
          transpose_block(in, out);
        }
      }
      rows_done = rows;
      return end;
    }
  }
#endif
};

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
