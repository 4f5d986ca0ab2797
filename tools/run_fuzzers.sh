#!/usr/bin/env bash
# Runs each libFuzzer target of fuzz/ for SECONDS (default 60) from the committed seed
# corpus fuzz/corpus/<target>/. New inputs go to a scratch directory, not into the
# committed corpus; a crash leaves its input there and makes this script exit non-zero.
#
#   tools/run_fuzzers.sh [BUILD_DIR (default build-fuzz)] [SECONDS (default 60)]
#
# The build dir comes from
#   cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DKokkosDTensor_ENABLE_FUZZING=ON
#   cmake --build build-fuzz --target fuzz_local_shape fuzz_rng_state
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${1:-build-fuzz}
SECONDS_EACH=${2:-60}
SCRATCH=${FUZZ_SCRATCH:-$BUILD_DIR/fuzz/scratch}

# One target per core at once (libFuzzer runs one process each): both in SECONDS wall.
run_target() {
  local target=$1 exe="$BUILD_DIR/fuzz/$1"
  mkdir -p "$SCRATCH/$target"
  echo "+ $exe -max_total_time=$SECONDS_EACH -artifact_prefix=$SCRATCH/$target/ $SCRATCH/$target fuzz/corpus/$target"
  if ! "$exe" -max_total_time="$SECONDS_EACH" -print_final_stats=1 \
      -artifact_prefix="$SCRATCH/$target/" "$SCRATCH/$target" "fuzz/corpus/$target" \
      > "$SCRATCH/$target.log" 2>&1; then
    tail -n 60 "$SCRATCH/$target.log" >&2
    echo "run_fuzzers.sh: $target failed; the input is in $SCRATCH/$target/ (crash-*)" >&2
    return 1
  fi
}
targets=(fuzz_local_shape fuzz_rng_state)
for target in "${targets[@]}"; do
  [ -x "$BUILD_DIR/fuzz/$target" ] || { echo "run_fuzzers.sh: $BUILD_DIR/fuzz/$target is missing (build it first)" >&2; exit 1; }
done
pids=()
for target in "${targets[@]}"; do
  run_target "$target" &
  pids+=($!)
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
[ "$failed" = 0 ] || exit 1
for target in "${targets[@]}"; do
  echo "$target:"
  grep -E "^(Done|stat::number_of_executed_units|stat::new_units_added)" "$SCRATCH/$target.log" || true
done
echo "run_fuzzers.sh: every target ran ${SECONDS_EACH} s without a failure"
