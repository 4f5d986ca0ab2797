#ifndef KOKKOSDTENSOR_IMPL_FILLCOLUMNS_HPP
#define KOKKOSDTENSOR_IMPL_FILLCOLUMNS_HPP

// The columns kernels: Views whose last dimension is strided in memory but another one, the
// column dimension, has unit stride (LayoutLeft of rank >= 2 and its subviews, LayoutStride).
// A row is still the elements with all but the last index fixed, consecutive in L; rows are
// ordered with the column dimension fastest, so that rows r and r + 1 are neighbours in memory.
//
// Device style (here): work item t fills K consecutive blocks of row t % rows; the threads of
// a warp take consecutive rows, so each of their element stores is one contiguous segment of
// memory. Host style: KokkosDTensor_FillColumnsHost.hpp.

#include <cstdint>
#include <impl/KokkosDTensor_Distributions.hpp>
#include <impl/KokkosDTensor_FillRows.hpp>
#include <impl/KokkosDTensor_PackedHalves.hpp>
#include <impl/KokkosDTensor_RealignedStores.hpp>
#include <type_traits>
#include <utility>

namespace KokkosDTensor {
namespace Impl {

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
// Blocks of each row per device work item of R > 1 rows: 16 blocks a thread for 4-byte types
// (the fastest of 2, 4 and 8 for `uniform_`, `normal_`, `exponential_` on the H200), 8 for
// 8-byte ones, as before the loop (docs/performance.md, "Layouts").
constexpr int column_vector_row_blocks = 4;
// Twice as many for 2- and 4-byte types whose transform reads the normal table: bound by
// instructions, they gain by finding their rows less often; `uniform_` lost 9 % with 8.
template <class T, class Dist>
constexpr int column_row_blocks() {
  return uses_shared_normal_table<Dist>::value && sizeof(T) <= 4 ? 2 * column_vector_row_blocks
                                                                 : column_vector_row_blocks;
}

// Blocks of each row per work item where rows start inside a block (Shifted): each item draws
// one block more a row, so longer items than the others' (of 2, 4, 8 and 16, 16 ran fastest
// or within 2 % of it for every op on the H200 but random_bits_, 3 %). With plain vector
// stores (not Realigned), integer types and 8-byte ones without the normal table ran faster
// with 8 (docs/performance.md, "Layouts").
template <class T, class Dist, bool Realigned>
constexpr int column_shifted_row_blocks() {
  return !Realigned && (std::is_integral<T>::value ||
                        (sizeof(T) == 8 && !uses_shared_normal_table<Dist>::value))
             ? 8
             : 16;
}

// Blocks of each row per work item of R > 1 rows, for each kernel: realigned rows on blocks
// take half of column_row_blocks for the 4-byte ops bound by stores (those with the lookbehind
// lane): shorter items ran 2-6 % faster on the H100 (docs/performance.md, "Layouts"; the
// 16-bit ones did not gain).
template <class T, class Dist, bool Realigned, bool Shifted>
constexpr int column_item_row_blocks() {
  if (Shifted) return column_shifted_row_blocks<T, Dist, Realigned>();
  if (Realigned && sizeof(T) == 4 && realigned_lookbehind<Dist>::value)
    return column_vector_row_blocks / 2;
  return column_row_blocks<T, Dist>();
}

// Rows per device work item for the vector stores: 16 bytes of every type but 1-byte ones
// (1 row: no vectors).
template <class T>
constexpr int column_vector_rows() {
  return sizeof(T) == 1 ? 1 : 16 / static_cast<int>(sizeof(T));
}
// Rows not aligned to a vector in memory, realigned between lanes
// (KokkosDTensor_RealignedStores.hpp), rows on blocks or inside them: 8 rows of 2-byte types
// (16-byte vectors, as the aligned kernel's), 4 of 4-byte ones.
template <class T>
constexpr int column_realigned_rows() {
  return sizeof(T) == 2 ? 8 : 4;
}
// Rows that start inside a block where groups of rows are aligned in memory (the shifted
// kernel with plain vector stores): at most 4 rows (2 of 8-byte types), but 8 of 2-byte types
// with the normal table (16-byte vectors; uniform_ and dropout_ ran as fast or faster with 4
// on the H100, docs/performance.md, "Layouts").
template <class T, class Dist>
constexpr int column_shifted_rows() {
  constexpr int vector = column_vector_rows<T>();
  if (sizeof(T) == 2 && uses_shared_normal_table<Dist>::value) return vector;
  return vector < 4 ? vector : 4;
}

#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define KOKKOSDTENSOR_IMPL_UNROLL _Pragma("unroll")
#else
#define KOKKOSDTENSOR_IMPL_UNROLL
#endif

// `p` moved `step` elements on: the next column of the same rows. Opaque: hidden from the
// compiler, so that it adds to one pointer per column instead of computing each column's
// address as a 64-bit product (9 instructions a column in the SASS of the nvcc 13 kernels).
template <bool Opaque = true, class T>
KOKKOS_FORCEINLINE_FUNCTION T* next_column(T* p, const std::int64_t step) {
  p += step;
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  if constexpr (Opaque) asm("" : "+l"(p));
#endif
  return p;
}

// A block's E columns of R realigned rows, column e at `at` + e step, where column 0 lies P0
// elements into its aligned vector and each next column S further (mod R): each column's store
// chosen at compile time, not by its phase at run time. Returns the next block's first column.
template <int P0, int S, bool WholeWarp, class T, int E, int R, int... e>
KOKKOS_FORCEINLINE_FUNCTION T* store_columns_at(T* at, const std::int64_t step,
                                                const T (&columns)[E][R], const WarpNeighbours& n,
                                                std::integer_sequence<int, e...>) {
  ((store_rows_at_phase<(P0 + e * S) % R, WholeWarp>(at, columns[e], n),
    at = next_column(at, step)),
   ...);
  return at;
}
// store_columns_at for pattern = P0 + R S (block_pattern): 4 columns of 4 rows (4-byte types)
// or of 8 (2-byte types), a whole block.
template <bool WholeWarp, class T, int E, int R>
KOKKOS_FORCEINLINE_FUNCTION T* store_columns(const int pattern, T* const at,
                                             const std::int64_t step, const T (&columns)[E][R],
                                             const WarpNeighbours& n) {
  static_assert(E == 4 && (R == 4 || R == 8), "4 columns of 4 or 8 rows");
  using columns_of_block = std::make_integer_sequence<int, E>;
  // (Every pattern a case, the last one the default: a jump table, not a chain of tests.)
  // clang-format off
#define KOKKOSDTENSOR_IMPL_PATTERN(P0, S) \
  case (P0) + (S) * R:                    \
    return store_columns_at<P0, S, WholeWarp>(at, step, columns, n, columns_of_block{});
#define KOKKOSDTENSOR_IMPL_PATTERNS4(S) \
  KOKKOSDTENSOR_IMPL_PATTERN(0, S)      \
  KOKKOSDTENSOR_IMPL_PATTERN(1, S)      \
  KOKKOSDTENSOR_IMPL_PATTERN(2, S)      \
  KOKKOSDTENSOR_IMPL_PATTERN(3, S)
#define KOKKOSDTENSOR_IMPL_PATTERNS8(S) \
  KOKKOSDTENSOR_IMPL_PATTERNS4(S)       \
  KOKKOSDTENSOR_IMPL_PATTERN(4, S)      \
  KOKKOSDTENSOR_IMPL_PATTERN(5, S)      \
  KOKKOSDTENSOR_IMPL_PATTERN(6, S)      \
  KOKKOSDTENSOR_IMPL_PATTERN(7, S)
  if constexpr (R == 4) {
    switch (pattern) {
      KOKKOSDTENSOR_IMPL_PATTERNS4(0)
      KOKKOSDTENSOR_IMPL_PATTERNS4(1)
      KOKKOSDTENSOR_IMPL_PATTERNS4(2)
      KOKKOSDTENSOR_IMPL_PATTERN(0, 3)
      KOKKOSDTENSOR_IMPL_PATTERN(1, 3)
      KOKKOSDTENSOR_IMPL_PATTERN(2, 3)
      default:
        return store_columns_at<3, 3, WholeWarp>(at, step, columns, n, columns_of_block{});
    }
  } else {
    switch (pattern) {
      KOKKOSDTENSOR_IMPL_PATTERNS8(0)
      KOKKOSDTENSOR_IMPL_PATTERNS8(1)
      KOKKOSDTENSOR_IMPL_PATTERNS8(2)
      KOKKOSDTENSOR_IMPL_PATTERNS8(3)
      KOKKOSDTENSOR_IMPL_PATTERNS8(4)
      KOKKOSDTENSOR_IMPL_PATTERNS8(5)
      KOKKOSDTENSOR_IMPL_PATTERNS8(6)
      KOKKOSDTENSOR_IMPL_PATTERNS4(7)
      KOKKOSDTENSOR_IMPL_PATTERN(4, 7)
      KOKKOSDTENSOR_IMPL_PATTERN(5, 7)
      KOKKOSDTENSOR_IMPL_PATTERN(6, 7)
      default:
        return store_columns_at<7, 7, WholeWarp>(at, step, columns, n, columns_of_block{});
    }
  }
#undef KOKKOSDTENSOR_IMPL_PATTERNS8
#undef KOKKOSDTENSOR_IMPL_PATTERNS4
#undef KOKKOSDTENSOR_IMPL_PATTERN
  // clang-format on
}

// Work item t takes columns [g C, g C + C) of row t % rows, g = t / rows, C = K E: every thread
// of a warp stores the same column of 32 neighbouring rows at once. When rows start on a block
// boundary (rows_aligned) those columns are K whole blocks; otherwise they straddle K + 1
// blocks, shifted by the row's start modulo E.
//
// R > 1 rows per item: item t takes the same row_blocks blocks (row_blocks E columns) of the R
// rows R (t % (rows / R)) + i, neighbours in memory, and stores each column's R elements as
// one vector (16 bytes for float). A loop over the blocks, so that an item can be long: with
// 2 blocks of 4 rows, finding the item's rows was a sixth of a normal_ item's instructions on
// the H200 (docs/performance.md, "Layouts"). For rows that start on a block boundary, a
// column extent divisible by R and a launch whose blocks share the high 32 bits of their
// index, counter_high (the dispatch checks): the counters are 32-bit words, as in the rows
// kernel's SharedHigh form. Realigned: the rows are not aligned to R elements in memory, and
// the vectors are put together between neighbouring lanes (KokkosDTensor_RealignedStores.hpp;
// a kernel of its own: it takes more registers). Shifted: rows that start inside a block,
// each at its own word of one (run_rows_shifted); with R = 1 too for the distributions of
// shifts_in_row_loop: the loop draws n + 1 blocks for an item's n, the K-block form K + 1 for K.
template <class T, class Dist, class Index, int R = 1, bool Realigned = false, bool Shifted = false>
struct FillColumnsFunctor : FillColumnsGeometry<T, Dist, Index> {
  static constexpr bool is_host_style = false;
  static constexpr int K = column_blocks_per_item;  // R = 1
  static constexpr int E = Dist::elements_per_block;
  static constexpr int C = K * E;  // columns per work item (R = 1, not Shifted)
  // Items loop over row_blocks blocks of their rows (run_rows, run_rows_shifted), not K.
  static constexpr bool loops_over_blocks = R > 1 || Shifted;
  // Columns walked with an opaque pointer (next_column), but by the cheap transforms (see
  // column_of).
  static constexpr bool opaque_walk = !has_cheap_transform<Dist>::value;
  // A copy of the realigned item loops for warps that are one group (run_rows).
  static constexpr bool has_whole_warp_copy = Realigned && realigned_whole_warp<Dist>::value;
  divider_t<Index> per_rows;  // divides by rows / R (lookbehind: 32 per 31 groups)
  Index row_groups = 0;       // Realigned: rows / R
  // Realigned: lane 0 of a warp repeats the group before it (realigned_lookbehind).
  static constexpr bool lookbehind = Realigned && realigned_lookbehind<Dist>::value;
  // lookbehind as data, which the kernel of rows on blocks reads at run time (the shifted one
  // does not): with it a constant there, nvcc's dropout_ kernels ran slower on the H100, the
  // shifted 16-bit ones faster (docs/performance.md, "The thirty-second session").
  bool lookbehind_flag = lookbehind;
  bool whole_warp = true;      // Realigned: constant-mask shuffles where the warp is one group
  bool phase_patterns = true;  // has_phase_patterns: whole blocks stored by their phase pattern
  bool rows_aligned = true;
  int row_blocks = 0;               // loops_over_blocks: blocks of each row per work item
  std::uint32_t column_blocks = 0;  // R > 1: blocks between neighbouring rows' starts
  std::uint32_t counter_high = 0;   // R > 1: the high word of every block's index
  std::uint64_t column_stride = 0;  // Shifted: L between neighbouring rows

  KOKKOS_INLINE_FUNCTION void operator()(const Index item) const { run(item, this->dist); }

  // Work item `item` with `with`: dist or an equivalent object (OnSharedNormalTable).
  template <class With>
  KOKKOS_FORCEINLINE_FUNCTION void run(const Index item, const With& with) const {
    if constexpr (Shifted) {
      run_rows_shifted(item, with);
      return;
    } else if constexpr (R > 1) {
      run_rows(item, with);
      return;
    }
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

  // loops_over_blocks: where item `item` is: its R rows at its first column (out), that column,
  // the columns left in the rows from it, row 0's L (of its column 0) and (Realigned) its lanes.
  struct RowsItem {
    T* out;
    std::int64_t first_column;
    std::int64_t count;
    std::uint64_t row_start;
    WarpNeighbours lanes;
  };
  KOKKOS_FORCEINLINE_FUNCTION RowsItem rows_item(const Index item) const {
    const Index group = per_rows.divide(item);
    RowsItem located;
    std::int64_t memory_offset;
    Index rows_group = item - group * per_rows.divisor;
    bool silent = false, next_in_next_warp = false, last_lane = false;
    if (lookbehind && (Shifted || lookbehind_flag)) {
      // Warps of 32 items take 31 groups of rows each: lane 0 repeats the group of the warp
      // before's lane 31 (its values, stored by nobody, complete lane 1's first vector), so
      // that only a run's ends store by element. Lanes past the groups repeat the last one.
      const Index lane = rows_group % 32;
      Index q = rows_group / 32 * 31 + lane;
      silent = lane == 0 || q > row_groups;
      q = q == 0 ? Index(0) : q - 1;
      if (q >= row_groups) q = row_groups - 1;
      rows_group = q;
      last_lane = lane == 31 && q + 1 < row_groups;
    }
    this->locate_row(rows_group * R, memory_offset, located.row_start);
    if (last_lane) {
      // Lane 31: the next warp's lane 1 stores its last values if it takes the next group
      // and that group follows in memory (checked as that lane will: by address).
      std::int64_t next;
      std::uint64_t unused;
      this->locate_row((rows_group + 1) * R, next, unused);
      next_in_next_warp = next == memory_offset + R;
    }
    located.first_column = static_cast<std::int64_t>(group) * row_blocks * E;
    located.out = this->data + memory_offset + located.first_column * this->element_step;
    located.count = static_cast<std::int64_t>(this->row_length) - located.first_column;
    located.lanes = Realigned ? warp_neighbours<T, R>(located.out, located.first_column, silent,
                                                      next_in_next_warp)
                              : WarpNeighbours{};
    return located;
  }

  // Column e of the block at `at`, where `walked` reached it by next_column. The cheap
  // transforms take the product: their kernels compile as before the walk, which cost them
  // up to 4 % on the H100 (docs/performance.md, "Layouts").
  KOKKOS_FORCEINLINE_FUNCTION static T* column_of(T* const at, T* const walked, const int e,
                                                  const std::int64_t step) {
    return opaque_walk ? walked : at + e * step;
  }
  // Block j's first column, where `walked` reached it (as column_of).
  KOKKOS_FORCEINLINE_FUNCTION static T* block_of(T* const out, T* const walked, const int j,
                                                 const std::int64_t step) {
    return opaque_walk ? walked : out + static_cast<std::int64_t>(j) * E * step;
  }

  // Realigned, 4 columns a block of 4 rows or (2-byte types) 8: each block's stores chosen by
  // its phase pattern (store_columns).
  static constexpr bool has_phase_patterns = Realigned && E == 4 && (R == 4 || R == 8);
  // has_phase_patterns: the phase of the column at `out` plus R times the phase a column step
  // adds (store_columns); -1 where the columns' phases are found column by column.
  KOKKOS_FORCEINLINE_FUNCTION int phase_pattern(const T* const out, const std::int64_t step) const {
    if (!has_phase_patterns || !phase_patterns) return -1;
    return vector_phase<T, R>(out) + R * static_cast<int>(step & (R - 1));
  }
  // The phase pattern of the block whose first column is `at`, of an item whose pattern is
  // `pattern` (>= 0): the item's where a block's E columns step the phase by a multiple of R.
  KOKKOS_FORCEINLINE_FUNCTION static int block_pattern(const int pattern, const T* const at) {
    if constexpr (R == E) return pattern;
    return (pattern & ~(R - 1)) + vector_phase<T, R>(at);
  }

  // Whether this lane's warp takes the whole-warp copy: it is one group, and with the
  // lookbehind only where every lane that stores has both neighbours (no run's edge in the
  // warp): there the copy's stores are one aligned vector a column, with no test of the
  // neighbours (whole_warp_lanes). The same answer in every lane.
  KOKKOS_FORCEINLINE_FUNCTION bool takes_whole_warp_copy(const WarpNeighbours& lanes) const {
    return whole_warp && lanes.mask == ~0u && (!lookbehind || no_edges(lanes));
  }
  template <bool WholeWarp>
  KOKKOS_FORCEINLINE_FUNCTION static WarpNeighbours whole_warp_lanes(WarpNeighbours lanes) {
    if constexpr (WholeWarp && lookbehind) {
      lanes.has_prev = true;
      lanes.has_next = true;
    }
    return lanes;
  }

  // R > 1: R rows' row_blocks whole blocks each, block by block: the R rows' block j, each row's
  // words drawn just before its transform (fewer live registers; docs/performance.md, "Layouts"),
  // then its E columns stored as R-element vectors.
  template <class With>
  KOKKOS_FORCEINLINE_FUNCTION void run_rows(const Index item, const With& with) const {
    const RowsItem located = rows_item(item);
    if constexpr (has_whole_warp_copy) {
      if (takes_whole_warp_copy(located.lanes)) {
        run_rows_item<true>(located, with);
        return;
      }
    }
    run_rows_item<false>(located, with);
  }
  // WholeWarp: every lane of the warp fills the same columns with the same alignment (one
  // group of warp_neighbours), so that all take the same branches up to the stores.
  template <bool WholeWarp, class With>
  KOKKOS_FORCEINLINE_FUNCTION void run_rows_item(const RowsItem& located, const With& with) const {
    const std::int64_t step = this->element_step;
    T* const out = located.out;
    const std::int64_t first_column = located.first_column;
    const std::int64_t count = located.count;
    const WarpNeighbours lanes = whole_warp_lanes<WholeWarp>(located.lanes);
    // (Rows start on block boundaries: row i's first block is row 0's plus i column_blocks.)
    const std::uint32_t counter = static_cast<std::uint32_t>(
        this->first_block + (located.row_start + static_cast<std::uint64_t>(first_column)) / E);
    // Block j of the item, `walked` its first column (block_of): `left` columns from its first
    // (E or more: the whole block). Returns the next block's first column, walked.
    const int pattern = WholeWarp ? phase_pattern(out, step) : -1;
    const auto fill_block = [&](const int j, const int left, T* const walked) {
      T* const at = block_of(out, walked, j, step);
      T columns[E][R];
      if (Dist::reads_input) {
        // (Realigned: loads by element; as vectors where aligned, dropout_ took 90 registers
        // instead of 82.)
        T* column = at;
        KOKKOSDTENSOR_IMPL_UNROLL
        for (int e = 0; e < E; ++e) {
          if (e < left) load_block<T, R>(column_of(at, column, e, step), columns[e], !Realigned);
          column = next_column<opaque_walk>(column, step);
        }
      }
      KOKKOSDTENSOR_IMPL_UNROLL
      for (int i = 0; i < R; ++i) {
        T block[E] = {};
        if (Dist::reads_input) {
          KOKKOSDTENSOR_IMPL_UNROLL
          for (int e = 0; e < E; ++e)
            if (e < left) block[e] = columns[e][i];
        }
        with(stream_block(this->key, counter + i * column_blocks + j, counter_high), block);
        KOKKOSDTENSOR_IMPL_UNROLL
        for (int e = 0; e < E; ++e) columns[e][i] = block[e];
      }
      if constexpr (WholeWarp && has_phase_patterns) {
        if (pattern >= 0 && left >= E)
          return store_columns<WholeWarp>(block_pattern(pattern, at), at, step, columns, lanes);
      }
      T* column = at;
      KOKKOSDTENSOR_IMPL_UNROLL
      for (int e = 0; e < E; ++e) {
        if (e < left) {
          if constexpr (Realigned)
            store_rows<T, R, WholeWarp>(column_of(at, column, e, step), columns[e], lanes);
          else
            store_block<T, R>(column_of(at, column, e, step), columns[e], true);
        }
        column = next_column<opaque_walk>(column, step);
      }
      return column;
    };
    T* at = out;
    if constexpr (sizeof(T) >= 8) {
      // 8-byte types, a whole item of the default length: unrolled, so that one block's
      // table reads overlap another's (normal_ f64 is bound by them; docs/performance.md).
      if (row_blocks == column_vector_row_blocks && count >= column_vector_row_blocks * E) {
        KOKKOSDTENSOR_IMPL_UNROLL
        for (int j = 0; j < column_vector_row_blocks; ++j) at = fill_block(j, E, at);
        return;
      }
    }
    // (The item's columns as a 32-bit count: at most 64 blocks.)
    const int width = count >= row_blocks * E ? row_blocks * E : static_cast<int>(count);
    const int blocks = (width + E - 1) / E;
    // Not unrolled: unrolled, nvcc overlapped the blocks and took more registers.
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#pragma unroll 1
#endif
    for (int j = 0; j < blocks; ++j) at = fill_block(j, width - j * E, at);
  }

  // Shifted: the R rows of an item start at different words of a block (shift[i]), so that
  // a column's R elements come from blocks at different places. Step j stores the item's
  // columns [j E, j E + E) of each row: words shift .. shift + E - 1 of the row's blocks j and
  // j + 1, of which block j was drawn and transformed the step before (carried): an item of
  // n blocks a row draws n + 1, not 2 n. Where the rows of a warp share their shifts (the
  // usual case: one run of the column dimension) the selects below take the same operand in
  // every lane.
  template <class With>
  KOKKOS_FORCEINLINE_FUNCTION void run_rows_shifted(const Index item, const With& with) const {
    const RowsItem located = rows_item(item);
    if constexpr (has_whole_warp_copy) {
      if (takes_whole_warp_copy(located.lanes)) {
        run_rows_shifted_item<true>(located, with);
        return;
      }
    }
    run_rows_shifted_item<false>(located, with);
  }
  template <bool WholeWarp, class With>
  KOKKOS_FORCEINLINE_FUNCTION void run_rows_shifted_item(const RowsItem& located,
                                                         const With& with) const {
    const std::int64_t step = this->element_step;
    T* const out = located.out;
    const WarpNeighbours lanes = whole_warp_lanes<WholeWarp>(located.lanes);
    const int width =
        located.count < row_blocks * E ? static_cast<int>(located.count) : row_blocks * E;
    std::uint32_t counter[R];
    int shift[R];
    KOKKOSDTENSOR_IMPL_UNROLL
    for (int i = 0; i < R; ++i) {
      const std::uint64_t l = located.row_start + static_cast<std::uint64_t>(located.first_column) +
                              static_cast<std::uint64_t>(i) * column_stride;
      counter[i] = static_cast<std::uint32_t>(this->first_block + l / E);
      shift[i] = static_cast<int>(l % E);
    }
    // 2-byte types, rows in pairs: each block's values kept as 2 words (packed_halves).
    constexpr bool packed = packed_halves<T, E, R>::value;
    T carried[R][E] = {};
    std::uint32_t carried_words[R][2] = {};
    HalvesShift halves_shift[R];
    KOKKOSDTENSOR_IMPL_UNROLL
    for (int i = 0; i < R; ++i) {
      draw_shifted(out + i, step, width, shift[i], counter[i], 0, carried[i], with);
      if constexpr (packed) {
        memcpy(carried_words[i], carried[i], sizeof(carried_words[i]));
        halves_shift[i] = HalvesShift(shift[i]);
      }
    }
    const int blocks = static_cast<int>((width + E - 1) / E);
    T* at = out;  // block j's first column
    const int pattern = WholeWarp ? phase_pattern(out, step) : -1;
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#pragma unroll 1
#endif
    for (int j = 0; j < blocks; ++j) {
      T columns[E][R];
      if constexpr (packed) {
        std::uint32_t row_words[R][2];
        KOKKOSDTENSOR_IMPL_UNROLL
        for (int i = 0; i < R; ++i) {
          T next[E] = {};
          draw_shifted(out + i, step, width, shift[i], counter[i], j + 1, next, with);
          std::uint32_t next_words[2];
          memcpy(next_words, next, sizeof(next_words));
          select_halves(carried_words[i], next_words, halves_shift[i], row_words[i]);
          carried_words[i][0] = next_words[0];
          carried_words[i][1] = next_words[1];
        }
        transpose_halves(row_words, columns);
      } else {
        KOKKOSDTENSOR_IMPL_UNROLL
        for (int i = 0; i < R; ++i) {
          T next[E] = {};
          draw_shifted(out + i, step, width, shift[i], counter[i], j + 1, next, with);
          // Words shift .. shift + E - 1 of the two blocks, shifted by 2 then by 1 as the
          // shift's bits say. (Not `shift == s` for each s: nvcc then indexed the words by the
          // shift, in local memory.)
          T window[2 * E];
          KOKKOSDTENSOR_IMPL_UNROLL
          for (int e = 0; e < E; ++e) {
            window[e] = carried[i][e];
            window[E + e] = next[e];
            carried[i][e] = next[e];
          }
          if constexpr (E == 4) {
            KOKKOSDTENSOR_IMPL_UNROLL
            for (int k = 0; k <= E; ++k)
              if (shift[i] & 2) window[k] = window[k + 2];
          }
          KOKKOSDTENSOR_IMPL_UNROLL
          for (int e = 0; e < E; ++e) columns[e][i] = shift[i] & 1 ? window[e + 1] : window[e];
        }
      }
      const int left = width - j * E;
      T* const block_at = block_of(out, at, j, step);
      if constexpr (WholeWarp && has_phase_patterns) {
        if (pattern >= 0 && left >= E) {
          at = store_columns<WholeWarp>(block_pattern(pattern, block_at), at, step, columns, lanes);
          continue;
        }
      }
      KOKKOSDTENSOR_IMPL_UNROLL
      for (int e = 0; e < E; ++e) {
        if (e < left) {
          if constexpr (Realigned)
            store_rows<T, R, WholeWarp>(column_of(block_at, at, e, step), columns[e], lanes);
          else
            store_block<T, R>(column_of(block_at, at, e, step), columns[e], true);
        }
        at = next_column<opaque_walk>(at, step);
      }
    }
  }

  // Shifted: block j of the row at `row` (its first of `width` columns) whose first column
  // is word `shift` of the block at `counter`, transformed: its element e is the row's column
  // j E + e - shift (inputs read only inside the item: the columns around it are other
  // items').
  template <class With>
  KOKKOS_FORCEINLINE_FUNCTION void draw_shifted(const T* const row, const std::int64_t step,
                                                const int width, const int shift,
                                                const std::uint32_t counter, const int j,
                                                T (&block)[E], const With& with) const {
    if (Dist::reads_input) {
      KOKKOSDTENSOR_IMPL_UNROLL
      for (int e = 0; e < E; ++e) {
        const int c = j * E + e - shift;
        if (c >= 0 && c < width) block[e] = row[c * step];
      }
    }
    with(stream_block(this->key, counter + static_cast<std::uint32_t>(j), counter_high), block);
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

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
