#!/usr/bin/env bash
# Instructions per message of one codec operation over the bundled corpus,
# counted by callgrind: megaco-loop runs the operation over every file of the
# encoding's corpus directory 11 times and once, and the difference is
# divided by 10 x the number of files, which leaves out start-up, file
# reading and one-time set-up. Repeatable whatever else the machine is doing.
#
#   scripts/count-instructions.sh ENCODING dec|enc|scan [--non-reentrant]
#
# Uses build-release/ (configured here if needed, Release and profile-guided,
# as scripts/bench.sh; megaco-loop is rebuilt first so the count is of the
# working tree). A profile-guided build's counts differ from a plain one's.
#
# The library must be compiled with the profile of the sources it is
# compiled from: cmake/Pgo.cmake applies a profile of other sources silently
# (-Wno-coverage-mismatch), and the count would be of a program no clean
# build makes. So the profile is retrained unless it was trained, by this
# script, on the sources as they are; sources that change during the build
# make it build again; and the count is refused unless the training came
# after the instrumented program's last link and every library object was
# compiled after the training.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 2 ]] || { echo "usage: $0 pretty|compact|ber|per|aper dec|enc|scan [--non-reentrant]" >&2; exit 2; }
enc=$1 op=$2 nr=${3:-}
command -v valgrind >/dev/null || { echo "$0: needs valgrind" >&2; exit 2; }
if [[ ! -f build-release/CMakeCache.txt ]]; then
	cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DMEGACO_TESTS=OFF -DMEGACO_PGO=ON >/dev/null
fi
grep -qx 'MEGACO_PGO:STRING=ON' build-release/CMakeCache.txt ||
	{ echo "$0: build-release/ is not a profile-guided build (MEGACO_PGO=ON)" >&2; exit 2; }

stamp=build-release/pgo-profile.stamp       # touched by each training (cmake/Pgo.cmake)
record=build-release/pgo-profile.inputs     # the inputs of the last checked training
inputs() { # one checksum of everything the library, megaco-loop and the training read
	{ git ls-files -co --exclude-standard -z -- src grammar tools asn1 data include cmake \
		CMakeLists.txt corpus | sort -z | xargs -0 cat 2>/dev/null || true; } | cksum
}
now=
for try in 1 2 3; do
	now=$(inputs)
	[[ -f $record && $(<"$record") == "$now" ]] || rm -f "$stamp" "$record"
	cmake --build build-release -j"$(nproc 2>/dev/null || echo 2)" --target megaco-loop >/dev/null
	[[ $(inputs) == "$now" ]] && break
	echo "$0: sources changed during the build; building again" >&2
	now=
done
[[ -n $now ]] || { echo "$0: sources keep changing during the build; no count" >&2; exit 1; }
[[ $stamp -nt build-release/pgo-instrumented/tools/megaco-loop ]] ||
	{ echo "$0: the profile is older than the instrumented megaco-loop: stale, no count" >&2; exit 1; }
# The objects that read the profile (cmake/Pgo.cmake's _pgo_libs); megaco_asn1_lib,
# the -Os copy for the installed library, does not, and a new profile leaves it be.
# An object whose source is gone (a file deleted or renamed since this tree
# was built) is in no link and does not count.
old=$(find build-release/CMakeFiles/megaco_core.dir build-release/CMakeFiles/megaco_asn1.dir \
	-name '*.o' ! -newer "$stamp" 2>/dev/null | while read -r o; do
	src=${o#build-release/CMakeFiles/*.dir/} src=${src%.o}
	if [[ -e $src || -e build-release/$src ]]; then echo "$o"; fi
done | sed -n 1,3p)
[[ -z $old ]] ||
	{ echo "$0: compiled before the last training (stale profile), no count:" $old >&2; exit 1; }
echo "$now" >"$record"

files=(corpus/"$enc"/*)
count() {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		build-release/tools/megaco-loop $nr "$enc" "$op" "$1" "${files[@]}" 2>&1 |
		sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
one=$(count 1)
eleven=$(count 11)
echo "$enc $op${nr:+ $nr}: $(( (eleven - one) / (10 * ${#files[@]}) )) instructions per message (${#files[@]} messages)"
