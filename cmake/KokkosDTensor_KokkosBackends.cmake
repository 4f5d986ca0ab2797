# Reports the Kokkos backends this build uses (KokkosDTensor_KOKKOS_BACKENDS) and checks
# the Kokkos features the library needs. kokkos_check() is defined by an installed Kokkos'
# config file (Kokkos >= 3.7, and Trilinos' Kokkos 3.4 on Debian); a Kokkos added with
# add_subdirectory() has no kokkos_check() but sets the Kokkos_ENABLE_<BACKEND> options.
# Nothing here adds compiler flags: Kokkos::kokkos carries every flag the backend needs,
# and nvcc_wrapper rejects many host-compiler flags.
if(DEFINED Kokkos_VERSION AND Kokkos_VERSION VERSION_LESS 3.4)
  message(FATAL_ERROR "KokkosDTensor needs Kokkos >= 3.4; found ${Kokkos_VERSION}")
endif()

set(KokkosDTensor_KOKKOS_BACKENDS "")
foreach(_kdt_backend IN ITEMS SERIAL OPENMP THREADS HPX CUDA HIP SYCL OPENMPTARGET)
  set(_kdt_has_backend OFF)
  if(COMMAND kokkos_check)
    kokkos_check(DEVICES ${_kdt_backend} RETURN_VALUE _kdt_has_backend)
  elseif(Kokkos_ENABLE_${_kdt_backend})
    set(_kdt_has_backend ON)
  endif()
  if(_kdt_has_backend)
    list(APPEND KokkosDTensor_KOKKOS_BACKENDS ${_kdt_backend})
  endif()
endforeach()
message(STATUS "KokkosDTensor: Kokkos backends: ${KokkosDTensor_KOKKOS_BACKENDS}")

# Device kernels are written with KOKKOS_LAMBDA. Kokkos 5 always allows device lambdas;
# a CUDA build of Kokkos 3.x/4.x needs Kokkos_ENABLE_CUDA_LAMBDA=ON.
if("CUDA" IN_LIST KokkosDTensor_KOKKOS_BACKENDS AND COMMAND kokkos_check
   AND DEFINED Kokkos_VERSION AND Kokkos_VERSION VERSION_LESS 5)
  kokkos_check(OPTIONS CUDA_LAMBDA RETURN_VALUE _kdt_has_cuda_lambda)
  if(NOT _kdt_has_cuda_lambda)
    message(FATAL_ERROR "KokkosDTensor needs a CUDA Kokkos built with Kokkos_ENABLE_CUDA_LAMBDA=ON "
                        "(Kokkos ${Kokkos_VERSION} at ${Kokkos_DIR} was built without it)")
  endif()
endif()
