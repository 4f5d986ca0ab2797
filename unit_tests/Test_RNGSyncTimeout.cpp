// The lazy WORLD synchronisation never hangs: when one rank does not issue the first
// random op, every rank that did gets the documented error within the timeout, having put
// nothing on MPI_COMM_WORLD. The missing rank never joins, so the others reach
// MPI_Finalize with the library's MPI_Comm_idup(MPI_COMM_WORLD) pending: MPI_Finalize
// must still complete (ctest's TIMEOUT for this test catches a hang).

#include <gtest/gtest.h>
#include <mpi.h>

#include <KokkosDTensor.hpp>
#include <chrono>
#include <string>

namespace kdt = KokkosDTensor;

TEST(RNGSyncTimeout, MissingRankGivesErrorInsteadOfHang) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size == 1) GTEST_SKIP() << "needs a rank that stays away";
  kdt::reset_rng_tracker();
  kdt::set_rng_sync_timeout(1.0);
  EXPECT_DOUBLE_EQ(kdt::rng_sync_timeout(), 1.0);
  const auto mesh = kdt::init_device_mesh({size});
  kdt::DTensor<float*> t("t", mesh, {100}, {kdt::Shard(0)});
  if (rank == size - 1) return;  // this rank runs other code (a pipeline stage, say)

  // The application's wildcard receive on WORLD sees nothing of the attempt.
  char buffer[16] = {};
  MPI_Request app_request;
  MPI_Irecv(buffer, sizeof(buffer), MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
            &app_request);

  const auto start = std::chrono::steady_clock::now();
  try {
    kdt::uniform_(t);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("KokkosDTensor::uniform_"), std::string::npos) << message;
    EXPECT_NE(message.find("KokkosDTensor::manual_seed(seed, mesh)"), std::string::npos) << message;
    EXPECT_NE(message.find("MPI_Comm_idup(MPI_COMM_WORLD) stays pending"), std::string::npos)
        << message;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GE(seconds, 0.9);
  EXPECT_LT(seconds, 10.0);
  EXPECT_EQ(kdt::rng_tracker(), nullptr);

  int matched = 0, found = 0;
  MPI_Test(&app_request, &matched, MPI_STATUS_IGNORE);
  EXPECT_EQ(matched, 0);
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &found, MPI_STATUS_IGNORE);
  EXPECT_EQ(found, 0);
  MPI_Send("own", 4, MPI_BYTE, rank, 1, MPI_COMM_WORLD);
  MPI_Status status;
  MPI_Wait(&app_request, &status);
  EXPECT_EQ(status.MPI_SOURCE, rank);
  EXPECT_EQ(std::string(buffer), "own");
}

TEST(RNGSyncTimeout, RejectsNonPositiveTimeout) {
  EXPECT_THROW(kdt::set_rng_sync_timeout(0), std::invalid_argument);
  EXPECT_THROW(kdt::set_rng_sync_timeout(-1), std::invalid_argument);
}
