#ifndef KOKKOSDTENSOR_IMPL_FILLCOLUMNS_HPP
#define KOKKOSDTENSOR_IMPL_FILLCOLUMNS_HPP

// The columns kernels: Views whose last dimension is strided in memory but another one, the
// column dimension, has unit stride (LayoutLeft of rank >= 2 and its subviews, LayoutStride).
// A row is still the elements with all but the last index fixed, consecutive in L; rows are
// ordered with the column dimension fastest, so that rows r and r + 1 are neighbours in memory.
//
// Device style: work item t fills K consecutive blocks of row t % rows; the threads of a warp
// take consecutive rows, so each of their element stores is one contiguous segment of memory.
// Host style: a work item fills a tile of tile_rows rows by column_chunk elements: each row's
// blocks go into a buffer through the rows kernels' chunk loop (AVX2 / AVX-512 where the CPU
// has them), then the buffer is written out along the column dimension.

#include <algorithm>
#include <cstdint>
#include <impl/KokkosDTensor_FillRows.hpp>
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

// The geometry of the rows kernels, with the row dimensions ordered so that the column
// dimension is the last (fastest) of them, and the memory stride of the row's elements.
template <class T, class Dist, class Index>
struct FillColumnsGeometry : FillRowsGeometry<T, Dist, false, Index> {
  std::int64_t element_step;  // memory stride of the last dimension
  Index rows;                 // rows in the View

  // Block `block` (relative to first_block) of the row at `row` / `row_start`, its words
  // drawn: the elements inside the row, at element_step apart.
  template <class With>
  KOKKOS_FORCEINLINE_FUNCTION void fill_strided_block(T* row, std::uint64_t row_start,
                                                      std::uint64_t block, const PhiloxBlock& words,
                                                      const With& with) const {
    constexpr int E = Dist::elements_per_block;
    const std::int64_t first = static_cast<std::int64_t>(block * E - row_start);
    const std::int64_t length = static_cast<std::int64_t>(this->row_length);
    T values[E] = {};
    if (first >= 0 && first + E <= length) {
      // A whole block: no bounds per element.
      T* const p = row + first * element_step;
      if (Dist::reads_input)
        for (int e = 0; e < E; ++e) values[e] = p[e * element_step];
      with(words, values);
      for (int e = 0; e < E; ++e) p[e * element_step] = values[e];
      return;
    }
    if (Dist::reads_input) {
      for (int e = 0; e < E; ++e) {
        const std::int64_t j = first + e;
        if (j >= 0 && j < length) values[e] = row[j * element_step];
      }
    }
    with(words, values);
    for (int e = 0; e < E; ++e) {
      const std::int64_t j = first + e;
      if (j >= 0 && j < length) row[j * element_step] = values[e];
    }
  }
};

// Blocks per device work item: K independent Philox chains per thread.
constexpr int column_blocks_per_item = 4;

#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define KOKKOSDTENSOR_IMPL_UNROLL _Pragma("unroll")
#else
#define KOKKOSDTENSOR_IMPL_UNROLL
#endif

// Work item t takes columns [g C, g C + C) of row t % rows, g = t / rows, C = K E: every thread
// of a warp stores the same column of 32 neighbouring rows at once. When rows start on a block
// boundary (rows_aligned) those columns are K whole blocks; otherwise they straddle K + 1
// blocks, shifted by the row's start modulo E.
template <class T, class Dist, class Index>
struct FillColumnsFunctor : FillColumnsGeometry<T, Dist, Index> {
  static constexpr bool is_host_style = false;
  static constexpr int K = column_blocks_per_item;
  static constexpr int E = Dist::elements_per_block;
  static constexpr int C = K * E;  // columns per work item
  divider_t<Index> per_rows;       // divides by rows
  bool rows_aligned = true;

  KOKKOS_INLINE_FUNCTION void operator()(const Index item) const { run(item, this->dist); }

  // Work item `item` with `with`: dist or an equivalent object (OnSharedNormalTable).
  template <class With>
  KOKKOS_FORCEINLINE_FUNCTION void run(const Index item, const With& with) const {
    const Index group = per_rows.divide(item);
    const Index row_index = item - group * this->rows;
    std::int64_t memory_offset;
    std::uint64_t row_start;
    this->locate_row(row_index, memory_offset, row_start);
    const std::int64_t first_column = static_cast<std::int64_t>(group) * C;
    T* const row = this->data + memory_offset;
    const std::uint64_t first_l = row_start + static_cast<std::uint64_t>(first_column);
    const std::uint64_t base = first_l / E;
    if (rows_aligned) {
      PhiloxBlock words[K];
      KOKKOSDTENSOR_IMPL_UNROLL
      for (int j = 0; j < K; ++j) words[j] = stream_block(this->key, this->first_block + base + j);
      KOKKOSDTENSOR_IMPL_UNROLL
      for (int j = 0; j < K; ++j)
        this->fill_strided_block(row, row_start, base + j, words[j], with);
      return;
    }
    PhiloxBlock words[K + 1];
    KOKKOSDTENSOR_IMPL_UNROLL
    for (int j = 0; j <= K; ++j) words[j] = stream_block(this->key, this->first_block + base + j);
    shifted(row + first_column * this->element_step, first_column, static_cast<int>(first_l % E),
            words, with);
  }

  // Columns [first_column, first_column + C) from K + 1 blocks whose element `shift` is the
  // first column's: values[c + shift] is column first_column + c. The shift is chosen by
  // selects, not branches: rows of one warp have different shifts, and branches on it split
  // each store into E partial ones.
  template <class With>
  KOKKOS_FORCEINLINE_FUNCTION void shifted(T* const out, const std::int64_t first_column,
                                           const int shift, const PhiloxBlock (&words)[K + 1],
                                           const With& with) const {
    const std::int64_t step = this->element_step;
    const std::int64_t count = static_cast<std::int64_t>(this->row_length) - first_column;
    const bool whole = count >= C;
    T values[(K + 1) * E] = {};
    KOKKOSDTENSOR_IMPL_UNROLL
    for (int j = 0; j <= K; ++j) {
      T block[E] = {};
      if (Dist::reads_input) {
        KOKKOSDTENSOR_IMPL_UNROLL
        for (int e = 0; e < E; ++e) {
          const int c = j * E + e - shift;
          if (c >= 0 && c < C && (whole || c < count)) block[e] = out[c * step];
        }
      }
      with(words[j], block);
      KOKKOSDTENSOR_IMPL_UNROLL
      for (int e = 0; e < E; ++e) values[j * E + e] = block[e];
    }
    KOKKOSDTENSOR_IMPL_UNROLL
    for (int c = 0; c < C; ++c) {
      T value = values[c];
      KOKKOSDTENSOR_IMPL_UNROLL
      for (int s = 1; s < E; ++s) value = shift == s ? values[c + s] : value;
      if (whole || c < count) out[c * step] = value;
    }
  }
};

#undef KOKKOSDTENSOR_IMPL_UNROLL

// Host style: tile_rows rows (128 bytes along the column dimension, 16 rows at least) by
// column_chunk elements of each, through a buffer of about 17 KiB. Work items take the tiles
// of a chunk of columns in turn along the column dimension, so that a thread's next item
// writes the next bytes of the same memory pages (docs/performance.md, "Layouts": this order
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
