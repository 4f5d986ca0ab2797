#ifndef KOKKOSDTENSOR_HPP
#define KOKKOSDTENSOR_HPP

// Umbrella header: everything a user needs (namespace kdt = KokkosDTensor;).
#include <KokkosDTensor_Config.hpp>
#include <KokkosDTensor_Error.hpp>

#endif
