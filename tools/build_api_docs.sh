#!/usr/bin/env bash
# Builds the API reference of the public headers (include/*.hpp) with Doxygen, from the
# Doxyfile at the top of the repository. Doxygen: Debian's `doxygen` package
# (apt-get install -y --no-install-recommends doxygen; Graphviz is not needed).
#
#   tools/build_api_docs.sh [OUTPUT_DIR (default build-docs/api)]
#   tools/build_api_docs.sh --all-warnings [OUTPUT_DIR]
#
# The Doxyfile sets WARN_AS_ERROR = YES: the build stops at the first warning (an
# undocumented public entity, a documentation error) and this script exits non-zero.
# --all-warnings runs to the end instead, lists every warning (also kept in
# OUTPUT_DIR/warnings.log) with their count, and still exits non-zero if there is any.
set -euo pipefail
cd "$(dirname "$0")/.."

WARN_MODE=YES
if [ "${1:-}" = --all-warnings ]; then
  WARN_MODE=FAIL_ON_WARNINGS
  shift
fi
OUT=${1:-build-docs/api}

DOXYGEN=${DOXYGEN:-$(command -v doxygen || true)}
if [ -z "$DOXYGEN" ]; then
  echo "build_api_docs.sh: doxygen not found (apt-get install -y doxygen)" >&2
  exit 2
fi

mkdir -p "$OUT"
LOG="$OUT/warnings.log"
rm -f "$LOG"
# The Doxyfile, with the output directory and the warning mode of this run appended
# (a later setting overrides an earlier one).
set +e
{
  cat Doxyfile
  echo "OUTPUT_DIRECTORY = \"$OUT\""
  echo "WARN_AS_ERROR = $WARN_MODE"
  echo "WARN_LOGFILE = \"$LOG\""
} | "$DOXYGEN" -
rc=$?
set -e

count=0
if [ -s "$LOG" ]; then
  cat "$LOG" >&2
  count=$(grep -c ': warning: \|: error: ' "$LOG" || true)
fi
if [ "$rc" -ne 0 ] || [ "$count" -ne 0 ]; then
  echo "build_api_docs.sh: doxygen failed (exit $rc, $count warnings in $LOG)" >&2
  exit 1
fi
echo "build_api_docs.sh: $OUT/html/index.html ($("$DOXYGEN" --version), no warnings)"
