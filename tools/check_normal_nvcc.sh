#!/usr/bin/env bash
# Compiles include/impl/KokkosDTensor_NormalQuantile.hpp (the stream-version-2 normal and its
# __device__ tables) with nvcc, device code included, on a machine without a CUDA build of
# Kokkos: a stub Kokkos_Macros.hpp gives KOKKOS_INLINE_FUNCTION its CUDA meaning
# (__host__ __device__). A syntax and code-generation check only; it runs nothing.
# Usage: tools/check_normal_nvcc.sh [nvcc] [arch]   (defaults: nvcc on PATH, sm_90)
set -euo pipefail
NVCC=${1:-nvcc}
ARCH=${2:-sm_90}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
cat > "$DIR/Kokkos_Macros.hpp" <<'H'
#pragma once
#define KOKKOS_INLINE_FUNCTION __host__ __device__ inline
#define KOKKOS_FORCEINLINE_FUNCTION __host__ __device__ __forceinline__
#define KOKKOS_FUNCTION __host__ __device__
H
cat > "$DIR/check.cu" <<'C'
#include <impl/KokkosDTensor_NormalQuantile.hpp>
using namespace KokkosDTensor::Impl;
__global__ void normals(const unsigned* w, float* f, double* d, const float* tf, const double* td, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  f[2 * i] = normal_from_word(w[2 * i]);
  f[2 * i + 1] = normal_from_word(w[2 * i], tf);
  d[2 * i] = normal_from_words(w[2 * i], w[2 * i + 1]);
  d[2 * i + 1] = normal_from_words(w[2 * i], w[2 * i + 1], td);
}
// The same functions on the host (the host table).
float host_normal(unsigned w) { return normal_from_word(w); }
C
"$NVCC" -x cu -std=c++17 -arch="$ARCH" -I "$DIR" -I "$ROOT/include" -c "$DIR/check.cu" -o "$DIR/check.o"
"$NVCC" -x cu -std=c++17 -arch="$ARCH" -I "$DIR" -I "$ROOT/include" -ptx "$DIR/check.cu" -o "$DIR/check.ptx"
echo "ld.global.nc in the PTX (the __ldg reads): $(grep -c 'ld.global.nc' "$DIR/check.ptx")"
echo "check_normal_nvcc: $NVCC ($("$NVCC" --version | tail -1)) compiled the v2 normal for $ARCH"
