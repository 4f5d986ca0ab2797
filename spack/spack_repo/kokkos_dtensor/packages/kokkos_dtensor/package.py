# Copyright Spack Project Developers. See COPYRIGHT file for details.
#
# SPDX-License-Identifier: (Apache-2.0 OR MIT)
import os

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

    # The project has published no GitHub handles yet: add them when the recipe goes to
    # spack-packages.
    maintainers()

    license("BSD-3-Clause")

    # No release archive exists yet: only the main branch.
    version("main", branch="main")

    test_requires_compiler = True

    variant("shared", default=True, description="Build a shared library")
    variant(
        "mpi",
        default=True,
        description="Build the MPI part (DeviceMesh, DTensor); without it only the MPI-free "
        "KokkosDTensor::rng target (Philox stream, Generator, random ops on Views)",
    )
    variant("tests", default=False, description="Build the unit tests")
    variant("examples", default=False, description="Build the examples")
    variant("perf_tests", default=False, description="Build the performance tests")
    variant("kernels", default=False, description="Use Kokkos Kernels in the examples")
    conflicts("+kernels", when="~examples", msg="Kokkos Kernels is used by the examples only")

    depends_on("cxx", type="build")
    depends_on("cmake@3.16:", type="build")

    depends_on("mpi", when="+mpi")

    # ---- Kokkos ---------------------------------------------------------------------------
    # CI builds and tests Kokkos 3.4.01 (Debian 12, Serial, C++17), 4.6.01 (Serial+OpenMP,
    # C++17) and 4.6.01 (Serial+Threads, deprecated code 4 off, C++20: a Kokkos 5 proxy);
    # 4.7 and 5.x are expected to work. Spack's kokkos recipe starts at 3.7.02 (deprecated)
    # and 4.0.00: an older Kokkos must be an external.
    depends_on("kokkos@3.4:5")
    # The library is C++17 (Kokkos 3 may be built as C++14).
    conflicts("^kokkos cxxstd=14", msg="kokkos-dtensor needs C++17")
    # Kokkos supports CUDA 13 from 4.7.01 on (the kokkos recipe conflicts ^cuda@13: @:4.7.0);
    # said here so that the error names the Kokkos version to pick.
    conflicts("^cuda@13:", when="^kokkos@:4.7.00+cuda", msg="CUDA 13 needs Kokkos >= 4.7.01")
    # The library compiles as C++ with the compiler Kokkos was built for (nvcc_wrapper for
    # CUDA, hipcc for HIP); Kokkos compiled as a CMake CUDA/HIP language is not supported.
    conflicts("^kokkos+cmake_lang", msg="kokkos-dtensor compiles with Kokkos' C++ compiler")

    # The GPU backend comes from Kokkos: +cuda/+rocm here select it and pass the GPU
    # architecture down to Kokkos (as ArborX and Cabana do). Kokkos takes one architecture.
    for _arch in CudaPackage.cuda_arch_values:
        _cuda_dep = f"+cuda cuda_arch={_arch}"
        depends_on(f"kokkos {_cuda_dep}", when=_cuda_dep)
    for _arch in ROCmPackage.amdgpu_targets:
        _rocm_dep = f"+rocm amdgpu_target={_arch}"
        depends_on(f"kokkos {_rocm_dep}", when=_rocm_dep)
    conflicts("+cuda", when="cuda_arch=none")
    conflicts("+rocm", when="amdgpu_target=none")
    conflicts("+cuda", when="+rocm", msg="Kokkos has one device backend: pick CUDA or ROCm")

    # A CUDA Kokkos is used through nvcc_wrapper (as kokkos-fft requires): the kokkos recipe
    # raises InstallError for +cuda~wrapper with GCC, and its wrapper variant defaults off.
    requires("^kokkos+wrapper", when="^kokkos+cuda", msg="a CUDA Kokkos must be +wrapper")
    # Device kernels use KOKKOS_LAMBDA: Kokkos 3.x/4.x need the cuda_lambda option
    # (Kokkos 5 always has device lambdas and no longer has the variant).
    requires("^kokkos+cuda_lambda", when="^kokkos@:4+cuda")
    # A shared library cannot take in a static Kokkos built without -fPIC.
    conflicts("^kokkos~shared~pic", when="+shared", msg="build Kokkos +shared or +pic")

    depends_on("kokkos-kernels", when="+kernels")
    depends_on("googletest", when="+tests")

    sanity_check_is_file = [join_path("include", "KokkosDTensor_Config.hpp")]
    sanity_check_is_dir = ["include"]

    def kokkos_needs_hipcc(self):
        """Whether Kokkos is a HIP Kokkos built with hipcc (not with clang/rocmcc itself)."""
        spec = self.spec
        return spec.satisfies("^kokkos+rocm") and not (
            spec.satisfies("^kokkos %cxx=clang") or spec.satisfies("^kokkos %cxx=rocmcc")
        )

    def kokkos_compiler(self):
        """The C++ compiler Kokkos was built for, as kokkos-fft's recipe picks it: hipcc for
        a HIP Kokkos, otherwise Kokkos' own choice (nvcc_wrapper for kokkos+wrapper, the
        Spack compiler otherwise)."""
        if self.kokkos_needs_hipcc():
            return self.spec["hip"].hipcc
        return self["kokkos"].kokkos_cxx

    def cmake_args(self):
        spec = self.spec
        args = [
            self.define("Kokkos_ROOT", spec["kokkos"].prefix),
            self.define("CMAKE_CXX_COMPILER", self.kokkos_compiler()),
            # Build with the C++ standard Kokkos was built with.
            self.define("CMAKE_CXX_STANDARD", spec["kokkos"].variants["cxxstd"].value),
            self.define_from_variant("BUILD_SHARED_LIBS", "shared"),
            self.define_from_variant("KokkosDTensor_ENABLE_MPI", "mpi"),
            self.define_from_variant("KokkosDTensor_ENABLE_TESTS", "tests"),
            self.define_from_variant("KokkosDTensor_ENABLE_EXAMPLES", "examples"),
            self.define_from_variant("KokkosDTensor_ENABLE_PERF_TESTS", "perf_tests"),
            self.define_from_variant("KokkosDTensor_ENABLE_KOKKOSKERNELS", "kernels"),
        ]
        if spec.satisfies("+mpi"):
            args.append(self.define("MPI_CXX_COMPILER", spec["mpi"].mpicxx))
        else:
            # Never pick up an MPI that Spack did not provide.
            args.append(self.define("CMAKE_DISABLE_FIND_PACKAGE_MPI", True))
        if spec.satisfies("+kernels"):
            args.append(self.define("KokkosKernels_ROOT", spec["kokkos-kernels"].prefix))
        else:
            # Never pick up a stray Kokkos Kernels (e.g. the system's) that Spack did not build.
            args.append(self.define("CMAKE_DISABLE_FIND_PACKAGE_KokkosKernels", True))
        return args

    # ---- stand-alone tests (`spack test run kokkos-dtensor`), as ArborX's recipe ----------
    install_test_src_dir = "install_test"

    @run_after("install")
    def copy_install_test_sources(self):
        """Keep install_test/ (a CMake consumer of the installed package) for
        `spack test run`."""
        cache_extra_test_sources(self, [self.install_test_src_dir])

    def test_install_consumer(self):
        """configure, build and run install_test/ against the installed package"""
        spec = self.spec
        if spec.satisfies("~mpi"):
            raise SkipTest("install_test/ consumes the MPI target KokkosDTensor::KokkosDTensor")

        # The consumer's compiler is the library's: the Kokkos compiler. nvcc_wrapper and
        # hipcc are named by path, the Spack compiler comes from the test environment.
        if spec.satisfies("^kokkos+wrapper"):
            cxx = self["kokkos"].kokkos_cxx
            if "CXX" in os.environ:
                os.environ.setdefault("NVCC_WRAPPER_DEFAULT_COMPILER", os.environ["CXX"])
        elif self.kokkos_needs_hipcc():
            cxx = join_path(spec["hip"].prefix.bin, "hipcc")
        elif "CXX" in os.environ:
            cxx = os.environ["CXX"]
        else:
            raise SkipTest("no C++ compiler in the test environment")

        source_dir = join_path(self.test_suite.current_test_cache_dir, self.install_test_src_dir)
        cmake = which(spec["cmake"].prefix.bin.cmake, required=True)
        with working_dir(join_path(source_dir, "build"), create=True):
            cmake(
                source_dir,
                self.define("CMAKE_CXX_COMPILER", cxx),
                self.define("KokkosDTensor_ROOT", self.prefix),
                self.define("Kokkos_ROOT", spec["kokkos"].prefix),
                self.define("MPI_HOME", spec["mpi"].prefix),
            )
            cmake("--build", ".")
            consumer = Executable(join_path(os.getcwd(), "install_test_consumer"))
            mpiexec = which("mpiexec", "mpirun", path=[spec["mpi"].prefix.bin])
            if mpiexec:
                # Two ranks even on a one-core test node (Open MPI; other MPIs ignore it).
                os.environ.setdefault("OMPI_MCA_rmaps_base_oversubscribe", "1")
                mpiexec("-n", "2", consumer.path)
            else:
                # An MPI without its own launcher (e.g. one launched by srun): one rank,
                # as an MPI singleton.
                consumer()
