// The README demo: the same seed gives the same global random tensor on every mesh and
// placement. Each case seeds the DTensor RNG tracker, draws uniform_ and normal_ into a
// sharded 2-D DTensor, gathers it with full_tensor() and compares it bit for bit with
// the same ops on a plain View drawn by a process-local Generator (what one rank
// alone would compute). Runs on any number of ranks; exits non-zero on any mismatch.

#include <KokkosDTensor.hpp>

#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstring>
#include <mpi.h>
#include <string>
#include <vector>

namespace kdt = KokkosDTensor;

namespace {

using HostMatrix = Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace>;

constexpr std::uint64_t kSeed = 2026;
constexpr std::int64_t kRows = 37, kCols = 53;  // deliberately not divisible by the mesh

struct Case {
  std::vector<int> mesh_shape;
  std::vector<kdt::Placement> placements;
};

// The global tensors one rank computes alone: uniform_ then normal_ from (kSeed, 0).
std::pair<HostMatrix, HostMatrix> reference_tensors() {
  kdt::Generator gen(kSeed);
  Kokkos::View<float**, Kokkos::LayoutRight> u("u", kRows, kCols), n("n", kRows, kCols);
  kdt::uniform_(u, 0.0, 1.0, gen);
  kdt::normal_(n, 0.0, 1.0, gen);
  HostMatrix hu("hu", kRows, kCols), hn("hn", kRows, kCols);
  Kokkos::deep_copy(hu, u);
  Kokkos::deep_copy(hn, n);
  return {hu, hn};
}

std::vector<std::vector<int>> mesh_shapes_for(int ranks) {
  std::vector<std::vector<int>> shapes = {{ranks}};
  for (int a = 2; a < ranks; ++a) {
    if (ranks % a == 0) shapes.push_back({a, ranks / a});
  }
  return shapes;
}

std::vector<Case> cases_for(int ranks) {
  std::vector<Case> cases;
  for (const auto& shape : mesh_shapes_for(ranks)) {
    if (shape.size() == 1) {
      for (kdt::Placement p : {kdt::Placement{kdt::Shard(0)}, kdt::Placement{kdt::Shard(1)},
                               kdt::Placement{kdt::Replicate()}}) {
        cases.push_back({shape, {p}});
      }
    } else {
      const std::vector<std::vector<kdt::Placement>> pairs = {
          {kdt::Shard(0), kdt::Replicate()}, {kdt::Replicate(), kdt::Shard(1)},
          {kdt::Shard(0), kdt::Shard(1)},    {kdt::Shard(1), kdt::Shard(0)},
          {kdt::Shard(0), kdt::Shard(0)},    {kdt::Replicate(), kdt::Replicate()}};
      for (const auto& placements : pairs) cases.push_back({shape, placements});
    }
  }
  return cases;
}

std::string join(const std::vector<int>& values, const char* sep) {
  std::string text;
  for (std::size_t i = 0; i < values.size(); ++i) {
    text += (i ? sep : "") + std::to_string(values[i]);
  }
  return text;
}

std::string join(const std::vector<kdt::Placement>& placements) {
  std::string text;
  for (std::size_t i = 0; i < placements.size(); ++i) {
    text += (i ? "," : "") + kdt::to_string(placements[i]);
  }
  return text;
}

bool bitwise_equal(const HostMatrix& a, const HostMatrix& b) {
  return std::memcmp(a.data(), b.data(), sizeof(float) * a.size()) == 0;
}

// Order-dependent checksum of the bits, so the table shows the tensors are the same.
std::uint32_t checksum(const HostMatrix& a) {
  std::uint32_t hash = 2166136261u;
  for (std::size_t i = 0; i < a.size(); ++i) {
    std::uint32_t bits;
    std::memcpy(&bits, a.data() + i, sizeof bits);
    hash = (hash ^ bits) * 16777619u;
  }
  return hash;
}

HostMatrix gathered(const kdt::DTensor<float**, Kokkos::LayoutRight>& t) {
  auto full = t.full_tensor();
  HostMatrix host("host", kRows, kCols);
  Kokkos::deep_copy(host, full);
  return host;
}

}  // namespace

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  Kokkos::initialize(argc, argv);
  int failures = 0;
  {
    int rank = 0, ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    const auto reference = reference_tensors();
    if (rank == 0) {
      std::printf(
          "Global %lldx%lld float tensor, seed %llu, on %d rank(s); reference = one "
          "process drawing uniform_ then normal_ into a plain View.\n",
          static_cast<long long>(kRows), static_cast<long long>(kCols),
          static_cast<unsigned long long>(kSeed), ranks);
      std::printf("%-8s %-10s %-12s %-12s %s\n", "mesh", "placements", "uniform_hash",
                  "normal_hash", "equal to 1-rank tensor");
      std::printf("%-8s %-10s %08x     %08x     %s\n", "-", "-", checksum(reference.first),
                  checksum(reference.second), "(reference)");
    }
    for (const Case& c : cases_for(ranks)) {
      const kdt::DeviceMesh mesh = kdt::init_device_mesh(c.mesh_shape);
      kdt::manual_seed(kSeed, mesh);
      kdt::DTensor<float**, Kokkos::LayoutRight> u("u", mesh, {kRows, kCols}, c.placements);
      kdt::DTensor<float**, Kokkos::LayoutRight> n("n", mesh, {kRows, kCols}, c.placements);
      kdt::uniform_(u);
      kdt::normal_(n);
      const HostMatrix gu = gathered(u), gn = gathered(n);
      const bool same = bitwise_equal(gu, reference.first) && bitwise_equal(gn, reference.second);
      int all_same = same ? 1 : 0;
      MPI_Allreduce(MPI_IN_PLACE, &all_same, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
      if (!all_same) ++failures;
      if (rank == 0) {
        std::printf("%-8s %-10s %08x     %08x     %s\n", join(c.mesh_shape, "x").c_str(),
                    join(c.placements).c_str(), checksum(gu), checksum(gn),
                    all_same ? "yes" : "NO");
      }
    }
    if (rank == 0) {
      std::printf(failures ? "FAILED: %d case(s) differ from the 1-rank tensor\n"
                           : "All cases equal the 1-rank tensor bit for bit.\n",
                  failures);
    }
  }
  Kokkos::finalize();
  MPI_Finalize();
  return failures ? 1 : 0;
}
