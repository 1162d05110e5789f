#!/usr/bin/env bash
# The command lines of the tools that time or count (megaco-bench, and
# megaco-loop and megaco-ab behind scripts/count-instructions.sh and build
# comparisons): --help and --version, and every bad option or value refused
# with exit status 2 and a message naming it, before any corpus is read, row
# timed or library loaded (a mistyped --svg path used to fail only after the
# whole run).
# usage: tool_cli.sh MEGACO_BENCH MEGACO_LOOP MEGACO_AB CORPUS_DIR
set -u
bench=$1 loop=$2 ab=$3 corpus=$4
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
fail() { echo "FAIL $*"; fail=$((fail + 1)); }

# expect STATUS PATTERN COMMAND...: status and a stderr line matching PATTERN.
expect() {
	local want=$1 pattern=$2 rc
	shift 2
	n=$((n + 1))
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		fail "$*: exit status $rc, not $want: $(head -3 "$tmp/err")"
	elif ! grep -q -e "$pattern" "$tmp/err"; then
		fail "$*: stderr lacks '$pattern': $(head -3 "$tmp/err")"
	fi
}

# megaco-bench: a missing corpus makes any run that gets past the options
# fail with a different message, so none of these can pass by timing something.
b=("$bench" --corpus "$tmp/no-corpus")
expect 2 "unknown option '--bogus'" "${b[@]}" --bogus
expect 2 "unknown option '-x'" "${b[@]}" -x
expect 2 "option '--repeat' needs a value" "${b[@]}" --repeat
expect 2 "option '--compare-erlang' takes no value" "${b[@]}" --compare-erlang=yes
expect 2 "unexpected argument 'extra'" "${b[@]}" extra
expect 2 "unknown codec 'foo'" "${b[@]}" --codecs foo
expect 2 "unknown codec ''" "${b[@]}" --codecs pretty,,ber
expect 2 "selects no row without --compare-erlang" "${b[@]}" --codecs erl_dist
expect 2 "--repeat wants a whole number" "${b[@]}" --repeat -1
expect 2 "--repeat wants a whole number" "${b[@]}" --repeat 2x
expect 2 "--threads wants a whole number" "${b[@]}" --threads 0
expect 2 "--min-time wants seconds" "${b[@]}" --min-time abc
expect 2 "--min-time wants seconds" "${b[@]}" --min-time -0.5
expect 2 "--min-time wants seconds" "${b[@]}" --min-time inf
expect 2 "--clock is wall or cpu" "${b[@]}" --clock tsc
expect 2 "--format is table" "${b[@]}" --format xml
expect 2 "--svg /no/such/dir/x.svg: No such file or directory" "${b[@]}" --svg /no/such/dir/x.svg
expect 2 "--output $tmp: Is a directory" "${b[@]}" --output "$tmp"
expect 2 "--threads needs the wall clock" "${b[@]}" --threads 2 --clock cpu
# With good options the run gets as far as the (missing) corpus.
expect 2 "no-corpus" "${b[@]}" --codecs ber,per --repeat 2 --min-time 0.5 --svg "$tmp/x.svg"

# megaco-loop and megaco-ab
f=$corpus/compact/msg01a
expect 2 "unknown option '--bogus'" "$loop" --bogus compact dec 1 "$f"
expect 2 "unknown option '-x'" "$loop" -x compact dec 1 "$f"
expect 2 "option '--non-reentrant' takes no value" "$loop" --non-reentrant=1 compact dec 1 "$f"
expect 2 "unknown encoding 'xer'" "$loop" xer dec 1 "$f"
expect 2 "unknown encoding 'auto'" "$loop" auto dec 1 "$f"
expect 2 "the operation is dec, enc or scan, not 'run'" "$loop" compact run 1 "$f"
expect 2 "ROUNDS wants a whole number" "$loop" compact dec 1x "$f"
expect 2 "ROUNDS wants a whole number" "$loop" compact dec ' 1' "$f"
expect 2 "scan is for the text encodings" "$loop" ber scan 1 "$corpus/ber/msg01a"
expect 2 "needs ENCODING" "$loop" compact dec 1
expect 1 "cannot read $tmp/none" "$loop" compact dec 1 "$tmp/none"

so=$tmp/none.so # never loaded: every error below comes first
expect 2 "unknown option '--rounds'" "$ab" --rounds 3 "$so" "$so" compact dec 1 "$f"
expect 2 "the operation is dec or enc, not 'scan'" "$ab" "$so" "$so" compact scan 1 "$f"
expect 2 "ROUNDS wants a whole number 1..1000000" "$ab" "$so" "$so" compact dec 0 "$f"
expect 2 "ROUNDS wants a whole number" "$ab" "$so" "$so" compact dec many "$f"
expect 2 "needs A.so, B.so" "$ab" "$so" "$so" compact dec 1
expect 2 "none.so" "$ab" "$so" "$so" compact dec 1 "$f"

for t in "$bench:megaco-bench:--codecs LIST" "$loop:megaco-loop:--non-reentrant" "$ab:megaco-ab:ROUNDS"; do
	IFS=: read -r bin name opt <<<"$t"
	n=$((n + 2))
	"$bin" --version >"$tmp/out" 2>&1 && grep -Eq "^$name \(libmegaco\) [0-9]+\.[0-9]+\.[0-9]+$" "$tmp/out" ||
		fail "$name --version printed: $(cat "$tmp/out")"
	"$bin" --help >"$tmp/out" 2>"$tmp/err" && grep -q -- "$opt" "$tmp/out" && [ ! -s "$tmp/err" ] ||
		fail "$name --help printed: $(head -3 "$tmp/out" "$tmp/err")"
done

echo "$((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
