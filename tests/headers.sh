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
[ "$n" -gt 100 ] || { echo "only $n headers installed under $inc/megaco" >&2; exit 1; }
cd "$tmp/c"
"$cc" -std=c99 -fsyntax-only -I"$inc" h*.c
"$cc" -std=c11 -Wall -Wextra -pedantic -Werror -fsyntax-only -I"$inc" h*.c
if [ -n "$cxx" ]; then
	"$cxx" -x c++ -Wall -Wextra -pedantic -Werror -fsyntax-only -I"$inc" h*.c
	echo "$n headers compile alone as C99, C11 -pedantic -Werror and C++"
else
	echo "$n headers compile alone as C99 and C11 -pedantic -Werror (C++: no compiler found)"
fi
