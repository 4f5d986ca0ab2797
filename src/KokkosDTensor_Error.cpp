#include <impl/KokkosDTensor_Error.hpp>

#include <Kokkos_Core.hpp>

namespace KokkosDTensor {
namespace Impl {

std::string argument_message(const std::string& function, const std::string& argument,
                             const std::string& value, const std::string& requirement) {
  return function + ": argument '" + argument + "' = " + value + ": " + requirement;
}

void throw_invalid_argument(const std::string& function, const std::string& argument,
                            const std::string& value, const std::string& requirement) {
  throw std::invalid_argument(argument_message(function, argument, value, requirement));
}

void throw_runtime_error(const std::string& function, const std::string& message) {
  throw std::runtime_error(function + ": " + message);
}

void require_kokkos_initialized(const char* function) {
  if (!Kokkos::is_initialized()) {
    throw_runtime_error(function, "called before Kokkos::initialize or after Kokkos::finalize");
  }
}

}  // namespace Impl
}  // namespace KokkosDTensor
