// The lazy WORLD synchronisation (SPEC section 3) puts no message on a communicator the
// application owns: an application that keeps a wildcard receive posted on MPI_COMM_WORLD
// while the first random op synchronises never sees the library's traffic, whether every
// rank arrives at once or one rank arrives late (within the timeout). A rank that arrives
// after the others timed out completes the library's pending communicator duplication, so
// a retry succeeds everywhere.

#include <gtest/gtest.h>
#include <mpi.h>

#include <KokkosDTensor.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace kdt = KokkosDTensor;

namespace {

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int world_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

// A wildcard receive on MPI_COMM_WORLD that the application posts before the first random
// op: it would match any point-to-point message the library sent on WORLD.
class ApplicationWildcardReceive {
 public:
  ApplicationWildcardReceive() {
    MPI_Irecv(buffer_, sizeof(buffer_), MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
              &request_);
  }

  // The receive is still pending and WORLD holds no message for this rank (polled for a
  // while, so that library messages still in flight would show up).
  void expect_untouched() {
    int flag = 0;
    MPI_Status status;
    MPI_Test(&request_, &flag, &status);
    EXPECT_EQ(flag, 0) << "the application's MPI_Irecv(ANY_SOURCE, ANY_TAG, MPI_COMM_WORLD) "
                          "matched a message from rank "
                       << status.MPI_SOURCE << " with tag " << status.MPI_TAG;
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
    while (std::chrono::steady_clock::now() < until) {
      int found = 0;
      MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &found, &status);
      ASSERT_EQ(found, 0) << "MPI_Iprobe on MPI_COMM_WORLD found a message from rank "
                          << status.MPI_SOURCE << " with tag " << status.MPI_TAG;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }

  // The application completes its own receive with a message it sends itself.
  void complete_with_own_message() {
    const int rank = world_rank();
    const char text[] = "application";
    MPI_Request send;
    MPI_Isend(text, sizeof(text), MPI_BYTE, rank, 4242, MPI_COMM_WORLD, &send);
    MPI_Status status;
    MPI_Wait(&request_, &status);
    MPI_Wait(&send, MPI_STATUS_IGNORE);
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    EXPECT_EQ(status.MPI_SOURCE, rank);
    EXPECT_EQ(status.MPI_TAG, 4242);
    EXPECT_EQ(count, static_cast<int>(sizeof(text)));
    EXPECT_EQ(std::string(buffer_), "application");
  }

 private:
  char buffer_[64] = {};
  MPI_Request request_ = MPI_REQUEST_NULL;
};

class RNGSyncPrivateComm : public ::testing::Test {
 protected:
  void SetUp() override {
    saved_generator_ = kdt::default_generator().get_state();
    saved_timeout_ = kdt::rng_sync_timeout();
    kdt::reset_rng_tracker();
    kdt::seed(500 + world_rank());  // ranks disagree: the sync must deliver rank 0's state
  }
  void TearDown() override {
    kdt::reset_rng_tracker();
    kdt::set_rng_sync_timeout(saved_timeout_);
    kdt::default_generator().set_state(saved_generator_);
  }

  // Every rank holds rank 0's default-generator state after the op.
  static void expect_rank0_state(std::uint64_t offset_after) {
    ASSERT_NE(kdt::rng_tracker(), nullptr);
    EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), (kdt::RNGState{500, offset_after}));
  }

  kdt::RNGState saved_generator_{};
  double saved_timeout_ = 60;
};

}  // namespace

// (a) Every rank arrives together; the application's wildcard receive stays untouched.
TEST_F(RNGSyncPrivateComm, WildcardReceiveOnWorldSeesNothing) {
  kdt::set_rng_sync_timeout(30);
  const auto mesh = kdt::init_device_mesh({world_size()});
  kdt::DTensor<float*> t("t", mesh, {100}, {kdt::Shard(0)});
  ApplicationWildcardReceive app;
  kdt::uniform_(t);
  expect_rank0_state(100);
  app.expect_untouched();
  app.complete_with_own_message();
}

// (b) The last rank arrives 1.5 s late (within the timeout).
TEST_F(RNGSyncPrivateComm, LateRankWithinTimeoutSeesNothing) {
  kdt::set_rng_sync_timeout(30);
  const auto mesh = kdt::init_device_mesh({world_size()});
  kdt::DTensor<float*> t("t", mesh, {100}, {kdt::Shard(0)});
  ApplicationWildcardReceive app;
  if (world_rank() == world_size() - 1)
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  kdt::uniform_(t);
  expect_rank0_state(100);
  app.expect_untouched();
  app.complete_with_own_message();
}

// After reset_rng_tracker() a second synchronisation reuses the private communicator.
TEST_F(RNGSyncPrivateComm, SecondSynchronisationAfterReset) {
  kdt::set_rng_sync_timeout(30);
  const auto mesh = kdt::init_device_mesh({world_size()});
  kdt::DTensor<float*> t("t", mesh, {100}, {kdt::Shard(0)});
  ApplicationWildcardReceive app;
  kdt::uniform_(t);
  expect_rank0_state(100);
  kdt::reset_rng_tracker();
  kdt::uniform_(t);
  expect_rank0_state(100);
  app.expect_untouched();
  app.complete_with_own_message();
}

// A rank that arrives after the others timed out completes their pending duplication of
// MPI_COMM_WORLD; when they retry, every rank gets rank 0's state.
TEST_F(RNGSyncPrivateComm, RetryAfterTimeoutSucceedsOnceTheLateRankArrives) {
  if (world_size() == 1) GTEST_SKIP() << "needs a late rank";
  const auto mesh = kdt::init_device_mesh({world_size()});
  kdt::DTensor<float*> t("t", mesh, {100}, {kdt::Shard(0)});
  ApplicationWildcardReceive app;
  if (world_rank() == world_size() - 1) {
    std::this_thread::sleep_for(std::chrono::milliseconds(3000));  // others time out at 0.5 s
    kdt::set_rng_sync_timeout(30);
    kdt::uniform_(t);
  } else {
    kdt::set_rng_sync_timeout(0.5);
    try {
      kdt::uniform_(t);
      ADD_FAILURE() << "no timeout";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("KokkosDTensor::manual_seed(seed, mesh)"),
                std::string::npos)
          << e.what();
    }
    EXPECT_EQ(kdt::rng_tracker(), nullptr);
    kdt::set_rng_sync_timeout(30);
    kdt::uniform_(t);  // the retry
  }
  expect_rank0_state(100);
  app.expect_untouched();
  app.complete_with_own_message();
}

// A rank with a tiny timeout throws again and again (before and after the private
// communicator exists), resuming the same synchronisation each time, until the answer has
// arrived: it ends with the state every other rank got, and WORLD stays untouched.
TEST_F(RNGSyncPrivateComm, RepeatedTimeoutsResumeTheSameSynchronisation) {
  if (world_size() == 1) GTEST_SKIP() << "needs a rank to wait for";
  const auto mesh = kdt::init_device_mesh({world_size()});
  kdt::DTensor<float*> t("t", mesh, {100}, {kdt::Shard(0)});
  ApplicationWildcardReceive app;
  const int impatient = world_size() - 1;
  if (world_rank() == impatient) {
    kdt::set_rng_sync_timeout(1e-6);
    int before_comm = 0, after_comm = 0;
    for (;;) {
      try {
        kdt::uniform_(t);
        break;
      } catch (const std::runtime_error& e) {
        const std::string message = e.what();
        ASSERT_NE(message.find("KokkosDTensor::manual_seed(seed, mesh)"), std::string::npos)
            << message;
        (message.find("MPI_Comm_idup(MPI_COMM_WORLD) stays pending") != std::string::npos
             ? before_comm
             : after_comm)++;
      }
    }
    std::printf(
        "[rank %d] timed out %d times before and %d times after the private "
        "communicator existed\n",
        world_rank(), before_comm, after_comm);
  } else {
    kdt::set_rng_sync_timeout(30);
    if (world_rank() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(300));
    kdt::uniform_(t);
  }
  expect_rank0_state(100);
  app.expect_untouched();
  app.complete_with_own_message();
}
