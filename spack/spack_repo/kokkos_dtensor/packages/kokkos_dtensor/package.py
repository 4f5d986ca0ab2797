# Copyright (c) 2026, the kokkos-dtensor developers.
#
# SPDX-License-Identifier: BSD-3-Clause

from spack_repo.builtin.build_systems.cmake import CMakePackage
from spack_repo.builtin.build_systems.cuda import CudaPackage
from spack_repo.builtin.build_systems.rocm import ROCmPackage

from spack.package import *


class KokkosDtensor(CMakePackage, CudaPackage, ROCmPackage):
    """Reproducible random numbers on sharded Kokkos tensors: the same seed gives the same
    global tensor on any MPI mesh, placement, rank count or Kokkos backend, with no
    communication per random op (PyTorch DTensor's RNG model for Kokkos + MPI)."""

    homepage = "https://github.com/kokkos-dtensor/kokkos-dtensor"
    git = "https://github.com/kokkos-dtensor/kokkos-dtensor.git"

    license("BSD-3-Clause")

    version("main", branch="main")

    # The GPU backend comes from Kokkos: +cuda/+rocm here select it and pass the GPU
    # architecture down to Kokkos (as ArborX and Cabana do).
    variant("kernels", default=False, description="Use Kokkos Kernels in the examples")
    variant("tests", default=False, description="Build the unit tests")
    variant("examples", default=False, description="Build the examples")
    variant("perf_tests", default=False, description="Build the performance tests")

    depends_on("cxx", type="build")
    depends_on("cmake@3.16:", type="build")

    depends_on("mpi")

    depends_on("kokkos@3.4:")
    # Kokkos supports CUDA 13 from 4.7.01 on (the kokkos recipe conflicts ^cuda@13: @:4.7.0).
    depends_on("kokkos@4.7.01:", when="+cuda ^cuda@13:")
    # The library is C++17.
    conflicts("^kokkos cxxstd=14")

    for _arch in CudaPackage.cuda_arch_values:
        _cuda_dep = f"+cuda cuda_arch={_arch}"
        depends_on(f"kokkos {_cuda_dep}", when=_cuda_dep)
    for _arch in ROCmPackage.amdgpu_targets:
        _rocm_dep = f"+rocm amdgpu_target={_arch}"
        depends_on(f"kokkos {_rocm_dep}", when=_rocm_dep)
    conflicts("+cuda", when="cuda_arch=none")
    conflicts("+rocm", when="amdgpu_target=none")
    conflicts("+cuda", when="+rocm", msg="Kokkos has one device backend: pick CUDA or ROCm")
    # Device kernels use KOKKOS_LAMBDA: Kokkos 3.x/4.x need the cuda_lambda option
    # (Kokkos 5 always has device lambdas and no longer has the variant).
    requires("^kokkos+cuda_lambda", when="+cuda ^kokkos@:4")

    depends_on("kokkos-kernels", when="+kernels")
    depends_on("googletest", type="build", when="+tests")

    def cmake_args(self):
        spec = self.spec
        args = [
            self.define("Kokkos_ROOT", spec["kokkos"].prefix),
            self.define("MPI_CXX_COMPILER", spec["mpi"].mpicxx),
            self.define_from_variant("KokkosDTensor_ENABLE_TESTS", "tests"),
            self.define_from_variant("KokkosDTensor_ENABLE_EXAMPLES", "examples"),
            self.define_from_variant("KokkosDTensor_ENABLE_PERF_TESTS", "perf_tests"),
            self.define_from_variant("KokkosDTensor_ENABLE_KOKKOSKERNELS", "kernels"),
        ]
        # Build with the C++ standard Kokkos was built with (17 for Kokkos 3/4, 20 for 5).
        args.append(self.define("CMAKE_CXX_STANDARD", spec["kokkos"].variants["cxxstd"].value))

        # Compile with the compiler Kokkos was built for: nvcc_wrapper (kokkos+wrapper) or
        # the Spack compiler for CUDA and host builds, hipcc for HIP.
        if spec.satisfies("+rocm"):
            args.append(self.define("CMAKE_CXX_COMPILER", spec["hip"].hipcc))
        else:
            args.append(self.define("CMAKE_CXX_COMPILER", self["kokkos"].kokkos_cxx))

        if spec.satisfies("+kernels"):
            args.append(self.define("KokkosKernels_ROOT", spec["kokkos-kernels"].prefix))
        else:
            # Never pick up a stray Kokkos Kernels (e.g. the system's) that Spack did not build.
            args.append(self.define("CMAKE_DISABLE_FIND_PACKAGE_KokkosKernels", True))
        return args
