#!/usr/bin/env bash
# Compile times of a user's translation unit (docs/building.md): the umbrella header alone,
# one op on View<float**>, three ops; and the fill kernels each one instantiates (distinct
# fill functor types among the symbols its object file defines). Uses the compiler and flags
# of a configured build of this project:
#   tools/measure_compile_times.sh BUILD_DIR [REPEATS]
set -euo pipefail
build=${1:?usage: measure_compile_times.sh BUILD_DIR [REPEATS]}
repeats=${2:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
commands="$build/compile_commands.json"
[ -f "$commands" ] || { echo "measure_compile_times.sh: $commands missing (configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)" >&2; exit 1; }
# The compile command of a translation unit that uses KokkosDTensor::KokkosDTensor.
template=$(/usr/bin/python3 - "$commands" <<'PY'
import json, sys
for entry in json.load(open(sys.argv[1])):
    if entry["file"].endswith("tools/kdt_rand.cpp") or entry["file"].endswith("examples/sharding_invariance.cpp"):
        print(entry["command"]); break
PY
)
[ -n "$template" ] || { echo "measure_compile_times.sh: no kdt_rand.cpp / sharding_invariance.cpp in $commands" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%-14s %10s %10s %8s\n' probe "best s" "median s" kernels
for probe in header_only one_op three_ops; do
  src="$here/perf_tests/compile_time/$probe.cpp"
  cmd=$(/usr/bin/python3 - "$template" "$src" "$out/$probe.o" <<'PY'
import shlex, sys
args = shlex.split(sys.argv[1])
result, skip = [], False
for a in args:
    if skip: skip = False; continue
    if a in ("-o", "-c", "-MF", "-MT", "-MD"):
        skip = a in ("-o", "-MF", "-MT"); continue
    if a.endswith(".cpp"): continue
    result.append(a)
print(shlex.join(result + ["-c", sys.argv[2], "-o", sys.argv[3]]))
PY
)
  times=()
  for _ in $(seq "$repeats"); do
    start=$(date +%s%N)
    (cd "$build" && eval "$cmd")
    end=$(date +%s%N)
    times+=("$(( (end - start) / 1000000 ))")
  done
  sorted=$(printf '%s\n' "${times[@]}" | sort -n)
  best_ms=$(echo "$sorted" | head -1)
  median_ms=$(echo "$sorted" | sed -n "$(( (repeats + 1) / 2 ))p")
  # Kernels: distinct fill functor types among the object's defined symbols (their
  # operator() is often inlined into the backend's launch code, so count the types).
  kernels=$(nm -C "$out/$probe.o" | /usr/bin/python3 -c '
import re, sys
names = set()
for line in sys.stdin:
    parts = line.split(None, 2)
    if len(parts) < 3 or parts[1] not in "WTtw":
        continue
    for m in re.finditer(r"Fill(RowsFunctor|RowsHostFunctor|GenericFunctor)<", parts[2]):
        depth, i = 1, m.end()
        while i < len(parts[2]) and depth:
            depth += {"<": 1, ">": -1}.get(parts[2][i], 0)
            i += 1
        names.add(parts[2][m.start():i])
print(len(names))')
  printf '%-14s %10s %10s %8s\n' "$probe" "$((best_ms / 1000)).$(printf %03d $((best_ms % 1000)))" \
    "$((median_ms / 1000)).$(printf %03d $((median_ms % 1000)))" "$kernels"
done
