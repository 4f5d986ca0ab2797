# Installed libraries and executables find what they link from any install prefix, with no
# LD_LIBRARY_PATH: RUNPATH $ORIGIN (libraries) or $ORIGIN/<bin to lib> (executables), plus the
# link directories outside the system's (a Kokkos or MPI installed in a prefix of its own).
# A CMAKE_INSTALL_RPATH set by the user or a parent project is kept as it is.
function(kokkosdtensor_set_install_rpath target)
  if(APPLE OR WIN32 OR DEFINED CMAKE_INSTALL_RPATH)
    return()
  endif()
  get_target_property(_type ${target} TYPE)
  if(_type STREQUAL "EXECUTABLE")
    file(RELATIVE_PATH _bin_to_lib ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_FULL_LIBDIR})
    set(_origin "$ORIGIN/${_bin_to_lib}")
  else()
    set(_origin "$ORIGIN")
  endif()
  set_target_properties(${target} PROPERTIES INSTALL_RPATH "${_origin}"
                                             INSTALL_RPATH_USE_LINK_PATH TRUE)
endfunction()
