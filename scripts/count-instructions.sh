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
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 2 ]] || { echo "usage: $0 pretty|compact|ber|per|aper dec|enc|scan [--non-reentrant]" >&2; exit 2; }
enc=$1 op=$2 nr=${3:-}
command -v valgrind >/dev/null || { echo "$0: needs valgrind" >&2; exit 2; }
if [[ ! -f build-release/CMakeCache.txt ]]; then
	cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DMEGACO_TESTS=OFF -DMEGACO_PGO=ON >/dev/null
fi
cmake --build build-release -j"$(nproc 2>/dev/null || echo 2)" --target megaco-loop >/dev/null
files=(corpus/"$enc"/*)
count() {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		build-release/tools/megaco-loop $nr "$enc" "$op" "$1" "${files[@]}" 2>&1 |
		sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
one=$(count 1)
eleven=$(count 11)
echo "$enc $op${nr:+ $nr}: $(( (eleven - one) / (10 * ${#files[@]}) )) instructions per message (${#files[@]} messages)"
