#ifndef KOKKOSDTENSOR_IMPL_FILLROWSSHAREDTABLE_HPP
#define KOKKOSDTENSOR_IMPL_FILLROWSSHAREDTABLE_HPP

// The device-style rows kernel of normal_ and log_normal_ with the quantile table in team
// scratch: on a GPU, shared memory instead of scattered loads through L1 (13 of 8 bytes per
// double element, one of 16 bytes per float one), which bound the RangePolicy kernel
// (docs/performance.md). Teams fill the table, then each thread runs the work items of
// FillRowsFunctor (the same items, the same bits) in a grid-stride loop.

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <impl/KokkosDTensor_Distributions.hpp>
#include <impl/KokkosDTensor_NormalQuantile.hpp>
#include <type_traits>

namespace KokkosDTensor {
namespace Impl {

template <class ExecSpace, class Rows, class Index>
struct FillRowsSharedTableFunctor {
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Dist = decltype(Rows::dist);
  using With = OnSharedNormalTable<Dist>;
  using Table = typename With::table_type;
  static constexpr std::size_t table_bytes = With::table_bytes;
  Rows rows;
  Index items = 0;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& member) const {
    auto* table = static_cast<Table*>(
        member.team_scratch(0).get_shmem_aligned(static_cast<std::ptrdiff_t>(table_bytes), 16));
    With::fill(table, member.team_rank(), member.team_size());
    member.team_barrier();
    With with;
    with.set(rows.dist, table, member.team_rank());
    const Index threads = static_cast<Index>(member.league_size()) * member.team_size();
    for (Index item =
             static_cast<Index>(member.league_rank()) * member.team_size() + member.team_rank();
         item < items; item += threads)
      rows.run(item, with);
  }
};

// Teams of `team` threads resident at once, counted as whole teams per SM where the SM count
// is known (CUDA), else as many as the concurrency holds.
template <class ExecSpace>
std::uint64_t resident_teams(const ExecSpace& space, int team) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same<ExecSpace, Kokkos::Cuda>::value) {
    int sms = 0, threads = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, space.cuda_device());
    cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerMultiProcessor, space.cuda_device());
    if (sms > 0 && threads > 0)
      return static_cast<std::uint64_t>(sms) *
             static_cast<std::uint64_t>(std::max(1, threads / team));
  }
#endif
  return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(space.concurrency()) / team);
}

// Launches `rows` (a FillRowsFunctor of a normal distribution) over `items` work items.
template <class ExecSpace, class Rows, class Index>
void launch_rows_shared_table(const ExecSpace& space, const Rows& rows, Index items) {
  using Functor = FillRowsSharedTableFunctor<ExecSpace, Rows, Index>;
  Functor functor;
  functor.rows = rows;
  functor.items = items;
  const auto scratch = Kokkos::PerTeam(Functor::table_bytes + 16);
  // Host spaces (only the tests' rows_device path comes here): one thread per team.
  int team = 1;
  std::uint64_t waves = 1;
  if constexpr (!Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible) {
    Kokkos::TeamPolicy<ExecSpace> probe(space, 1, 1);
    probe.set_scratch_size(0, scratch);
    team = std::min(static_cast<int>(Functor::With::team_size),
                    probe.team_size_max(functor, Kokkos::ParallelForTag()));
    waves = Functor::With::waves;
    // KOKKOSDTENSOR_TABLE_TEAM=THREADS,WAVES: another launch shape, for measuring (kdt-perf).
    // Values do not depend on it.
    if (const char* shape = std::getenv("KOKKOSDTENSOR_TABLE_TEAM")) {
      const char* comma = std::strchr(shape, ',');
      const int threads = std::atoi(shape), w = comma ? std::atoi(comma + 1) : 0;
      if (threads >= 32 && threads <= team && threads % 32 == 0) team = threads;
      if (w >= 1 && w <= 64) waves = static_cast<std::uint64_t>(w);
    }
  }
  // `waves` waves of resident teams, fewer when the work is small. Whole teams per SM: where
  // registers let one 768-thread team in an SM, 2.67 a 2048-thread SM made the last of 5.33
  // rounds run on a third of the SMs (docs/performance.md, "Layouts").
  const std::uint64_t resident = resident_teams(space, team) * waves;
  const std::uint64_t needed = (static_cast<std::uint64_t>(items) + team - 1) / team;
  const int league = static_cast<int>(std::max<std::uint64_t>(1, std::min(resident, needed)));
  Kokkos::TeamPolicy<ExecSpace> policy(space, league, team);
  policy.set_scratch_size(0, scratch);
  Kokkos::parallel_for("KokkosDTensor::fill_random", policy, functor);
}

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
