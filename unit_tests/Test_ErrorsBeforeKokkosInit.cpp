// SPEC section 5: a random op before Kokkos::initialize (or after Kokkos::finalize) throws
// std::runtime_error naming the op and Kokkos::initialize, and changes no state and no
// data. A program of its own (not the GoogleTest main, which initialises Kokkos first):
// MPI_Init, a mesh, the tracker and Views that wrap host memory (no Kokkos allocation),
// then the ops. Prints "FAIL: ..." lines and exits non-zero on any failure.

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

// op() must throw exactly std::runtime_error whose message holds every part.
template <class F>
void expect_runtime_error(const std::string& name, F&& op, const std::vector<std::string>& parts) {
  try {
    op();
    check(false, name + ": no exception");
  } catch (const std::runtime_error& e) {
    check(typeid(e) == typeid(std::runtime_error), name + ": wrong type: " + e.what());
    for (const auto& part : parts)
      check(std::string(e.what()).find(part) != std::string::npos,
            name + ": message lacks \"" + part + "\": " + e.what());
  } catch (const std::exception& e) {
    check(false, name + ": wrong exception: " + e.what());
  }
}

using HostView = Kokkos::View<float*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

bool all_sentinel(const std::vector<float>& data) {
  for (float x : data)
    if (x != 42.0f) return false;
  return true;
}

}  // namespace

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  {
    const auto mesh = kdt::init_device_mesh({size});
    const kdt::DTensorSpec spec(mesh, {kdt::Shard(0)}, {8 * size});
    std::vector<float> shard(8, 42.0f), plain(8, 42.0f);
    kdt::DTensor<float*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> t(
        HostView(shard.data(), shard.size()), spec);
    HostView v(plain.data(), plain.size());
    kdt::manual_seed(5, mesh);
    kdt::rng_tracker()->set_rng_state({5, 8});
    kdt::Generator gen(6);
    const kdt::RNGState default_state = kdt::default_generator().get_state();

    check(!Kokkos::is_initialized(), "Kokkos is not initialised yet");
    for (const char* when : {"before Kokkos::initialize", "after Kokkos::finalize"}) {
      const std::string w = when;
      expect_runtime_error(w + ", DTensor, tracker", [&] { kdt::uniform_(t); },
                           {"KokkosDTensor::uniform_", "Kokkos::initialize"});
      expect_runtime_error(w + ", DTensor, Generator", [&] { kdt::normal_(t, 0.0, 1.0, gen); },
                           {"KokkosDTensor::normal_", "Kokkos::initialize"});
      expect_runtime_error(w + ", View, Generator", [&] { kdt::bernoulli_(v, 0.5, gen); },
                           {"KokkosDTensor::bernoulli_", "Kokkos::initialize"});
      expect_runtime_error(
          w + ", View, default generator",
          [&] {
            kdt::random_bits_(Kokkos::View<std::uint32_t*, Kokkos::HostSpace,
                                           Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                reinterpret_cast<std::uint32_t*>(plain.data()), 4));
          },
          {"KokkosDTensor::random_bits_", "Kokkos::initialize"});
      check(kdt::rng_tracker()->get_rng_state() == kdt::RNGState{5, 8}, w + ": tracker state");
      check(gen.get_state() == kdt::RNGState{6, 0}, w + ": generator state");
      check(kdt::default_generator().get_state() == default_state, w + ": default generator");
      check(all_sentinel(shard) && all_sentinel(plain), w + ": data unchanged");
      if (w == "before Kokkos::initialize") {
        // Once Kokkos runs, the same op works and advances the state.
        Kokkos::initialize(argc, argv);
        kdt::uniform_(t);
        Kokkos::fence();
        check(kdt::rng_tracker()->get_rng_state() ==
                  kdt::RNGState{5, static_cast<std::uint64_t>(8 + 8 * size)},
              "op after Kokkos::initialize advances the state");
        check(!all_sentinel(shard), "op after Kokkos::initialize fills the shard");
        for (float& x : shard) x = 42.0f;
        kdt::rng_tracker()->set_rng_state({5, 8});
        Kokkos::finalize();
      }
    }
  }
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  if (total == 0) std::printf("Test_ErrorsBeforeKokkosInit: all checks passed\n");
  return total == 0 ? 0 : 1;
}
