#!/usr/bin/env bash
# The ways users configure and consume kokkos-dtensor (issue 20), against Debian's Kokkos:
#   1. option combinations users pick configure, and build what each one changes;
#   2. a parent project builds it with add_subdirectory and with FetchContent (local path);
#   3. the examples build out of tree against the package installed from the README build.
# (The installed package's find_package consumer is the install_test ctest of the README
# build.) Usage: .ci/consumers.sh [README_BUILD_DIR (default: build)]
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=$PWD
README_BUILD=${1:-build}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kdt-consumers.XXXXXX")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

substep() {  # substep NAME LOG command...: runs quietly, prints the log's tail on failure
  local name=$1 log=$2 start=$SECONDS
  shift 2
  if ! "$@" > "$log" 2>&1; then
    tail -40 "$log" >&2
    echo "consumers.sh: $name failed (log: $log)" >&2
    exit 1
  fi
  echo "  $name: $((SECONDS - start)) s"
}

# ---- 1. option combinations ------------------------------------------------------------
# Each configures; each builds the targets its option changes (the full builds are the
# README's and the host-backend stages'):
#   tests off, examples on   one example (they once needed GoogleTest at configure); ETI
#                            off, so that only what the example uses compiles
#   examples off             configure only
#   perf tests off           configure only
#   ETI and MPI off          KokkosDTensor::rng alone, header-only, no MPI found: a
#                            per-backend test compiles every kernel it uses; its tests run.
#                            (One build for both: an MPI-off build with ETI on compiled the
#                            whole ETI library a third time, about 140 s of CI; the README
#                            build compiles that library's sources with no MPI include path,
#                            since KokkosDTensor::rng does not link MPI.)
combo() {  # combo NAME TARGETS -D...: configure, build TARGETS ("" = configure only)
  local name=$1 targets=$2
  shift 2
  local dir=$WORK/$name
  substep "$name: configure" "$WORK/$name-configure.log" cmake -S "$SRC" -B "$dir" -G Ninja "$@"
  if [ -n "$targets" ]; then
    # shellcheck disable=SC2086
    substep "$name: build $targets" "$WORK/$name-build.log" cmake --build "$dir" -j 2 --target $targets
  fi
}
combo tests-off sharding_invariance -DKokkosDTensor_ENABLE_TESTS=OFF -DKokkosDTensor_ENABLE_TOOLS=OFF \
  -DKokkosDTensor_ENABLE_PERF_TESTS=OFF -DKokkosDTensor_ENABLE_ETI=OFF
combo examples-off "" -DKokkosDTensor_ENABLE_EXAMPLES=OFF
combo perf-off "" -DKokkosDTensor_ENABLE_PERF_TESTS=OFF
combo eti-mpi-off "Test_Distributions_Serial Test_Philox" -DKokkosDTensor_ENABLE_ETI=OFF \
  -DKokkosDTensor_ENABLE_MPI=OFF -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON \
  -DKokkosDTensor_ENABLE_EXAMPLES=OFF -DKokkosDTensor_ENABLE_TOOLS=OFF -DKokkosDTensor_ENABLE_PERF_TESTS=OFF
if grep -qi "libmpi\|MPI_CXX_FOUND:BOOL=TRUE" "$WORK/eti-mpi-off/CMakeCache.txt"; then
  echo "consumers.sh: the MPI-off build found or names MPI" >&2
  exit 1
fi
substep "eti-mpi-off: ctest" "$WORK/eti-mpi-off-ctest.log" \
  ctest --test-dir "$WORK/eti-mpi-off" -R "^(Test_Philox|Test_Distributions_Serial)$" --no-tests=error --output-on-failure

# ---- 2. add_subdirectory and FetchContent ------------------------------------------------
version=$(sed -n 's/^project(KokkosDTensor VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
for how in add_subdirectory FetchContent; do
  dir=$WORK/sub-$how
  substep "$how: configure" "$WORK/sub-$how-configure.log" cmake -S install_test/subproject -B "$dir" \
    -G Ninja -DKDT_SOURCE_DIR="$SRC" -DKDT_HOW=$how -DKDT_EXPECTED_VERSION="$version"
  if ! grep -q '^CMAKE_BUILD_TYPE:STRING=$' "$dir/CMakeCache.txt"; then
    echo "consumers.sh: $how: the subproject changed the parent's empty CMAKE_BUILD_TYPE: $(grep '^CMAKE_BUILD_TYPE' "$dir/CMakeCache.txt")" >&2
    exit 1
  fi
  substep "$how: build" "$WORK/sub-$how-build.log" cmake --build "$dir" -j 2
  substep "$how: rng_consumer" "$WORK/sub-$how-rng.log" "$dir/rng_consumer"
  # KokkosDTensor::rng alone puts no MPI on the link line nor among the loaded libraries.
  link_rule=$(awk '/^build rng_consumer:/ { found = 1 } found && /^$/ { exit } found' "$dir/build.ninja")
  [ -n "$link_rule" ] || { echo "consumers.sh: $how: no link rule for rng_consumer" >&2; exit 1; }
  if echo "$link_rule" | grep -Eqi "libmpi|openmpi|mpich|-lmpi" || ldd "$dir/rng_consumer" | grep -qi "libmpi"; then
    echo "consumers.sh: $how: rng_consumer links MPI" >&2
    exit 1
  fi
  substep "$how: consumer on 2 ranks" "$WORK/sub-$how-mpi.log" mpiexec -n 2 "$dir/install_test_consumer"
  # The MPI target links MPI's C library, not the C++ bindings (libmpi_cxx).
  if awk '/^build install_test_consumer:/ { found = 1 } found && /^$/ { exit } found' "$dir/build.ninja" |
    grep -Eqi "mpi_cxx|mpicxx"; then
    echo "consumers.sh: $how: install_test_consumer links MPI's C++ bindings" >&2
    exit 1
  fi
done

# ---- 3. the examples out of tree against the installed package -------------------------
prefix=$WORK/prefix
substep "install $README_BUILD" "$WORK/install.log" cmake --install "$README_BUILD" --prefix "$prefix"
# The installed tools run from the prefix as a user runs them: no LD_LIBRARY_PATH (RUNPATH).
for tool in kdt-rand kdt-perf; do
  if ! readelf -d "$prefix/bin/$tool" | grep -q 'RUNPATH.*\$ORIGIN'; then
    echo "consumers.sh: installed $tool has no \$ORIGIN RUNPATH: $(readelf -d "$prefix/bin/$tool" | grep -i path)" >&2
    exit 1
  fi
done
substep "installed kdt-rand on 2 ranks" "$WORK/installed-kdt-rand.log" env -u LD_LIBRARY_PATH \
  mpiexec -n 2 "$prefix/bin/kdt-rand" --mesh 2 --placements S0 --shape 6,5 --dist normal \
  --out "$WORK/installed.npy"
substep "installed kdt-perf" "$WORK/installed-kdt-perf.log" env -u LD_LIBRARY_PATH \
  "$prefix/bin/kdt-perf" --size 4096 --iters 20 --warmup 1 --only uniform_f32
substep "examples: configure" "$WORK/examples-configure.log" cmake -S examples -B "$WORK/examples" -G Ninja \
  -DCMAKE_PREFIX_PATH="$prefix"
substep "examples: build" "$WORK/examples-build.log" cmake --build "$WORK/examples" -j 2 \
  --target sharding_invariance deferred_init
substep "examples: run" "$WORK/examples-ctest.log" \
  ctest --test-dir "$WORK/examples" -R "^(sharding_invariance|deferred_init)_np_2$" --output-on-failure

rm -rf "$WORK"
