// SPEC section 5: a random op on a DTensor from the RNG tracker after MPI_Finalize throws
// std::runtime_error mentioning MPI_Finalize, with state and data unchanged. The tracker
// learns of MPI_Finalize through an MPI_COMM_SELF attribute (src/KokkosDTensor_RNGTracker.cpp),
// so the check costs no MPI call per op. A program of its own: MPI_Init, Kokkos, a host
// DTensor, manual_seed, MPI_Finalize, then the ops. Prints "FAIL: ..." lines and exits
// non-zero on any failure (each rank decides alone: MPI is gone).

#include <KokkosDTensor.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace kdt = KokkosDTensor;

namespace {

int failures = 0;

void check(bool condition, const std::string& what) {
  if (!condition) {
    std::fprintf(stderr, "FAIL: %s\n", what.c_str());
    ++failures;
  }
}

template <class F>
void expect_after_finalize_error(const std::string& name, F&& op, const char* function) {
  try {
    op();
    check(false, name + ": no exception");
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    check(typeid(e) == typeid(std::runtime_error), name + ": wrong type: " + message);
    check(message.find(function) != std::string::npos, name + ": no function name: " + message);
    check(message.find("MPI_Finalize") != std::string::npos,
          name + ": no MPI_Finalize: " + message);
  } catch (const std::exception& e) {
    check(false, name + ": wrong exception: " + e.what());
  }
}

template <class View>
bool all_equal(const View& v, float value) {
  for (std::size_t i = 0; i < v.extent(0); ++i)
    if (v(i) != value) return false;
  return true;
}

}  // namespace

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  Kokkos::initialize(argc, argv);
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  {
    const auto mesh = kdt::init_device_mesh({size});
    kdt::DTensor<float*, Kokkos::HostSpace> t("t", mesh, {4 * size + 1}, {kdt::Shard(0)});
    Kokkos::deep_copy(t.local(), 42.0f);
    kdt::manual_seed(1234, mesh);
    kdt::uniform_(t);  // works while MPI runs
    Kokkos::fence();
    Kokkos::deep_copy(t.local(), 42.0f);
    const kdt::RNGState before = kdt::rng_tracker()->get_rng_state();
    check(before.offset > 0, "op before MPI_Finalize advances the state");

    MPI_Finalize();

    expect_after_finalize_error(
        "uniform_ with the tracker", [&] { kdt::uniform_(t); }, "KokkosDTensor::uniform_");
    expect_after_finalize_error(
        "dropout_ with the tracker", [&] { kdt::dropout_(t, 0.25); }, "KokkosDTensor::dropout_");
    check(kdt::rng_tracker()->get_rng_state() == before, "tracker state unchanged");
    check(all_equal(t.local(), 42.0f), "data unchanged");
    // Without a tracker the first op would synchronise over WORLD: refused as well.
    kdt::reset_rng_tracker();
    expect_after_finalize_error(
        "normal_ without a tracker", [&] { kdt::normal_(t); }, "KokkosDTensor::normal_");
    check(kdt::rng_tracker() == nullptr, "no tracker created");
    check(all_equal(t.local(), 42.0f), "data unchanged without a tracker");
  }
  Kokkos::finalize();
  if (failures == 0) std::printf("Test_ErrorsAfterMPIFinalize: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
