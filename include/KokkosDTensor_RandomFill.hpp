// The fill kernel shared by random ops on plain Views and on DTensors (docs/design.md):
// Impl::GlobalBox, Impl::whole_view_box, Impl::fill_random, Impl::offset_after.

#ifndef KOKKOSDTENSOR_RANDOMFILL_HPP
#define KOKKOSDTENSOR_RANDOMFILL_HPP

#include <KokkosDTensor_Error.hpp>
#include <KokkosDTensor_Distributions.hpp>
#include <KokkosDTensor_HostSimd.hpp>
#include <KokkosDTensor_Philox.hpp>
#include <KokkosDTensor_RNGState.hpp>
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace KokkosDTensor {
namespace Impl {

// Where a local block of elements sits inside the global row-major tensor.
// The element with logical local index (i0, ..., i_{r-1}) is the global element
// (i0 + origin[0], ..., i_{r-1} + origin[r-1]) of a tensor with extents global_extent;
// its global row-major linear index L is what the stream is keyed on.
struct GlobalBox {
  int rank = 0;
  std::int64_t global_extent[8] = {};
  std::int64_t origin[8] = {};
};

// The box of a View that is a whole tensor: origin 0, global extents = the View's.
template <class ViewType>
GlobalBox whole_view_box(const ViewType& view) {
  static_assert(Kokkos::is_view<ViewType>::value, "whole_view_box needs a Kokkos::View");
  GlobalBox box;
  box.rank = static_cast<int>(ViewType::rank);
  for (int d = 0; d < box.rank; ++d)
    box.global_extent[d] = static_cast<std::int64_t>(view.extent(d));
  return box;
}

// The offset after an op on `global_count` elements at `words_per_element` words each:
// state.offset + round_up_to_4(words_per_element * global_count). Throws
// std::overflow_error naming `function` and the offset if the new offset is not below
// 2^64 (the op would leave the 2^64-word counter space); callers call it before touching
// data, so a failed op changes nothing.
inline std::uint64_t offset_after(const RNGState& state, int words_per_element,
                                  std::uint64_t global_count, const char* function) {
  constexpr std::uint64_t max_word = ~std::uint64_t(0);
  const std::uint64_t w = static_cast<std::uint64_t>(words_per_element);
  const bool count_fits = words_per_element > 0 && global_count <= (max_word - 3) / w;
  const std::uint64_t words = count_fits ? ((w * global_count + 3) & ~std::uint64_t(3)) : 0;
  if (!count_fits || words > max_word - state.offset) {
    throw std::overflow_error(
        argument_message(function, "offset", format_value(state.offset),
                         "an op on " + format_value(global_count) + " elements at " +
                             format_value(words_per_element) +
                             " words each would pass the end of the 2^64-word counter space"));
  }
  return state.offset + words;
}

// ---- the kernel -----------------------------------------------------------------------------

// view(idx[0], ..., idx[R-2], last) for a View of rank R >= 1.
template <class ViewType, std::size_t... I>
KOKKOS_FORCEINLINE_FUNCTION typename ViewType::reference_type fill_view_element(
    const ViewType& view, const std::int64_t* idx, std::int64_t last, std::index_sequence<I...>) {
  return view(idx[I]..., last);
}

// One work item = one Philox block of one row segment (the View's elements with all but
// the last index fixed: consecutive global indices L). The block gives the values of its
// elements_per_block elements; the item writes those inside the segment. Per item: the
// row's multi-index (one division per dimension), one Philox block, and a branch only for
// the partial blocks at the ends of a row.
//
// Faster paths left for the performance work: items covering several blocks of a row
// (amortising the index math; vector stores for contiguous LayoutRight rows), 32-bit
// index math when the sizes allow, and iterating over the first dimension for LayoutLeft.
template <class ViewType, class Dist, int Rank>
struct FillRandomFunctor {
  using value_type = typename Dist::value_type;
  static constexpr int elements_per_block = Dist::elements_per_block;

  ViewType view;
  Dist dist;
  std::uint64_t seed;
  std::uint64_t first_block;       // state.offset / 4
  std::uint64_t origin_linear;     // global linear index of local element (0, ..., 0)
  std::uint64_t global_stride[8];  // row-major strides of the global tensor
  std::int64_t row_extent[8];      // local extents of dims 0 .. Rank-2
  std::int64_t row_length;         // local extent of the last dim
  std::int64_t blocks_per_row;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t item) const {
    std::int64_t idx[Rank];
    std::int64_t row = Rank == 1 ? 0 : item / blocks_per_row;
    const std::int64_t block_in_row = item - row * blocks_per_row;
    std::uint64_t row_start = origin_linear;  // L of the row's first local element
    for (int d = Rank - 2; d >= 0; --d) {
      const std::int64_t next = row / row_extent[d];
      idx[d] = row - next * row_extent[d];
      row = next;
      row_start += static_cast<std::uint64_t>(idx[d]) * global_stride[d];
    }
    const std::uint64_t block =
        row_start / elements_per_block + static_cast<std::uint64_t>(block_in_row);
    // Local last index of the block's first element (negative: before the row starts).
    const std::int64_t first = static_cast<std::int64_t>(block * elements_per_block - row_start);
    if (first >= row_length) return;

    const PhiloxBlock words = stream_block(seed, first_block + block);
    value_type values[elements_per_block] = {};
    const bool whole = first >= 0 && first + elements_per_block <= row_length;
    using indices = std::make_index_sequence<Rank - 1>;
    if (Dist::reads_input) {
      for (int e = 0; e < elements_per_block; ++e) {
        const std::int64_t j = first + e;
        if (whole || (j >= 0 && j < row_length))
          values[e] = fill_view_element(view, idx, j, indices{});
      }
    }
    dist(words, values);
    if (whole) {
      for (int e = 0; e < elements_per_block; ++e)
        fill_view_element(view, idx, first + e, indices{}) = values[e];
    } else {
      for (int e = 0; e < elements_per_block; ++e) {
        const std::int64_t j = first + e;
        if (j >= 0 && j < row_length) fill_view_element(view, idx, j, indices{}) = values[e];
      }
    }
  }
};

// Rank 0: the single element has L = 0 and takes element 0 of block 0.
template <class ViewType, class Dist>
struct FillRandomScalarFunctor {
  using value_type = typename Dist::value_type;
  ViewType view;
  Dist dist;
  std::uint64_t seed;
  std::uint64_t first_block;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t) const {
    value_type values[Dist::elements_per_block] = {};
    if (Dist::reads_input) values[0] = view();
    dist(stream_block(seed, first_block), values);
    view() = values[0];
  }
};

// ---- fast paths ---------------------------------------------------------------------------
//
// The generic functor above handles every View. fill_random uses it only where the fast
// paths below do not apply; they give identical values (the same words reach the same
// elements, the same transform runs on them), which unit_tests/Test_FillPaths.cpp checks
// path against path, byte for byte.
//
// Rows path (any backend): the View's last dimension is contiguous in memory (stride 1:
// LayoutRight, a LayoutRight subview, LayoutLeft of rank 1, LayoutStride with unit last
// stride) and its reference type is a plain T&. A row is the View's elements with all but
// the last index fixed; it is contiguous in memory and in L. When the box covers whole
// global rows in every dimension but the first and the View is contiguous row-major
// (a plain View, a Shard(0) shard), all the View is one row of L = origin .. origin + N - 1:
// no index arithmetic at all. Otherwise a work item finds its row with one division by an
// invariant divisor (multiply-high and shift, precomputed on the host) per dimension.
// Work item = one Philox block (device style) or a chunk of blocks of one row (host style);
// whole blocks are written with one vector store where the address allows (16 bytes for
// float/int32/double blocks), partial blocks at the row's ends element by element. The
// Philox key schedule is precomputed on the host (PhiloxKeySchedule). 32-bit indices when
// the work fits.
//
// Host style (execution spaces that run on the host): a work item is a chunk of up to
// host_chunk_blocks blocks of a row; whole blocks go through philox4x32_10_batch (lane-parallel,
// vectorised) host_batch_blocks at a time. On x86-64 with GCC/Clang (not under nvcc) the chunk
// loop also exists compiled for AVX2+FMA, chosen at run time when the CPU has both: the
// results are the same bits (FMA is exact either way; without it portable_fma calls the C
// library's fma), only faster.

// q = n / d for an invariant d >= 1 and n < 2^31: q = mulhi32(n, multiplier) >> shift
// (Granlund-Montgomery, as CUTLASS' FastDivmod), exact for every n < 2^31.
struct FastDivider32 {
  std::uint32_t divisor = 1;
  std::uint32_t multiplier = 0;
  std::uint32_t shift = 0;
  FastDivider32() = default;
  explicit FastDivider32(std::uint32_t d) : divisor(d) {
    if (d > 1) {
      std::uint32_t l = 0;  // ceil(log2 d)
      while ((std::uint64_t(1) << l) < d) ++l;
      const std::uint64_t p = 31 + l;
      multiplier = static_cast<std::uint32_t>(((std::uint64_t(1) << p) + d - 1) / d);
      shift = l - 1;
    }
  }
  KOKKOS_FORCEINLINE_FUNCTION std::uint32_t divide(std::uint32_t n) const {
    return divisor == 1
               ? n
               : static_cast<std::uint32_t>((static_cast<std::uint64_t>(n) * multiplier) >> 32) >>
                     shift;
  }
};

// Plain 64-bit division, for work beyond 2^31 items.
struct PlainDivider64 {
  std::uint64_t divisor = 1;
  PlainDivider64() = default;
  explicit PlainDivider64(std::uint64_t d) : divisor(d) {}
  KOKKOS_FORCEINLINE_FUNCTION std::uint64_t divide(std::uint64_t n) const { return n / divisor; }
};

template <class Index>
using divider_t =
    typename std::conditional<sizeof(Index) == 4, FastDivider32, PlainDivider64>::type;

// Stores (loads) the values of one whole block at dst: one vector access on the device when
// dst is aligned to the block's size (8 or 16 bytes; `aligned` says whether it is),
// element by element otherwise and on the host (where the compiler vectorises the
// surrounding loops itself).
template <class T, int E>
struct alignas(sizeof(T) * E) BlockVector {
  T value[E];
};

template <class T, int E>
KOKKOS_FORCEINLINE_FUNCTION bool block_aligned(const T* p) {
  return reinterpret_cast<std::uintptr_t>(p) % (sizeof(T) * E) == 0;
}

// On CUDA the store is an explicit vector store (__stwb of a uint4 / uint2): the aggregate
// store below was split into scalar stores by nvcc in the strided kernel (PTX checked), and
// four 4-byte stores per block cost the fill ~20% on the H200 (docs/performance.md).
template <class T, int E>
KOKKOS_FORCEINLINE_FUNCTION void store_block(T* dst, const T (&values)[E], bool aligned) {
#if defined(__CUDA_ARCH__)
  constexpr std::size_t bytes = sizeof(T) * E;
  if constexpr (bytes == 16) {
    if (aligned) {
      uint4 v;
      memcpy(&v, values, bytes);
      __stwb(reinterpret_cast<uint4*>(dst), v);
      return;
    }
  } else if constexpr (bytes == 8) {
    if (aligned) {
      uint2 v;
      memcpy(&v, values, bytes);
      __stwb(reinterpret_cast<uint2*>(dst), v);
      return;
    }
  }
#elif defined(__HIP_DEVICE_COMPILE__)
  constexpr std::size_t bytes = sizeof(T) * E;
  if constexpr (bytes == 8 || bytes == 16) {
    if (aligned) {
      BlockVector<T, E> v;
      for (int e = 0; e < E; ++e) v.value[e] = values[e];
      *reinterpret_cast<BlockVector<T, E>*>(dst) = v;
      return;
    }
  }
#endif
  (void)aligned;
  for (int e = 0; e < E; ++e) dst[e] = values[e];
}

template <class T, int E>
KOKKOS_FORCEINLINE_FUNCTION void load_block(const T* src, T (&values)[E], bool aligned) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  constexpr std::size_t bytes = sizeof(T) * E;
  if constexpr (bytes == 8 || bytes == 16) {
    if (aligned) {
      const BlockVector<T, E> v = *reinterpret_cast<const BlockVector<T, E>*>(src);
      for (int e = 0; e < E; ++e) values[e] = v.value[e];
      return;
    }
  }
#endif
  (void)aligned;
  for (int e = 0; e < E; ++e) values[e] = src[e];
}

// The geometry of the rows path, shared by the device-style and host-style functors.
// RowRank dimensions index the rows (0: the whole View is one row).
template <class T, class Dist, int RowRank, class Index>
struct FillRowsGeometry {
  static constexpr int elements_per_block = Dist::elements_per_block;
  static constexpr int row_dims = RowRank > 0 ? RowRank : 1;
  T* data;
  Dist dist;
  PhiloxKeySchedule key;
  std::uint64_t first_block;     // state.offset / 4
  std::uint64_t origin_linear;   // L of local element (0, ..., 0)
  Index row_length;              // elements per row
  Index blocks_per_row;          // Philox blocks a row may touch (work units per row)
  divider_t<Index> per_row;      // divides by the work units (items or chunks) per row
  Index row_extent[row_dims];    // local extents of the row dimensions
  divider_t<Index> row_divider[row_dims];
  std::int64_t memory_stride[row_dims];   // View strides of the row dimensions (elements)
  std::uint64_t global_stride[row_dims];  // row-major strides of the global tensor

  // The row's first element in memory and its L.
  KOKKOS_FORCEINLINE_FUNCTION void locate_row(Index row, std::int64_t& memory_offset,
                                              std::uint64_t& row_start) const {
    memory_offset = 0;
    row_start = origin_linear;
    for (int d = RowRank - 1; d >= 0; --d) {
      const Index next = d == 0 ? Index(0) : row_divider[d].divide(row);
      const Index i = d == 0 ? row : row - next * row_extent[d];
      memory_offset += static_cast<std::int64_t>(i) * memory_stride[d];
      row_start += static_cast<std::uint64_t>(i) * global_stride[d];
      row = next;
    }
  }

  // Work item `item` of a functor with per_row.divisor work units per row: its unit within
  // the row (the return value), the row's first element in memory and its L.
  KOKKOS_FORCEINLINE_FUNCTION Index locate_item(Index item, T*& row_data,
                                                std::uint64_t& row_start) const {
    Index row = 0, unit = item;
    if (RowRank > 0) {
      row = per_row.divide(item);
      unit = item - row * per_row.divisor;
    }
    std::int64_t memory_offset;
    locate_row(row, memory_offset, row_start);
    row_data = data + memory_offset;
    return unit;
  }

  // Block `block` (a stream block index relative to first_block) of a row starting at
  // `row` (memory) and `row_start` (L): bounds-checked, any alignment.
  KOKKOS_FORCEINLINE_FUNCTION void fill_block(T* row, std::uint64_t row_start,
                                              std::uint64_t block) const {
    constexpr int E = elements_per_block;
    const std::int64_t first = static_cast<std::int64_t>(block * E - row_start);
    const std::int64_t length = static_cast<std::int64_t>(row_length);
    if (first >= length || first + E <= 0) return;
    fill_block_words(row, row_start, block, stream_block(key, first_block + block));
  }

  // The same with the block's words already drawn.
  KOKKOS_FORCEINLINE_FUNCTION void fill_block_words(T* row, std::uint64_t row_start,
                                                    std::uint64_t block,
                                                    const PhiloxBlock& words) const {
    constexpr int E = elements_per_block;
    const std::int64_t first = static_cast<std::int64_t>(block * E - row_start);
    const std::int64_t length = static_cast<std::int64_t>(row_length);
    if (first >= length || first + E <= 0) return;
    T values[E] = {};
    if (first >= 0 && first + E <= length) {
      const bool aligned = block_aligned<T, E>(row + first);
      if (Dist::reads_input) load_block<T, E>(row + first, values, aligned);
      dist(words, values);
      store_block<T, E>(row + first, values, aligned);
    } else {
      if (Dist::reads_input) {
        for (int e = 0; e < E; ++e) {
          const std::int64_t j = first + e;
          if (j >= 0 && j < length) values[e] = row[j];
        }
      }
      dist(words, values);
      for (int e = 0; e < E; ++e) {
        const std::int64_t j = first + e;
        if (j >= 0 && j < length) row[j] = values[e];
      }
    }
  }
};

// Philox blocks per device work item for ops that only write (below). 8 rather than 4:
// through Kokkos' RangePolicy loop, K = 4 lost 7-10% against the same body launched as a
// plain CUDA kernel on the H200, K = 8 did not (docs/performance.md, version 6).
constexpr int strided_blocks_per_item = 8;

// Device style. A row's work items are `interior_items` items for its whole blocks (item t
// fills the row's whole blocks t, t + interior_items, ..., K of them) and, when rows may
// start or end inside a block, two more items for the partial blocks at its two ends. With
// K > 1 each thread runs K independent Philox chains (instruction-level parallelism) while
// a warp still stores 32 consecutive blocks per step; the per-row work (finding the row, its
// first whole block, whether its stores can be vector stores) is done once per item, so the
// loop over whole blocks is Philox, the transform and one store per block.
//
// VectorStores: every row's first whole block is aligned to the block's size, so whole
// blocks are one vector access each. A template parameter, not a run-time flag: with a flag
// nvcc compiled the K-block body twice (vector and scalar versions) and the kernel,
// twice as long, ran at ~0.8 of memset on the H200 instead of ~1.0 (docs/performance.md).
//
// SharedHigh: every stream block the launch touches has the same high 32 bits of its
// index, counter_high (true unless the launch straddles a multiple of 2^32 blocks). The
// whole blocks' Philox counters are then (32-bit low word, counter_high): the high word is
// the same in every thread, so the first rounds' work on it is done once for all K blocks.
// On the H200, through Kokkos' RangePolicy, uniform_ f32 ran 3% (this body, K = 4) to 7% (a
// minimal body) faster with it than with a 64-bit counter per block (docs/performance.md,
// version 6).
template <class T, class Dist, int RowRank, class Index, int K, bool VectorStores,
          bool SharedHigh>
struct FillRowsFunctor : FillRowsGeometry<T, Dist, RowRank, Index> {
  static constexpr bool is_host_style = false;
  // Work items per row for the whole blocks (per_row.divisor counts two more when rows have
  // partial blocks).
  Index interior_items = 0;
  std::uint32_t counter_high = 0;  // used when SharedHigh

  KOKKOS_INLINE_FUNCTION void operator()(const Index item) const {
    constexpr int E = Dist::elements_per_block;
    T* row_data;
    std::uint64_t row_start;
    const Index t = this->locate_item(item, row_data, row_start);
    const std::uint64_t row_end = row_start + static_cast<std::uint64_t>(this->row_length);
    // Stream blocks (relative to first_block) of the row's first and one past its last
    // whole block.
    const std::uint64_t first_whole = (row_start + E - 1) / E;
    const std::uint64_t end_whole = row_end / E;
    if (t >= interior_items) {
      // Item interior_items: the block holding the row's first element, if the row starts
      // inside it; item interior_items + 1: the block holding its last element, if the row
      // ends inside it and it is another block. The block index is computed from t on
      // purpose: for one row it would otherwise be invariant in Kokkos' grid-stride loop,
      // and nvcc then hoists both edge blocks' Philox out of it into every thread
      // (measured on the H200: uniform_ f32 took 25% longer, dropout_ 1.8x).
      const std::uint64_t edge = static_cast<std::uint64_t>(t - interior_items);  // 0 or 1
      const bool wanted = edge == 0 ? row_start % E != 0
                                    : row_end % E != 0 && end_whole >= first_whole;
      if (wanted)
        this->fill_block(row_data, row_start, first_whole - 1 + edge * (end_whole + 1 - first_whole));
      return;
    }
    const Index whole = end_whole > first_whole ? static_cast<Index>(end_whole - first_whole) : 0;
    T* const base = row_data + (first_whole * E - row_start);
    const std::uint64_t counter = this->first_block + first_whole;
    // Unrolled explicitly: without it nvcc 13 made the normal_ f32 kernel 15% longer
    // (PTX: 2095 instead of 1825 instructions; the other kernels came out the same).
    PhiloxBlock words[K];
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#pragma unroll
#endif
    for (int j = 0; j < K; ++j) {
      if constexpr (SharedHigh) {
        const std::uint32_t low = static_cast<std::uint32_t>(counter) +
                                  static_cast<std::uint32_t>(t + j * interior_items);
        words[j] = stream_block(this->key, low, counter_high);
      } else {
        words[j] = stream_block(this->key, counter + static_cast<std::uint64_t>(t + j * interior_items));
      }
    }
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#pragma unroll
#endif
    for (int j = 0; j < K; ++j) {
      const Index b = t + j * interior_items;
      if (b < whole) {
        T* const dst = base + static_cast<std::size_t>(b) * E;
        T values[E] = {};
        if (Dist::reads_input) load_block<T, E>(dst, values, VectorStores);
        this->dist(words[j], values);
        store_block<T, E>(dst, values, VectorStores);
      }
    }
  }
};

constexpr int host_batch_blocks = 8;   // blocks per philox4x32_10_batch call
constexpr int host_chunk_blocks = 512; // blocks per host work item (2 KiB of floats)

// Host style: one work item = a chunk of up to host_chunk_blocks blocks of one row.
// Two versions of the chunk loop: fill_chunk, portable C++ (philox4x32_10_batch, which the
// compiler may or may not vectorise), and, on x86-64 with GCC/Clang, fill_chunk_avx2:
// explicit AVX2 Philox over 16 blocks at a time and, for the distributions that have one,
// the AVX2 transform (KokkosDTensor_HostSimd.hpp), chosen at run time (use_avx2_fma) so
// that default-flag builds get it on CPUs that have AVX2 and FMA. Same bits either way.
template <class T, class Dist, int RowRank, class Index>
struct FillRowsHostFunctor : FillRowsGeometry<T, Dist, RowRank, Index> {
  static constexpr bool is_host_style = true;
  bool use_avx2_fma;

  // Whole blocks of a row: block * E >= row_start and block * E + E <= row_start + length.
  // Blocks [begin, end) of the chunk are handled as: bounds-checked blocks up to the first
  // whole one, whole blocks in batches, bounds-checked blocks after them.
  inline void whole_range(std::uint64_t row_start, std::uint64_t begin, std::uint64_t end,
                          std::uint64_t& whole_first, std::uint64_t& whole_last) const {
    constexpr int E = Dist::elements_per_block;
    const std::uint64_t length = static_cast<std::uint64_t>(this->row_length);
    const std::uint64_t whole_begin = (row_start + E - 1) / E;
    const std::uint64_t whole_end = (row_start + length) / E;
    whole_first = begin < whole_begin ? whole_begin : begin;
    whole_last = end < whole_end ? end : whole_end;
    if (whole_last < whole_first) whole_last = whole_first;
    if (whole_first > end) whole_first = whole_last = end;
  }

  // Blocks [begin, end) (relative to first_block) of the row at `row` / `row_start`.
  inline void fill_chunk(T* row, std::uint64_t row_start, std::uint64_t begin,
                         std::uint64_t end) const {
    constexpr int E = Dist::elements_per_block;
    constexpr int B = host_batch_blocks;
    std::uint64_t whole_first, whole_last;
    whole_range(row_start, begin, end, whole_first, whole_last);
    std::uint64_t b = begin;
    for (; b < whole_first; ++b) this->fill_block(row, row_start, b);
    for (; b + B <= whole_last; b += B) {
      std::uint32_t word[4 * B];
      philox4x32_10_batch<B>(this->key, this->first_block + b, word);
      fill_whole_blocks<B>(row + (b * E - row_start), word);
    }
    for (; b < end; ++b) this->fill_block(row, row_start, b);
  }

  // N whole blocks at dst from their words (stream order), with Dist's scalar transform.
  template <int N>
  inline void fill_whole_blocks(T* dst, const std::uint32_t* word) const {
    constexpr int E = Dist::elements_per_block;
    for (int l = 0; l < N; ++l) {
      PhiloxBlock block;
      for (int j = 0; j < 4; ++j) block.word[j] = word[4 * l + j];
      T values[E] = {};
      if (Dist::reads_input)
        for (int e = 0; e < E; ++e) values[e] = dst[l * E + e];
      this->dist(block, values);
      for (int e = 0; e < E; ++e) dst[l * E + e] = values[e];
    }
  }

#if KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH
  // 8 whole blocks at dst from their words in AVX2 registers.
  __attribute__((target("avx2,fma"), always_inline)) inline void fill_8_avx2(
      T* dst, const host_avx2::Words8& words) const {
    if constexpr (HostAvx2Transform<Dist>::available) {
      HostAvx2Transform<Dist>::apply(this->dist, words, dst);
    } else {
      alignas(32) std::uint32_t word[32];
      host_avx2::store_stream_order(words.word, word);
      fill_whole_blocks<8>(dst, word);
    }
  }

  // fill_chunk with the whole blocks through AVX2, 16 and then 8 at a time.
  __attribute__((target("avx2,fma"))) void fill_chunk_avx2(T* row, std::uint64_t row_start,
                                                            std::uint64_t begin,
                                                            std::uint64_t end) const {
    constexpr int E = Dist::elements_per_block;
    std::uint64_t whole_first, whole_last;
    whole_range(row_start, begin, end, whole_first, whole_last);
    std::uint64_t b = begin;
    for (; b < whole_first; ++b) this->fill_block(row, row_start, b);
    for (; b + 16 <= whole_last; b += 16) {
      host_avx2::Words8 words[2];
      host_avx2::philox8<2>(this->key, this->first_block + b, words);
      T* dst = row + (b * E - row_start);
      fill_8_avx2(dst, words[0]);
      fill_8_avx2(dst + 8 * E, words[1]);
    }
    for (; b + 8 <= whole_last; b += 8) {
      host_avx2::Words8 words[1];
      host_avx2::philox8<1>(this->key, this->first_block + b, words);
      fill_8_avx2(row + (b * E - row_start), words[0]);
    }
    for (; b < end; ++b) this->fill_block(row, row_start, b);
  }
#endif

  // The chunk of work item `item`: its row's memory and L, and its blocks [begin, end).
  KOKKOS_FORCEINLINE_FUNCTION void locate_chunk(const Index item, T*& row,
                                                std::uint64_t& row_start, std::uint64_t& begin,
                                                std::uint64_t& end) const {
    constexpr int E = Dist::elements_per_block;
    const Index chunk = this->locate_item(item, row, row_start);
    const std::uint64_t row_first_block = row_start / E;
    begin = row_first_block + static_cast<std::uint64_t>(chunk) * host_chunk_blocks;
    end = begin + host_chunk_blocks;
    const std::uint64_t row_end_block = row_first_block + this->blocks_per_row;
    if (end > row_end_block) end = row_end_block;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Index item) const {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    (void)item;  // host execution spaces only
#else
    T* row;
    std::uint64_t row_start, begin, end;
    locate_chunk(item, row, row_start, begin, end);
#if KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH
    if (use_avx2_fma) {
      fill_chunk_avx2(row, row_start, begin, end);
      return;
    }
#endif
    fill_chunk(row, row_start, begin, end);
#endif
  }
};

// Which kernel fill_random runs. automatic: the rows path when the View allows it
// (device style on device execution spaces; on host ones host style when its AVX2+FMA
// version runs, i.e. host_has_avx2_fma(), device style otherwise), else generic.
// The others force a path (tests and kdt-perf); a forced rows path that does not apply to
// the View falls back to generic. rows_host_portable is rows_host without the AVX2+FMA
// version (so that the tests cover the portable chunk loop on a CPU that has AVX2).
enum class FillPath { automatic, generic, rows_device, rows_host, rows_host_portable };

// uniform_(0, 1) is u itself: fma(u, 1, 0) = u and u <= below_to = 1 - ulp. The kernels
// skip the fma and the min for it (same bits).
template <class T>
struct StandardUniform : ElementwiseDistribution<StandardUniform<T>, T> {
  KOKKOS_INLINE_FUNCTION T element(std::uint32_t w0, std::uint32_t w1, T) const {
    T u;
    uniform01(w0, w1, u);
    return u;
  }
};

template <class Dist>
struct is_uniform_distribution : std::false_type {};
template <class T>
struct is_uniform_distribution<Uniform<T>> : std::true_type {};

template <class ExecSpace>
constexpr bool runs_on_host() {
  return Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;
}

// Sets up and launches a rows functor (device or host style) with RowRank row dimensions.
template <class Functor, int RowRank, class Index, class ExecSpace, class ViewType, class Dist>
void launch_rows(const ExecSpace& space, const ViewType& view, const Dist& dist,
                 const RNGState& state, std::uint64_t origin_linear,
                 const std::uint64_t* global_stride, std::uint64_t row_length,
                 std::uint64_t rows, std::uint64_t blocks_per_row, std::uint64_t units_per_row,
                 std::uint64_t interior_items, std::uint32_t counter_high, bool host_simd) {
  Functor functor;
  functor.data = view.data();
  functor.dist = dist;
  functor.key = philox_key_schedule(state.seed);
  functor.first_block = state.offset / 4;
  functor.origin_linear = origin_linear;
  functor.row_length = static_cast<Index>(row_length);
  functor.blocks_per_row = static_cast<Index>(blocks_per_row);
  functor.per_row = divider_t<Index>(static_cast<Index>(units_per_row));
  for (int d = 0; d < (RowRank > 0 ? RowRank : 1); ++d) {
    functor.row_extent[d] = 1;
    functor.row_divider[d] = divider_t<Index>(1);
    functor.memory_stride[d] = 0;
    functor.global_stride[d] = 0;
  }
  for (int d = 0; d < RowRank; ++d) {
    functor.row_extent[d] = static_cast<Index>(view.extent(d));
    functor.row_divider[d] = divider_t<Index>(static_cast<Index>(view.extent(d)));
    functor.memory_stride[d] = static_cast<std::int64_t>(view.stride(d));
    functor.global_stride[d] = global_stride[d];
  }
  if constexpr (Functor::is_host_style) {
    functor.use_avx2_fma = host_simd && host_has_avx2_fma();
  } else {
    functor.interior_items = static_cast<Index>(interior_items);
    functor.counter_high = counter_high;
  }
  (void)host_simd;
  (void)counter_high;
  using PolicyIndex = typename std::conditional<sizeof(Index) == 4, int, std::int64_t>::type;
  Kokkos::parallel_for(
      "KokkosDTensor::fill_random",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<PolicyIndex>>(
          space, 0, static_cast<PolicyIndex>(rows * units_per_row)),
      functor);
}

// The rows path for a View of rank >= 1 whose box was checked (global_stride: the global
// tensor's row-major strides). Returns false, launching nothing, if it does not apply.
template <class ExecSpace, class ViewType, class Dist>
bool fill_rows(const ExecSpace& space, const ViewType& view, const Dist& dist,
               const RNGState& state, const GlobalBox& box, const std::uint64_t* global_stride,
               bool host_style, bool strided, bool host_simd = true) {
  using T = typename ViewType::value_type;
  constexpr int rank = static_cast<int>(ViewType::rank);
  constexpr int E = Dist::elements_per_block;
  if constexpr (rank == 0 ||
                !std::is_same<typename ViewType::reference_type, T&>::value) {
    return false;
  } else {
    const std::uint64_t last = static_cast<std::uint64_t>(view.extent(rank - 1));
    if (last > 1 && view.stride(rank - 1) != 1) return false;
    std::uint64_t origin_linear = 0;
    for (int d = 0; d < rank; ++d)
      origin_linear += static_cast<std::uint64_t>(box.origin[d]) * global_stride[d];
    // One row when the View is contiguous row-major in memory and in L: local linear index
    // i has memory offset i and L = origin_linear + i.
    bool one_row = true;
    std::uint64_t local_stride = 1;
    for (int d = rank - 1; d >= 0; --d) {
      if (view.extent(d) > 1 && (static_cast<std::uint64_t>(view.stride(d)) != local_stride ||
                                 global_stride[d] != local_stride))
        one_row = false;
      local_stride *= static_cast<std::uint64_t>(view.extent(d));
    }
    const std::uint64_t size = static_cast<std::uint64_t>(view.size());
    const std::uint64_t rows = one_row ? 1 : size / last;
    const std::uint64_t row_length = one_row ? size : last;
    const bool rows_aligned = origin_linear % E == 0 &&
                              (one_row || rank == 1 || global_stride[rank - 2] % E == 0);
    const std::uint64_t blocks_per_row =
        one_row ? (origin_linear % E + row_length + E - 1) / E
                : (row_length + E - 1) / E + (rows_aligned ? 0 : 1);
    // Device style: the whole blocks of a row (of the longest row when there are several),
    // and whether rows start or end inside a block.
    const std::uint64_t first_whole = (origin_linear + E - 1) / E;
    const std::uint64_t end_whole = (origin_linear + size) / E;
    const std::uint64_t whole_blocks =
        one_row ? (end_whole > first_whole ? end_whole - first_whole : 0) : row_length / E;
    const bool partial_blocks = one_row ? origin_linear % E != 0 || (origin_linear + size) % E != 0
                                        : !rows_aligned || row_length % E != 0;
    // Vector stores (device backends): every row's first whole block is aligned to the
    // block's size when the first row's is and rows are a whole number of blocks apart in
    // memory and in L.
    constexpr std::size_t block_bytes = sizeof(T) * E;
    bool vector_stores =
        reinterpret_cast<std::uintptr_t>(view.data() + (first_whole * E - origin_linear)) %
            block_bytes == 0;
    for (int d = 0; !one_row && d + 1 < rank; ++d) {
      if (view.extent(d) > 1 && static_cast<std::size_t>(view.stride(d)) * sizeof(T) % block_bytes)
        vector_stores = false;
    }
    if (!one_row && !rows_aligned) vector_stores = false;
    // Blocks per device work item: strided_blocks_per_item for ops that only write, one for
    // dropout_, which also reads (several made it 11% slower on the H200:
    // docs/performance.md). Host backends take one unless `strided` asks for the device's
    // choice (the tests compare the two).
    constexpr int device_k = Dist::reads_input ? 1 : strided_blocks_per_item;
    const int k = runs_on_host<ExecSpace>() && !strided ? 1 : device_k;
    const std::uint64_t interior_items = (whole_blocks + k - 1) / k;
    const std::uint64_t units_per_row =
        host_style ? (blocks_per_row + host_chunk_blocks - 1) / host_chunk_blocks
                   : interior_items + (partial_blocks ? 2 : 0);
    // Whether all the stream blocks the launch touches (those of elements origin_linear ...
    // last_linear) share the high 32 bits of their index.
    std::uint64_t last_linear = origin_linear;
    for (int d = 0; d < rank; ++d)
      last_linear += static_cast<std::uint64_t>(view.extent(d) - 1) * global_stride[d];
    const std::uint64_t first_block = state.offset / 4;
    const std::uint64_t counter_high = (first_block + origin_linear / E) >> 32;
    const bool shared_high = size > 0 && ((first_block + last_linear / E) >> 32) == counter_high;
    const bool small = rows * units_per_row < (std::uint64_t(1) << 31) &&
                       size < (std::uint64_t(1) << 31) && blocks_per_row < (std::uint64_t(1) << 31);
    const auto go = [&](auto row_rank_tag, auto index_tag) {
      constexpr int RR = decltype(row_rank_tag)::value;
      using Index = typename decltype(index_tag)::type;
      // The device-style functor with K blocks per item. Two versions per backend: on
      // device backends the fast one (vector stores, shared high word) and the general one;
      // on host backends (the tests' rows_device path) the two counter forms with the
      // device's K, so that the host tests check both against the reference.
      const auto device_style = [&](auto k_tag, auto fast_tag) {
        constexpr bool fast = decltype(fast_tag)::value;
        constexpr bool vector = fast && !runs_on_host<ExecSpace>();
        launch_rows<FillRowsFunctor<T, Dist, RR, Index, decltype(k_tag)::value, vector, fast>,
                    RR, Index>(space, view, dist, state, origin_linear, global_stride,
                               row_length, rows, blocks_per_row, units_per_row, interior_items,
                               static_cast<std::uint32_t>(counter_high), host_simd);
      };
      if constexpr (runs_on_host<ExecSpace>()) {
        if (host_style) {
          launch_rows<FillRowsHostFunctor<T, Dist, RR, Index>, RR, Index>(
              space, view, dist, state, origin_linear, global_stride, row_length, rows,
              blocks_per_row, units_per_row, 0, 0, host_simd);
          return;
        }
        // (Host stores are element by element whatever the alignment.)
        if (k == 1) {
          device_style(std::integral_constant<int, 1>{}, std::false_type{});
        } else {
          if (shared_high) device_style(std::integral_constant<int, device_k>{}, std::true_type{});
          else device_style(std::integral_constant<int, device_k>{}, std::false_type{});
        }
      } else if (vector_stores && shared_high) {
        device_style(std::integral_constant<int, device_k>{}, std::true_type{});
      } else {
        device_style(std::integral_constant<int, device_k>{}, std::false_type{});
      }
    };
    using rank0 = std::integral_constant<int, 0>;
    using rankr = std::integral_constant<int, rank - 1>;
    struct idx32 { using type = std::uint32_t; };
    struct idx64 { using type = std::uint64_t; };
    if (one_row) {
      if (small) go(rank0{}, idx32{}); else go(rank0{}, idx64{});
    } else {
      if (small) go(rankr{}, idx32{}); else go(rankr{}, idx64{});
    }
    return true;
  }
}

// Fills `view` (any rank 0..8, any layout, any memory space reachable from `space`)
// with `dist` drawn from the stream at `state`, as the block `box` of the global tensor.
// Pure: does not touch any generator state. Asynchronous like any Kokkos kernel on
// `space`. Throws std::invalid_argument if `box` does not fit the View or the state's
// offset is not a multiple of 4.
//
// fill_random_with(..., path) is the same with the kernel chosen by `path` (FillPath).
template <class ExecSpace, class ViewType, class Dist>
void fill_random_with(const ExecSpace& space, const ViewType& view, const Dist& dist,
                      const RNGState& state, const GlobalBox& box, FillPath path) {
  static_assert(Kokkos::is_execution_space<ExecSpace>::value,
                "fill_random: not an execution space");
  static_assert(Kokkos::is_view<ViewType>::value, "fill_random: not a Kokkos::View");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename ViewType::memory_space>::accessible,
                "fill_random: the View's memory space is not accessible from the execution space");
  static_assert(std::is_same<typename ViewType::value_type, typename Dist::value_type>::value,
                "fill_random: the View's value type must be the distribution's (and not const)");
  constexpr int rank = static_cast<int>(ViewType::rank);
  constexpr int elements_per_block = Dist::elements_per_block;
  static_assert(elements_per_block == 2 || elements_per_block == 4, "bad elements_per_block");
  const char* function = "KokkosDTensor::Impl::fill_random";

  if (state.offset % 4 != 0) {
    throw_invalid_argument(function, "state.offset", format_value(state.offset),
                           "must be a multiple of 4");
  }
  if (box.rank != rank) {
    throw_invalid_argument(function, "box.rank", format_value(box.rank),
                           "must equal the View's rank " + format_value(rank));
  }
  // Global strides, with a check that the global tensor has fewer than 2^64 elements.
  std::uint64_t global_stride[8] = {};
  std::uint64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    const std::int64_t extent = box.global_extent[d];
    const std::int64_t origin = box.origin[d];
    const std::int64_t local = static_cast<std::int64_t>(view.extent(d));
    if (extent < 0 || origin < 0 || origin > extent || local > extent - origin) {
      throw_invalid_argument(function, "box",
                             "origin[" + format_value(d) + "] = " + format_value(origin) +
                                 ", global_extent[" + format_value(d) +
                                 "] = " + format_value(extent),
                             "must hold the View's extent " + format_value(local) +
                                 " in dimension " + format_value(d));
    }
    global_stride[d] = stride;
    if (extent != 0 && stride > ~std::uint64_t(0) / static_cast<std::uint64_t>(extent)) {
      throw_invalid_argument(function, "box.global_extent", "(rank " + format_value(rank) + ")",
                             "the global tensor must have fewer than 2^64 elements");
    }
    stride *= static_cast<std::uint64_t>(extent);
  }
  if (view.size() == 0) return;

  if constexpr (is_uniform_distribution<Dist>::value) {
    using T = typename Dist::value_type;
    if (path != FillPath::generic && dist.from == T(0) && dist.range == T(1) &&
        dist.below_to == T(1) - std::numeric_limits<T>::epsilon() / 2) {
      const StandardUniform<T> standard{};
      fill_random_with(space, view, standard, state, box, path);
      return;
    }
  }
  if (rank > 0 && path != FillPath::generic) {
    // On the host the host-style functor is the default only with its AVX2+FMA version:
    // its portable loop measured slower than the device-style kernel on x86-64 (g++ 12 did
    // not vectorise it), the AVX2 one 4.6x (uniform f32) to 27x (normal f32) faster
    // (docs/performance.md, "CPU figures").
    const bool host_style =
        runs_on_host<ExecSpace>() &&
        (path == FillPath::rows_host || path == FillPath::rows_host_portable ||
         (path == FillPath::automatic && host_has_avx2_fma()));
    const bool host_simd = path != FillPath::rows_host_portable;
    // Device backends run several blocks per work item for write-only ops (fill_rows);
    // rows_device asks for that on the host too, so that the host tests compare it with
    // the other paths.
    const bool strided = path == FillPath::rows_device;
    if (fill_rows(space, view, dist, state, box, global_stride, host_style, strided, host_simd))
      return;
  }

  const std::uint64_t first_block = state.offset / 4;
  if constexpr (rank == 0) {
    FillRandomScalarFunctor<ViewType, Dist> functor{view, dist, state.seed, first_block};
    Kokkos::parallel_for(
        "KokkosDTensor::fill_random",
        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, 1), functor);
  } else {
    FillRandomFunctor<ViewType, Dist, rank> functor;
    functor.view = view;
    functor.dist = dist;
    functor.seed = state.seed;
    functor.first_block = first_block;
    functor.origin_linear = 0;
    std::int64_t rows = 1;
    for (int d = 0; d < 8; ++d) {
      functor.global_stride[d] = global_stride[d];
      functor.row_extent[d] = 1;
    }
    for (int d = 0; d < rank; ++d) {
      functor.origin_linear += static_cast<std::uint64_t>(box.origin[d]) * global_stride[d];
    }
    for (int d = 0; d + 1 < rank; ++d) {
      functor.row_extent[d] = static_cast<std::int64_t>(view.extent(d));
      rows *= functor.row_extent[d];
    }
    functor.row_length = static_cast<std::int64_t>(view.extent(rank - 1));
    // Every row starts on a block boundary when the box's first element does and the
    // global row length is a multiple of the block's element count; otherwise a row
    // may touch one more block.
    const bool rows_aligned = functor.origin_linear % elements_per_block == 0 &&
                              (rank == 1 || global_stride[rank - 2] % elements_per_block == 0);
    functor.blocks_per_row =
        (functor.row_length + elements_per_block - 1) / elements_per_block + (rows_aligned ? 0 : 1);
    Kokkos::parallel_for("KokkosDTensor::fill_random",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(
                             space, 0, rows * functor.blocks_per_row),
                         functor);
  }
}

template <class ExecSpace, class ViewType, class Dist>
void fill_random(const ExecSpace& space, const ViewType& view, const Dist& dist,
                 const RNGState& state, const GlobalBox& box) {
  fill_random_with(space, view, dist, state, box, FillPath::automatic);
}

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
