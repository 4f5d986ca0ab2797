// A consumer of the installed KokkosDTensor package: initialises MPI and Kokkos, uses the
// library through its umbrella header, and exits non-zero on every rank if any rank failed.
#include <KokkosDTensor.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

namespace kdt = KokkosDTensor;

namespace {

int check(bool ok, int rank, const std::string& what) {
  if (!ok) std::fprintf(stderr, "[rank %d] install_test FAILED: %s\n", rank, what.c_str());
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int failures = 0;

  Kokkos::initialize(argc, argv);
  {
    // The installed header and the installed package config agree on the version.
    failures +=
        check(std::strcmp(KOKKOSDTENSOR_VERSION_STRING, KOKKOSDTENSOR_EXPECTED_VERSION) == 0, rank,
              std::string("header version ") + KOKKOSDTENSOR_VERSION_STRING +
                  " != package version " + KOKKOSDTENSOR_EXPECTED_VERSION);

    // A row-sharded DTensor gathers to the tensor one process draws into a View.
    auto mesh = kdt::init_device_mesh({size});
    kdt::manual_seed(42, mesh);
    kdt::DTensor<float**> sharded("w", mesh, {7, 5}, {kdt::Shard(0)});
    kdt::normal_(sharded, 0.0, 1.0);
    auto gathered = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), sharded.full_tensor());
    Kokkos::View<float**> whole("whole", 7, 5);
    kdt::Generator gen(42);
    kdt::normal_(whole, 0.0, 1.0, gen);
    auto expected = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), whole);
    int differing = 0;
    for (int i = 0; i < 7; ++i)
      for (int j = 0; j < 5; ++j) differing += gathered(i, j) != expected(i, j);
    failures +=
        check(differing == 0, rank,
              std::to_string(differing) + " of 35 gathered elements differ from the View's");

    // An error from the installed library, with its documented message format.
    std::string message;
    try {
      kdt::uniform_(whole, 1.0, 0.0, gen);
    } catch (const std::invalid_argument& error) {
      message = error.what();
    }
    const std::string prefix =
        "KokkosDTensor::uniform_: argument 'from' = 1: must be less than to = 0";
    failures += check(message.rfind(prefix, 0) == 0, rank,
                      "uniform_(from = 1, to = 0) gave \"" + message + "\"");

    // Kokkos works through the package's Kokkos::kokkos dependency.
    int sum = 0;
    Kokkos::parallel_reduce(
        "install_test_sum", Kokkos::RangePolicy<>(0, 100),
        KOKKOS_LAMBDA(const int i, int& partial) { partial += i; }, sum);
    failures += check(sum == 4950, rank, "Kokkos parallel_reduce gave " + std::to_string(sum));
  }
  Kokkos::finalize();

  int total_failures = 0;
  MPI_Allreduce(&failures, &total_failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf("install_test: KokkosDTensor %s on %d MPI ranks, Kokkos %s: %s\n",
                KOKKOSDTENSOR_VERSION_STRING, size, Kokkos::DefaultExecutionSpace::name(),
                total_failures == 0 ? "OK" : "FAILED");
  }
  MPI_Finalize();
  return total_failures == 0 ? 0 : 1;
}
