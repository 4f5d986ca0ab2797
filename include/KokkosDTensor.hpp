#ifndef KOKKOSDTENSOR_HPP
#define KOKKOSDTENSOR_HPP

// Umbrella header: everything a user needs (namespace kdt = KokkosDTensor;).
#include <KokkosDTensor_Config.hpp>
#include <KokkosDTensor_Error.hpp>
#include <KokkosDTensor_PortableMath.hpp>
#include <KokkosDTensor_Philox.hpp>
#include <KokkosDTensor_RNGState.hpp>
#include <KokkosDTensor_Generator.hpp>
#include <KokkosDTensor_MpiSupport.hpp>
#include <KokkosDTensor_DeviceMesh.hpp>
#include <KokkosDTensor_Placement.hpp>
#include <KokkosDTensor_DTensor.hpp>
#include <KokkosDTensor_RNGTracker.hpp>
#include <KokkosDTensor_Random.hpp>
#include <KokkosDTensor_Init.hpp>

#endif
