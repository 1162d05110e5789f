#!/usr/bin/env bash
# grammar/lean-lalr.m4 keeps only the left-hand side's own member of $$, so
# it must refuse $<tag>$ with another tag at bison time rather than drop the
# value. Two small grammars: one with the symbol's own tag (bison accepts
# it) and one with another (bison fails, naming the tag).
# Also: yacc.c's own parser file, which the skeleton discards, goes beside
# the output. It once went to /dev/null, and bison deletes the files it was
# writing when it fails: run as root, the refused grammar deleted /dev/null.
#
#   lean_skeleton.sh BISON SKELETON
set -euo pipefail
bison=$1 skeleton=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
grammar() { # $1: the tag the second rule's action uses for $$
	cat <<G
%define api.pure full
%union { long num; void *ptr; }
%token <num> N
%type <num> sum
%code { static int yylex(YYSTYPE *v); static void yyerror(const char *m); }
%%
sum: N { \$\$ = \$1; }
   | sum '+' N { \$<$1>\$ = 0; \$\$ = \$1 + \$3; }
   ;
%%
G
}
grammar num >"$work/own.y"
grammar ptr >"$work/other.y"
"$bison" -Wall -Werror --skeleton="$skeleton" -o "$work/own.c" "$work/own.y"
grep -q 'yyvsp\[1 - 3\]\.num = yyval\.num;' "$work/own.c"
[[ -f $work/own.c.yacc-unused ]] || { echo "yacc.c's parser file is not beside the output" >&2; exit 1; }
null_was_device=0
[[ -c /dev/null ]] && null_was_device=1
if "$bison" -Wall -Werror --skeleton="$skeleton" -o "$work/other.c" "$work/other.y" 2>"$work/err"; then
	echo "lean-lalr.m4 accepted \$<ptr>\$ on a <num> symbol" >&2
	exit 1
fi
grep -q 'ptr>\$ needs the left-hand side' "$work/err" || { cat "$work/err" >&2; exit 1; }
if ((null_was_device)) && [[ ! -c /dev/null ]]; then
	echo "bison's failed run removed /dev/null" >&2
	exit 1
fi
echo "own tag accepted, other tag refused"
