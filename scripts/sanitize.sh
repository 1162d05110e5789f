#!/bin/sh
# Builds the whole tree with ASan+UBSan and runs every test under it.
#
#   scripts/sanitize.sh [BUILD_DIR] [CC]     (default: build-asan, clang)
#
# Leak checking is on; any sanitizer report fails the test that triggered it
# (-fno-sanitize-recover=all).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build-asan}
cc=${2:-clang}
cmake -S "$top" -B "$build" -DMEGACO_SANITIZE=ON -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=Debug
cmake --build "$build" -j"$(nproc)"
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
	ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
