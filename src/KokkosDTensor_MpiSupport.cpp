#include <impl/KokkosDTensor_MpiSupport.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mpi.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>  // MPIX_CUDA_AWARE_SUPPORT, MPIX_Query_cuda_support
#endif

namespace KokkosDTensor {
namespace Impl {
namespace {

bool environment_flag(const char* name, bool fallback) {
  const char* value = std::getenv(name);
  if (!value || !*value) return fallback;
  return std::strcmp(value, "0") != 0;
}

}  // namespace

bool mpi_is_gpu_aware() {
  const char* forced = std::getenv("KOKKOSDTENSOR_GPU_AWARE_MPI");
  if (forced && *forced) return std::strcmp(forced, "0") != 0;
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

void debug_log(const std::string& message) {
  static const bool enabled = environment_flag("KOKKOSDTENSOR_DEBUG", false);
  if (enabled) std::fprintf(stderr, "KokkosDTensor: %s\n", message.c_str());
}

}  // namespace Impl
}  // namespace KokkosDTensor
