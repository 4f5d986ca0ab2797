// Monte Carlo transport with random numbers drawn inside a user kernel (docs/examples.md,
// docs/streams.md). A beam of particles enters a slab [0, width) at x = 0 moving right. Each
// step, every live particle flies an exponential distance (total cross-section sigma_t),
// leaves the slab (transmitted at the right, reflected at the left) or collides; a collision
// absorbs it with probability p_absorb, else scatters it into a direction cosine uniform in
// [-1, 1). The tally counts transmitted, reflected, absorbed and still-live particles and
// the collisions in 8 bins of x.
//
// The particles are a DTensor sharded over all ranks (Shard(0)). Each step reserves the
// stream for the step (kdt::reserve(x, 6): three 64-bit draws per particle), and the kernel
// over the local shard draws particle i's numbers with s.element(i): the numbers depend on
// (seed, step, global particle index) only, never on the rank count. The tallies (integers)
// are summed over ranks, and every rank checks them, and a checksum of the final positions,
// against one process computing all particles with a Generator and reserve(gen, N, 6) on a
// plain View. Exits non-zero on any mismatch.

#include <KokkosDTensor.hpp>

#include "ExampleMain.hpp"

#include <Kokkos_Core.hpp>
#include <cmath>
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <vector>

namespace kdt = KokkosDTensor;

namespace {

constexpr std::uint64_t kSeed = 2026;
constexpr std::int64_t kParticles = 20000;
constexpr int kSteps = 40;
constexpr double kWidth = 4.0;        // slab width in mean free paths
constexpr double kSigmaT = 1.0;       // total cross-section
constexpr double kAbsorb = 0.3;       // absorption probability per collision
constexpr int kBins = 8;              // collision-density bins over [0, width)
constexpr int kWordsPerParticle = 6;  // three 64-bit draws per particle per step

enum Status : int { live = 0, transmitted = 1, reflected = 2, absorbed = 3 };
constexpr int kTallies = 4 + kBins;  // four status counts, then the collision bins

using Space = Kokkos::DefaultExecutionSpace;

// One step of every particle. Stream: kdt::ShardStream<1> (local index i of the shard) or
// kdt::RandomStream (index i of the whole set): both are called as s.element(i).
template <class Stream>
struct TransportStep {
  Kokkos::View<double*, Space> x, mu;
  Kokkos::View<int*, Space> status;
  Kokkos::View<long long*, Space> collisions;
  Stream stream;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    if (status(i) != live) return;
    kdt::ElementDraws draws = stream.element(i);
    const double distance = draws.exponential<double>(kSigmaT);
    // An explicit fma: nvcc contracts x + mu * d into one by default and host compilers do
    // not, which would give the host and the GPU different positions.
    const double position = fma(mu(i), distance, x(i));
    if (position >= kWidth) {
      status(i) = transmitted;
      x(i) = kWidth;
      return;
    }
    if (position < 0) {
      status(i) = reflected;
      x(i) = 0;
      return;
    }
    x(i) = position;
    Kokkos::atomic_add(&collisions(static_cast<int>(position / kWidth * kBins)), 1ll);
    if (draws.uniform<double>() < kAbsorb) {
      status(i) = absorbed;
    } else {
      mu(i) = draws.uniform<double>(-1.0, 1.0);
    }
  }
};

struct Result {
  std::vector<long long> tallies = std::vector<long long>(kTallies, 0);
  std::uint64_t checksum = 0;  // sum of the bit patterns of the final positions, mod 2^64
  bool operator==(const Result& other) const {
    return tallies == other.tallies && checksum == other.checksum;
  }
};

// Runs every step on `count` particles; `reserve_step()` returns the step's stream.
template <class ReserveStep>
Result transport(std::int64_t count, Kokkos::View<double*, Space> x, ReserveStep reserve_step) {
  Kokkos::View<double*, Space> mu("mu", count);
  Kokkos::View<int*, Space> status("status", count);
  Kokkos::View<long long*, Space> collisions("collisions", kBins);
  Kokkos::deep_copy(x, 0.0);
  Kokkos::deep_copy(mu, 1.0);
  for (int step = 0; step < kSteps; ++step) {
    const auto stream = reserve_step();  // advances the state on every rank, no MPI call
    using Stream = std::decay_t<decltype(stream)>;
    Kokkos::parallel_for("monte_carlo::step", Kokkos::RangePolicy<Space>(0, count),
                         TransportStep<Stream>{x, mu, status, collisions, stream});
  }
  Kokkos::fence();
  Result result;
  const auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  const auto hs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), status);
  const auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), collisions);
  for (std::int64_t i = 0; i < count; ++i) {
    ++result.tallies[hs(i)];
    std::uint64_t bits;
    std::memcpy(&bits, &hx(i), sizeof bits);
    result.checksum += bits;
  }
  for (int b = 0; b < kBins; ++b) result.tallies[4 + b] = hc(b);
  return result;
}

int run() {
  const int rank = example::world_rank();
  const auto mesh = kdt::init_device_mesh({example::world_size()}, {"particles"});
  kdt::manual_seed(kSeed, mesh);

  // Distributed: each rank moves its shard of the particles.
  kdt::DTensor<double*> x("x", mesh, {kParticles}, {kdt::Shard(0)});
  Result local = transport(static_cast<std::int64_t>(x.local().extent(0)), x.local(),
                           [&] { return kdt::reserve(x, kWordsPerParticle); });
  Result global;
  MPI_Allreduce(local.tallies.data(), global.tallies.data(), kTallies, MPI_LONG_LONG, MPI_SUM,
                MPI_COMM_WORLD);
  MPI_Allreduce(&local.checksum, &global.checksum, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);

  // One process, all particles, a Generator with the same seed.
  kdt::Generator gen(kSeed);
  Kokkos::View<double*, Space> all("all", kParticles);
  const Result reference = transport(kParticles, all, [&] {
    return kdt::reserve(gen, static_cast<std::uint64_t>(kParticles), kWordsPerParticle);
  });
  const bool state_agrees = kdt::rng_tracker()->get_rng_state() == gen.get_state();
  const bool ok = global == reference && state_agrees;

  if (rank == 0) {
    std::printf("monte_carlo: %lld particles, %d steps, slab width %.1f, p_absorb %.2f, %d ranks\n",
                static_cast<long long>(kParticles), kSteps, kWidth, kAbsorb, example::world_size());
    std::printf("  transmitted %lld  reflected %lld  absorbed %lld  live %lld\n",
                global.tallies[transmitted], global.tallies[reflected], global.tallies[absorbed],
                global.tallies[live]);
    std::printf("  collisions per bin:");
    for (int b = 0; b < kBins; ++b) std::printf(" %lld", global.tallies[4 + b]);
    std::printf("\n  checksum of final positions: %016llx\n",
                static_cast<unsigned long long>(global.checksum));
    std::printf("  RNG state after: seed %llu offset %llu\n",
                static_cast<unsigned long long>(gen.get_state().seed),
                static_cast<unsigned long long>(gen.get_state().offset));
    std::printf("monte_carlo: %s\n", ok ? "tallies equal the one-process computation"
                                        : "MISMATCH with the one-process computation");
  }
  int all_ok = ok ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all_ok ? 0 : 1;
}

}  // namespace

int main(int argc, char* argv[]) {
  return example::main_with_mpi_and_kokkos("monte_carlo", argc, argv, run);
}
