#ifndef KOKKOSDTENSOR_TESTSPACE_HPP
#define KOKKOSDTENSOR_TESTSPACE_HPP

// The execution space a per-backend test runs on: tests registered with
// kokkosdtensor_add_backend_test are built once per enabled Kokkos backend, each with
// KOKKOSDTENSOR_TEST_EXECSPACE naming it (as Cabana's generated per-backend tests).

#include <Kokkos_Core.hpp>

#ifndef KOKKOSDTENSOR_TEST_EXECSPACE
#define KOKKOSDTENSOR_TEST_EXECSPACE Kokkos::DefaultExecutionSpace
#endif

using TestSpace = KOKKOSDTENSOR_TEST_EXECSPACE;

#endif
