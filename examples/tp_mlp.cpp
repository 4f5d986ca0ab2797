// Tensor-parallel 2-layer MLP, y = W2 * dropout(relu(W1 * x)), on a (dp, tp) mesh:
//
//   x  [batch, in]      Shard(0) on dp, Replicate on tp      (the batch is split over dp)
//   W1 [hidden, in]     Replicate on dp, Shard(0) on tp      (ColwiseParallel: out-features)
//   h  [batch, hidden]  Shard(0) on dp, Shard(1) on tp       (the column-parallel output)
//   W2 [out, hidden]    Replicate on dp, Shard(1) on tp      (RowwiseParallel: in-features)
//   y  [batch, out]     Shard(0) on dp, Partial on tp -> MPI_Allreduce over tp -> Replicate
//
// The weights are declared with deferred allocation (no memory), then allocated and
// initialised with kaiming_uniform_(W, sqrt(5)) (nn.Linear's default) from the DTensor RNG
// tracker. The forward pass runs KokkosBlas::gemm on the local shards. Dropout acts on the
// hidden activation, which is sharded over tp (and dp): as a DTensor, each rank draws its
// slice of the global dropout mask, so the mask is the one a single process would draw.
// The only communication in the forward pass is the all-reduce of the partial output over
// the tp communicator.
//
// The program checks itself against the same model computed by one process with plain
// Views and a Generator seeded like the tracker: the weights and the input bit for bit
// (via full_tensor), the hidden activation and the output within a relative 1e-5 (gemm
// may sum in another order). It exits non-zero on any mismatch. The mesh comes from the
// world size: tp = 2 when the size is even, dp = size / tp (1 rank: dp = tp = 1).
//
// Needs Kokkos Kernels (CMake option KokkosDTensor_ENABLE_KOKKOSKERNELS); built without it
// the program prints that it is skipped and exits 0.

#include <mpi.h>

#include "ExampleMain.hpp"
#include <KokkosDTensor.hpp>
#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#ifdef KOKKOSDTENSOR_EXAMPLE_HAVE_KOKKOSKERNELS
#include <KokkosBlas3_gemm.hpp>
#endif

namespace kdt = KokkosDTensor;

namespace tp_mlp {

// h = relu(h) in place. (A named namespace and a free function: nvcc's rules for
// KOKKOS_LAMBDA. Compiled also without Kokkos Kernels, so every build checks it.)
void relu_(const Kokkos::View<float**>& h) {
  const int cols = static_cast<int>(h.extent(1));
  Kokkos::parallel_for(
      "tp_mlp::relu", Kokkos::RangePolicy<>(0, static_cast<int>(h.extent(0))),
      KOKKOS_LAMBDA(const int i) {
        for (int j = 0; j < cols; ++j)
          if (h(i, j) < 0.0f) h(i, j) = 0.0f;
      });
}

}  // namespace tp_mlp

namespace {

using example::world_rank;
using example::world_size;

#ifdef KOKKOSDTENSOR_EXAMPLE_HAVE_KOKKOSKERNELS

using Matrix = Kokkos::View<float**>;
using HostMatrix = Matrix::HostMirror;
using Param = kdt::DTensor<float**>;

constexpr std::uint64_t kSeed = 1234;
constexpr std::int64_t kBatch = 6, kIn = 20, kHidden = 36, kOut = 10;
constexpr double kDropout = 0.25;

// The same model on one process: plain Views, a Generator in the tracker's state, plain
// loops (summing in double).
struct Reference {
  HostMatrix w1, w2, x, h, y;
};

Reference reference_model() {
  kdt::Generator gen(kSeed);
  Matrix w1("w1", kHidden, kIn), w2("w2", kOut, kHidden), x("x", kBatch, kIn);
  Matrix h("h", kBatch, kHidden);
  // Same draws in the same order as the distributed model.
  kdt::kaiming_uniform_(w1, std::sqrt(5.0), "fan_in", "leaky_relu", gen);
  kdt::kaiming_uniform_(w2, std::sqrt(5.0), "fan_in", "leaky_relu", gen);
  kdt::normal_(x, 0.0, 1.0, gen);
  Reference r;
  r.w1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), w1);
  r.w2 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), w2);
  r.x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  HostMatrix hh("hh", kBatch, kHidden);
  for (int b = 0; b < kBatch; ++b)
    for (int j = 0; j < kHidden; ++j) {
      double sum = 0;
      for (int k = 0; k < kIn; ++k) sum += double(r.x(b, k)) * r.w1(j, k);
      hh(b, j) = sum > 0 ? static_cast<float>(sum) : 0.0f;
    }
  Kokkos::deep_copy(h, hh);
  kdt::dropout_(h, kDropout, gen);
  r.h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), h);
  r.y = HostMatrix("y", kBatch, kOut);
  for (int b = 0; b < kBatch; ++b)
    for (int o = 0; o < kOut; ++o) {
      double sum = 0;
      for (int j = 0; j < kHidden; ++j) sum += double(r.h(b, j)) * r.w2(o, j);
      r.y(b, o) = static_cast<float>(sum);
    }
  return r;
}

bool bitwise_equal(const Matrix& a, const HostMatrix& b) {
  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  if (ha.extent(0) != b.extent(0) || ha.extent(1) != b.extent(1)) return false;
  for (std::size_t i = 0; i < ha.extent(0); ++i)
    for (std::size_t j = 0; j < ha.extent(1); ++j)
      if (std::memcmp(&ha(i, j), &b(i, j), sizeof(float)) != 0) return false;
  return true;
}

// max |a - b| / max |b|.
double relative_error(const Matrix& a, const HostMatrix& b) {
  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  double max_diff = 0, max_ref = 0;
  for (std::size_t i = 0; i < ha.extent(0); ++i)
    for (std::size_t j = 0; j < ha.extent(1); ++j) {
      max_diff = std::fmax(max_diff, std::fabs(double(ha(i, j)) - b(i, j)));
      max_ref = std::fmax(max_ref, std::fabs(double(b(i, j))));
    }
  return max_ref > 0 ? max_diff / max_ref : max_diff;
}

int run() {
  const int size = world_size();
  const int tp = size % 2 == 0 ? 2 : 1;
  const int dp = size / tp;
  const bool root = world_rank() == 0;
  const auto mesh = kdt::init_device_mesh({dp, tp}, {"dp", "tp"});
  if (root)
    std::printf(
        "tp_mlp: %d ranks, mesh (dp, tp) = (%d, %d); batch %ld, in %ld, hidden %ld, "
        "out %ld, dropout p = %.2f\n",
        size, dp, tp, long(kBatch), long(kIn), long(kHidden), long(kOut), kDropout);

  // Declare the parameters: spec only, no memory yet (the deferred / "meta" step).
  Param w1("W1", mesh, {kHidden, kIn}, {kdt::Replicate(), kdt::Shard(0)}, kdt::deferred_allocation);
  Param w2("W2", mesh, {kOut, kHidden}, {kdt::Replicate(), kdt::Shard(1)},
           kdt::deferred_allocation);
  const bool deferred = !w1.is_allocated() && !w2.is_allocated();

  // Allocate, then initialise from the tracker like nn.Linear: each rank fills its shard
  // with its slice of the global weight.
  kdt::manual_seed(kSeed, mesh);
  w1.allocate();
  w2.allocate();
  kdt::kaiming_uniform_(w1, std::sqrt(5.0));
  kdt::kaiming_uniform_(w2, std::sqrt(5.0));

  // A batch sharded over dp (replicated over tp).
  Param x("x", mesh, {kBatch, kIn}, {kdt::Shard(0), kdt::Replicate()});
  kdt::normal_(x, 0.0, 1.0);

  // Column-parallel layer: h_local = relu(x_local * W1_local^T) is the (dp, tp) block of h.
  Param h("h", mesh, {kBatch, kHidden}, {kdt::Shard(0), kdt::Shard(1)});
  KokkosBlas::gemm("N", "T", 1.0f, x.local(), w1.local(), 0.0f, h.local());
  tp_mlp::relu_(h.local());
  // Dropout on the tp-sharded activation: each rank draws its slice of the global mask.
  kdt::dropout_(h, kDropout);

  // Row-parallel layer: y_partial = h_local * W2_local^T, summed over tp.
  Param y_partial("y", mesh, {kBatch, kOut}, {kdt::Shard(0), kdt::Partial()});
  KokkosBlas::gemm("N", "T", 1.0f, h.local(), w2.local(), 0.0f, y_partial.local());
  Kokkos::fence();  // the gemm is done before MPI reads the buffer
  const Matrix y_local = y_partial.local();
  MPI_Allreduce(MPI_IN_PLACE, y_local.data(), static_cast<int>(y_local.size()), MPI_FLOAT, MPI_SUM,
                mesh.comm("tp"));
  const Param y(y_local, kdt::DTensorSpec(mesh, {kdt::Shard(0), kdt::Replicate()}, {kBatch, kOut}));

  // Check against one process.
  const Reference ref = reference_model();
  const bool w1_equal = bitwise_equal(w1.full_tensor(), ref.w1);
  const bool w2_equal = bitwise_equal(w2.full_tensor(), ref.w2);
  const bool x_equal = bitwise_equal(x.full_tensor(), ref.x);
  const double h_error = relative_error(h.full_tensor(), ref.h);
  const Matrix y_full = y.full_tensor();  // collective: every rank calls it
  const double y_error = relative_error(y_full, ref.y);
  const double tolerance = 1e-5;
  bool ok =
      deferred && w1_equal && w2_equal && x_equal && h_error <= tolerance && y_error <= tolerance;
  int all_ok = ok ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);

  if (root) {
    std::printf("  W1 [%ld, %ld] Shard(0) on tp: local [%zu, %zu] on rank 0\n", long(kHidden),
                long(kIn), w1.local().extent(0), w1.local().extent(1));
    std::printf("  W2 [%ld, %ld] Shard(1) on tp: local [%zu, %zu] on rank 0\n", long(kOut),
                long(kHidden), w2.local().extent(0), w2.local().extent(1));
    std::printf("  weights declared without memory, then allocated: %s\n", deferred ? "yes" : "NO");
    std::printf("  W1, W2, x equal the 1-rank model bit for bit: %s, %s, %s\n",
                w1_equal ? "yes" : "NO", w2_equal ? "yes" : "NO", x_equal ? "yes" : "NO");
    std::printf("  dropout(relu(W1 x)) relative error vs 1 rank: %.1e (tolerance %.0e)\n", h_error,
                tolerance);
    std::printf("  y relative error vs 1 rank: %.1e (tolerance %.0e)\n", y_error, tolerance);
    auto hy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y_full);
    std::printf("  y[0, 0:4] = %.6f %.6f %.6f %.6f\n", hy(0, 0), hy(0, 1), hy(0, 2), hy(0, 3));
    std::printf("tp_mlp: %s\n", all_ok ? "OK" : "MISMATCH");
  }
  return all_ok ? 0 : 1;
}

#else  // no Kokkos Kernels

int run() {
  if (world_rank() == 0)
    std::printf(
        "tp_mlp: skipped: built without Kokkos Kernels "
        "(configure with KokkosDTensor_ENABLE_KOKKOSKERNELS=ON)\n");
  return 0;
}

#endif

}  // namespace

int main(int argc, char* argv[]) {
  return example::main_with_mpi_and_kokkos("tp_mlp", argc, argv, run);
}
