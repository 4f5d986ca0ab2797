#include <KokkosDTensor_Config.hpp>
#include <KokkosDTensor_RNGState.hpp>
#include <KokkosDTensor_Version.hpp>

namespace KokkosDTensor {

const char* version() { return KOKKOSDTENSOR_VERSION_STRING; }
int version_number() { return KOKKOSDTENSOR_VERSION; }
const char* git_revision() { return KOKKOSDTENSOR_GIT_REVISION; }
int stream_version() { return KOKKOSDTENSOR_STREAM_VERSION; }

}  // namespace KokkosDTensor
