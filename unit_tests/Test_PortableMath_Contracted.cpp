// The portable math functions compiled a second time, with every contraction the compiler
// can make allowed (-ffp-contract=fast -mfma, see unit_tests/CMakeLists.txt). Because the
// functions never add a product that is not an explicit fma, this copy must give the same
// bits as the one in Test_PortableMath.cpp (built with the project's default flags).
// The header is included inside a namespace of its own so that the inline functions of the
// two copies are distinct functions (no ODR merging at link time).

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace kdt_contracted {
#include <impl/KokkosDTensor_PortableMath.hpp>
}  // namespace kdt_contracted

namespace kdt_test {

bool contracted_copy_uses_fma() {
#if defined(__FMA__)
  return true;
#else
  return false;
#endif
}

template <class T>
void eval_all(const T* x, std::size_t n, T* out) {
  namespace M = kdt_contracted::KokkosDTensor::Impl;
  for (std::size_t i = 0; i < n; ++i) {
    T s, c;
    M::portable_sincospi(x[i], &s, &c);
    out[7 * i + 0] = M::portable_log(x[i]);
    out[7 * i + 1] = M::portable_exp(x[i]);
    out[7 * i + 2] = s;
    out[7 * i + 3] = c;
    out[7 * i + 4] = M::portable_erf(x[i]);
    out[7 * i + 5] = M::portable_erfinv(x[i]);
    out[7 * i + 6] = M::portable_sqrt(x[i]);
  }
}

void eval_all_contracted(const float* x, std::size_t n, float* out) { eval_all(x, n, out); }
void eval_all_contracted(const double* x, std::size_t n, double* out) { eval_all(x, n, out); }

}  // namespace kdt_test
