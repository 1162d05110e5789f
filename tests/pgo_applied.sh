#!/usr/bin/env bash
# A profile-guided build (MEGACO_PGO=ON, cmake/Pgo.cmake) must really have
# compiled the library with its profile. GCC then puts the functions the
# profile shows hot into a .text.hot section (.text.hot.NAME with
# -ffunction-sections), which a plain build's objects
# do not have. Checked: each codec module's object has one, and the
# generated parser's and scanners' entry points are in theirs. (A library
# function left without a profile is caught when the build compiles it:
# -Wmissing-profile, an error with MEGACO_WERROR.)
#
#   pgo_applied.sh READELF OBJECT...    (the objects of megaco_core)
set -euo pipefail
readelf=$1
shift
declare -A obj
for o in "$@"; do
	obj[$(basename "$o")]=$o
done
fail=0

hot_indices() { # object: the indices of its hot sections (.text.hot, or
	# .text.hot.FUNCTION when it is compiled a section per function), one a line
	"$readelf" -SW "$1" | sed -n 's/^ *\[ *\([0-9]*\)\] \.text\.hot[ .].*/\1/p'
}

check() { # object-file-name [function]: the object (and function) is hot
	local f=${obj[$1]:-} idx
	if [[ -z $f ]]; then
		echo "FAIL: no object $1 among the library's"
		fail=1
		return
	fi
	idx=$(hot_indices "$f" | paste -sd ' ')
	if [[ -z $idx ]]; then
		echo "FAIL: $1 has no .text.hot section: compiled without its profile?"
		fail=1
	elif [[ -n ${2:-} ]] && ! "$readelf" -sW "$f" |
		awk -v h=" $idx " -v fn="$2" '$4 == "FUNC" && index(h, " " $7 " ") && $8 == fn { ok = 1 } END { exit !ok }'; then
		echo "FAIL: $2 is not in $1's .text.hot section"
		fail=1
	else
		echo "ok: $1${2:+ $2}"
	fi
}

for m in arena text_build text_encode ber_reader der_writer per_reader per_writer; do
	check "$m.c.o"
done
check megaco_parse.c.o text_yyparse
check text_scan_re.c.o text_re_lex
check text_scan_nr.c.o text_nr_lex
exit $fail
