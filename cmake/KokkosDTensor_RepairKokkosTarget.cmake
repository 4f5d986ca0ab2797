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
set(_kdt_needs_repair OFF)
set(_kdt_kept_includes "")
foreach(_kdt_dir IN LISTS _kdt_kokkos_includes)
  if(_kdt_dir MATCHES "^\\$<" OR EXISTS "${_kdt_dir}/Kokkos_Core.hpp")
    list(APPEND _kdt_kept_includes "${_kdt_dir}")
  elseif(NOT EXISTS "${_kdt_dir}" OR NOT EXISTS "${_kdt_dir}/Kokkos_Core.hpp")
    set(_kdt_needs_repair ON)
  endif()
endforeach()
if(_kdt_needs_repair AND Kokkos_INCLUDE_DIRS)
  get_filename_component(_kdt_real "${Kokkos_INCLUDE_DIRS}" REALPATH)
  list(APPEND _kdt_kept_includes "${_kdt_real}")
  set_target_properties(Kokkos::kokkos PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_kdt_kept_includes}")
  message(STATUS "KokkosDTensor: repaired Kokkos::kokkos include dir -> ${_kdt_real}")
endif()
# Debian's KokkosKernels exports a plain target without a namespace and the same include gap.
if(TARGET trilinos_kokkoskernels AND NOT TARGET Kokkos::kokkoskernels)
  add_library(Kokkos::kokkoskernels INTERFACE IMPORTED)
  set_target_properties(Kokkos::kokkoskernels PROPERTIES
    INTERFACE_LINK_LIBRARIES "trilinos_kokkoskernels;Kokkos::kokkos")
endif()
