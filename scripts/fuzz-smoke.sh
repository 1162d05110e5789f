#!/bin/sh
# Runs each libFuzzer target for a while on its seeds from corpus/.
#
#   scripts/fuzz-smoke.sh [SECONDS] [TARGET...]     (default: 60 s; ber per aper text auto)
#
# Builds build-fuzz/ (clang, -DMEGACO_FUZZ=ON: ASan+UBSan+libFuzzer) when
# needed. Working corpora grow under build-fuzz/fuzz-work/TARGET (corpus/ is
# never written); crashes land in build-fuzz/fuzz-crashes/TARGET. Exits
# non-zero if any target found a crash: replay one with
#   build-fuzz/fuzz/fuzz_TARGET CRASH-FILE
# and, once fixed, keep it as fuzz/regressions/TARGET/NAME so the ctest
# fuzz_smoke_TARGET replays it forever.
#
# Environment: MEGACO_FUZZ_MAX_LEN (default 65536: inputs up to 64 KiB reach
# the decoders' heap copies and multi-block arenas), MEGACO_FUZZ_OPTIONS
# (the targets' decode options, fuzz/fuzz_common.h: any of nonreentrant,
# alloc, tight), MEGACO_FUZZ_JOBS, MEGACO_FUZZ_ARGS.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-ber per aper text auto}
build=${MEGACO_FUZZ_BUILD:-$top/build-fuzz}
jobs=${MEGACO_FUZZ_JOBS:-1}
extra=${MEGACO_FUZZ_ARGS:-} # e.g. "-fork=1 -ignore_crashes=1" to collect every crash
maxlen=${MEGACO_FUZZ_MAX_LEN:-65536}

if [ ! -f "$build/CMakeCache.txt" ]; then
	cmake -S "$top" -B "$build" -DCMAKE_C_COMPILER=clang -DMEGACO_FUZZ=ON \
		-DCMAKE_BUILD_TYPE=RelWithDebInfo -DMEGACO_WERROR=OFF
fi
for t in $targets; do
	cmake --build "$build" -j"$(nproc)" --target "fuzz_$t"
done

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
failed=0
for t in $targets; do
	work=$build/fuzz-work/$t
	crashes=$build/fuzz-crashes/$t
	mkdir -p "$work" "$crashes"
	seeds=""
	for s in $(cat "$build/fuzz/fuzz_$t.seeds"); do
		seeds="$seeds $top/corpus/$s"
	done
	[ -d "$top/fuzz/regressions/$t" ] && seeds="$seeds $top/fuzz/regressions/$t"
	echo "== fuzz_$t: $secs s, max_len $maxlen, options '${MEGACO_FUZZ_OPTIONS:-}', seeds:$seeds"
	# With -jobs libFuzzer writes fuzz-N.log into the current directory.
	par=""
	[ "$jobs" -gt 1 ] && par="-jobs=$jobs -workers=$jobs"
	# shellcheck disable=SC2086
	if ! (cd "$build" && "$build/fuzz/fuzz_$t" -max_total_time="$secs" -max_len="$maxlen" \
		-timeout=10 -rss_limit_mb=2048 $par $extra -print_final_stats=1 \
		-artifact_prefix="$crashes/" "$work" $seeds); then
		echo "!! fuzz_$t failed; artifacts in $crashes"
		failed=1
	fi
done
exit $failed
