#!/usr/bin/env bash
# Checks that the tracked C++ sources follow .clang-format, with clang-format 14 (Debian 12's
# `clang-format` package; other versions format some constructs differently). Prints each
# difference and exits non-zero if there is any.
#
#   tools/check_format.sh          check only (clang-format --dry-run --Werror)
#   tools/check_format.sh --fix    rewrite the files in place (clang-format -i)
#
# CLANG_FORMAT=/path/to/clang-format-14 picks the binary; by default clang-format-14, then
# clang-format (which must then be version 14).
set -euo pipefail
cd "$(dirname "$0")/.."

MODE=check
case "${1:-}" in
  "") ;;
  --fix) MODE=fix ;;
  *) echo "usage: tools/check_format.sh [--fix]" >&2; exit 2 ;;
esac

CLANG_FORMAT=${CLANG_FORMAT:-$(command -v clang-format-14 || command -v clang-format || true)}
if [ -z "$CLANG_FORMAT" ]; then
  echo "check_format.sh: clang-format 14 not found (apt-get install clang-format)" >&2
  exit 2
fi
VERSION=$("$CLANG_FORMAT" --version)
case "$VERSION" in
  *"clang-format version 14."*) ;;
  *) echo "check_format.sh: $CLANG_FORMAT is not clang-format 14: $VERSION" >&2; exit 2 ;;
esac

# The tracked C++ and CUDA C++ sources (in git pathspecs '*' also matches '/', so
# subfolders are included).
mapfile -d '' FILES < <(git ls-files -z -- \
  'include/*.hpp' 'src/*.hpp' 'src/*.cpp' 'unit_tests/*.hpp' 'unit_tests/*.cpp' \
  'examples/*.hpp' 'examples/*.cpp' 'perf_tests/*.hpp' 'perf_tests/*.cpp' 'perf_tests/*.cu' \
  'tools/*.hpp' 'tools/*.cpp' 'install_test/*.hpp' 'install_test/*.cpp' \
  'fuzz/*.hpp' 'fuzz/*.cpp')
if [ "${#FILES[@]}" -eq 0 ]; then
  echo "check_format.sh: no C++ sources found" >&2
  exit 2
fi

if [ "$MODE" = fix ]; then
  "$CLANG_FORMAT" -i --style=file "${FILES[@]}"
  echo "check_format.sh: formatted ${#FILES[@]} files with $VERSION"
  exit 0
fi

failed=()
for f in "${FILES[@]}"; do
  if ! "$CLANG_FORMAT" --dry-run --Werror --style=file "$f"; then
    failed+=("$f")
  fi
done
if [ "${#failed[@]}" -ne 0 ]; then
  echo "check_format.sh: ${#failed[@]} of ${#FILES[@]} files differ from .clang-format" \
       "(tools/check_format.sh --fix rewrites them):" >&2
  printf '  %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "check_format.sh: ${#FILES[@]} files follow .clang-format ($VERSION)"
