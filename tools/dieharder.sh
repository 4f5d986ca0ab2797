#!/usr/bin/env bash
# Statistical quality of the stream as a sharded DTensor draws it: kdt-rand on 4 MPI ranks
# (a 2x2 mesh, placements S0,S1: every rank fills a quarter of each tensor) fills a
# 512 x 2048 uint32 DTensor with random_bits_, gathers it with full_tensor() and rank 0
# writes the words to a named pipe (kdt-rand --raw-out FIFO), op after op, until dieharder
# has read enough and closes it. dieharder reads them as raw binary from stdin (-g 200).
# (A named pipe, not `mpiexec ... | dieharder`: mpiexec forwards stdout and aborts the job
# when the pipe closes.) Results: docs/quality.md.
#
#   tools/dieharder.sh [--build DIR] [--full] [--tests "0 2 15 ..."] [--psamples N]
#
#   --build DIR   build dir holding tools/kdt-rand (default: build)
#   --tests LIST  dieharder test numbers (-d) to run; default: the CI subset below
#   --psamples N  dieharder -p N (p-values per test; default: dieharder's own per test)
#   --full        the whole battery, dieharder -a (opt-in: hours on a small machine)
#
# Before the tests it checks that the first 8 MiB of the gathered sharded stream equal the
# stream of a 1-rank run (the stream does not depend on the sharding). Exit status 1 if
# any test's assessment is FAILED (or the check fails); WEAK results are listed but allowed
# (at p-value thresholds of 0.5 %, about one test in 100 is WEAK by chance).
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=build
FULL=0
PSAMPLES=""
# The CI subset (about 2-3 minutes on 2 cores), see docs/quality.md:
#   0 diehard_birthdays, 1 diehard_operm5, 2 diehard_rank_32x32, 3 diehard_rank_6x8,
#   8 diehard_count_1s_str, 15 diehard_runs,
#   100 sts_monobit, 101 sts_runs, 102 sts_serial, 205 dab_bytedistrib,
#   209 dab_monobit2
TESTS="0 1 2 3 8 15 100 101 102 205 209"
while [ $# -gt 0 ]; do
  case "$1" in
    --build) BUILD_DIR=$2; shift 2 ;;
    --full) FULL=1; shift ;;
    --tests) TESTS=$2; shift 2 ;;
    --psamples) PSAMPLES=$2; shift 2 ;;
    *) echo "dieharder.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

KDT_RAND="$BUILD_DIR/tools/kdt-rand"
[ -x "$KDT_RAND" ] || { echo "dieharder.sh: $KDT_RAND is missing (build kdt-rand first)" >&2; exit 1; }
command -v dieharder > /dev/null || { echo "dieharder.sh: dieharder is not installed (apt-get install dieharder)" >&2; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
MPIEXEC=${MPIEXEC:-mpiexec}
SEED=${SEED:-20240611}
# 512 x 2048 words = 4 MiB per op; a multiple of 4 words, so consecutive ops leave no gap
# and the output is the stream itself, word 0, 1, 2, ...
SHAPE=512,2048
SHARDED=("$MPIEXEC" -n 4 "$KDT_RAND" --mesh 2x2 --placements S0,S1 --shape "$SHAPE" --dist bits)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

echo "+ ${SHARDED[*]} --seed $SEED --repeat 2 --raw-out sharded.bin; cmp with a 1-rank run"
"${SHARDED[@]}" --seed "$SEED" --repeat 2 --raw-out "$WORK/sharded.bin" 2> /dev/null
"$MPIEXEC" -n 1 "$KDT_RAND" --shape "$SHAPE" --dist bits --seed "$SEED" --repeat 2 \
  --raw-out "$WORK/single.bin" 2> /dev/null
cmp "$WORK/sharded.bin" "$WORK/single.bin"
echo "dieharder.sh: the 4-rank 2x2-sharded stream equals the 1-rank stream ($(stat -c %s "$WORK/single.bin") bytes)"

# Runs one dieharder invocation on a fresh stream; prints its table and the byte count.
run_one() {
  local label=$1 seed=$2; shift 2
  echo "+ ${SHARDED[*]} --seed $seed --raw-out FIFO & dieharder -g 200 $* < FIFO"
  local start=$SECONDS
  rm -f "$WORK/fifo"
  mkfifo "$WORK/fifo"
  "${SHARDED[@]}" --seed "$seed" --raw-out "$WORK/fifo" 2> "$WORK/kdt.err" &
  local writer=$!
  dieharder -g 200 "$@" < "$WORK/fifo" > "$WORK/$label.out" || true
  if ! wait "$writer"; then
    cat "$WORK/kdt.err" >&2
    echo "dieharder.sh: kdt-rand failed" >&2
    exit 1
  fi
  grep -E '^ *[a-z_0-9]+\|' "$WORK/$label.out" | grep -v 'test_name' >> "$WORK/results.txt" || true
  grep -E '^ *(test_name|[a-z_0-9]+)\|' "$WORK/$label.out" || cat "$WORK/$label.out"
  echo "   ($(grep -o 'wrote [0-9]* bytes' "$WORK/kdt.err" || echo 'wrote ? bytes'), $((SECONDS - start)) s)"
}

: > "$WORK/results.txt"
if [ "$FULL" = 1 ]; then
  run_one all "$SEED" -a ${PSAMPLES:+-p "$PSAMPLES"}
else
  for t in $TESTS; do
    run_one "d$t" $((SEED + t)) -d "$t" ${PSAMPLES:+-p "$PSAMPLES"}
  done
fi

total=$(grep -cE 'PASSED|WEAK|FAILED' "$WORK/results.txt" || true)
weak=$(grep -c 'WEAK' "$WORK/results.txt" || true)
failed=$(grep -c 'FAILED' "$WORK/results.txt" || true)
echo "dieharder.sh: $total results: $((total - weak - failed)) PASSED, $weak WEAK, $failed FAILED"
grep -E 'WEAK|FAILED' "$WORK/results.txt" || true
if [ "$total" = 0 ]; then echo "dieharder.sh: no results (dieharder did not run?)" >&2; exit 1; fi
if [ "$failed" != 0 ]; then echo "dieharder.sh: FAILED results" >&2; exit 1; fi
