#ifndef KOKKOSDTENSOR_IMPL_VIEWHELPERS_HPP
#define KOKKOSDTENSOR_IMPL_VIEWHELPERS_HPP

// Rank-generic helpers for Kokkos Views: extents as a vector, allocation and wrapping from
// a vector of extents, element access on the host.

#include <Kokkos_Core.hpp>
#include <Kokkos_DynRankView.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace KokkosDTensor {
namespace Impl {

// The data type of a View of rank N: T, T*, T**, ...
template <class T, int N>
struct RankDataType {
  using type = typename RankDataType<T, N - 1>::type*;
};
template <class T>
struct RankDataType<T, 0> {
  using type = T;
};

template <class ViewType>
constexpr int view_rank() {
  return static_cast<int>(ViewType::rank);
}

template <class ViewType>
std::vector<std::int64_t> view_extents(const ViewType& view) {
  std::vector<std::int64_t> extents(view_rank<ViewType>());
  for (int i = 0; i < view_rank<ViewType>(); ++i)
    extents[i] = static_cast<std::int64_t>(view.extent(i));
  return extents;
}

// A DynRankView's extents: as many as its run-time rank.
template <class DataType, class... Properties>
std::vector<std::int64_t> view_extents(const Kokkos::DynRankView<DataType, Properties...>& view) {
  std::vector<std::int64_t> extents(view.rank());
  for (std::size_t i = 0; i < extents.size(); ++i)
    extents[i] = static_cast<std::int64_t>(view.extent(i));
  return extents;
}

// A new View with the given extents (one per rank), zero-initialised.
template <class ViewType, std::size_t... I>
ViewType allocate_view_impl(const std::string& label, const std::vector<std::int64_t>& extents,
                            std::index_sequence<I...>) {
  return ViewType(Kokkos::view_alloc(label), static_cast<std::size_t>(extents[I])...);
}
template <class ViewType>
ViewType allocate_view(const std::string& label, const std::vector<std::int64_t>& extents) {
  return allocate_view_impl<ViewType>(label, extents,
                                      std::make_index_sequence<view_rank<ViewType>()>{});
}

// An unmanaged View over `data` with the given extents.
template <class ViewType, class Pointer, std::size_t... I>
ViewType wrap_pointer_impl(Pointer data, const std::vector<std::int64_t>& extents,
                           std::index_sequence<I...>) {
  return ViewType(data, static_cast<std::size_t>(extents[I])...);
}
template <class ViewType, class Pointer>
ViewType wrap_pointer(Pointer data, const std::vector<std::int64_t>& extents) {
  return wrap_pointer_impl<ViewType>(data, extents,
                                     std::make_index_sequence<view_rank<ViewType>()>{});
}

// view(index[0], ..., index[rank-1]) on the host.
template <class ViewType, std::size_t... I>
decltype(auto) host_element_impl(const ViewType& view, const std::int64_t* index,
                                 std::index_sequence<I...>) {
  return view(index[I]...);
}
template <class ViewType>
decltype(auto) host_element(const ViewType& view, const std::int64_t* index) {
  return host_element_impl(view, index, std::make_index_sequence<view_rank<ViewType>()>{});
}

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
