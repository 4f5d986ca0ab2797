#ifndef KOKKOSDTENSOR_TEST_DYNRANKVIEWVALUES_HPP
#define KOKKOSDTENSOR_TEST_DYNRANKVIEWVALUES_HPP

// What the DynRankView tests share: reading one (its values in row-major order on the host,
// through Kokkos' own indexing, so that a stride bug in the library cannot hide itself) and
// making the View of the same rank and extents.

#include "TestSpace.hpp"

#include <Kokkos_Core.hpp>
#include <Kokkos_DynRankView.hpp>
#include <cstddef>
#include <cstdint>
#include <impl/KokkosDTensor_ViewHelpers.hpp>
#include <type_traits>
#include <vector>

template <class T, class... Properties>
std::vector<T> dyn_rank_view_values(const Kokkos::DynRankView<T, Properties...>& view) {
  // Packed first, in the View's own memory space: deep_copy to another space needs a
  // contiguous View, and a strided subview of a device View is not one.
  std::size_t n[7];
  for (std::size_t d = 0; d < 7; ++d)
    n[d] = d < view.rank() ? view.extent(d) : KOKKOS_INVALID_INDEX;
  Kokkos::DynRankView<std::remove_const_t<T>, Kokkos::LayoutRight,
                      typename Kokkos::DynRankView<T, Properties...>::memory_space>
      packed("packed", n[0], n[1], n[2], n[3], n[4], n[5], n[6]);
  Kokkos::deep_copy(packed, view);
  Kokkos::fence();
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), packed);
  std::vector<T> values;
  std::size_t i[7] = {};
  for (std::size_t l = 0; l < host.size(); ++l) {
    std::size_t rest = l;
    for (int d = static_cast<int>(host.rank()) - 1; d >= 0; --d) {
      i[d] = rest % host.extent(d);
      rest /= host.extent(d);
    }
    values.push_back(host.access(i[0], i[1], i[2], i[3], i[4], i[5], i[6]));
  }
  return values;
}

// A new DynRankView of layout Layout in TestSpace with these extents (0 to 7 of them).
template <class T, class Layout>
Kokkos::DynRankView<T, Layout, TestSpace> make_dyn_rank_view(
    const std::vector<std::int64_t>& extents) {
  std::size_t n[7];
  for (std::size_t d = 0; d < 7; ++d)
    n[d] = d < extents.size() ? static_cast<std::size_t>(extents[d]) : KOKKOS_INVALID_INDEX;
  return Kokkos::DynRankView<T, Layout, TestSpace>("drv", n[0], n[1], n[2], n[3], n[4], n[5], n[6]);
}

// Calls f with a new View of layout Layout in TestSpace, rank extents.size() (0 to 4) and
// these extents.
template <class T, class Layout, int Rank = 0, class F>
void with_view(const std::vector<std::int64_t>& extents, F f) {
  if constexpr (Rank < 4) {
    if (extents.size() != Rank) return with_view<T, Layout, Rank + 1>(extents, f);
  }
  using ViewType =
      Kokkos::View<typename KokkosDTensor::Impl::RankDataType<T, Rank>::type, Layout, TestSpace>;
  f(KokkosDTensor::Impl::allocate_view<ViewType>("view", extents));
}

#endif
