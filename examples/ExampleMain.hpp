// What the MPI examples share: the world rank and size, and a main() that sets MPI and
// Kokkos up around the example's run() and reports an exception with its rank.

#ifndef KOKKOSDTENSOR_EXAMPLEMAIN_HPP
#define KOKKOSDTENSOR_EXAMPLEMAIN_HPP

#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <cstdio>
#include <exception>

namespace example {

inline int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

inline int world_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

// The exit status of run() (1 if it throws; the message goes to stderr as
// "<name>: rank <r>: <what>").
inline int main_with_mpi_and_kokkos(const char* name, int argc, char* argv[], int (*run)()) {
  MPI_Init(&argc, &argv);
  Kokkos::initialize(argc, argv);
  int status = 1;
  try {
    status = run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: rank %d: %s\n", name, world_rank(), e.what());
    status = 1;
  }
  Kokkos::finalize();
  MPI_Finalize();
  return status;
}

}  // namespace example

#endif
