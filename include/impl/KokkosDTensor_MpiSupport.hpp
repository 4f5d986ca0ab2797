#ifndef KOKKOSDTENSOR_IMPL_MPISUPPORT_HPP
#define KOKKOSDTENSOR_IMPL_MPISUPPORT_HPP

// What the MPI library can do, and the library's debug log.

#include <string>

namespace KokkosDTensor {
namespace Impl {

// True when device (GPU) buffers may be handed to MPI directly. The environment variable
// KOKKOSDTENSOR_GPU_AWARE_MPI=0|1 decides when set; otherwise Open MPI's
// MPIX_Query_cuda_support() (CUDA-aware builds) does; otherwise false, and device data
// is staged through host memory.
bool mpi_is_gpu_aware();

// Prints "KokkosDTensor: <message>" to stderr when KOKKOSDTENSOR_DEBUG is set to a value
// other than 0.
void debug_log(const std::string& message);

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
