// Deferred ("meta") initialisation and an RNG checkpoint that moves to another mesh.
//
// 1. On mesh A (1-D over all ranks, "fsdp") declare a model's parameters with
//    kdt::deferred_allocation: only their specs exist, no memory.
// 2. Allocate them later and initialise them from the DTensor RNG tracker with several
//    inits (kaiming_uniform_, xavier_uniform_, xavier_normal_, trunc_normal_, ones_, zeros_).
// 3. Checkpoint the tracker state: RNGState::to_bytes() (16 bytes).
// 4. Continue drawing on mesh A (a dropout mask, noise, a new layer's weight).
// 5. On mesh B, a 2-D mesh with other placements and LayoutLeft shards, with the tracker
//    seeded differently, restore the 16 bytes and draw the same continuation.
// The continuation on mesh B equals the one on mesh A bit for bit (compared via
// full_tensor), and both equal what one process draws from a Generator set to the
// checkpoint; the parameters equal a 1-process init too. Exits non-zero otherwise. Also
// prints a checksum of the continuation, the same at every rank count.

#include <mpi.h>

#include "ExampleMain.hpp"
#include <KokkosDTensor.hpp>
#include <Kokkos_Core.hpp>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace kdt = KokkosDTensor;

namespace {

using example::world_rank;
using example::world_size;

constexpr std::uint64_t kSeed = 20260101;

// Row-major values of a View of rank 1 to 4 on the host.
template <class ViewType>
std::vector<double> values_of(const ViewType& view) {
  const auto host = kdt::to_host_row_major(view);
  return std::vector<double>(host.data(), host.data() + host.size());
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// FNV-1a over the bytes of the values (printed, to compare runs at different rank counts).
std::uint64_t checksum(const std::vector<std::vector<double>>& tensors) {
  std::uint64_t hash = 1469598103934665603ull;
  for (const auto& t : tensors)
    for (double v : t) {
      unsigned char bytes[sizeof(double)];
      std::memcpy(bytes, &v, sizeof(double));
      for (unsigned char b : bytes) hash = (hash ^ b) * 1099511628211ull;
    }
  return hash;
}

// The model's parameters, declared on `mesh` without memory.
struct Model {
  kdt::DTensor<float**> embedding, attention;
  kdt::DTensor<double****> conv;
  kdt::DTensor<float**> head;
  kdt::DTensor<float*> norm_weight, norm_bias;
};

Model declare(const kdt::DeviceMesh& mesh) {
  const auto later = kdt::deferred_allocation;
  return Model{{"embedding", mesh, {50, 16}, {kdt::Shard(0)}, later},
               {"attention", mesh, {16, 16}, {kdt::Shard(1)}, later},
               {"conv", mesh, {8, 4, 3, 3}, {kdt::Shard(0)}, later},
               {"head", mesh, {10, 16}, {kdt::Replicate()}, later},
               {"norm_weight", mesh, {16}, {kdt::Shard(0)}, later},
               {"norm_bias", mesh, {16}, {kdt::Replicate()}, later}};
}

// The continuation drawn after the checkpoint: mask, noise and a new layer's weight.
template <class Mask, class Noise, class Weight, class... Gen>
void continuation(const Mask& mask, const Noise& noise, const Weight& weight, Gen&... gen) {
  kdt::bernoulli_(mask, 0.9, gen...);
  kdt::normal_(noise, 0.0, 1.0, gen...);
  kdt::kaiming_normal_(weight, 0.0, "fan_out", "relu", gen...);
}

// The 2-D mesh B: rows x cols = world size, rows the largest factor <= sqrt(size).
std::vector<int> mesh_b_shape(int size) {
  int rows = 1;
  for (int f = 1; f * f <= size; ++f)
    if (size % f == 0) rows = f;
  return {rows, size / rows};
}

int run() {
  const int size = world_size();
  const bool root = world_rank() == 0;
  bool ok = true;
  auto report = [&](const char* what, bool good) {
    if (root) std::printf("  %s: %s\n", what, good ? "yes" : "NO");
    ok = ok && good;
  };

  // 1. Declare on mesh A.
  const auto mesh_a = kdt::init_device_mesh({size}, {"fsdp"});
  Model model = declare(mesh_a);
  if (root) std::printf("deferred_init: %d ranks; mesh A = %s\n", size, mesh_a.to_string().c_str());
  report("6 parameters declared, none allocated", !model.embedding.is_allocated() &&
                                                      !model.conv.is_allocated() &&
                                                      !model.norm_bias.is_allocated());

  // 2. Allocate, then initialise from the tracker.
  kdt::manual_seed(kSeed, mesh_a);
  model.embedding.allocate();
  model.attention.allocate();
  model.conv.allocate();
  model.head.allocate();
  model.norm_weight.allocate();
  model.norm_bias.allocate();
  kdt::trunc_normal_(model.embedding, 0.0, 0.02, -0.04, 0.04);
  kdt::kaiming_uniform_(model.attention, std::sqrt(5.0));
  kdt::xavier_uniform_(model.conv, kdt::calculate_gain("relu"));
  kdt::xavier_normal_(model.head);
  kdt::ones_(model.norm_weight);
  kdt::zeros_(model.norm_bias);

  // The same init on one process, from a Generator.
  kdt::Generator gen(kSeed);
  Kokkos::View<float**> r_embedding("r_embedding", 50, 16), r_attention("r_attention", 16, 16);
  Kokkos::View<double****> r_conv("r_conv", 8, 4, 3, 3);
  Kokkos::View<float**> r_head("r_head", 10, 16);
  kdt::trunc_normal_(r_embedding, 0.0, 0.02, -0.04, 0.04, gen);
  kdt::kaiming_uniform_(r_attention, std::sqrt(5.0), "fan_in", "leaky_relu", gen);
  kdt::xavier_uniform_(r_conv, kdt::calculate_gain("relu"), gen);
  kdt::xavier_normal_(r_head, 1.0, gen);
  report("parameters equal a 1-process init bit for bit",
         same_bits(values_of(model.embedding.full_tensor()), values_of(r_embedding)) &&
             same_bits(values_of(model.attention.full_tensor()), values_of(r_attention)) &&
             same_bits(values_of(model.conv.full_tensor()), values_of(r_conv)) &&
             same_bits(values_of(model.head.full_tensor()), values_of(r_head)) &&
             values_of(model.norm_weight.full_tensor()) == std::vector<double>(16, 1.0) &&
             values_of(model.norm_bias.full_tensor()) == std::vector<double>(16, 0.0));

  // 3. Checkpoint the tracker state.
  const kdt::RNGState checkpoint_state = kdt::rng_tracker()->get_rng_state();
  const std::array<std::uint8_t, 16> checkpoint = checkpoint_state.to_bytes();
  if (root) {
    std::printf("  checkpoint: seed %llu offset %llu, bytes",
                (unsigned long long)checkpoint_state.seed,
                (unsigned long long)checkpoint_state.offset);
    for (std::uint8_t b : checkpoint) std::printf(" %02x", b);
    std::printf("\n");
  }

  // 4. Continue on mesh A.
  kdt::DTensor<float**> mask_a("mask", mesh_a, {9, 13}, {kdt::Shard(1)});
  kdt::DTensor<double**> noise_a("noise", mesh_a, {7, 5}, {kdt::Shard(0)});
  kdt::DTensor<float***> weight_a("weight", mesh_a, {12, 7, 2}, {kdt::Shard(0)});
  continuation(mask_a, noise_a, weight_a);
  const std::vector<std::vector<double>> on_a = {values_of(mask_a.full_tensor()),
                                                 values_of(noise_a.full_tensor()),
                                                 values_of(weight_a.full_tensor())};
  const kdt::RNGState after_a = kdt::rng_tracker()->get_rng_state();

  // 5. A different mesh, placements and layout; a tracker seeded with something else;
  // restore the checkpoint and draw the same continuation.
  const auto mesh_b = kdt::init_device_mesh(mesh_b_shape(size), {"dp", "tp"});
  if (root) std::printf("  mesh B = %s, LayoutLeft shards\n", mesh_b.to_string().c_str());
  kdt::reset_rng_tracker();
  kdt::manual_seed(999, mesh_b);
  kdt::rng_tracker()->set_rng_state(kdt::RNGState::from_bytes(checkpoint));
  kdt::DTensor<float**, Kokkos::LayoutLeft> mask_b("mask", mesh_b, {9, 13},
                                                   {kdt::Shard(1), kdt::Shard(0)});
  kdt::DTensor<double**, Kokkos::LayoutLeft> noise_b("noise", mesh_b, {7, 5},
                                                     {kdt::Replicate(), kdt::Shard(1)});
  kdt::DTensor<float***, Kokkos::LayoutLeft> weight_b("weight", mesh_b, {12, 7, 2},
                                                      {kdt::Shard(2), kdt::Shard(0)});
  continuation(mask_b, noise_b, weight_b);
  const std::vector<std::vector<double>> on_b = {values_of(mask_b.full_tensor()),
                                                 values_of(noise_b.full_tensor()),
                                                 values_of(weight_b.full_tensor())};
  report("continuation on mesh B equals mesh A bit for bit",
         same_bits(on_a[0], on_b[0]) && same_bits(on_a[1], on_b[1]) && same_bits(on_a[2], on_b[2]));
  report("tracker states after the continuation are equal",
         kdt::rng_tracker()->get_rng_state() == after_a);

  // One process from the checkpoint.
  kdt::Generator resumed;
  resumed.set_state(kdt::RNGState::from_bytes(checkpoint));
  Kokkos::View<float**> r_mask("r_mask", 9, 13);
  Kokkos::View<double**> r_noise("r_noise", 7, 5);
  Kokkos::View<float***> r_weight("r_weight", 12, 7, 2);
  continuation(r_mask, r_noise, r_weight, resumed);
  report("continuation equals a 1-process Generator restored from the bytes",
         same_bits(on_a[0], values_of(r_mask)) && same_bits(on_a[1], values_of(r_noise)) &&
             same_bits(on_a[2], values_of(r_weight)) && resumed.get_state() == after_a);
  if (root)
    std::printf("  continuation checksum (same at every rank count): %016llx\n",
                (unsigned long long)checksum(on_a));

  int all_ok = ok ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (root) std::printf("deferred_init: %s\n", all_ok ? "OK" : "MISMATCH");
  return all_ok ? 0 : 1;
}

}  // namespace

int main(int argc, char* argv[]) {
  return example::main_with_mpi_and_kokkos("deferred_init", argc, argv, run);
}
