// Pipeline-parallel seeding, the case of the PyTorch change this project starts from:
// a (pp, dp, tp) = (2, 2, 2) mesh; each pipeline stage seeds the DTensor RNG tracker on
// its own SPMD mesh (its (dp, tp) sub-mesh, flattened) with manual_seed(123 + pp_rank,
// spmd). manual_seed makes no MPI call, so nothing is broadcast over MPI_COMM_WORLD and
// the stages need not agree (the lazy WORLD synchronisation is what hangs pipeline
// programs in PyTorch).
//
// Each stage then draws DTensors on its SPMD mesh: a weight sharded over the stage's ranks
// and a replicated one. The program gathers the results and checks that
//   - ranks within a stage agree: every rank's full_tensor() is the same, and the
//     replicated DTensor holds the same local values on every rank of the stage;
//   - each stage's tensor is the one a single process draws with Generator(123 + pp_rank);
//   - different stages drew different numbers.
// It exits non-zero otherwise. Runs on 8 ranks; on other counts it uses a smaller mesh:
// pp = 2 when the world size is even (else 1), tp = 2 when the rest is even (else 1),
// dp = the rest; with pp = 1 there is only one stage to show.

#include <mpi.h>

#include "ExampleMain.hpp"
#include <KokkosDTensor.hpp>
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace kdt = KokkosDTensor;

namespace {

using example::world_rank;
using example::world_size;

using Matrix = Kokkos::View<float**>;
constexpr std::int64_t kRows = 6, kCols = 5;

std::vector<float> row_major(const Matrix& m) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m);
  std::vector<float> values;
  for (std::size_t i = 0; i < host.extent(0); ++i)
    for (std::size_t j = 0; j < host.extent(1); ++j) values.push_back(host(i, j));
  return values;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// Every rank's vector (all of the same length), gathered on every rank.
std::vector<std::vector<float>> allgather(const std::vector<float>& local) {
  const int n = static_cast<int>(local.size());
  std::vector<float> all(static_cast<std::size_t>(n) * world_size());
  MPI_Allgather(local.data(), n, MPI_FLOAT, all.data(), n, MPI_FLOAT, MPI_COMM_WORLD);
  std::vector<std::vector<float>> blocks;
  for (int r = 0; r < world_size(); ++r)
    blocks.emplace_back(all.begin() + r * n, all.begin() + (r + 1) * n);
  return blocks;
}

int run() {
  const int size = world_size();
  const int pp = size % 2 == 0 ? 2 : 1;
  const int tp = (size / pp) % 2 == 0 ? 2 : 1;
  const int dp = size / pp / tp;
  const bool root = world_rank() == 0;
  if (root) {
    std::printf("pipeline_seeds: %d ranks, mesh (pp, dp, tp) = (%d, %d, %d)\n", size, pp, dp, tp);
    if (size != 8)
      std::printf("  (the full example needs 8 ranks for (2, 2, 2); running a smaller mesh%s)\n",
                  pp == 1 ? ", one stage only" : "");
  }

  const auto mesh = kdt::init_device_mesh({pp, dp, tp}, {"pp", "dp", "tp"});
  const int pp_rank = mesh.local_rank("pp");
  const auto spmd = mesh.submesh({"dp", "tp"}).flatten("spmd");
  const std::uint64_t stage_seed = 123 + static_cast<std::uint64_t>(pp_rank);
  kdt::manual_seed(stage_seed, spmd);  // no MPI call: no WORLD broadcast, no agreement check

  // Each stage draws on its own SPMD mesh.
  kdt::DTensor<float**> weight("weight", spmd, {kRows, kCols}, {kdt::Shard(0)});
  kdt::DTensor<float**> replicated("replicated", spmd, {kRows, kCols}, {kdt::Replicate()});
  kdt::kaiming_uniform_(weight);
  kdt::normal_(replicated);
  const kdt::RNGState state = kdt::rng_tracker()->get_rng_state();

  // What one process draws alone with the stage's seed.
  kdt::Generator gen(stage_seed);
  Matrix ref_weight("ref_weight", kRows, kCols), ref_replicated("ref_replicated", kRows, kCols);
  kdt::kaiming_uniform_(ref_weight, 0.0, "fan_in", "leaky_relu", gen);
  kdt::normal_(ref_replicated, 0.0, 1.0, gen);

  const std::vector<float> full = row_major(weight.full_tensor());  // collective over the stage
  const std::vector<float> local_replicated = row_major(replicated.local());
  int equals_reference = same_bits(full, row_major(ref_weight)) &&
                         same_bits(local_replicated, row_major(ref_replicated)) &&
                         state == gen.get_state();
  MPI_Allreduce(MPI_IN_PLACE, &equals_reference, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);

  // Gather everything (after the draws; only the check communicates over WORLD).
  const auto fulls = allgather(full);
  const auto replicas = allgather(local_replicated);
  std::vector<int> stage_of(size);
  MPI_Allgather(&pp_rank, 1, MPI_INT, stage_of.data(), 1, MPI_INT, MPI_COMM_WORLD);
  bool within_stage_agree = true, stages_differ = true;
  for (int a = 0; a < size; ++a)
    for (int b = 0; b < size; ++b) {
      const bool same = same_bits(fulls[a], fulls[b]) && same_bits(replicas[a], replicas[b]);
      if (stage_of[a] == stage_of[b] && !same) within_stage_agree = false;
      if (stage_of[a] != stage_of[b] &&
          (same_bits(fulls[a], fulls[b]) || same_bits(replicas[a], replicas[b])))
        stages_differ = false;
    }
  // (within_stage_agree and stages_differ are computed from the same gathered data on
  // every rank, so every rank agrees on them.)
  const bool all_ok = equals_reference && within_stage_agree && stages_differ;

  if (root) {
    for (int stage = 0; stage < pp; ++stage) {
      int first = 0;
      while (stage_of[first] != stage) ++first;
      std::string ranks;
      for (int r = 0; r < size; ++r)
        if (stage_of[r] == stage) ranks += (ranks.empty() ? "" : ",") + std::to_string(r);
      std::printf("  stage %d: seed %d on ranks {%s}: weight[0, 0:4] = %.6f %.6f %.6f %.6f\n",
                  stage, 123 + stage, ranks.c_str(), fulls[first][0], fulls[first][1],
                  fulls[first][2], fulls[first][3]);
    }
    std::printf("  ranks within a stage agree (full_tensor and replicated shards): %s\n",
                within_stage_agree ? "yes" : "NO");
    std::printf("  stages drew different numbers: %s\n",
                pp == 1 ? "(one stage)" : (stages_differ ? "yes" : "NO"));
    std::printf("  each stage equals a 1-process Generator(123 + pp_rank): %s\n",
                equals_reference ? "yes" : "NO");
    std::printf("pipeline_seeds: %s\n", all_ok ? "OK" : "MISMATCH");
  }
  return all_ok ? 0 : 1;
}

}  // namespace

int main(int argc, char* argv[]) {
  return example::main_with_mpi_and_kokkos("pipeline_seeds", argc, argv, run);
}
