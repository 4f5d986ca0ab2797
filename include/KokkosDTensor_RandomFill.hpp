// The fill kernel shared by random ops on plain Views and on DTensors (docs/design.md):
// Impl::GlobalBox, Impl::whole_view_box, Impl::fill_random, Impl::offset_after.

#ifndef KOKKOSDTENSOR_RANDOMFILL_HPP
#define KOKKOSDTENSOR_RANDOMFILL_HPP

#include <KokkosDTensor_Error.hpp>
#include <KokkosDTensor_Distributions.hpp>
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
// dst is aligned to the block's size (8 or 16 bytes), element by element otherwise and on
// the host (where the compiler vectorises the surrounding loops itself).
template <class T, int E>
struct alignas(sizeof(T) * E) BlockVector {
  T value[E];
};

template <class T, int E>
KOKKOS_FORCEINLINE_FUNCTION void store_block(T* dst, const T (&values)[E]) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  constexpr std::size_t bytes = sizeof(T) * E;
  if constexpr (bytes == 8 || bytes == 16) {
    if ((reinterpret_cast<std::uintptr_t>(dst) & (bytes - 1)) == 0) {
      BlockVector<T, E> v;
      for (int e = 0; e < E; ++e) v.value[e] = values[e];
      *reinterpret_cast<BlockVector<T, E>*>(dst) = v;
      return;
    }
  }
#endif
  for (int e = 0; e < E; ++e) dst[e] = values[e];
}

template <class T, int E>
KOKKOS_FORCEINLINE_FUNCTION void load_block(const T* src, T (&values)[E]) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  constexpr std::size_t bytes = sizeof(T) * E;
  if constexpr (bytes == 8 || bytes == 16) {
    if ((reinterpret_cast<std::uintptr_t>(src) & (bytes - 1)) == 0) {
      const BlockVector<T, E> v = *reinterpret_cast<const BlockVector<T, E>*>(src);
      for (int e = 0; e < E; ++e) values[e] = v.value[e];
      return;
    }
  }
#endif
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
  divider_t<Index> per_row;      // divides by blocks_per_row (device) or chunks per row (host)
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
      if (Dist::reads_input) load_block<T, E>(row + first, values);
      dist(words, values);
      store_block<T, E>(row + first, values);
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

// Blocks per work item in the strided one-row mode (below).
constexpr int strided_blocks_per_item = 4;

// Device style: one work item = one Philox block of one row; or, in the strided one-row
// mode (strided_items != 0), item i fills blocks i + j * strided_items for
// j < strided_blocks_per_item: a warp still stores consecutive blocks each step, and each
// thread runs that many independent Philox chains (instruction-level parallelism) instead of
// retiring after 16 bytes.
template <class T, class Dist, int RowRank, class Index>
struct FillRowsFunctor : FillRowsGeometry<T, Dist, RowRank, Index> {
  static constexpr bool is_host_style = false;
  std::uint64_t strided_items = 0;

  KOKKOS_INLINE_FUNCTION void operator()(const Index item) const {
    constexpr int E = Dist::elements_per_block;
    if (RowRank == 0 && strided_items != 0) {
      constexpr int K = strided_blocks_per_item;
      const std::uint64_t row_start = this->origin_linear;
      std::uint64_t block[K];
      PhiloxBlock words[K];
      for (int j = 0; j < K; ++j) {
        block[j] = row_start / E + static_cast<std::uint64_t>(item) + j * strided_items;
        words[j] = stream_block(this->key, this->first_block + block[j]);
      }
      for (int j = 0; j < K; ++j) this->fill_block_words(this->data, row_start, block[j], words[j]);
      return;
    }
    Index row = 0, block_in_row = item;
    if (RowRank > 0) {
      row = this->per_row.divide(item);
      block_in_row = item - row * this->blocks_per_row;
    }
    std::int64_t memory_offset;
    std::uint64_t row_start;
    this->locate_row(row, memory_offset, row_start);
    this->fill_block(this->data + memory_offset, row_start,
                     row_start / E + static_cast<std::uint64_t>(block_in_row));
  }
};

constexpr int host_batch_blocks = 8;   // blocks per philox4x32_10_batch call
constexpr int host_chunk_blocks = 512; // blocks per host work item (2 KiB of floats)

#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(_M_X64)) && \
    !defined(__CUDACC__) && !defined(__HIPCC__) && !defined(__NVCOMPILER) &&                  \
    !defined(KOKKOSDTENSOR_DISABLE_HOST_DISPATCH)
#define KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH 1
#else
#define KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH 0
#endif

// Whether the host fill loop may use its AVX2+FMA version (decided once per process).
inline bool host_has_avx2_fma() {
#if KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
#else
  return false;
#endif
}

// Host style: one work item = a chunk of up to host_chunk_blocks blocks of one row.
template <class T, class Dist, int RowRank, class Index>
struct FillRowsHostFunctor : FillRowsGeometry<T, Dist, RowRank, Index> {
  static constexpr bool is_host_style = true;
  Index chunks_per_row;
  bool use_avx2_fma;

  // Blocks [begin, end) (relative to first_block) of the row at `row` / `row_start`.
  inline void fill_chunk(T* row, std::uint64_t row_start, std::uint64_t begin,
                         std::uint64_t end) const {
    constexpr int E = Dist::elements_per_block;
    constexpr int B = host_batch_blocks;
    const std::uint64_t length = static_cast<std::uint64_t>(this->row_length);
    // Whole blocks: block * E >= row_start and block * E + E <= row_start + length.
    const std::uint64_t whole_begin = (row_start + E - 1) / E;
    const std::uint64_t whole_end = (row_start + length) / E;
    std::uint64_t b = begin;
    for (; b < end && (b < whole_begin || b >= whole_end); ++b) this->fill_block(row, row_start, b);
    const std::uint64_t batch_end = end < whole_end ? end : whole_end;
    for (; b + B <= batch_end; b += B) {
      std::uint32_t word[4 * B];
      philox4x32_10_batch<B>(this->key, this->first_block + b, word);
      T* dst = row + (b * E - row_start);
      for (int l = 0; l < B; ++l) {
        PhiloxBlock block;
        for (int j = 0; j < 4; ++j) block.word[j] = word[4 * l + j];
        T values[E] = {};
        if (Dist::reads_input)
          for (int e = 0; e < E; ++e) values[e] = dst[l * E + e];
        this->dist(block, values);
        for (int e = 0; e < E; ++e) dst[l * E + e] = values[e];
      }
    }
    for (; b < end; ++b) this->fill_block(row, row_start, b);
  }

  inline void run(const Index item) const {
    constexpr int E = Dist::elements_per_block;
    Index row = 0, chunk = item;
    if (RowRank > 0) {
      row = this->per_row.divide(item);
      chunk = item - row * chunks_per_row;
    }
    std::int64_t memory_offset;
    std::uint64_t row_start;
    this->locate_row(row, memory_offset, row_start);
    const std::uint64_t row_first_block = row_start / E;
    const std::uint64_t begin =
        row_first_block + static_cast<std::uint64_t>(chunk) * host_chunk_blocks;
    std::uint64_t end = begin + host_chunk_blocks;
    const std::uint64_t row_end_block = row_first_block + this->blocks_per_row;
    if (end > row_end_block) end = row_end_block;
    fill_chunk(this->data + memory_offset, row_start, begin, end);
  }

#if KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH
  __attribute__((target("avx2,fma"))) void run_avx2_fma(const Index item) const { run(item); }
#endif

  KOKKOS_INLINE_FUNCTION void operator()(const Index item) const {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    (void)item;  // host execution spaces only
#else
#if KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH
    if (use_avx2_fma) {
      run_avx2_fma(item);
      return;
    }
#endif
    run(item);
#endif
  }
};

// Which kernel fill_random runs. automatic: the rows path when the View allows it
// (device style on device execution spaces, host style on host ones), else generic.
// The others force a path (tests and kdt-perf); a forced rows path that does not apply to
// the View falls back to generic.
enum class FillPath { automatic, generic, rows_device, rows_host };

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
                 bool host_style, bool strided = false) {
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
    functor.chunks_per_row = static_cast<Index>(units_per_row);
    functor.use_avx2_fma = host_has_avx2_fma();
  } else if (RowRank == 0 && strided) {
    units_per_row = (blocks_per_row + strided_blocks_per_item - 1) / strided_blocks_per_item;
    functor.strided_items = units_per_row;
  }
  (void)host_style;
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
               bool host_style, bool strided) {
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
    const std::uint64_t units_per_row =
        host_style ? (blocks_per_row + host_chunk_blocks - 1) / host_chunk_blocks : blocks_per_row;
    const bool small = rows * units_per_row < (std::uint64_t(1) << 31) &&
                       size < (std::uint64_t(1) << 31) && blocks_per_row < (std::uint64_t(1) << 31);
    const auto go = [&](auto row_rank_tag, auto index_tag) {
      constexpr int RR = decltype(row_rank_tag)::value;
      using Index = typename decltype(index_tag)::type;
      if constexpr (runs_on_host<ExecSpace>()) {
        if (host_style) {
          launch_rows<FillRowsHostFunctor<T, Dist, RR, Index>, RR, Index>(
              space, view, dist, state, origin_linear, global_stride, row_length, rows,
              blocks_per_row, units_per_row, host_style);
          return;
        }
      }
      {
        launch_rows<FillRowsFunctor<T, Dist, RR, Index>, RR, Index>(
            space, view, dist, state, origin_linear, global_stride, row_length, rows,
            blocks_per_row, units_per_row, host_style, strided);
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
    // The host-style functor is opt-in: measured on this project's x86-64 machine it is not
    // yet faster than the device-style kernel on the host (docs/performance.md).
    const bool host_style = runs_on_host<ExecSpace>() && path == FillPath::rows_host;
    // The strided one-row mode is what device backends run for write-only ops (on the H200
    // it made uniform_ f32 15% faster but dropout_, which also reads, 11% slower:
    // docs/performance.md); rows_device selects it on the host too, so that the host tests
    // compare it with the other paths.
    const bool strided = path == FillPath::rows_device ||
                         (path == FillPath::automatic && !runs_on_host<ExecSpace>() &&
                          !Dist::reads_input);
    if (fill_rows(space, view, dist, state, box, global_stride, host_style, strided)) return;
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
