# Driver of the install_test ctest (see KokkosDTensor_InstallTest.cmake):
#   cmake -DKDT_SETTINGS=<build>/install_test/settings.cmake [-DKDT_CONFIG=<cfg>] -P <this file>
# 1. cmake --install <build> --prefix <build>/install_test_prefix
# 2. configure install_test/ against that prefix (same compiler, Kokkos, MPI)
# 3. build it   4. run it on 2 MPI ranks.
# Exits non-zero at the first step that fails.
cmake_minimum_required(VERSION 3.16)
if(NOT KDT_SETTINGS OR NOT EXISTS "${KDT_SETTINGS}")
  message(FATAL_ERROR "install_test: pass -DKDT_SETTINGS=<build>/install_test/settings.cmake")
endif()
include("${KDT_SETTINGS}")

function(kdt_step name)
  string(REPLACE ";" " " _kdt_shown "${ARGN}")
  message(STATUS "install_test: ${name}: ${_kdt_shown}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE _kdt_rc)
  if(NOT _kdt_rc EQUAL 0)
    message(FATAL_ERROR "install_test: ${name} failed (${_kdt_rc})")
  endif()
endfunction()

set(_kdt_config_args "")
if(KDT_CONFIG)
  set(_kdt_config_args --config "${KDT_CONFIG}")
endif()

file(REMOVE_RECURSE "${KDT_PREFIX}" "${KDT_CONSUMER_BUILD_DIR}")

kdt_step("install" "${CMAKE_COMMAND}" --install "${KDT_BUILD_DIR}" --prefix "${KDT_PREFIX}"
         ${_kdt_config_args})

kdt_step("configure consumer" "${CMAKE_COMMAND}" -C "${KDT_INITIAL_CACHE}"
         -S "${KDT_CONSUMER_SOURCE_DIR}" -B "${KDT_CONSUMER_BUILD_DIR}" -G "${KDT_GENERATOR}")

# The consumer must have found the package in the test prefix, not anywhere else.
file(STRINGS "${KDT_CONSUMER_BUILD_DIR}/CMakeCache.txt" _kdt_found_dir
     REGEX "^KokkosDTensor_DIR:")
string(REGEX REPLACE "^KokkosDTensor_DIR:[A-Z]+=" "" _kdt_found_dir "${_kdt_found_dir}")
get_filename_component(_kdt_found_dir "${_kdt_found_dir}" REALPATH)
get_filename_component(_kdt_prefix_real "${KDT_PREFIX}" REALPATH)
string(FIND "${_kdt_found_dir}/" "${_kdt_prefix_real}/" _kdt_pos)
if(NOT _kdt_pos EQUAL 0)
  message(FATAL_ERROR "install_test: consumer found KokkosDTensor in '${_kdt_found_dir}', "
                      "not in the test prefix '${KDT_PREFIX}'")
endif()

kdt_step("build consumer" "${CMAKE_COMMAND}" --build "${KDT_CONSUMER_BUILD_DIR}" ${_kdt_config_args})

function(kdt_consumer_exe name out)
  set(_exe "${KDT_CONSUMER_BUILD_DIR}/${name}")
  if(KDT_CONFIG AND NOT EXISTS "${_exe}" AND EXISTS "${KDT_CONSUMER_BUILD_DIR}/${KDT_CONFIG}")
    set(_exe "${KDT_CONSUMER_BUILD_DIR}/${KDT_CONFIG}/${name}")
  endif()
  set(${out} "${_exe}" PARENT_SCOPE)
endfunction()

# The KokkosDTensor::rng consumer: no MPI library among the shared libraries it loads.
kdt_consumer_exe(rng_consumer _kdt_rng_exe)
find_program(_kdt_ldd ldd)
if(_kdt_ldd)
  execute_process(COMMAND "${_kdt_ldd}" "${_kdt_rng_exe}" OUTPUT_VARIABLE _kdt_loaded)
  if(_kdt_loaded MATCHES "libmpi")
    message(FATAL_ERROR "install_test: rng_consumer loads MPI:\n${_kdt_loaded}")
  endif()
endif()
kdt_step("run the rng consumer (no MPI)" "${_kdt_rng_exe}")

kdt_consumer_exe(install_test_consumer _kdt_exe)
if(EXISTS "${_kdt_exe}")
  kdt_step("run consumer on 2 ranks" "${KDT_MPIEXEC}" ${KDT_MPIEXEC_NUMPROC_FLAG} 2
           ${KDT_MPIEXEC_PREFLAGS} "${_kdt_exe}" ${KDT_MPIEXEC_POSTFLAGS})
endif()
message(STATUS "install_test: passed")
