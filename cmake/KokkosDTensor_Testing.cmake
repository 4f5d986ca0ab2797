# kokkosdtensor_add_mpi_test(NAME SOURCES <files> [NP <counts>] [LIBS <libs>])
# Builds one test executable from NAME's sources plus the MPI GoogleTest main and
# registers it with ctest once per process count, as NAME_np_<N>.
set(KokkosDTensor_TEST_PROCESS_COUNTS 1 2 4 8 CACHE STRING "MPI process counts for tests")

# OpenMPI refuses to run as root and to start more ranks than cores without these;
# they are ignored by other MPI implementations.
set(KokkosDTensor_MPI_TEST_ENVIRONMENT
  "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1;PRTE_MCA_rmaps_default_mapping_policy=:oversubscribe;OMPI_MCA_btl_vader_single_copy_mechanism=none")

if(NOT TARGET kokkosdtensor_mpi_test_main)
  add_library(kokkosdtensor_mpi_test_main OBJECT ${PROJECT_SOURCE_DIR}/unit_tests/mpi_test_main.cpp)
  target_link_libraries(kokkosdtensor_mpi_test_main PUBLIC KokkosDTensor::KokkosDTensor GTest::gtest)
endif()

function(kokkosdtensor_add_mpi_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;NP;LIBS" ${ARGN})
  if(NOT ARG_NP)
    set(ARG_NP ${KokkosDTensor_TEST_PROCESS_COUNTS})
  endif()
  add_executable(${name} ${ARG_SOURCES} $<TARGET_OBJECTS:kokkosdtensor_mpi_test_main>)
  target_link_libraries(${name} PRIVATE KokkosDTensor::KokkosDTensor GTest::gtest ${ARG_LIBS})
  foreach(np IN LISTS ARG_NP)
    add_test(NAME ${name}_np_${np}
      COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np} ${MPIEXEC_PREFLAGS}
              $<TARGET_FILE:${name}> ${MPIEXEC_POSTFLAGS})
    set_tests_properties(${name}_np_${np} PROPERTIES
      ENVIRONMENT "${KokkosDTensor_MPI_TEST_ENVIRONMENT}" TIMEOUT 300 LABELS "mpi;np_${np}")
  endforeach()
endfunction()

# kokkosdtensor_add_mpi_run(NAME NP <n> COMMAND <exe> [args...]): a program run as a test.
function(kokkosdtensor_add_mpi_run name)
  cmake_parse_arguments(ARG "" "NP" "COMMAND" ${ARGN})
  add_test(NAME ${name}_np_${ARG_NP}
    COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ARG_NP} ${MPIEXEC_PREFLAGS}
            ${ARG_COMMAND} ${MPIEXEC_POSTFLAGS})
  set_tests_properties(${name}_np_${ARG_NP} PROPERTIES
    ENVIRONMENT "${KokkosDTensor_MPI_TEST_ENVIRONMENT}" TIMEOUT 300 LABELS "mpi;np_${ARG_NP}")
endfunction()
