#ifndef KOKKOSDTENSOR_IMPL_FILLDISPATCH_HPP
#define KOKKOSDTENSOR_IMPL_FILLDISPATCH_HPP

// The fill shared by random ops on plain Views and on DTensors (docs/design.md):
// GlobalBox, offset_after, and fill_random, which chooses a kernel for a View.
//
// Kernels are keyed on (execution space, distribution, path), never on the View type: a View
// reaches them as StridedData (pointer, extents, strides), so every View type shares one
// kernel. The library compiles the automatic path for every enabled execution space and
// distribution (KokkosDTensor_FillETI.hpp), so a user's op call instantiates no kernel.

#include <KokkosDTensor_RNGState.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <impl/KokkosDTensor_Distributions.hpp>
#include <impl/KokkosDTensor_Error.hpp>
#include <impl/KokkosDTensor_FillColumnsHost.hpp>
#include <impl/KokkosDTensor_FillElements.hpp>
#include <impl/KokkosDTensor_FillGeneric.hpp>
#include <impl/KokkosDTensor_FillRowsDevice.hpp>
#include <impl/KokkosDTensor_FillRowsHost.hpp>
#include <impl/KokkosDTensor_FillRowsSharedTable.hpp>
#include <impl/KokkosDTensor_StridedData.hpp>
#include <type_traits>

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

// The box of a rank-2 View in a global g0 x g1 tensor, at origin (o0, o1).
inline GlobalBox box_2d(std::int64_t g0, std::int64_t g1, std::int64_t o0, std::int64_t o1) {
  GlobalBox box;
  box.rank = 2;
  box.global_extent[0] = g0;
  box.global_extent[1] = g1;
  box.origin[0] = o0;
  box.origin[1] = o1;
  return box;
}

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
// 2^64; callers call it before touching data, so a failed op changes nothing.
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

// Which kernel fill_random runs. automatic: the rows kernels when the View's last dimension
// is contiguous (device style on device execution spaces; on host ones host style when its
// AVX2+FMA version runs, device style with one block per item otherwise), else the columns
// kernels when another dimension is (device style on device spaces, host style on host ones,
// which take Views with no unit stride too), else the elements kernel on devices, else
// generic. The others force a path, for the tests and kdt-perf only: a forced path that does
// not apply to the View falls back to generic; rows_device on a host space runs the device's
// blocks per item and both counter forms (and the device-style columns kernel); rows_host
// runs the host-style kernels; rows_host_portable is rows_host without AVX2.
enum class FillPath { automatic, generic, rows_device, rows_host, rows_host_portable };

template <class ExecSpace>
constexpr bool runs_on_host() {
  return Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;
}

// The index type of the kernels' instantiations (32-bit only: part_limit).
struct index32 {
  using type = std::uint32_t;
};

// Launches a device-style columns or elements functor over `items` work items: the team
// kernel with the normals' table in team scratch where the distribution uses it (as in the
// rows path), a RangePolicy otherwise.
template <class Dist, class ExecSpace, class Functor, class Index>
void launch_device_items(const ExecSpace& space, const Functor& functor, Index items) {
  if constexpr (uses_shared_normal_table<Dist>::value) {
    launch_rows_shared_table(space, functor, items);
  } else {
    using PolicyIndex = typename std::conditional<sizeof(Index) == 4, int, std::int64_t>::type;
    Kokkos::parallel_for("KokkosDTensor::fill_random",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<PolicyIndex>>(
                             space, 0, static_cast<PolicyIndex>(items)),
                         functor);
  }
}

// The geometry every rows and columns functor shares (FillRowsGeometry); row dimension i is
// the View's dimension dims[i].
template <class Functor, class T, class Dist>
void set_row_geometry(Functor& f, const StridedData<T>& view, const Dist& dist,
                      const RNGState& state, int row_rank, const int* dims,
                      std::uint64_t origin_linear, const std::uint64_t* global_stride,
                      std::uint64_t row_length, std::uint64_t blocks_per_row) {
  using Index = std::decay_t<decltype(f.row_length)>;
  f.data = view.data;
  f.row_rank = row_rank;
  f.dist = dist;
  f.key = philox_key_schedule(state.seed);
  f.first_block = state.offset / 4;
  f.origin_linear = origin_linear;
  f.row_length = static_cast<Index>(row_length);
  f.blocks_per_row = static_cast<Index>(blocks_per_row);
  for (int i = 0; i < max_row_rank; ++i) {
    const bool used = i < row_rank;
    const int d = used ? dims[i] : 0;
    f.row_extent[i] = used ? static_cast<Index>(view.extent[d]) : Index(1);
    f.row_divider[i] = divider_t<Index>(f.row_extent[i]);
    f.memory_stride[i] = used ? view.stride[d] : 0;
    f.global_stride[i] = used ? global_stride[d] : 0;
  }
}

// Sets up and launches a rows functor (device or host style); SharedTable: the device style
// in the team kernel with the normal table in team scratch.
template <class Functor, class Index, bool SharedTable = false, class ExecSpace, class T,
          class Dist>
void launch_rows(const ExecSpace& space, const StridedData<T>& view, const Dist& dist,
                 const RNGState& state, int row_rank, std::uint64_t origin_linear,
                 const std::uint64_t* global_stride, std::uint64_t row_length, std::uint64_t rows,
                 std::uint64_t blocks_per_row, std::uint64_t units_per_row,
                 std::uint64_t interior_items, std::uint32_t counter_high, bool host_simd) {
  Functor functor;
  const int dims[max_row_rank] = {0, 1, 2, 3, 4, 5, 6};
  set_row_geometry(functor, view, dist, state, row_rank, dims, origin_linear, global_stride,
                   row_length, blocks_per_row);
  functor.per_row = divider_t<Index>(static_cast<Index>(units_per_row));
  if constexpr (Functor::is_host_style) {
    functor.use_avx2_fma = host_simd && host_has_avx2_fma();
    functor.use_avx512 = host_simd && host_has_avx512();
  } else {
    functor.interior_items = static_cast<Index>(interior_items);
    functor.counter_high = counter_high;
  }
  (void)host_simd;
  (void)counter_high;
  if constexpr (SharedTable) {
    launch_rows_shared_table(space, functor, static_cast<Index>(rows * units_per_row));
    return;
  }
  using PolicyIndex = typename std::conditional<sizeof(Index) == 4, int, std::int64_t>::type;
  // Host threads take the chunks dynamically, so that a thread slowed by its core (another
  // process, a VM's steal) does not hold up the fill; every chunk's values are the same
  // whichever thread writes them.
  using Schedule =
      typename std::conditional<Functor::is_host_style, Kokkos::Schedule<Kokkos::Dynamic>,
                                Kokkos::Schedule<Kokkos::Static>>::type;
  Kokkos::parallel_for("KokkosDTensor::fill_random",
                       Kokkos::RangePolicy<ExecSpace, Schedule, Kokkos::IndexType<PolicyIndex>>(
                           space, 0, static_cast<PolicyIndex>(rows * units_per_row)),
                       functor);
}

// The high 32 bits of the index of the stream block that holds element L = linear (E elements
// a block).
inline std::uint64_t block_high_word(const RNGState& state, int E, std::uint64_t linear) {
  return (state.offset / 4 + linear / E) >> 32;
}

// Whether all the stream blocks of a non-empty View's elements (those of L = origin_linear up to
// its last element's) share the high 32 bits of their index.
template <class T>
bool blocks_share_high_word(const StridedData<T>& view, const RNGState& state, int E,
                            std::uint64_t origin_linear, const std::uint64_t* global_stride) {
  std::uint64_t last_linear = origin_linear;
  for (int d = 0; d < view.rank; ++d)
    last_linear += static_cast<std::uint64_t>(view.extent[d] - 1) * global_stride[d];
  return block_high_word(state, E, origin_linear) == block_high_word(state, E, last_linear);
}

// (Below: the paths fill some Views as parts, each through it.)
template <FillPath Path, class ExecSpace, class Dist>
void fill_strided(const ExecSpace& space, const StridedData<typename Dist::value_type>& view,
                  const Dist& dist, const RNGState& state, const GlobalBox& box);

// The kernels of the rows, columns and elements paths are compiled in their 32-bit index
// form only (a 64-bit form beside it cost compile time and code size, docs/building.md): a
// View of this many elements or more, or with as many work items, is filled as parts of
// fewer (for_each_part). KOKKOSDTENSOR_PART_LIMIT=N (2 or more) lowers it, for the tests.
// Values do not depend on it.
constexpr std::uint64_t index32_limit = std::uint64_t(1) << 31;
inline std::uint64_t part_limit() {
  constexpr std::uint64_t limit = index32_limit;
  if (const char* text = std::getenv("KOKKOSDTENSOR_PART_LIMIT")) {
    const long long n = std::atoll(text);
    if (n >= 2 && static_cast<std::uint64_t>(n) < limit) return static_cast<std::uint64_t>(n);
  }
  return limit;
}

// Elements [start, start + count) of `view` along dimension d, as a View and its box (part,
// part_box): filled through fill_strided, they get their global indices' values.
template <class T>
void cut_slab(const StridedData<T>& view, const GlobalBox& box, const int d,
              const std::int64_t start, const std::int64_t count, StridedData<T>& part,
              GlobalBox& part_box) {
  part = view;
  part_box = box;
  part.extent[d] = count;
  part.data = view.data + start * view.stride[d];
  part_box.origin[d] += start;
}

// fill_part(part, part_box) for parts of `view` of about limit / 2 elements each, cut along
// its longest dimension (of those, the outermost in memory) at multiples of 64 elements where
// it has 128 or more, so that the parts keep the View's alignment to blocks and vectors. An
// element's value is its global index's, wherever the View is cut.
template <class T, class FillPart>
void for_each_part(const StridedData<T>& view, const GlobalBox& box, const std::uint64_t limit,
                   const FillPart& fill_part) {
  int d = 0;
  for (int i = 1; i < view.rank; ++i) {
    if (view.extent[i] > view.extent[d] ||
        (view.extent[i] == view.extent[d] && view.stride[i] > view.stride[d]))
      d = i;
  }
  const std::int64_t extent = view.extent[d];
  const auto parts = static_cast<std::int64_t>((view.size() + limit / 2 - 1) / (limit / 2));
  std::int64_t chunk = (extent + parts - 1) / parts;
  if (extent >= 128) chunk = (chunk + 63) / 64 * 64;
  if (chunk >= extent) chunk = (extent + 1) / 2;  // (two parts at least)
  for (std::int64_t start = 0; start < extent; start += chunk) {
    StridedData<T> part;
    GlobalBox part_box;
    cut_slab(view, box, d, start, std::min(chunk, extent - start), part, part_box);
    fill_part(part, part_box);
  }
}

// Fills `view` as parts of fewer than `limit` elements (for_each_part), each through
// fill_strided.
template <FillPath Path, class ExecSpace, class T, class Dist>
void fill_in_parts(const ExecSpace& space, const StridedData<T>& view, const Dist& dist,
                   const RNGState& state, const GlobalBox& box, const std::uint64_t limit) {
  for_each_part(view, box, limit, [&](const StridedData<T>& part, const GlobalBox& at) {
    fill_strided<Path>(space, part, dist, state, at);
  });
}

// The rows path for a View whose box was checked (global_stride: the global tensor's
// row-major strides). Returns false, launching nothing, if it does not apply.
template <FillPath Path, class ExecSpace, class T, class Dist>
bool fill_rows(const ExecSpace& space, const StridedData<T>& view, const Dist& dist,
               const RNGState& state, const GlobalBox& box, const std::uint64_t* global_stride) {
  constexpr int E = Dist::elements_per_block;
  const int rank = view.rank;
  const std::uint64_t last = static_cast<std::uint64_t>(view.extent[rank - 1]);
  if (last > 1 && view.stride[rank - 1] != 1) return false;
  std::uint64_t origin_linear = 0;
  for (int d = 0; d < rank; ++d)
    origin_linear += static_cast<std::uint64_t>(box.origin[d]) * global_stride[d];
  // One row when the View is contiguous row-major in memory and in L: local linear index
  // i has memory offset i and L = origin_linear + i.
  bool one_row = true;
  std::uint64_t local_stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    if (view.extent[d] > 1 && (static_cast<std::uint64_t>(view.stride[d]) != local_stride ||
                               global_stride[d] != local_stride))
      one_row = false;
    local_stride *= static_cast<std::uint64_t>(view.extent[d]);
  }
  const std::uint64_t size = view.size();
  const std::uint64_t rows = one_row ? 1 : size / last;
  const std::uint64_t row_length = one_row ? size : last;
  const bool rows_aligned =
      origin_linear % E == 0 && (one_row || rank == 1 || global_stride[rank - 2] % E == 0);
  const std::uint64_t blocks_per_row = one_row ? (origin_linear % E + row_length + E - 1) / E
                                               : (row_length + E - 1) / E + (rows_aligned ? 0 : 1);
  // Device style: the whole blocks of a row (of the longest row when there are several),
  // and whether rows start or end inside a block.
  const std::uint64_t first_whole = (origin_linear + E - 1) / E;
  const std::uint64_t end_whole = (origin_linear + size) / E;
  const std::uint64_t whole_blocks =
      one_row ? (end_whole > first_whole ? end_whole - first_whole : 0) : row_length / E;
  const bool partial_blocks = one_row ? origin_linear % E != 0 || (origin_linear + size) % E != 0
                                      : !rows_aligned || row_length % E != 0;
  // Vector stores (device backends): every row's first whole block is aligned to `bytes`
  // when the first row's is and rows are a whole number of blocks apart in L and a multiple
  // of `bytes` apart in memory.
  const auto rows_aligned_to = [&](std::size_t bytes) {
    if (!one_row && !rows_aligned) return false;
    if (reinterpret_cast<std::uintptr_t>(view.data + (first_whole * E - origin_linear)) % bytes)
      return false;
    for (int d = 0; !one_row && d + 1 < rank; ++d) {
      if (view.extent[d] > 1 && static_cast<std::size_t>(view.stride[d]) * sizeof(T) % bytes)
        return false;
    }
    return true;
  };
  constexpr std::size_t block_bytes = sizeof(T) * E;
  const bool vector_stores = rows_aligned_to(block_bytes);
  // Blocks per store on device spaces: two for 16-bit ops that only write (one 16-byte
  // store), where rows are aligned to two blocks (FillRowsFunctor's P).
  constexpr int device_p = is_reduced_float<T>() && !Dist::reads_input ? 2 : 1;
  const bool run_stores = device_p > 1 && rows_aligned_to(device_p * block_bytes);
  // Host style: on host spaces, when its AVX2+FMA version runs or a test asks for it.
  constexpr bool on_host = runs_on_host<ExecSpace>();
  const bool host_style =
      on_host && (Path == FillPath::rows_host || Path == FillPath::rows_host_portable ||
                  (Path == FillPath::automatic && host_has_avx2_fma()));
  const bool host_simd = Path != FillPath::rows_host_portable;
  // Blocks per device work item: strided_blocks_per_item for ops that only write, twice that
  // for 16-bit uniform_ (bound by instruction issue: the item's setup over twice the
  // elements), one for dropout_, which also reads (docs/performance.md). Host spaces take
  // one, except on the tests' rows_device path, which checks the device's choice against the
  // reference.
  constexpr int device_k = Dist::reads_input               ? 1
                           : is_16bit_uniform<Dist>::value ? 2 * strided_blocks_per_item
                                                           : strided_blocks_per_item;
  constexpr int k = on_host && Path != FillPath::rows_device ? 1 : device_k;
  const std::uint64_t interior_items = (whole_blocks + k - 1) / k;
  const std::uint64_t units_per_row =
      host_style ? (blocks_per_row + host_chunk_blocks - 1) / host_chunk_blocks
                 : interior_items + (partial_blocks ? 2 : 0);
  const std::uint64_t counter_high = block_high_word(state, E, origin_linear);
  const bool shared_high =
      size > 0 && blocks_share_high_word(view, state, E, origin_linear, global_stride);
  const std::uint64_t limit = part_limit();
  if (size >= limit || rows * units_per_row >= index32_limit) {
    // (A part of fewer elements may still have too many work items: cut again.)
    fill_in_parts<Path>(space, view, dist, state, box, limit);
    return true;
  }
  const int row_rank = one_row ? 0 : rank - 1;
  const auto go = [&](auto one_row_tag, auto index_tag) {
    constexpr bool OneRow = decltype(one_row_tag)::value;
    using Index = typename decltype(index_tag)::type;
    // The device-style functor; Fast: vector stores (device spaces only) and the shared high
    // counter word.
    const auto device_style = [&](auto fast_tag) {
      constexpr bool fast = decltype(fast_tag)::value;
      constexpr bool vector = fast && !on_host;
      // The normals' table in team scratch on device spaces (and on the tests' rows_device
      // path, to check it on the host).
      constexpr bool shared_table =
          uses_shared_normal_table<Dist>::value && (!on_host || Path == FillPath::rows_device);
      // (Not `if constexpr`: nvcc 13 rejected this lambda's Index inside one. The tests'
      // rows_device path takes the runs on host spaces too, with element stores.)
      constexpr int p = vector || (on_host && Path == FillPath::rows_device) ? device_p : 1;
      if (p > 1 && run_stores) {
        launch_rows<FillRowsFunctor<T, Dist, OneRow, Index, k, vector, fast, p>, Index,
                    shared_table>(space, view, dist, state, row_rank, origin_linear, global_stride,
                                  row_length, rows, blocks_per_row, units_per_row, interior_items,
                                  static_cast<std::uint32_t>(counter_high), host_simd);
        return;
      }
      launch_rows<FillRowsFunctor<T, Dist, OneRow, Index, k, vector, fast>, Index, shared_table>(
          space, view, dist, state, row_rank, origin_linear, global_stride, row_length, rows,
          blocks_per_row, units_per_row, interior_items, static_cast<std::uint32_t>(counter_high),
          host_simd);
    };
    if constexpr (on_host && Path != FillPath::rows_device) {
      // (Host stores are element by element whatever the alignment.)
      if (host_style) {
        launch_rows<FillRowsHostFunctor<T, Dist, OneRow, Index>, Index>(
            space, view, dist, state, row_rank, origin_linear, global_stride, row_length, rows,
            blocks_per_row, units_per_row, 0, 0, host_simd);
      } else {
        device_style(std::false_type{});
      }
    } else {
      if ((on_host || vector_stores) && shared_high)
        device_style(std::true_type{});
      else
        device_style(std::false_type{});
    }
  };
  if (one_row)
    go(std::true_type{}, index32{});
  else
    go(std::false_type{}, index32{});
  return true;
}

// The columns path for a View whose last dimension is strided in memory and another has unit
// stride (KokkosDTensor_FillColumns.hpp, KokkosDTensor_FillColumnsHost.hpp), and on hosts for
// one with no unit stride at all. Returns false, launching nothing, if it does not apply.
template <FillPath Path, class ExecSpace, class T, class Dist>
bool fill_columns(const ExecSpace& space, const StridedData<T>& view, const Dist& dist,
                  const RNGState& state, const GlobalBox& box, const std::uint64_t* global_stride) {
  constexpr int E = Dist::elements_per_block;
  const int last = view.rank - 1;
  // Row dimensions: those before the last with more than one element, the first of unit
  // stride (the column dimension) moved to the end.
  int dims[8] = {};
  int row_rank = 0, column = -1;
  for (int d = 0; d < last; ++d) {
    if (view.extent[d] <= 1) continue;
    if (view.stride[d] == 1 && column < 0)
      column = d;
    else
      dims[row_rank++] = d;
  }
  constexpr bool on_host = runs_on_host<ExecSpace>();
  // No unit stride at all (a column of a LayoutRight matrix): on hosts the tiles below, whose
  // Philox runs in vectors (the generic kernel runs it a block at a time); on devices the
  // elements kernel.
  if (column < 0 && !(on_host && Path != FillPath::rows_device)) return false;
  if (column >= 0) dims[row_rank++] = column;
  std::uint64_t origin_linear = 0;
  for (int d = 0; d <= last; ++d)
    origin_linear += static_cast<std::uint64_t>(box.origin[d]) * global_stride[d];
  const std::uint64_t row_length = static_cast<std::uint64_t>(view.extent[last]);
  const std::uint64_t rows = view.size() / row_length;
  const bool rows_aligned =
      origin_linear % E == 0 && (last == 0 || global_stride[last - 1] % E == 0);
  const std::uint64_t blocks_per_row = (row_length + E - 1) / E + (rows_aligned ? 0 : 1);
  const auto set_geometry = [&](auto& f) {
    using Index = std::decay_t<decltype(f.rows)>;
    set_row_geometry(f, view, dist, state, row_rank, dims, origin_linear, global_stride, row_length,
                     blocks_per_row);
    f.element_step = view.stride[last];
    f.rows = static_cast<Index>(rows);
  };
  // (No unit stride: runs of one row, which the lanes kernel does not take.)
  const std::uint64_t run = column >= 0 ? static_cast<std::uint64_t>(view.extent[column]) : 1;
  if constexpr (on_host && Path != FillPath::rows_device) {
    using Lanes = FillColumnsLanesFunctor<T, Dist>;
    if (Path != FillPath::rows_host_portable && run >= Lanes::L && Lanes::available()) {
      Lanes functor{};
      set_geometry(functor);
      // Several threads: items of 64 groups x 2 chunks (8 columns a pass: fewer write streams
      // for memory shared by the threads); one: the same where Lanes::narrow_items_alone says,
      // else 32 x 4 (8-byte types, and the long transforms where rows start inside a block:
      // fewer blocks drawn; docs/performance.md, "Layouts").
      if (space.concurrency() > 1 || Lanes::narrow_items_alone(rows_aligned)) {
        functor.band_groups = 64;
        functor.chunk_blocks = Lanes::pair_chunks;
      }
      int passes = 0;  // (0: chosen below)
      // KOKKOSDTENSOR_COLUMN_LANES=GROUPS,BLOCKS[,PASSES]: another shape of work item, for
      // measuring (kdt-perf). Values do not depend on it.
      if (const char* tile = std::getenv("KOKKOSDTENSOR_COLUMN_LANES")) {
        const char* comma = std::strchr(tile, ',');
        const char* comma2 = comma ? std::strchr(comma + 1, ',') : nullptr;
        const int groups = std::atoi(tile), chunk = comma ? std::atoi(comma + 1) : 0;
        if (groups >= 1 && chunk >= 1) {
          functor.band_groups = groups;
          functor.chunk_blocks = chunk;
        }
        if (comma2 && std::atoi(comma2 + 1) >= 1) passes = std::atoi(comma2 + 1);
      }
      functor.run = run;
      functor.runs = rows / run;
      functor.bands = (run + Lanes::L * functor.band_groups - 1) / (Lanes::L * functor.band_groups);
      functor.lane_stride = global_stride[column];
      functor.blocks.dist = dist;
      functor.blocks.use_avx2_fma = true;
      functor.blocks.use_avx512 = host_has_avx512();
      // Rows that start inside a block: items of up to 16 passes (one block drawn more per
      // item, not per pass), fewer where that leaves under 8 items a thread; on several threads
      // not for the cheap 4-byte transforms (Lanes::carries_on_threads).
      const std::uint64_t pass_count =
          (functor.chunks_per_row() + functor.chunk_blocks - 1) / functor.chunk_blocks;
      const std::uint64_t threads = static_cast<std::uint64_t>(space.concurrency());
      if (passes == 0 && (threads == 1 || Lanes::carries_on_threads)) {
        passes = 16;
        while (passes > 1 &&
               functor.bands * functor.runs * ((pass_count + passes - 1) / passes) < 8 * threads)
          passes /= 2;
      }
      if (!rows_aligned && passes > 1 && functor.band_groups <= Lanes::max_carried_groups)
        functor.passes = passes;
      const std::uint64_t chunks = (pass_count + functor.passes - 1) / functor.passes;
      Kokkos::parallel_for(
          "KokkosDTensor::fill_random",
          Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>,
                              Kokkos::IndexType<std::int64_t>>(
              space, 0, static_cast<std::int64_t>(functor.bands * functor.runs * chunks)),
          functor);
      return true;
    }
    using Functor = FillColumnsHostFunctor<T, Dist>;
    Functor functor{};
    set_geometry(functor);
    // KOKKOSDTENSOR_COLUMN_TILE=ROWS,COLUMNS: another tile shape, for measuring (kdt-perf);
    // one that does not fit the buffer is ignored. Values do not depend on it.
    if (const char* tile = std::getenv("KOKKOSDTENSOR_COLUMN_TILE")) {
      const char* comma = std::strchr(tile, ',');
      const int tile_rows = std::atoi(tile), chunk = comma ? std::atoi(comma + 1) : 0;
      if (tile_rows >= 1 && tile_rows <= Functor::max_tile_rows && chunk >= 4 * E &&
          tile_rows * (chunk + 2 * E) <= Functor::buffer_elements) {
        functor.tile_rows = tile_rows;
        functor.column_chunk = chunk;
        functor.buffer_row = chunk + 2 * E;
      }
    }
    functor.tiles = (rows + functor.tile_rows - 1) / functor.tile_rows;
    const std::uint64_t chunks = (row_length + functor.column_chunk - 1) / functor.column_chunk;
    const bool host_simd = Path != FillPath::rows_host_portable;
    functor.blocks.dist = dist;
    functor.blocks.key = functor.key;
    functor.blocks.first_block = functor.first_block;
    functor.blocks.row_length = functor.buffer_row;
    functor.blocks.use_avx2_fma = host_simd && host_has_avx2_fma();
    functor.blocks.use_avx512 = host_simd && host_has_avx512();
    Kokkos::parallel_for("KokkosDTensor::fill_random",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>,
                                             Kokkos::IndexType<std::int64_t>>(
                             space, 0, static_cast<std::int64_t>(functor.tiles * chunks)),
                         functor);
  } else {
    if (const std::uint64_t limit = part_limit(); view.size() >= limit) {
      fill_in_parts<Path>(space, view, dist, state, box, limit);
      return true;
    }
    // R neighbouring rows per item, stored as 16-byte vectors, when every group of R rows lies
    // in one run of the column dimension, each aligned to R elements in memory, and the
    // launch's blocks share the high word of their index; rows that start inside a block
    // (the shifted kernel) the same where groups of RS rows are aligned so. Groups not aligned
    // so: 4 rows (8 of 2-byte types), realigned between lanes, for types of 2 and 4 bytes
    // (8-byte ones lost to one row per item, normal_ f64 7 %) and the distributions that gain
    // by it, rows that start inside a block too.
    const std::uint64_t counter_high = block_high_word(state, E, origin_linear);
    constexpr int R = column_vector_rows<T>();
    constexpr bool realigns = (sizeof(T) == 2 || sizeof(T) == 4) && realigns_columns<Dist>::value;
    // Every block of the View under one high word; with rows on blocks too: shared_high.
    const bool one_high_word =
        (R > 1 || realigns) && blocks_share_high_word(view, state, E, origin_linear, global_stride);
    const bool shared_high = one_high_word && rows_aligned;
    // Rows that start inside a block: vector rows where the distribution gains by them.
    constexpr bool shifts = realigns && shifts_columns<Dist>::value;
    // Realigned: RR rows per item (8 of 2-byte types, 4 of 4-byte ones).
    constexpr std::uint64_t RR = column_realigned_rows<T>();
    if constexpr (realigns) {
      // A column extent that is not a multiple of the realigned rows: its first multiple of
      // them as one View (the vector kernels), the rows left as another (one row per item).
      const std::uint64_t left = run % RR;
      if (one_high_word && (rows_aligned || shifts) && left != 0 && run > RR) {
        const auto first = static_cast<std::int64_t>(run - left);
        StridedData<T> part;
        GlobalBox part_box;
        cut_slab(view, box, column, 0, first, part, part_box);
        fill_strided<Path>(space, part, dist, state, part_box);
        cut_slab(view, box, column, first, static_cast<std::int64_t>(left), part, part_box);
        fill_strided<Path>(space, part, dist, state, part_box);
        return true;
      }
    }
    const auto memory_aligned = [&](const int rows_per_vector) {
      bool aligned =
          reinterpret_cast<std::uintptr_t>(view.data) % (rows_per_vector * sizeof(T)) == 0;
      for (int d = 0; d <= last; ++d)
        if (d != column && view.extent[d] > 1 && view.stride[d] % rows_per_vector != 0)
          aligned = false;
      return aligned;
    };
    const auto go = [&](auto index_tag, auto rows_tag, auto realigned_tag, auto shifted_tag) {
      using Index = typename decltype(index_tag)::type;
      constexpr int rows_per_item = decltype(rows_tag)::value;
      using Functor =
          FillColumnsFunctor<T, Dist, Index, rows_per_item, decltype(realigned_tag)::value,
                             decltype(shifted_tag)::value>;
      Functor functor{};
      functor.row_blocks = column_item_row_blocks<T, Dist, decltype(realigned_tag)::value,
                                                  decltype(shifted_tag)::value>();
      // KOKKOSDTENSOR_COLUMN_BLOCKS=N: another item length where items loop over blocks, for
      // measuring (kdt-perf). Values do not depend on it.
      if (const char* blocks = std::getenv("KOKKOSDTENSOR_COLUMN_BLOCKS")) {
        const int n = std::atoi(blocks);
        if (n >= 1 && n <= 64) functor.row_blocks = n;
      }
      const std::uint64_t C = Functor::loops_over_blocks
                                  ? static_cast<std::uint64_t>(functor.row_blocks) * E
                                  : Functor::C;
      const std::uint64_t groups = rows / rows_per_item;
      // Realigned: warps of 31 groups of rows and a lane that repeats the one before, so that
      // runs of rows store no edges between warps (realigned_lookbehind).
      constexpr bool lookbehind = Functor::lookbehind;
      const std::uint64_t region = lookbehind ? 32 * ((groups + 30) / 31) : groups;
      const std::uint64_t items = region * ((row_length + C - 1) / C);
      set_geometry(functor);
      functor.per_rows = divider_t<Index>(static_cast<Index>(region));
      functor.row_groups = static_cast<Index>(groups);
      // KOKKOSDTENSOR_WHOLE_WARP=0: the realigned kernel's shuffles always with the mask of
      // their group (as before the whole-warp path), for measuring. Values do not depend on it.
      if (const char* whole = std::getenv("KOKKOSDTENSOR_WHOLE_WARP"))
        functor.whole_warp = std::atoi(whole) != 0;
      // KOKKOSDTENSOR_PHASE_PATTERNS=0: the realigned stores find each column's phase.
      if (const char* patterns = std::getenv("KOKKOSDTENSOR_PHASE_PATTERNS"))
        functor.phase_patterns = std::atoi(patterns) != 0;
      functor.rows_aligned = rows_aligned;
      functor.column_blocks = static_cast<std::uint32_t>(global_stride[column] / E);
      functor.counter_high = static_cast<std::uint32_t>(counter_high);
      functor.column_stride = global_stride[column];
      launch_device_items<Dist>(space, functor, static_cast<Index>(items));
    };
    using one_row = std::integral_constant<int, 1>;
    using vector = std::integral_constant<int, R>;
    using realigned_vector = std::integral_constant<int, RR>;
    // Rows that start inside a block, each group of RS rows aligned to RS elements in memory:
    // the shifted kernel with plain vector stores, for every distribution and type of 2 bytes
    // or more (it ran faster than the realigned one and than one row per item but for
    // normal_ f32; docs/performance.md, "Layouts").
    constexpr int RS = column_shifted_rows<T, Dist>();
    const auto go_rows = [&](auto index_tag) {
      if (R > 1 && shared_high && run % R == 0 && memory_aligned(R)) {
        go(index_tag, vector{}, std::false_type{}, std::false_type{});
        return;
      }
      if constexpr (RS > 1) {
        if (!rows_aligned && one_high_word && run % RS == 0 && memory_aligned(RS)) {
          go(index_tag, std::integral_constant<int, RS>{}, std::false_type{}, std::true_type{});
          return;
        }
      }
      if constexpr (realigns) {
        if (one_high_word && run % RR == 0 && (rows_aligned || shifts)) {
          // (Rows that start inside a block: each row's shift, whatever the memory's phase.)
          if (rows_aligned) {
            go(index_tag, realigned_vector{}, std::true_type{}, std::false_type{});
            return;
          }
          if constexpr (shifts) {
            go(index_tag, realigned_vector{}, std::true_type{}, std::true_type{});
            return;
          }
        }
      }
      // One row per item where rows start inside a block: the blocks' loop of the shifted
      // kernel where the distribution gains by it (shifts_in_row_loop).
      // KOKKOSDTENSOR_SHIFTED_ROW_LOOP=0: the K-block form, for measuring (kdt-perf).
      if constexpr (shifts_in_row_loop<Dist>::value) {
        const char* const loop = std::getenv("KOKKOSDTENSOR_SHIFTED_ROW_LOOP");
        if (!rows_aligned && one_high_word && (!loop || std::atoi(loop) != 0)) {
          go(index_tag, one_row{}, std::false_type{}, std::true_type{});
          return;
        }
      }
      go(index_tag, one_row{}, std::false_type{}, std::false_type{});
    };
    // (Work items never outnumber elements: fewer than part_limit.)
    go_rows(index32{});
  }
  return true;
}

// The elements path (device spaces, and the tests' rows_device path on hosts) for a View
// that the rows and columns paths do not take whose neighbouring elements are a 32-byte
// sector or more apart (KokkosDTensor_FillElements.hpp). Returns false, launching nothing,
// if it does not apply.
template <FillPath Path, class ExecSpace, class T, class Dist>
bool fill_elements(const ExecSpace& space, const StridedData<T>& view, const Dist& dist,
                   const RNGState& state, const GlobalBox& box,
                   const std::uint64_t* global_stride) {
  const int last = view.rank - 1;
  if (static_cast<std::uint64_t>(view.stride[last]) * sizeof(T) < 32) return false;
  int dims[max_row_rank] = {};
  int row_rank = 0;
  for (int d = 0; d < last; ++d)
    if (view.extent[d] > 1) dims[row_rank++] = d;
  std::uint64_t origin_linear = 0;
  for (int d = 0; d <= last; ++d)
    origin_linear += static_cast<std::uint64_t>(box.origin[d]) * global_stride[d];
  const std::uint64_t row_length = static_cast<std::uint64_t>(view.extent[last]);
  const std::uint64_t size = view.size();
  const auto go = [&](auto index_tag) {
    using Index = typename decltype(index_tag)::type;
    using Functor = FillElementsFunctor<T, Dist, Index>;
    Functor functor{};
    set_row_geometry(functor, view, dist, state, row_rank, dims, origin_linear, global_stride,
                     row_length, row_length);
    functor.per_row = divider_t<Index>(static_cast<Index>(row_length));
    functor.element_step = view.stride[last];
    functor.rows = static_cast<Index>(size / row_length);
    launch_device_items<Dist>(space, functor, static_cast<Index>(size));
  };
  if (const std::uint64_t limit = part_limit(); size >= limit) {
    fill_in_parts<Path>(space, view, dist, state, box, limit);
    return true;
  }
  go(index32{});
  return true;
}

// Fills the View `view` with `dist` drawn from the stream at `state`, as the block `box` of
// the global tensor, by the kernel that `Path` chooses. Pure: touches no generator state.
// Asynchronous like any Kokkos kernel on `space`. Throws std::invalid_argument if `box` does
// not fit the View or the state's offset is not a multiple of 4. Not inline: the library
// instantiates the automatic path once (KokkosDTensor_FillETI.hpp).
template <FillPath Path, class ExecSpace, class Dist>
void fill_strided(const ExecSpace& space, const StridedData<typename Dist::value_type>& view,
                  const Dist& dist, const RNGState& state, const GlobalBox& box) {
  using T = typename Dist::value_type;
  constexpr int elements_per_block = Dist::elements_per_block;
  static_assert(elements_per_block == 2 || elements_per_block == 4, "bad elements_per_block");
  const char* function = "KokkosDTensor::Impl::fill_random";
  const int rank = view.rank;

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
    const std::int64_t local = view.extent[d];
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

  // (if constexpr: the generic path, the tests' reference, instantiates no other kernel.)
  if constexpr (Path != FillPath::generic && std::is_same<Dist, Uniform<T>>::value) {
    if (is_standard_uniform(dist)) {
      fill_strided<Path>(space, view, StandardUniform<T>{}, state, box);
      return;
    }
  }
  if constexpr (Path != FillPath::generic && is_rounded_uniform<Dist>::value) {  // 16-bit T
    if (is_standard_uniform(dist.dist)) {
      fill_strided<Path>(space, view, rounded_standard_uniform(dist), state, box);
      return;
    }
  }
  if constexpr (Path != FillPath::generic) {
    if (fill_rows<Path>(space, view, dist, state, box, global_stride) ||
        fill_columns<Path>(space, view, dist, state, box, global_stride))
      return;
  }
  if constexpr (!runs_on_host<ExecSpace>() || Path == FillPath::rows_device) {
    if (fill_elements<Path>(space, view, dist, state, box, global_stride)) return;
  }

  FillGenericFunctor<T, Dist> functor;
  functor.data = view.data;
  functor.dist = dist;
  functor.seed = state.seed;
  functor.first_block = state.offset / 4;
  functor.origin_linear = 0;
  functor.rank = rank;
  std::int64_t rows = 1;
  for (int d = 0; d < 8; ++d) {
    functor.global_stride[d] = global_stride[d];
    functor.memory_stride[d] = d < rank ? view.stride[d] : 0;
    functor.row_extent[d] = 1;
  }
  for (int d = 0; d < rank; ++d)
    functor.origin_linear += static_cast<std::uint64_t>(box.origin[d]) * global_stride[d];
  for (int d = 0; d + 1 < rank; ++d) {
    functor.row_extent[d] = view.extent[d];
    rows *= functor.row_extent[d];
  }
  functor.row_length = view.extent[rank - 1];
  // Every row starts on a block boundary when the box's first element does and the global
  // row length is a multiple of the block's element count; otherwise a row may touch one
  // more block.
  const bool rows_aligned = functor.origin_linear % elements_per_block == 0 &&
                            (rank == 1 || global_stride[rank - 2] % elements_per_block == 0);
  functor.blocks_per_row =
      (functor.row_length + elements_per_block - 1) / elements_per_block + (rows_aligned ? 0 : 1);
  Kokkos::parallel_for("KokkosDTensor::fill_random",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(
                           space, 0, rows * functor.blocks_per_row),
                       functor);
}

// fill_strided for a Kokkos View (any rank 0..8, LayoutRight, LayoutLeft or LayoutStride,
// any memory space reachable from `space`); rank 0 is a one-element tensor.
template <FillPath Path, class ExecSpace, class ViewType, class Dist>
void fill_random_with(const ExecSpace& space, const ViewType& view, const Dist& dist,
                      const RNGState& state, GlobalBox box) {
  static_assert(Kokkos::is_execution_space<ExecSpace>::value,
                "fill_random: not an execution space");
  static_assert(Kokkos::is_view<ViewType>::value, "fill_random: not a Kokkos::View");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename ViewType::memory_space>::accessible,
                "fill_random: the View's memory space is not accessible from the execution space");
  static_assert(std::is_same<typename ViewType::value_type, typename Dist::value_type>::value,
                "fill_random: the View's value type must be the distribution's (and not const)");
  if (ViewType::rank == 0 && box.rank == 0) {
    box.rank = 1;
    box.global_extent[0] = 1;
    box.origin[0] = 0;
  }
  fill_strided<Path>(space, strided_data(view), dist, state, box);
}

template <class ExecSpace, class ViewType, class Dist>
void fill_random(const ExecSpace& space, const ViewType& view, const Dist& dist,
                 const RNGState& state, const GlobalBox& box) {
  fill_random_with<FillPath::automatic>(space, view, dist, state, box);
}

// A Kokkos::DynRankView takes the kernels of the View of its run-time rank: StridedData
// built from rank(), extents and strides reaches the same fill_strided (compiled in the
// library), so it gets the same values at the same speed and instantiates no kernel.
template <class DataType, class... Properties>
GlobalBox whole_view_box(const Kokkos::DynRankView<DataType, Properties...>& view) {
  GlobalBox box;
  box.rank = static_cast<int>(view.rank());
  for (int d = 0; d < box.rank; ++d)
    box.global_extent[d] = static_cast<std::int64_t>(view.extent(d));
  return box;
}

template <class ExecSpace, class DataType, class... Properties, class Dist>
void fill_random(const ExecSpace& space, const Kokkos::DynRankView<DataType, Properties...>& view,
                 const Dist& dist, const RNGState& state, const GlobalBox& box) {
  using ViewType = Kokkos::DynRankView<DataType, Properties...>;
  static_assert(Kokkos::is_execution_space<ExecSpace>::value,
                "fill_random: not an execution space");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename ViewType::memory_space>::accessible,
                "fill_random: the View's memory space is not accessible from the execution space");
  static_assert(std::is_same<typename ViewType::value_type, typename Dist::value_type>::value,
                "fill_random: the View's value type must be the distribution's (and not const)");
  GlobalBox whole = box;
  if (view.rank() == 0 && box.rank == 0) {  // one element, as a rank-0 View
    whole.rank = 1;
    whole.global_extent[0] = 1;
    whole.origin[0] = 0;
  }
  fill_strided<FillPath::automatic>(space, strided_data(view), dist, state, whole);
}

}  // namespace Impl
}  // namespace KokkosDTensor

#include <impl/KokkosDTensor_FillETI.hpp>

#endif
