// A consumer of the installed KokkosDTensor::rng target alone: no MPI anywhere. Draws with
// a Generator and checks the first words against the SPEC's Philox known answer.
#include <KokkosDTensor_Rng.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace kdt = KokkosDTensor;

int main(int argc, char* argv[]) {
  int failures = 0;
  Kokkos::initialize(argc, argv);
  {
    // Philox4x32-10 of counter 0, key 0 (SPEC section 2): 6627e8d5 e169c58d bc57ac4c 9b00dbd8.
    const std::uint32_t expected[4] = {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u};
    Kokkos::View<std::uint32_t*> bits("bits", 4);
    kdt::Generator gen(0);
    kdt::random_bits_(bits, gen);
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bits);
    for (int i = 0; i < 4; ++i) {
      if (host(i) != expected[i]) {
        std::fprintf(stderr, "rng_consumer FAILED: word %d is %08x, expected %08x\n", i,
                     static_cast<unsigned>(host(i)), static_cast<unsigned>(expected[i]));
        ++failures;
      }
    }
    // The compiled library and the installed headers agree.
    if (std::strcmp(kdt::version(), KOKKOSDTENSOR_VERSION_STRING) != 0 ||
        kdt::version_number() != KOKKOSDTENSOR_VERSION ||
        kdt::stream_version() != KOKKOSDTENSOR_STREAM_VERSION) {
      std::fprintf(
          stderr, "rng_consumer FAILED: library %s (%d, stream %d), headers %s (%d, stream %d)\n",
          kdt::version(), kdt::version_number(), kdt::stream_version(),
          KOKKOSDTENSOR_VERSION_STRING, KOKKOSDTENSOR_VERSION, KOKKOSDTENSOR_STREAM_VERSION);
      ++failures;
    }
    if (gen.get_state().offset != 4) {
      std::fprintf(stderr, "rng_consumer FAILED: offset %llu after 4 words, expected 4\n",
                   static_cast<unsigned long long>(gen.get_state().offset));
      ++failures;
    }
  }
  Kokkos::finalize();
  std::printf("rng_consumer: KokkosDTensor::rng %s (git %s, stream %d) without MPI: %s\n",
              kdt::version(), kdt::git_revision(), kdt::stream_version(),
              failures == 0 ? "OK" : "FAILED");
  return failures == 0 ? 0 : 1;
}
