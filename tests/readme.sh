#!/usr/bin/env bash
# README.md stays a front page that works as written: at most 12 KB; its C
# code is one of examples/ (which the suite builds and runs) word for word;
# its tool commands run (from a scratch directory holding the corpus); the
# repository paths and -DMEGACO_* options it names exist.
# usage: readme.sh SOURCE_DIR TOOLS_DIR
set -u
src=$(cd "$1" && pwd) tools=$(cd "$2" && pwd)
readme=$src/README.md
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
fail=0
fail() { echo "FAIL $*"; fail=$((fail + 1)); }

size=$(wc -c <"$readme")
[ "$size" -le 12288 ] || fail "README.md is $size bytes, over 12 KB"

# Fenced blocks, one file each: $tmp/block.N.LANG
awk -v dir="$tmp" '
	/^```/ && !inside { inside = 1; n++; lang = substr($0, 4); if (lang == "") lang = "none"; file = dir "/block." n "." lang; printf "" > file; next }
	/^```/ && inside { inside = 0; close(file); next }
	inside { print > file }
' "$readme"

nc=0
for block in "$tmp"/block.*.c; do
	[ -e "$block" ] || break
	nc=$((nc + 1))
	match=
	for ex in "$src"/examples/*.c; do
		cmp -s "$block" "$ex" && match=$ex
	done
	[ -n "$match" ] || fail "a C block of README.md is not one of examples/*.c word for word: $(head -3 "$block")"
done
[ "$nc" -gt 0 ] || fail "README.md has no C example"

# Shell blocks that use the tools (not the set-up ones) run as written.
mkdir "$tmp/run" && ln -s "$src/corpus" "$tmp/run/corpus"
nsh=0
for block in "$tmp"/block.*.sh; do
	[ -e "$block" ] || break
	grep -Eq 'apt-get|cmake|scripts/' "$block" && continue
	nsh=$((nsh + 1))
	(cd "$tmp/run" && PATH=$tools:$PATH bash -e "$block") >"$tmp/out" 2>&1 ||
		fail "README.md commands failed: $(tail -3 "$tmp/out")"
done
[ "$nsh" -gt 0 ] || fail "README.md shows no tool commands"

# Paths it names exist; options it names are defined.
for p in $(grep -o '`[a-z]*/[A-Za-z0-9_./-]*`' "$readme" | tr -d '`' | sort -u); do
	case $p in
	docs/* | examples/* | scripts/* | cmake/* | corpus/* | man/* | grammar/* | tools/* | include/* | data/* | tests/*)
		[ -e "$src/$p" ] || fail "README.md names $p, which does not exist" ;;
	esac
done
for o in $(grep -o -- '-DMEGACO_[A-Z_]*' "$readme" | sort -u); do
	grep -rqs -- "${o#-D}" "$src/CMakeLists.txt" "$src/cmake" || fail "README.md names $o, which no CMake file defines"
done

echo "README.md: $size bytes, $nc C block(s) from examples/, $nsh command block(s) run; $fail failure(s)"
[ "$fail" -eq 0 ]
