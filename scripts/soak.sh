#!/bin/sh
# Soak benchmark (not a test): decode + encode cycles over every corpus file
# in all four encodings, text with both scanners, every message encoded into
# each encoding in turn, on several threads; resident memory (VmRSS) is
# sampled every tenth of the run. It must stay flat once warm.
#
#   scripts/soak.sh [BUILD_DIR] [CYCLES] [THREADS] [TOLERANCE_KB]
#
# Defaults: build, 100000000 cycles, 2 threads, 1024 kB. The verdict compares
# the samples from the first (after a tenth of the run: warm caches, thread
# spares, malloc's arenas) to the last: "flat" when they stay within the
# tolerance of each other, "GROWING" (exit status 1) otherwise. The tool is
# built as part of the tree (tools/megaco_soak.c). Estimate a long run first:
# 1000000 cycles take a hundredth of the time of the default.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
cycles=${2:-100000000}
threads=${3:-2}
tolerance=${4:-1024}
soak=$build/tools/megaco-soak
[ -x "$soak" ] || { echo "soak.sh: $soak not built (cmake --build $build)" >&2; exit 2; }
every=$((cycles / 10))
[ "$every" -gt 0 ] || every=$cycles
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$soak" "$top/corpus" "$cycles" "$threads" "$every" | tee "$out"
awk -v tol="$tolerance" -v every="$every" '
	$1 ~ /^[0-9]+$/ && $1 >= every { n++; if (n == 1 || $2 < lo) lo = $2; if (n == 1 || $2 > hi) hi = $2;
	                                 if (n == 1) first = $2; last = $2 }
	END {
		if (n < 2) { print "verdict: too few samples"; exit 2 }
		printf "verdict: %s (samples from cycle %d: %d..%d kB, first %d, last %d, spread %d kB, tolerance %d kB)\n",
		       (hi - lo <= tol ? "flat" : "GROWING"), every, lo, hi, first, last, hi - lo, tol
		exit hi - lo <= tol ? 0 : 1
	}' "$out"
