#ifndef KOKKOSDTENSOR_IMPL_DTENSORRANDOMTARGET_HPP
#define KOKKOSDTENSOR_IMPL_DTENSORRANDOMTARGET_HPP

// RandomTarget for DTensors: every op of KokkosDTensor_RandomOps.hpp also takes a DTensor.
// Without a Generator it draws from the DTensor RNG tracker, with one from its state.
//
// Sharding invariance: each rank fills its shard's elements from their global row-major
// indices (docs/design.md), so the global tensor is the one a single process would draw
// into a View of the global shape from the same state, whatever the mesh, placements,
// layout or rank count. Every rank then advances the offset by the global amount, so
// states stay equal across ranks with no communication: once the tracker exists a random
// op makes zero MPI calls. Ranks not in the DTensor's mesh hold no elements but advance
// their state all the same.
//
// With the tracker's distribute_region_enabled() false, each rank instead draws its local
// shard as if it were a whole tensor and advances by the local element count (PyTorch's
// behaviour outside its distribute region).

#include <KokkosDTensor_DTensor.hpp>
#include <KokkosDTensor_Generator.hpp>
#include <KokkosDTensor_Placement.hpp>
#include <KokkosDTensor_RNGTracker.hpp>
#include <impl/KokkosDTensor_Error.hpp>
#include <impl/KokkosDTensor_FillDispatch.hpp>
#include <impl/KokkosDTensor_RandomTarget.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <variant>
#include <vector>

namespace KokkosDTensor {
namespace Impl {

// The box of the calling rank's shard inside the DTensor's global tensor.
template <class DT>
GlobalBox global_box(const DT& t) {
  GlobalBox box;
  box.rank = static_cast<int>(t.global_shape().size());
  for (int d = 0; d < box.rank; ++d) {
    box.global_extent[d] = t.global_shape()[d];
    box.origin[d] = t.global_offset()[d];
  }
  return box;
}

inline std::uint64_t global_element_count(const std::vector<std::int64_t>& shape,
                                          const char* function) {
  std::uint64_t count = 1;
  for (std::int64_t extent : shape) {
    const auto e = static_cast<std::uint64_t>(extent);
    if (e != 0 && count > std::numeric_limits<std::uint64_t>::max() / e) {
      throw_invalid_argument(function, "global_shape", format_value(shape),
                             "must have fewer than 2^64 elements");
    }
    count *= e;
  }
  return count;
}

// The checks that need no RNG state, made before the tracker is created or any state
// changes.
template <class DT>
void require_random_op_target(const DT& t, const char* function) {
  require_kokkos_initialized(function);
  // Partial is accepted on mesh dims of size 1: the one summand is the value
  // (pytorch/pytorch#190795).
  for (std::size_t m = 0; m < t.placements().size(); ++m) {
    if (std::holds_alternative<Partial>(t.placements()[m]) &&
        t.mesh().size(static_cast<int>(m)) != 1) {
      std::string text;
      for (const Placement& q : t.placements()) text += (text.empty() ? "" : ",") + to_string(q);
      throw_invalid_argument(function, "placements", "(" + text + ")",
                             "random ops need Shard or Replicate placements: a Partial "
                             "DTensor holds summands, not values");
    }
  }
  if (!t.is_allocated()) {
    throw_runtime_error(
        function, "the DTensor \"" + t.label() + "\" is not allocated (call allocate() first)");
  }
}

// Fills the calling rank's shard of `t` from `state` and advances `state`; `prepare(local)`
// runs once every check has passed, before the fill.
template <class ExecSpace, class DT, class Dist, class Prepare = NoPrepare>
void random_op_on_dtensor(const ExecSpace& space, const DT& t, const Dist& dist, RNGState& state,
                          bool distribute_region, const char* function,
                          const Prepare& prepare = Prepare{}) {
  const auto local = t.local();
  const std::uint64_t count = distribute_region ? global_element_count(t.global_shape(), function)
                                                : static_cast<std::uint64_t>(local.size());
  require_state_offset(state, function);
  const std::uint64_t next = offset_after(state, Dist::words_per_element, count, function);
  prepare(local);
  if (local.size() > 0) {
    fill_random(space, local, dist, state,
                distribute_region ? global_box(t) : whole_view_box(local));
  }
  state.offset = next;
}

template <class DataType, class... Props>
struct RandomTarget<DTensor<DataType, Props...>> {
  using dtensor_type = DTensor<DataType, Props...>;
  static constexpr bool is_target = true;
  using value_type = typename dtensor_type::non_const_value_type;
  using execution_space = typename dtensor_type::execution_space;
  static auto local_view(const dtensor_type& t) { return t.local(); }
  static std::vector<std::int64_t> index_origin(const dtensor_type& t) { return t.global_offset(); }
  template <class Other>
  static bool same_shape(const dtensor_type& t, const Other& other) {
    if constexpr (RandomTarget<Other>::is_target && !is_view_or_dyn_rank_view<Other>::value) {
      return t.spec() == other.spec();
    } else {
      return false;
    }
  }

  template <class ExecSpace, class Dist, class Prepare = NoPrepare>
  static RNGState apply(const ExecSpace& space, const dtensor_type& t, const Dist& dist,
                        Generator* gen, const char* function, const Prepare& prepare = Prepare{}) {
    require_random_op_target(t, function);
    if (gen) {
      RNGState state = gen->get_state();
      const RNGState drawn = state;
      random_op_on_dtensor(space, t, dist, state, true, function, prepare);
      gen->set_state(state);
      return drawn;
    }
    RNGTracker& tracker = tracker_for_random_op(function);
    RNGState state = tracker.get_rng_state();
    const RNGState drawn = state;
    random_op_on_dtensor(space, t, dist, state, tracker.distribute_region_enabled(), function,
                         prepare);
    tracker.set_rng_state(state);
    return drawn;
  }

  // Fills from `state` (the state an earlier op drew from) and advances nothing: the global
  // numbering, or the local one while the tracker's distribute region is disabled.
  template <class ExecSpace, class Dist>
  static void apply_at(const ExecSpace& space, const dtensor_type& t, const Dist& dist,
                       RNGState state, const char* function) {
    require_random_op_target(t, function);
    const RNGTracker* tracker = rng_tracker();
    random_op_on_dtensor(space, t, dist, state,
                         tracker == nullptr || tracker->distribute_region_enabled(), function);
  }
};

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
