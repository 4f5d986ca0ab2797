#ifndef KOKKOSDTENSOR_IMPL_POOLFILLRANDOM_HPP
#define KOKKOSDTENSOR_IMPL_POOLFILLRANDOM_HPP

// The kernel behind Kokkos::fill_random(view, Random_Philox_Pool, ...): element L (row-major
// over the View's extents) is Kokkos::rand<generator, T>::draw over words F + L * W ... of
// the pool's fill stream, F its fill position (docs/streams.md). One work item per Philox
// block (4 / W elements), so the kernel writes at memory speed; Kokkos' own functor gives
// each thread a state and 128 consecutive elements, which serialises a GPU's stores.

#include <Kokkos_Core.hpp>
#include <Kokkos_DynRankView.hpp>
#include <Kokkos_Random.hpp>
#include <impl/KokkosDTensor_FillRows.hpp>
#include <impl/KokkosDTensor_StridedData.hpp>
#include <impl/KokkosDTensor_ViewHelpers.hpp>

#include <cstddef>
#include <cstdint>
#include <utility>

namespace KokkosDTensor {
namespace Impl {

// Words per value: one per 4 bytes (Kokkos::rand draws 32-bit values from one word of
// urand/rand/frand, 64-bit ones from two, complex ones from two draws).
template <class T>
constexpr int pool_words_per_value() {
  return sizeof(T) <= 4 ? 1 : static_cast<int>(sizeof(T) / 4);
}

template <class ViewType, std::size_t... I>
KOKKOS_INLINE_FUNCTION typename ViewType::reference_type pool_fill_element(
    const ViewType& view, const std::size_t* index, std::index_sequence<I...>) {
  return view(index[I]...);
}

template <class ExecSpace, class ViewType, class Pool>
void pool_fill_random(const ExecSpace& exec, const ViewType& view, const Pool& pool,
                      typename ViewType::const_value_type begin,
                      typename ViewType::const_value_type end) {
  using T = typename ViewType::non_const_value_type;
  using Generator = typename Pool::generator_type;
  constexpr int rank = static_cast<int>(ViewType::rank);
  constexpr int words = pool_words_per_value<T>();
  constexpr std::uint64_t per_item = words < 4 ? 4 / words : 1;
  const std::uint64_t count = view.size();
  if (count == 0) return;
  const std::uint64_t items = (count + per_item - 1) / per_item;
  // Rank 1 with stride 1: a work item's values are one block of memory, stored at once (a
  // vector store where aligned, as the ops' kernels do).
  const bool contiguous = rank == 1 && (count < 2 || view.stride(0) == 1);
  // Work item i starts at word F + i * per_item * words: block F / 4 + i when that is one
  // block (per_item * words == 4), written so that the compiler sees a block's start and
  // drops the generator's cache checks for the item's other words.
  const std::uint64_t fill_block = pool.fill_position() / 4;
  Kokkos::parallel_for(
      "KokkosDTensor::Random_Philox_Pool::fill_random",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(
          exec, 0, static_cast<std::int64_t>(items)),
      KOKKOS_LAMBDA(const std::int64_t item) {
        const std::uint64_t first = static_cast<std::uint64_t>(item) * per_item;
        Generator gen = pool.fill_stream_generator(
            per_item * words == 4 ? (fill_block + static_cast<std::uint64_t>(item)) << 2
                                  : fill_block * 4 + first * words);
        const std::uint64_t last = first + per_item < count ? first + per_item : count;
        if (contiguous && last - first == per_item) {
          T values[per_item];
          for (std::uint64_t e = 0; e < per_item; ++e)
            values[e] = Kokkos::rand<Generator, T>::draw(gen, begin, end);
          T* const dst = view.data() + first;
          store_block<T, static_cast<int>(per_item)>(
              dst, values, block_aligned<T, static_cast<int>(per_item)>(dst));
          return;
        }
        // The multi-index of element `first` (no division for the first dimension), then
        // counted up in row-major order.
        std::size_t index[rank > 0 ? rank : 1] = {};
        std::uint64_t rest = first;
        for (int d = rank - 1; d > 0; --d) {
          const std::uint64_t extent = view.extent(d);
          index[d] = static_cast<std::size_t>(rest % extent);
          rest /= extent;
        }
        index[0] = static_cast<std::size_t>(rest);
        for (std::uint64_t l = first; l < last; ++l) {
          pool_fill_element(view, index, std::make_index_sequence<rank>{}) =
              Kokkos::rand<Generator, T>::draw(gen, begin, end);
          for (int d = rank - 1; d >= 0; --d) {
            if (++index[d] < view.extent(d)) break;
            index[d] = 0;
          }
        }
      });
  // The next fill starts at the next block past this one's words.
  pool.fill_position() += (count * words + 3) / 4 * 4;
}

// A DynRankView of run-time rank N is filled as the View of rank N over its elements (an
// unmanaged LayoutStride View, as Kokkos' own fill_random does): the same kernel, values and
// speed as that View, whatever the DynRankView's layout. (N counts up to view.rank().)
template <int N = 0, class ExecSpace, class DynRankViewType, class Pool>
void pool_fill_random_as_rank(const ExecSpace& exec, const DynRankViewType& view, const Pool& pool,
                              typename DynRankViewType::const_value_type begin,
                              typename DynRankViewType::const_value_type end) {
  if constexpr (N < 7) {
    if (view.rank() != N) return pool_fill_random_as_rank<N + 1>(exec, view, pool, begin, end);
  }
  const auto data = strided_data(view);
  Kokkos::LayoutStride layout;
  for (int d = 0; d < N; ++d) {
    layout.dimension[d] = static_cast<std::size_t>(data.extent[d]);
    layout.stride[d] = static_cast<std::size_t>(data.stride[d]);
  }
  using ViewType =
      Kokkos::View<typename RankDataType<typename DynRankViewType::value_type, N>::type,
                   Kokkos::LayoutStride, typename DynRankViewType::device_type,
                   Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  pool_fill_random(exec, ViewType(view.data(), layout), pool, begin, end);
}

template <class ExecSpace, class DataType, class... Properties, class Pool>
void pool_fill_random(const ExecSpace& exec,
                      const Kokkos::DynRankView<DataType, Properties...>& view, const Pool& pool,
                      typename Kokkos::DynRankView<DataType, Properties...>::const_value_type begin,
                      typename Kokkos::DynRankView<DataType, Properties...>::const_value_type end) {
  pool_fill_random_as_rank(exec, view, pool, begin, end);
}

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
