# Test helpers. With MPI, tests run under mpiexec at several process counts; without it
# (KokkosDTensor_ENABLE_MPI=OFF) only the MPI-free tests are built and run directly.
#
# kokkosdtensor_add_mpi_test(NAME SOURCES <files> [NP <counts>] [LIBS <libs>] [RNG])
#   Builds one test executable from NAME's sources plus the GoogleTest main and registers it
#   with ctest once per process count, as NAME_np_<N>. RNG: the test needs only
#   KokkosDTensor::rng (it is also built without MPI, and then runs as NAME).
# kokkosdtensor_add_mpi_run(NAME NP <n> COMMAND <exe> [args...]): a program run as a test.
set(KokkosDTensor_TEST_PROCESS_COUNTS 1 2 4 8 CACHE STRING "MPI process counts for tests")

# OpenMPI refuses to run as root and to start more ranks than cores without these;
# they are ignored by other MPI implementations.
set(KokkosDTensor_MPI_TEST_ENVIRONMENT
  "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1;PRTE_MCA_rmaps_default_mapping_policy=:oversubscribe;OMPI_MCA_btl_vader_single_copy_mechanism=none")

function(kokkosdtensor_add_mpi_test name)
  cmake_parse_arguments(ARG "RNG" "" "SOURCES;NP;LIBS" ${ARGN})
  if(NOT KokkosDTensor_ENABLE_MPI AND NOT ARG_RNG)
    return()
  endif()
  if(NOT TARGET kokkosdtensor_test_main)
    find_package(GTest REQUIRED)
    add_library(kokkosdtensor_test_main OBJECT ${PROJECT_SOURCE_DIR}/unit_tests/test_main.cpp)
    target_link_libraries(kokkosdtensor_test_main PUBLIC KokkosDTensor::rng GTest::gtest)
    if(KokkosDTensor_ENABLE_MPI)
      target_link_libraries(kokkosdtensor_test_main PUBLIC MPI::MPI_CXX)
    endif()
  endif()
  if(NOT ARG_NP)
    set(ARG_NP ${KokkosDTensor_TEST_PROCESS_COUNTS})
  endif()
  set(_library KokkosDTensor::KokkosDTensor)
  if(ARG_RNG)
    set(_library KokkosDTensor::rng)
  endif()
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE kokkosdtensor_test_main ${_library} ${ARG_LIBS})
  if(NOT KokkosDTensor_ENABLE_MPI)
    add_test(NAME ${name} COMMAND ${name})
    set_tests_properties(${name} PROPERTIES TIMEOUT 300 LABELS "np_1")
    return()
  endif()
  foreach(np IN LISTS ARG_NP)
    kokkosdtensor_add_mpi_run(${name} NP ${np} COMMAND $<TARGET_FILE:${name}>)
  endforeach()
endfunction()

function(kokkosdtensor_add_mpi_run name)
  cmake_parse_arguments(ARG "" "NP" "COMMAND" ${ARGN})
  add_test(NAME ${name}_np_${ARG_NP}
    COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ARG_NP} ${MPIEXEC_PREFLAGS}
            ${ARG_COMMAND} ${MPIEXEC_POSTFLAGS})
  set_tests_properties(${name}_np_${ARG_NP} PROPERTIES
    ENVIRONMENT "${KokkosDTensor_MPI_TEST_ENVIRONMENT}" TIMEOUT 300 LABELS "mpi;np_${ARG_NP}")
endfunction()

# kokkosdtensor_add_backend_test(NAME SOURCES <files> [RNG]): NAME built once per enabled
# Kokkos backend, as NAME_<Backend> (Test_FillPaths_Serial, Test_FillPaths_OpenMP, ...),
# each running on that backend's execution space (unit_tests/TestSpace.hpp), on 1 rank.
function(kokkosdtensor_add_backend_test name)
  cmake_parse_arguments(ARG "RNG" "" "SOURCES" ${ARGN})
  set(_rng "")
  if(ARG_RNG)
    set(_rng RNG)
  endif()
  foreach(_backend IN LISTS KokkosDTensor_KOKKOS_BACKENDS)
    if(_backend STREQUAL "SERIAL")
      set(_space Kokkos::Serial)
      set(_suffix Serial)
    elseif(_backend STREQUAL "OPENMP")
      set(_space Kokkos::OpenMP)
      set(_suffix OpenMP)
    elseif(_backend STREQUAL "THREADS")
      set(_space Kokkos::Threads)
      set(_suffix Threads)
    elseif(_backend STREQUAL "CUDA")
      set(_space Kokkos::Cuda)
      set(_suffix Cuda)
    elseif(_backend MATCHES "^(HIP|SYCL)$")
      set(_space Kokkos::DefaultExecutionSpace)
      set(_suffix ${_backend})
    else()
      continue()
    endif()
    kokkosdtensor_add_mpi_test(${name}_${_suffix} SOURCES ${ARG_SOURCES} NP 1 ${_rng})
    if(TARGET ${name}_${_suffix})
      target_compile_definitions(${name}_${_suffix} PRIVATE KOKKOSDTENSOR_TEST_EXECSPACE=${_space})
    endif()
  endforeach()
endfunction()
