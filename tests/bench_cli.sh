#!/usr/bin/env bash
# megaco-bench's command line: every bad option or value is refused with
# exit status 2 and a message naming it, before any corpus is read or any
# row timed (a mistyped --svg path used to fail only after the whole run).
# usage: bench_cli.sh MEGACO_BENCH
set -u
bench=$1
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
fail() { echo "FAIL $*"; fail=$((fail + 1)); }

# expect STATUS PATTERN ARGS...: status and a stderr line matching PATTERN.
# A missing corpus makes any run that gets past the options fail with a
# different message, so none of these can pass by timing something.
expect() {
	local want=$1 pattern=$2 rc
	shift 2
	n=$((n + 1))
	"$bench" --corpus "$tmp/no-corpus" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		fail "$*: exit status $rc, not $want: $(head -3 "$tmp/err")"
	elif ! grep -q -e "$pattern" "$tmp/err"; then
		fail "$*: stderr lacks '$pattern': $(head -3 "$tmp/err")"
	fi
}

expect 2 "unknown option '--bogus'" --bogus
expect 2 "unknown option '-x'" -x
expect 2 "option '--repeat' needs a value" --repeat
expect 2 "option '--compare-erlang' takes no value" --compare-erlang=yes
expect 2 "unexpected argument 'extra'" extra
expect 2 "unknown codec 'foo'" --codecs foo
expect 2 "unknown codec ''" --codecs pretty,,ber
expect 2 "selects no row without --compare-erlang" --codecs erl_dist
expect 2 "--repeat wants a whole number" --repeat -1
expect 2 "--repeat wants a whole number" --repeat 2x
expect 2 "--threads wants a whole number" --threads 0
expect 2 "--min-time wants seconds" --min-time abc
expect 2 "--min-time wants seconds" --min-time -0.5
expect 2 "--min-time wants seconds" --min-time inf
expect 2 "--clock is wall or cpu" --clock tsc
expect 2 "--format is table" --format xml
expect 2 "--svg /no/such/dir/x.svg: No such file or directory" --svg /no/such/dir/x.svg
expect 2 "--output $tmp: Is a directory" --output "$tmp"
expect 2 "--threads needs the wall clock" --threads 2 --clock cpu
# With good options the run gets as far as the (missing) corpus.
expect 2 "no-corpus" --codecs ber,per --repeat 2 --min-time 0.5 --svg "$tmp/x.svg"

n=$((n + 1))
"$bench" --version >"$tmp/out" 2>&1 && grep -Eq '^megaco-bench \(libmegaco\) [0-9]+\.[0-9]+\.[0-9]+' "$tmp/out" ||
	fail "--version printed: $(cat "$tmp/out")"
n=$((n + 1))
"$bench" --help >"$tmp/out" 2>&1 && grep -q -- '--codecs LIST' "$tmp/out" || fail "--help printed: $(head -3 "$tmp/out")"

echo "$((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
