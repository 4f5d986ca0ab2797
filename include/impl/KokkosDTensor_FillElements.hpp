#ifndef KOKKOSDTENSOR_IMPL_FILLELEMENTS_HPP
#define KOKKOSDTENSOR_IMPL_FILLELEMENTS_HPP

// The elements kernel (device style): Views with no unit-stride dimension whose neighbouring
// elements lie a 32-byte memory sector or more apart (a column of a LayoutRight matrix).
// One element per work item, the way Kokkos::deep_copy stores them: the item draws its
// element's whole Philox block and keeps one value. That is four times the Philox work of
// the blocks kernels, but a warp's store writes 32 neighbouring elements of the View instead
// of 32 elements four apart; with a sector per element the stores, not Philox, bound it
// (docs/performance.md, "Layouts").

#include <cstdint>
#include <impl/KokkosDTensor_FillColumns.hpp>

namespace KokkosDTensor {
namespace Impl {

// Item `item` is element item % row_length of row item / row_length (rows as in the columns
// kernels' geometry, the View's own dimension order).
template <class T, class Dist, class Index>
struct FillElementsFunctor : FillColumnsGeometry<T, Dist, Index> {
  static constexpr bool is_host_style = false;

  KOKKOS_INLINE_FUNCTION void operator()(const Index item) const { run(item, this->dist); }

  // Work item `item` with `with`: dist or an equivalent object (OnSharedNormalTable).
  template <class With>
  KOKKOS_FORCEINLINE_FUNCTION void run(const Index item, const With& with) const {
    constexpr int E = Dist::elements_per_block;
    T* row;
    std::uint64_t row_start;
    const Index j = this->locate_item(item, row, row_start);
    const std::uint64_t l = row_start + static_cast<std::uint64_t>(j);
    const int e = static_cast<int>(l % E);
    T* const p = row + static_cast<std::int64_t>(j) * this->element_step;
    // The element's value is values[e]; selects, not an indexed array, keep values in
    // registers.
    T values[E] = {};
    if (Dist::reads_input) {
      const T input = *p;
      for (int k = 0; k < E; ++k) values[k] = k == e ? input : values[k];
    }
    with(stream_block(this->key, this->first_block + l / E), values);
    T value = values[0];
    for (int k = 1; k < E; ++k) value = k == e ? values[k] : value;
    *p = value;
  }
};

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
