// Explicit instantiation of the fill kernels (impl/KokkosDTensor_FillETI.hpp): this file's
// group, for every enabled execution space.
#include <impl/KokkosDTensor_FillDispatch.hpp>

#define KOKKOSDTENSOR_IMPL_INSTANTIATE_IN(SPACE) \
  KOKKOSDTENSOR_IMPL_ETI_RANDINT(KOKKOSDTENSOR_IMPL_FILL_INSTANCE, template, SPACE)
KOKKOSDTENSOR_IMPL_FOR_EACH_SPACE(KOKKOSDTENSOR_IMPL_INSTANTIATE_IN)
