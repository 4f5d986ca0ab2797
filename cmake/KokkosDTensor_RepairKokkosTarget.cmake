# Debian 12's Kokkos (Trilinos 13.2, Kokkos 3.4.01) exports Kokkos::kokkos with an
# INTERFACE_INCLUDE_DIRECTORIES entry (<prefix>/include) that lacks the headers; the
# real directory is in Kokkos_INCLUDE_DIRS. Drop include dirs that do not exist and add
# Kokkos_INCLUDE_DIRS. A Kokkos built by its own CMake (4.x, 5.x) is left untouched.
if(NOT TARGET Kokkos::kokkos)
  return()
endif()
get_target_property(_kdt_kokkos_includes Kokkos::kokkos INTERFACE_INCLUDE_DIRECTORIES)
if(NOT _kdt_kokkos_includes)
  set(_kdt_kokkos_includes "")
endif()
# Healthy when some entry holds Kokkos_Core.hpp (or is a generator expression we cannot
# evaluate here); a Kokkos whose target has no include dirs of its own (4.x, 5.x: they come
# from Kokkos::kokkoscore) is healthy too.
set(_kdt_kokkos_healthy ON)
set(_kdt_kept_includes "")
foreach(_kdt_dir IN LISTS _kdt_kokkos_includes)
  if(_kdt_dir MATCHES "^\\$<" OR EXISTS "${_kdt_dir}/Kokkos_Core.hpp")
    set(_kdt_kokkos_healthy ON)
    break()
  endif()
  set(_kdt_kokkos_healthy OFF)
  if(EXISTS "${_kdt_dir}")
    list(APPEND _kdt_kept_includes "${_kdt_dir}")
  endif()
endforeach()
if(NOT _kdt_kokkos_healthy AND Kokkos_INCLUDE_DIRS)
  foreach(_kdt_dir IN LISTS Kokkos_INCLUDE_DIRS)
    get_filename_component(_kdt_real "${_kdt_dir}" REALPATH)
    list(APPEND _kdt_kept_includes "${_kdt_real}")
  endforeach()
  set_target_properties(Kokkos::kokkos PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_kdt_kept_includes}")
  message(STATUS "KokkosDTensor: repaired Kokkos::kokkos include dirs -> ${_kdt_kept_includes}")
endif()
# Debian's KokkosKernels exports a plain target without a namespace and the same include gap.
if(TARGET trilinos_kokkoskernels AND NOT TARGET Kokkos::kokkoskernels)
  add_library(Kokkos::kokkoskernels INTERFACE IMPORTED)
  set_target_properties(Kokkos::kokkoskernels PROPERTIES
    INTERFACE_LINK_LIBRARIES "trilinos_kokkoskernels;Kokkos::kokkos")
endif()
