// GoogleTest main (after kokkos-fft / kokkos-comm). With MPI: MPI and Kokkos are
// initialised once, every test is bracketed by barriers, ranks > 0 print only their
// failures (tagged with the rank), and all ranks agree on the exit code. Without MPI
// (KokkosDTensor_ENABLE_MPI=OFF), a plain GoogleTest main that initialises Kokkos.

#include <KokkosDTensor_Config.hpp>
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cstdio>

#if defined(KOKKOSDTENSOR_ENABLE_MPI)
#include <mpi.h>

namespace {

class MpiBarrierEnvironment : public ::testing::Environment {
 public:
  void SetUp() override { MPI_Barrier(MPI_COMM_WORLD); }
  void TearDown() override { MPI_Barrier(MPI_COMM_WORLD); }
};

// Prints failed assertions only, prefixed with the rank that saw them.
class RankFailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (!result.failed()) return;
    std::fprintf(stderr, "[rank %d] %s:%d: Failure\n%s\n", rank_,
                 result.file_name() ? result.file_name() : "?", result.line_number(),
                 result.summary());
  }

 private:
  int rank_;
};

}  // namespace

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Kokkos::initialize(argc, argv);
  int local_result = 0;
  {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(new MpiBarrierEnvironment);
    if (rank != 0) {
      auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
      delete listeners.Release(listeners.default_result_printer());
      listeners.Append(new RankFailurePrinter(rank));
    }
    local_result = RUN_ALL_TESTS();
  }
  int global_result = 0;
  MPI_Allreduce(&local_result, &global_result, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  Kokkos::finalize();
  MPI_Finalize();
  return global_result;
}

#else

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  int result = 0;
  {
    ::testing::InitGoogleTest(&argc, argv);
    result = RUN_ALL_TESTS();
  }
  Kokkos::finalize();
  return result;
}

#endif
