#!/usr/bin/env bash
# The man pages: mandoc finds nothing to warn about, and each page names
# every long option its tool's --help lists (so neither falls behind).
# usage: man_pages.sh MANDOC MAN_DIR TOOL...
set -u
mandoc=$1 mandir=$2
shift 2
fail=0
"$mandoc" -T lint -W warning "$mandir"/*.1 || { echo "FAIL mandoc -T lint"; fail=1; }
for tool in "$@"; do
	name=${tool##*/}
	page=$mandir/$name.1
	[ -f "$page" ] || { echo "FAIL no man page $page"; fail=1; continue; }
	text=$("$mandoc" -T ascii "$page" | sed "s/.\x08//g")
	opts=$("$tool" --help | grep -o -- '--[a-z][a-z-]*' | sort -u)
	[ -n "$opts" ] || { echo "FAIL $name --help lists no options"; fail=1; }
	for o in $opts; do
		grep -q -- "$o" <<<"$text" || { echo "FAIL $page lacks $o"; fail=1; }
	done
done
[ "$fail" -eq 0 ] && echo "man pages lint clean and list every option"
exit "$fail"
