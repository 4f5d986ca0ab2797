#ifndef KOKKOSDTENSOR_IMPL_STRIDEDCOPY_HPP
#define KOKKOSDTENSOR_IMPL_STRIDEDCOPY_HPP

// Element-wise copies between Views of any rank and layout, keyed on (execution space,
// value type): Kokkos::deep_copy between two View types compiles kernels for that pair, so
// the gathers and host copies, written with it, cost a set of kernels per DTensor type
// (docs/building.md).

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <impl/KokkosDTensor_StridedData.hpp>
#include <type_traits>
#include <vector>

namespace KokkosDTensor {
namespace Impl {

template <bool Add, class T, class U>
struct CopyStridedFunctor {
  StridedData<T> dst;
  StridedData<U> src;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t linear) const {
    std::int64_t rest = linear, dst_offset = 0, src_offset = 0;
    for (int d = src.rank - 1; d >= 0; --d) {
      const std::int64_t index = rest % src.extent[d];
      rest /= src.extent[d];
      dst_offset += index * dst.stride[d];
      src_offset += index * src.stride[d];
    }
    if constexpr (Add) {
      dst.data[dst_offset] = static_cast<T>(dst.data[dst_offset] + src.data[src_offset]);
    } else {
      dst.data[dst_offset] = src.data[src_offset];
    }
  }
};

// dst(i...) = src(i...) (Add: +=) for every index of src's extents, which dst must have
// too; `space` must reach both. Not fenced.
template <bool Add = false, class ExecSpace, class T, class U>
void copy_strided(const ExecSpace& space, const StridedData<T>& dst, const StridedData<U>& src) {
  const auto n = static_cast<std::int64_t>(src.size());
  if (n == 0) return;
  Kokkos::parallel_for(Add ? "KokkosDTensor::add_strided" : "KokkosDTensor::copy_strided",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, n),
                       CopyStridedFunctor<Add, T, U>{dst, src});
}

// dst(i...) = src(i...) for Views or DynRankViews of the same extents, on `space`, with no
// kernel per View type: `src` is read in place where `space` reaches it, else from a copy in
// dst's memory space (fenced). Not fenced otherwise.
template <class ExecSpace, class Dst, class Src>
void copy_elements(const ExecSpace& space, const Dst& dst, const Src& src) {
  if constexpr (Kokkos::SpaceAccessibility<ExecSpace, typename Src::memory_space>::accessible) {
    copy_strided(space, strided_data(dst), strided_data(src));
  } else {
    const auto staged = Kokkos::create_mirror_view_and_copy(typename Dst::memory_space(), src);
    copy_strided(space, strided_data(dst), strided_data(staged));
  }
}

// Contiguous elements between memory spaces (one deep_copy per value type and space pair).
template <class DstSpace, class SrcSpace, class T>
void copy_contiguous(T* dst, const T* src, std::size_t count) {
  using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
  Kokkos::deep_copy(Kokkos::View<T*, Kokkos::LayoutRight, DstSpace, Unmanaged>(dst, count),
                    Kokkos::View<const T*, Kokkos::LayoutRight, SrcSpace, Unmanaged>(src, count));
}

// The elements of `view` in row-major order at `dst`, in DstSpace: packed on the View's
// execution space, straight into `dst` when DstSpace is the View's memory space, else into
// a buffer copied over. After all work in flight, as deep_copy; fenced.
template <class DstSpace, class ViewType>
void copy_row_major(const ViewType& view, typename ViewType::non_const_value_type* dst,
                    const std::vector<std::int64_t>& extents) {
  using value_type = typename ViewType::non_const_value_type;
  using memory_space = typename ViewType::memory_space;
  using exec_space = typename ViewType::execution_space;
  Kokkos::fence();
  if constexpr (std::is_same<typename DstSpace::memory_space, memory_space>::value) {
    copy_strided(exec_space(), row_major_data(dst, extents), strided_data(view));
    Kokkos::fence();
  } else {
    Kokkos::View<value_type*, Kokkos::LayoutRight, memory_space> packed(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "KokkosDTensor::copy_row_major"),
        view.size());
    copy_strided(exec_space(), row_major_data(packed.data(), extents), strided_data(view));
    exec_space().fence();
    copy_contiguous<DstSpace, memory_space>(dst, packed.data(), packed.size());
  }
}

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
