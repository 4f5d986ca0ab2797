#ifndef KOKKOSDTENSOR_IMPL_REALIGNEDSTORES_HPP
#define KOKKOSDTENSOR_IMPL_REALIGNEDSTORES_HPP

// Vector stores of R neighbouring rows' values where the rows do not start on an R-element
// boundary (a subview of a LayoutLeft View, odd leading strides). A thread's R values straddle
// two aligned vectors; on CUDA the lanes of a warp that fill consecutive groups of rows of the
// same columns pass their last values to the next lane, so that each lane stores one aligned
// vector, and only a run's first and last lanes store their edges element by element. Elsewhere
// (and for lanes without such neighbours) every value is stored by element. Same values either
// way: only the stores' width changes.

#include <cstdint>
#include <cstring>
#include <impl/KokkosDTensor_FillRows.hpp>
#include <type_traits>

namespace KokkosDTensor {
namespace Impl {

// This lane's neighbours among the lanes that fill the same columns with the same alignment
// (mask): lane - 1 fills the R rows just before this lane's (has_prev), lane + 1 those just
// after (has_next).
struct WarpNeighbours {
  unsigned mask = 0;
  bool has_prev = false;
  bool has_next = false;
  bool silent = false;  // this lane's values only complete its neighbour's vector
};

// Position of `p` inside its R-element vector.
template <class T, int R>
KOKKOS_FORCEINLINE_FUNCTION int vector_phase(const T* p) {
  return static_cast<int>(
      (static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(p)) / sizeof(T)) % R);
}

// `first`: this lane's first row at its first column, `first_column` (lanes of one column
// group run the same blocks). Called by every active lane of the warp: the match below groups
// them.
// `silent`: this lane stores nothing; `next_in_next_warp`: lane 31's last values are stored
// by the next warp's lane 1.
template <class T, int R>
KOKKOS_FORCEINLINE_FUNCTION WarpNeighbours warp_neighbours(const T* first,
                                                           std::uint64_t first_column, bool silent,
                                                           bool next_in_next_warp) {
  WarpNeighbours n;
  n.silent = silent;
#if defined(__CUDA_ARCH__)
  // Lanes that take the same branches: same columns and the same phase at every column.
  const std::uint64_t key =
      first_column * R + static_cast<std::uint64_t>(vector_phase<T, R>(first));
  n.mask = __match_any_sync(__activemask(), static_cast<unsigned long long>(key));
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  const auto address = static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(first));
  const unsigned long long before = __shfl_up_sync(n.mask, address, 1);
  n.has_prev = lane > 0 && ((n.mask >> (lane - 1)) & 1u) != 0 && before + R * sizeof(T) == address;
  const int next_has_prev = __shfl_down_sync(n.mask, static_cast<int>(n.has_prev), 1);
  n.has_next =
      lane < 31 ? ((n.mask >> (lane + 1)) & 1u) != 0 && next_has_prev != 0 : next_in_next_warp;
#else
  (void)first;
  (void)first_column;
  (void)next_in_next_warp;
#endif
  return n;
}

// Whether every lane of the warp that stores has both neighbours: no run starts or ends in
// it. Called by all 32 lanes.
KOKKOS_FORCEINLINE_FUNCTION bool no_edges(const WarpNeighbours& n) {
#if defined(__CUDA_ARCH__)
  return __all_sync(0xffffffffu, n.silent || (n.has_prev && n.has_next)) != 0;
#else
  (void)n;
  return false;
#endif
}

// The value `value` of lane - delta (within mask). WholeWarp: the mask is every lane and the
// caller's branches are the same in all of them (one group, see run_rows), so the mask is a
// constant: with a mask known only at run time, nvcc checks before each group of shuffles
// that its lanes are converged (7 instructions a column).
template <bool WholeWarp, class T>
KOKKOS_FORCEINLINE_FUNCTION T from_lane_before(const T& value, unsigned mask, unsigned delta) {
#if defined(__CUDA_ARCH__)
  static_assert(sizeof(T) <= 8, "one or two 32-bit shuffles");
  using Word = typename std::conditional<(sizeof(T) > 4), unsigned long long, unsigned>::type;
  Word bits = 0;
  memcpy(&bits, &value, sizeof(T));
  bits = __shfl_up_sync(WholeWarp ? 0xffffffffu : mask, bits, delta);
  T out;
  memcpy(&out, &bits, sizeof(T));
  return out;
#else
  (void)mask;
  (void)delta;
  return value;
#endif
}

// The stores of store_shifted: `vector` (N words W, put together from lane - 1's values and
// this lane's) where lane - 1 takes part, else this lane's first R - Q values one by one; the
// last Q one by one where lane + 1 does not take them into its vector.
template <int Q, class T, int R, class W, int N>
KOKKOS_FORCEINLINE_FUNCTION void store_assembled(T* const at, const T (&v)[R], const W (&vector)[N],
                                                 const WarpNeighbours& n) {
  static_assert(N * sizeof(W) == R * sizeof(T), "one vector of R values");
  if (n.silent) return;
  if (n.has_prev) {
    store_block<W, N>(reinterpret_cast<W*>(at - Q), vector, true);
  } else {
    for (int m = 0; m < R - Q; ++m) at[m] = v[m];
  }
  if (!n.has_next)
    for (int m = R - Q; m < R; ++m) at[m] = v[m];
}

// Values v of rows [0, R) at `at`, which lies Q elements into its aligned vector: the vector
// holds lane - 1's last Q values and this lane's first R - Q; its last Q go to lane + 1's.
template <int Q, bool WholeWarp, class T, int R>
KOKKOS_FORCEINLINE_FUNCTION void store_shifted(T* const at, const T (&v)[R],
                                               const WarpNeighbours& n) {
  // Every element through a shuffle, this lane's own by a shuffle of 0: so that the vector's
  // registers are the shuffles' results (moved into place, the kernel took 98 registers
  // instead of 58).
  T vector[R];
  for (int m = 0; m < Q; ++m) vector[m] = from_lane_before<WholeWarp>(v[R - Q + m], n.mask, 1);
  for (int m = Q; m < R; ++m) vector[m] = from_lane_before<WholeWarp>(v[m - Q], n.mask, 0);
  store_assembled<Q>(at, v, vector, n);
}

// Words [First, Last) of `words` to the same words of the 16-byte vector at `base` (aligned),
// in the widest aligned stores.
template <int First, int Last>
KOKKOS_FORCEINLINE_FUNCTION void store_words(std::uint32_t* const base,
                                             const std::uint32_t (&words)[4]) {
  if constexpr (First < Last) {
#if defined(__CUDA_ARCH__)
    if constexpr (First % 2 == 0 && First + 2 <= Last) {
      __stwb(reinterpret_cast<uint2*>(base + First), make_uint2(words[First], words[First + 1]));
      store_words<First + 2, Last>(base, words);
    } else {
      __stwb(base + First, words[First]);
      store_words<First + 1, Last>(base, words);
    }
#else
    memcpy(base + First, &words[First], sizeof(std::uint32_t));
    store_words<First + 1, Last>(base, words);
#endif
  }
}

// store_assembled for 2-byte types, 8 rows: `vector` as 4 words, `own` this lane's values as
// 4 words; a run's edges in the widest stores that fit them (vector's words where lane - 1
// does not take part, own words where lane + 1 does not and Q is even), not value by value.
template <int Q, class T>
KOKKOS_FORCEINLINE_FUNCTION void store_assembled_halves(T* const at, const T (&v)[8],
                                                        const std::uint32_t (&own)[4],
                                                        const std::uint32_t (&vector)[4],
                                                        const WarpNeighbours& n) {
  if (n.silent) return;
  std::uint32_t* const base = reinterpret_cast<std::uint32_t*>(at - Q);
  if (n.has_prev) {
    store_block<std::uint32_t, 4>(base, vector, true);
  } else {
    // Elements [Q, 8) of the vector: this lane's first 8 - Q values.
    if constexpr (Q % 2 == 1) at[0] = v[0];
    store_words<(Q + 1) / 2, 4>(base, vector);
  }
  if (!n.has_next) {
    // Elements [0, Q) of the next vector: this lane's last Q values.
    if constexpr (Q % 2 == 0) {
      std::uint32_t next[4] = {};
      for (int k = 0; k < Q / 2; ++k) next[k] = own[4 - Q / 2 + k];
      store_words<0, Q / 2>(base + 4, next);
    } else {
      for (int m = 8 - Q; m < 8; ++m) at[m] = v[m];
    }
  }
}

// 2-byte types, 8 rows (16-byte vectors): as store_shifted, with lane - 1's values moved as
// 4 words (half the shuffles) and the vector put together from words, each a funnel shift of
// two neighbours by 16 bits where Q is odd.
template <int Q, bool WholeWarp, class T>
KOKKOS_FORCEINLINE_FUNCTION void store_shifted_halves(T* const at, const T (&v)[8],
                                                      const WarpNeighbours& n) {
  static_assert(sizeof(T) == 2, "2-byte types");
  std::uint32_t own[4];
  memcpy(own, v, sizeof(own));
  std::uint32_t words[8];       // lane - 1's 8 values, then this lane's
  constexpr int first = 8 - Q;  // the vector's first value in words' 16
  for (int k = 0; k < 4; ++k) {
    // (Only the words the vector takes: ceil(Q / 2) shuffles.)
    words[k] = k >= first / 2 ? from_lane_before<WholeWarp>(own[k], n.mask, 1) : 0u;
    words[4 + k] = own[k];
  }
  std::uint32_t vector[4];
  for (int k = 0; k < 4; ++k)
    vector[k] = first % 2 == 0 ? words[first / 2 + k]
                               : (words[first / 2 + k] >> 16) | (words[first / 2 + k + 1] << 16);
  // (Warps of one group: a run's edges in wide stores. Elsewhere by value: there the wide ones
  // cost dropout_'s realigned kernel registers, docs/performance.md.)
  if constexpr (WholeWarp)
    store_assembled_halves<Q>(at, v, own, vector, n);
  else
    store_assembled<Q>(at, v, vector, n);
}

// store_rows for a column whose phase (vector_phase) is Q, known at compile time.
template <int Q, bool WholeWarp, class T, int R>
KOKKOS_FORCEINLINE_FUNCTION void store_rows_at_phase(T* const at, const T (&v)[R],
                                                     const WarpNeighbours& n) {
  if constexpr (Q == 0) {
    if (!n.silent) store_block<T, R>(at, v, true);
  } else if constexpr (R == 8) {
    store_shifted_halves<Q, WholeWarp>(at, v, n);
  } else {
    store_shifted<Q, WholeWarp>(at, v, n);
  }
}

// Stores v, rows [0, R) of one column at `at` (contiguous), as aligned vectors where it can.
template <class T, int R, bool WholeWarp = false>
KOKKOS_FORCEINLINE_FUNCTION void store_rows(T* at, const T (&v)[R], const WarpNeighbours& n) {
  static_assert(R == 2 || R == 4 || (R == 8 && sizeof(T) == 2),
                "vectors of 2 or 4 elements, or 8 of a 2-byte type");
#if defined(__CUDA_ARCH__)
  // An opaque address: otherwise nvcc keeps a pointer per column and shift across the blocks'
  // loop (the kernel took 142 registers instead of 98).
  asm("" : "+l"(at));
#endif
  const int phase = vector_phase<T, R>(at);
  // (Every lane of n.mask takes the same branch: the shuffles inside need them all.)
  if (phase == 0) {
    if (!n.silent) store_block<T, R>(at, v, true);
  } else if constexpr (R == 8) {
    switch (phase) {
      case 1:
        store_shifted_halves<1, WholeWarp>(at, v, n);
        break;
      case 2:
        store_shifted_halves<2, WholeWarp>(at, v, n);
        break;
      case 3:
        store_shifted_halves<3, WholeWarp>(at, v, n);
        break;
      case 4:
        store_shifted_halves<4, WholeWarp>(at, v, n);
        break;
      case 5:
        store_shifted_halves<5, WholeWarp>(at, v, n);
        break;
      case 6:
        store_shifted_halves<6, WholeWarp>(at, v, n);
        break;
      default:
        store_shifted_halves<7, WholeWarp>(at, v, n);
        break;
    }
  } else if (phase == 1) {
    store_shifted<1, WholeWarp>(at, v, n);
  } else if constexpr (R == 4) {
    if (phase == 2)
      store_shifted<2, WholeWarp>(at, v, n);
    else
      store_shifted<3, WholeWarp>(at, v, n);
  }
}

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
