#ifndef KOKKOSDTENSOR_RNG_HPP
#define KOKKOSDTENSOR_RNG_HPP

// The MPI-free part of kokkos-dtensor (CMake target KokkosDTensor::rng): the random stream,
// generators, the random ops on Kokkos Views, and streams for users' own kernels.

#include <KokkosDTensor_Config.hpp>
#include <KokkosDTensor_Generator.hpp>
#include <KokkosDTensor_HostCopy.hpp>
#include <KokkosDTensor_PhiloxPool.hpp>
#include <KokkosDTensor_RNGState.hpp>
#include <KokkosDTensor_RandomOps.hpp>
#include <KokkosDTensor_RandomStream.hpp>
#include <KokkosDTensor_Version.hpp>

#endif
