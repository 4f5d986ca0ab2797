// Explicit instantiation of the fill kernels (impl/KokkosDTensor_FillETI.hpp): this file's
// group, for every enabled execution space (or the part of them KokkosDTensor_ETIUnit.hpp says).
#include "KokkosDTensor_ETIUnit.hpp"

#define KOKKOSDTENSOR_IMPL_INSTANTIATE_IN(SPACE) \
  KOKKOSDTENSOR_IMPL_ETI_EXPONENTIAL(KOKKOSDTENSOR_IMPL_ETI_UNIT_INSTANCE, template, SPACE)
KOKKOSDTENSOR_IMPL_ETI_UNIT_SPACES(KOKKOSDTENSOR_IMPL_INSTANTIATE_IN)
