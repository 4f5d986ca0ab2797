#ifndef KOKKOSDTENSOR_IMPL_FILLROWS_HPP
#define KOKKOSDTENSOR_IMPL_FILLROWS_HPP

// What the device-style and host-style rows kernels share: the geometry of a row (finding a
// work item's row with precomputed divisions), block stores and loads, and bounds-checked
// blocks at a row's ends.

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <impl/KokkosDTensor_Philox.hpp>
#include <type_traits>

namespace KokkosDTensor {
namespace Impl {

// ---- fast paths ---------------------------------------------------------------------------
//
// The generic kernel (KokkosDTensor_FillGeneric.hpp) handles every View. fill_random uses it
// only where the rows kernels do not apply; they give identical values (the same words reach the
// same elements, the same transform runs on them), which unit_tests/Test_FillPaths.cpp checks path
// against path, byte for byte.
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
// OneRow: the whole View is one row. Otherwise row_rank (1 .. 7) dimensions index the rows:
// a run-time count, so that Views of every rank share one kernel.
constexpr int max_row_rank = 7;
template <class T, class Dist, bool OneRow, class Index>
struct FillRowsGeometry {
  static constexpr int elements_per_block = Dist::elements_per_block;
  static constexpr int row_dims = max_row_rank;
  T* data;
  int row_rank;  // 0 when OneRow
  Dist dist;
  PhiloxKeySchedule key;
  std::uint64_t first_block;    // state.offset / 4
  std::uint64_t origin_linear;  // L of local element (0, ..., 0)
  Index row_length;             // elements per row
  Index blocks_per_row;         // Philox blocks a row may touch (work units per row)
  divider_t<Index> per_row;     // divides by the work units (items or chunks) per row
  Index row_extent[row_dims];   // local extents of the row dimensions
  divider_t<Index> row_divider[row_dims];
  std::int64_t memory_stride[row_dims];   // View strides of the row dimensions (elements)
  std::uint64_t global_stride[row_dims];  // row-major strides of the global tensor

  // The row's first element in memory and its L.
  KOKKOS_FORCEINLINE_FUNCTION void locate_row(Index row, std::int64_t& memory_offset,
                                              std::uint64_t& row_start) const {
    memory_offset = 0;
    row_start = origin_linear;
    if (!OneRow && row_rank == 1) {  // (a matrix: no loop, no divisions)
      memory_offset = static_cast<std::int64_t>(row) * memory_stride[0];
      row_start += static_cast<std::uint64_t>(row) * global_stride[0];
      return;
    }
    for (int d = OneRow ? -1 : row_rank - 1; d >= 0; --d) {
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
    if (!OneRow) {
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
  // `with` is dist or an equivalent object (OnSharedNormalTable).
  KOKKOS_FORCEINLINE_FUNCTION void fill_block(T* row, std::uint64_t row_start,
                                              std::uint64_t block) const {
    fill_block(row, row_start, block, dist);
  }
  template <class With>
  KOKKOS_FORCEINLINE_FUNCTION void fill_block(T* row, std::uint64_t row_start, std::uint64_t block,
                                              const With& with) const {
    constexpr int E = elements_per_block;
    const std::int64_t first = static_cast<std::int64_t>(block * E - row_start);
    const std::int64_t length = static_cast<std::int64_t>(row_length);
    if (first >= length || first + E <= 0) return;
    fill_block_words(row, row_start, block, stream_block(key, first_block + block), with);
  }

  // The same with the block's words already drawn.
  KOKKOS_FORCEINLINE_FUNCTION void fill_block_words(T* row, std::uint64_t row_start,
                                                    std::uint64_t block,
                                                    const PhiloxBlock& words) const {
    fill_block_words(row, row_start, block, words, dist);
  }
  template <class With>
  KOKKOS_FORCEINLINE_FUNCTION void fill_block_words(T* row, std::uint64_t row_start,
                                                    std::uint64_t block, const PhiloxBlock& words,
                                                    const With& with) const {
    constexpr int E = elements_per_block;
    const std::int64_t first = static_cast<std::int64_t>(block * E - row_start);
    const std::int64_t length = static_cast<std::int64_t>(row_length);
    if (first >= length || first + E <= 0) return;
    T values[E] = {};
    if (first >= 0 && first + E <= length) {
      const bool aligned = block_aligned<T, E>(row + first);
      if (Dist::reads_input) load_block<T, E>(row + first, values, aligned);
      with(words, values);
      store_block<T, E>(row + first, values, aligned);
    } else {
      if (Dist::reads_input) {
        for (int e = 0; e < E; ++e) {
          const std::int64_t j = first + e;
          if (j >= 0 && j < length) values[e] = row[j];
        }
      }
      with(words, values);
      for (int e = 0; e < E; ++e) {
        const std::int64_t j = first + e;
        if (j >= 0 && j < length) row[j] = values[e];
      }
    }
  }
};

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
