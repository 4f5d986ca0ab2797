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
    failures += check(std::strcmp(KOKKOSDTENSOR_VERSION_STRING, KOKKOSDTENSOR_EXPECTED_VERSION) == 0,
                      rank,
                      std::string("header version ") + KOKKOSDTENSOR_VERSION_STRING +
                          " != package version " + KOKKOSDTENSOR_EXPECTED_VERSION);

    // A function compiled into the installed library, with its documented message format.
    // TODO(lead): switch this to a random op (e.g. uniform_ on a DTensor over
    // init_device_mesh({size}) compared with the same op on a plain View and a Generator)
    // once the Generator/DeviceMesh/DTensor headers have landed.
    std::string message;
    try {
      kdt::Impl::throw_invalid_argument("install_test", "ranks", kdt::Impl::format_value(size),
                                        "must be positive");
    } catch (const std::invalid_argument& error) {
      message = error.what();
    }
    const std::string expected = "install_test: argument 'ranks' = " + std::to_string(size) +
                                 ": must be positive";
    failures += check(message == expected, rank,
                      "throw_invalid_argument gave \"" + message + "\", expected \"" + expected + "\"");

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
