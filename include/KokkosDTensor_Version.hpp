#ifndef KOKKOSDTENSOR_VERSION_HPP
#define KOKKOSDTENSOR_VERSION_HPP

// The version of the compiled library, at run time: the headers' KOKKOSDTENSOR_VERSION
// (KokkosDTensor_Config.hpp) says what a program was compiled against, these what it runs
// with.

namespace KokkosDTensor {

/// "major.minor.patch" of the library.
const char* version();
/// major * 10000 + minor * 100 + patch.
int version_number();
/// The git revision the library was built from, "" when not built from a checkout.
const char* git_revision();
/// The stream version its ops draw (KOKKOSDTENSOR_STREAM_VERSION, docs/stream.md).
int stream_version();

}  // namespace KokkosDTensor

#endif
