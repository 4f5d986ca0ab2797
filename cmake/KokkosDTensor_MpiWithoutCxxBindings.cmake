# FindMPI's MPI::MPI_CXX links the MPI-2 C++ bindings library that the MPI's C++ wrapper
# names (Open MPI's libmpi_cxx, MPICH's libmpicxx) even with MPI_CXX_SKIP_MPICXX, which only
# disables their use. kokkos-dtensor uses MPI's C API alone, so it drops that library from
# the target, when the target is its own (found by it, not by the project that uses it).
function(kokkosdtensor_drop_mpi_cxx_bindings)
  get_target_property(_kdt_mpi_libraries MPI::MPI_CXX INTERFACE_LINK_LIBRARIES)
  if(_kdt_mpi_libraries)
    list(FILTER _kdt_mpi_libraries EXCLUDE REGEX "(^|/|-l)(lib)?(mpi_cxx|mpicxx|mpichcxx)([.]|$)")
    set_property(TARGET MPI::MPI_CXX PROPERTY INTERFACE_LINK_LIBRARIES "${_kdt_mpi_libraries}")
  endif()
endfunction()
