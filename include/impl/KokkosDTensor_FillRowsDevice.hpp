#ifndef KOKKOSDTENSOR_IMPL_FILLROWSDEVICE_HPP
#define KOKKOSDTENSOR_IMPL_FILLROWSDEVICE_HPP

// The device-style rows kernel: K Philox blocks of one row per work item.

#include <cstdint>
#include <impl/KokkosDTensor_FillRows.hpp>

namespace KokkosDTensor {
namespace Impl {

// Philox blocks per device work item for ops that only write (below). 8 rather than 4:
// through Kokkos' RangePolicy loop, K = 4 lost 7-10% against the same body launched as a
// plain CUDA kernel on the H200, K = 8 did not (docs/performance.md, "Why it is built this way").
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
// "Why it is built this way").
//
// P: blocks per store. With P > 1 item t fills the runs of P blocks that start at whole
// blocks P t, P (t + interior_items), ... (K / P runs), a run one vector store: 16-bit ops
// that only write store two blocks as 16 bytes instead of as two 8-byte stores (faster on
// the H200: docs/performance.md, "Reduced precision"). VectorStores then needs runs
// aligned to their size.
template <class T, class Dist, bool OneRow, class Index, int K, bool VectorStores, bool SharedHigh,
          int P = 1>
struct FillRowsFunctor : FillRowsGeometry<T, Dist, OneRow, Index> {
  static constexpr bool is_host_style = false;
  // Work items per row for the whole blocks (per_row.divisor counts two more when rows have
  // partial blocks).
  Index interior_items = 0;
  std::uint32_t counter_high = 0;  // used when SharedHigh

  KOKKOS_INLINE_FUNCTION void operator()(const Index item) const { run(item, this->dist); }

  // Work item `item` with `with`: dist or an equivalent object (OnSharedNormalTable).
  template <class With>
  KOKKOS_FORCEINLINE_FUNCTION void run(const Index item, const With& with) const {
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
      const bool wanted =
          edge == 0 ? row_start % E != 0 : row_end % E != 0 && end_whole >= first_whole;
      if (wanted)
        this->fill_block(row_data, row_start,
                         first_whole - 1 + edge * (end_whole + 1 - first_whole), with);
      return;
    }
    const Index whole = end_whole > first_whole ? static_cast<Index>(end_whole - first_whole) : 0;
    T* const base = row_data + (first_whole * E - row_start);
    const std::uint64_t counter = this->first_block + first_whole;
    if constexpr (P == 1) {
      // Unrolled explicitly: without it nvcc 13 made the normal_ f32 kernel 15% longer
      // (PTX: 2095 instead of 1825 instructions; the other kernels came out the same).
      PhiloxBlock words[K];
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#pragma unroll
#endif
      for (int j = 0; j < K; ++j) words[j] = whole_block_words(counter, t + j * interior_items);
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#pragma unroll
#endif
      for (int j = 0; j < K; ++j) {
        const Index b = t + j * interior_items;
        if (b < whole) {
          T* const dst = base + static_cast<std::size_t>(b) * E;
          T values[E] = {};
          if (Dist::reads_input) load_block<T, E>(dst, values, VectorStores);
          with(words[j], values);
          store_block<T, E>(dst, values, VectorStores);
        }
      }
    } else {
      // Run s: the P blocks from P (t + s interior_items), one store when all are whole.
      // Each run's Philox right before its store: with all K drawn first, as above, the
      // 16-bit uniform_ kernel kept far more registers live (docs/performance.md).
      static_assert(!Dist::reads_input, "P blocks per store only for ops that only write");
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#pragma unroll
#endif
      for (int s = 0; s < K / P; ++s) {
        const Index first = (t + s * interior_items) * P;
        PhiloxBlock words[P];
        for (int p = 0; p < P; ++p) words[p] = whole_block_words(counter, first + p);
        T* const dst = base + static_cast<std::size_t>(first) * E;
        if (first + P <= whole) {
          T values[P][E] = {};
          for (int p = 0; p < P; ++p) with(words[p], values[p]);
          T joined[P * E];
          memcpy(joined, values, sizeof(joined));
          store_block<T, P * E>(dst, joined, VectorStores);
        } else {
          for (int p = 0; p < P; ++p) {
            if (first + p < whole) {
              T values[E] = {};
              with(words[p], values);
              store_block<T, E>(dst + p * E, values, VectorStores);
            }
          }
        }
      }
    }
  }

  // The words of whole block b of a row whose first whole block is stream block `counter`.
  KOKKOS_FORCEINLINE_FUNCTION PhiloxBlock whole_block_words(std::uint64_t counter, Index b) const {
    if constexpr (SharedHigh) {
      const std::uint32_t low = static_cast<std::uint32_t>(counter) + static_cast<std::uint32_t>(b);
      return stream_block(this->key, low, counter_high);
    } else {
      return stream_block(this->key, counter + static_cast<std::uint64_t>(b));
    }
  }
};

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
