#!/usr/bin/env bash
# Every installed header compiles on its own, as C99, as C11 with
# -Wall -Wextra -pedantic -Werror, and as C++: installs the development
# component into a scratch prefix and compiles one file per header, each
# including only that header (one compiler run per language mode).
# usage: headers.sh BUILD_DIR CC CXX
set -eu
build=$1 cc=$2 cxx=$3
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/p" --component megaco-development >/dev/null
inc=$tmp/p/include
mkdir "$tmp/c"
n=0
while IFS= read -r h; do
	n=$((n + 1))
	# The typedef keeps a header of macros only from being an empty unit.
	printf '#include <%s>\ntypedef int header_check_%d;\n' "$h" "$n" >"$tmp/c/h$n.c"
	echo "$h" >"$tmp/c/h$n.name"
done < <(cd "$inc" && find megaco -name '*.h' | sort)
# The API headers, version.h and the model; asn1c's own headers stay in the
# build tree (docs/abi.md), so nothing lies in a subdirectory.
[ "$n" -ge 8 ] && [ -e "$inc/megaco/model.h" ] && [ -e "$inc/megaco/megaco.h" ] ||
	{ echo "$n headers installed under $inc/megaco, model.h and megaco.h among them?" >&2; exit 1; }
if [ -n "$(cd "$inc" && find megaco -mindepth 2)" ] || [ -n "$(cd "$inc" && ls | grep -vx megaco)" ]; then
	echo "installed beside include/megaco/*.h: $(cd "$inc" && find . -mindepth 1 | grep -v '^./megaco/[^/]*$')" >&2
	exit 1
fi
cd "$tmp/c"
"$cc" -std=c99 -fsyntax-only -I"$inc" h*.c
"$cc" -std=c11 -Wall -Wextra -pedantic -Werror -fsyntax-only -I"$inc" h*.c
if [ -n "$cxx" ]; then
	"$cxx" -x c++ -Wall -Wextra -pedantic -Werror -fsyntax-only -I"$inc" h*.c
	echo "$n headers compile alone as C99, C11 -pedantic -Werror and C++"
else
	echo "$n headers compile alone as C99 and C11 -pedantic -Werror (C++: no compiler found)"
fi
