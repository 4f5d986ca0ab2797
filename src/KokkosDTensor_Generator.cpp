#include <KokkosDTensor_Generator.hpp>
#include <impl/KokkosDTensor_Error.hpp>

namespace KokkosDTensor {

std::array<std::uint8_t, 16> RNGState::to_bytes() const {
  std::array<std::uint8_t, 16> bytes{};
  for (int i = 0; i < 8; ++i) {
    bytes[i] = static_cast<std::uint8_t>(seed >> (8 * i));
    bytes[8 + i] = static_cast<std::uint8_t>(offset >> (8 * i));
  }
  return bytes;
}

RNGState RNGState::from_bytes(const std::array<std::uint8_t, 16>& bytes) {
  return from_bytes(bytes.data(), bytes.size());
}

RNGState RNGState::from_bytes(const std::uint8_t* data, std::size_t size) {
  const char* function = "KokkosDTensor::RNGState::from_bytes";
  if (data == nullptr || size != 16) {
    Impl::throw_invalid_argument(function, "size", Impl::format_value(data ? size : 0),
                                 "must be 16 (seed then offset, little-endian)");
  }
  RNGState state;
  for (int i = 7; i >= 0; --i) {
    state.seed = (state.seed << 8) | data[i];
    state.offset = (state.offset << 8) | data[8 + i];
  }
  if (state.offset % 4 != 0) {
    Impl::throw_invalid_argument(function, "offset", Impl::format_value(state.offset),
                                 "must be a multiple of 4");
  }
  return state;
}

void Generator::set_state(RNGState state) {
  if (state.offset % 4 != 0) {
    Impl::throw_invalid_argument("KokkosDTensor::Generator::set_state", "state.offset",
                                 Impl::format_value(state.offset), "must be a multiple of 4");
  }
  state_ = state;
}

Generator& default_generator() {
  static Generator generator(default_generator_seed);
  return generator;
}

void seed(std::uint64_t s) { default_generator().manual_seed(s); }

}  // namespace KokkosDTensor
