// libFuzzer target: RNGState::to_bytes / from_bytes (src/KokkosDTensor_Generator.cpp).
// - 16 input bytes: from_bytes accepts them iff the offset (bytes 8..15, little-endian) is
//   a multiple of 4, and then to_bytes gives back exactly the input; otherwise it throws
//   std::invalid_argument naming 'offset' and its decimal value, and so do
//   Generator::set_state (which leaves the generator unchanged).
// - any other length: the pointer form throws std::invalid_argument naming 'size'.
// - any state built from the first 16 bytes with the offset rounded down to a multiple of 4
//   round-trips through to_bytes / from_bytes.
// No MPI, no Kokkos.

#include <KokkosDTensor_Generator.hpp>
#include <KokkosDTensor_RNGState.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

namespace kdt = KokkosDTensor;

namespace {

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_rng_state: %s\n", what.c_str());
  std::abort();
}

std::uint64_t little_endian(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= std::uint64_t(p[i]) << (8 * i);
  return v;
}

void expect_offset_error(const char* what, const std::invalid_argument& e, std::uint64_t offset) {
  const std::string message = e.what();
  if (message.find("offset' = " + std::to_string(offset) + ":") == std::string::npos ||
      message.find("multiple of 4") == std::string::npos)
    fail(std::string(what) + " message lacks the offset: " + message);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size != 16) {
    try {
      kdt::RNGState::from_bytes(data, size);
      fail("from_bytes accepted " + std::to_string(size) + " bytes");
    } catch (const std::invalid_argument& e) {
      if (std::string(e.what()).find("argument 'size' = " + std::to_string(data ? size : 0)) ==
          std::string::npos)
        fail(std::string("size message: ") + e.what());
    }
  }
  if (size < 16) return 0;

  std::array<std::uint8_t, 16> bytes;
  std::memcpy(bytes.data(), data, 16);
  const std::uint64_t seed = little_endian(data), offset = little_endian(data + 8);
  const bool valid = offset % 4 == 0;

  try {
    const kdt::RNGState state = kdt::RNGState::from_bytes(bytes);
    if (!valid) fail("from_bytes accepted offset " + std::to_string(offset));
    if (state.seed != seed || state.offset != offset) fail("from_bytes decoded wrongly");
    if (state.to_bytes() != bytes) fail("to_bytes(from_bytes(b)) != b");
  } catch (const std::invalid_argument& e) {
    if (valid) fail(std::string("from_bytes rejected a valid state: ") + e.what());
    expect_offset_error("from_bytes", e, offset);
  }

  kdt::Generator gen(12345);
  try {
    gen.set_state(kdt::RNGState{seed, offset});
    if (!valid) fail("set_state accepted offset " + std::to_string(offset));
    if (gen.get_state() != (kdt::RNGState{seed, offset})) fail("set_state stored wrongly");
  } catch (const std::invalid_argument& e) {
    if (valid) fail("set_state rejected a valid state");
    expect_offset_error("set_state", e, offset);
    if (gen.get_state() != (kdt::RNGState{12345, 0})) fail("failed set_state changed the state");
  }

  const kdt::RNGState rounded{seed, offset & ~std::uint64_t(3)};
  const auto rounded_bytes = rounded.to_bytes();
  if (kdt::RNGState::from_bytes(rounded_bytes) != rounded) fail("round trip of a valid state");
  if (kdt::RNGState::from_bytes(rounded_bytes.data(), rounded_bytes.size()).to_bytes() !=
      rounded_bytes)
    fail("round trip of the pointer form");
  return 0;
}
