#ifndef KOKKOSDTENSOR_IMPL_ERROR_HPP
#define KOKKOSDTENSOR_IMPL_ERROR_HPP

// One message format for every error the library raises, so that users (and tests)
// can rely on it: "<function>: argument '<name>' = <value>: <requirement>".

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace KokkosDTensor {
namespace Impl {

template <class T>
std::string format_value(const T& value) {
  std::ostringstream out;
  out.precision(17);
  out << value;
  return out.str();
}

inline std::string format_value(const std::string& value) { return "\"" + value + "\""; }
inline std::string format_value(const char* value) { return format_value(std::string(value)); }

template <class T>
std::string format_value(const std::vector<T>& values) {
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) text += ", ";
    text += format_value(values[i]);
  }
  return text + "]";
}

// Builds "<function>: argument '<argument>' = <value>: <requirement>".
std::string argument_message(const std::string& function, const std::string& argument,
                             const std::string& value, const std::string& requirement);

[[noreturn]] void throw_invalid_argument(const std::string& function, const std::string& argument,
                                         const std::string& value, const std::string& requirement);

[[noreturn]] void throw_runtime_error(const std::string& function, const std::string& message);

// Throws std::runtime_error naming `function` unless Kokkos is initialised (and not finalised).
void require_kokkos_initialized(const char* function);

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
