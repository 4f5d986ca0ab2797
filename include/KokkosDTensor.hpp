#ifndef KOKKOSDTENSOR_HPP
#define KOKKOSDTENSOR_HPP

// Umbrella header: everything (namespace kdt = KokkosDTensor;). CMake target
// KokkosDTensor::KokkosDTensor; the MPI-free part alone is KokkosDTensor_Rng.hpp.
#include <KokkosDTensor_DTensor.hpp>
#include <KokkosDTensor_DTensorRandom.hpp>
#include <KokkosDTensor_DeviceMesh.hpp>
#include <KokkosDTensor_Init.hpp>
#include <KokkosDTensor_Placement.hpp>
#include <KokkosDTensor_RNGTracker.hpp>
#include <KokkosDTensor_Rng.hpp>

#endif
