#!/usr/bin/env bash
# Runs one program of examples/ and checks what it does against the corpus
# and megaco-conv (no output is written down here: every expectation comes
# from another path through the library).
# usage: examples.sh NAME EXAMPLE_BINARY CORPUS_DIR MEGACO_CONV
set -u
name=$1 ex=$2 corpus=$3 conv=$4
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
fail() { echo "FAIL $name: $*"; fail=$((fail + 1)); }
check() { n=$((n + 1)); "$@"; }

case $name in
transcode)
	# Each encoding to each binary one gives the reference vector.
	for from in pretty compact ber per; do
		for to in ber per; do
			n=$((n + 1))
			"$ex" "$to" "$corpus/$from/msg03" >"$tmp/out" 2>"$tmp/err" &&
				cmp -s "$tmp/out" "$corpus/$to/msg03" ||
				fail "$from -> $to differs from corpus/$to/msg03: $(cat "$tmp/err")"
		done
	done
	# Text out: the same bytes as megaco-conv writes.
	n=$((n + 1))
	"$ex" compact "$corpus/per/msg05" >"$tmp/out" && "$conv" --to compact "$corpus/per/msg05" >"$tmp/want" &&
		cmp -s "$tmp/out" "$tmp/want" || fail "per -> compact differs from megaco-conv's"
	printf 'MEGACO/1 [1.2.3.4]\nTransaction = 1 {\n  Context = - { Bogus }\n}\n' >"$tmp/bad"
	n=$((n + 1))
	"$ex" ber "$tmp/bad" >/dev/null 2>"$tmp/err" && fail "bad text accepted"
	grep -q "syntax error (line 3, column 17" "$tmp/err" || fail "bad text reported as: $(cat "$tmp/err")"
	;;
decode_fields)
	# One message in four encodings prints the same fields; the encoding
	# line names the encoding; the IDs are those of the text.
	for msg in msg01a msg04 msg12 msg71b01; do
		for enc in pretty compact ber per; do
			n=$((n + 1))
			"$ex" "$corpus/$enc/$msg" >"$tmp/$enc" 2>"$tmp/err" || { fail "$enc/$msg: $(cat "$tmp/err")"; continue; }
			head -1 "$tmp/$enc" | grep -q "^encoding $enc, version [1-3]$" ||
				fail "$enc/$msg: first line $(head -1 "$tmp/$enc")"
			[ "$enc" = pretty ] || cmp -s <(tail -n +2 "$tmp/pretty") <(tail -n +2 "$tmp/$enc") ||
				fail "$msg: $enc prints other fields than pretty"
		done
		n=$((n + 1))
		tid=$(grep -o 'T=[0-9]*' "$corpus/compact/$msg" | head -1)
		ctx=$(grep -o 'C=[0-9$*-]*' "$corpus/compact/$msg" | head -1)
		grep -q "^transaction ${tid#T=}: " "$tmp/pretty" && grep -q "^  context ${ctx#C=}$" "$tmp/pretty" ||
			fail "$msg: transaction ${tid#T=} / context ${ctx#C=} not printed: $(head -4 "$tmp/pretty")"
	done
	# Several files in one run print what each prints alone, in order; a
	# file that fails is reported and the others still printed.
	n=$((n + 1))
	"$ex" "$corpus/ber/msg04" "$tmp/none" "$corpus/per/msg12" >"$tmp/many" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 2 ] && grep -q "none: unreadable" "$tmp/err" &&
		cmp -s "$tmp/many" <("$ex" "$corpus/ber/msg04"; "$ex" "$corpus/per/msg12") ||
		fail "three files (one missing): exit status $rc, $(head -2 "$tmp/err")"
	n=$((n + 1))
	printf '\177ELF\2\1\1\0\0\0\0\0\0\0\0\0' >"$tmp/elf"
	"$ex" "$tmp/elf" >/dev/null 2>"$tmp/err" && fail "an ELF header decoded"
	grep -q "not a Megaco message" "$tmp/err" || fail "ELF header reported as: $(cat "$tmp/err")"
	;;
service_change)
	# The two encodings it writes are one message: megaco-conv turns each
	# into the other byte for byte, and the text is a ServiceChange.
	n=$((n + 3))
	"$ex" "$tmp/sc.txt" "$tmp/sc.ber" || fail "exit status $?"
	"$conv" --from ber --to pretty "$tmp/sc.ber" "$tmp/back.txt" && cmp -s "$tmp/back.txt" "$tmp/sc.txt" ||
		fail "its BER decodes to other text than it wrote"
	"$conv" --from pretty --to ber "$tmp/sc.txt" "$tmp/back.ber" && cmp -s "$tmp/back.ber" "$tmp/sc.ber" ||
		fail "its text encodes to other BER than it wrote"
	n=$((n + 1))
	grep -q "ServiceChange = ROOT" "$tmp/sc.txt" && grep -q "Method = Restart" "$tmp/sc.txt" ||
		fail "text lacks the ServiceChange: $(cat "$tmp/sc.txt")"
	n=$((n + 1))
	"$ex" >"$tmp/stdout" && head -c "$(stat -c %s "$tmp/sc.txt")" "$tmp/stdout" | cmp -s - "$tmp/sc.txt" ||
		fail "stdout does not start with the text it writes to a file"
	;;
vendor_package)
	n=$((n + 3))
	"$ex" >"$tmp/out" 2>"$tmp/err" || fail "exit status $?: $(cat "$tmp/err")"
	grep -q "^without the package: name has no mapping" "$tmp/out" ||
		fail "the built-in registry mapped vend/mode: $(head -2 "$tmp/out")"
	# Names come back from BER only through the registered package (else
	# they print as xfe01/x0001).
	grep -q "vend/mode=2" "$tmp/out" && grep -q "vend/hook{side=1}" "$tmp/out" ||
		fail "vendor names not mapped back: $(tail -3 "$tmp/out")"
	# A message without vendor names encodes with or without it.
	n=$((n + 1))
	"$ex" "$corpus/pretty/msg03" >"$tmp/out" 2>"$tmp/err" && grep -q "^without the package: encoded" "$tmp/out" ||
		fail "msg03: $(head -2 "$tmp/out") $(cat "$tmp/err")"
	;;
*)
	echo "examples.sh: no checks for $name"
	exit 1
	;;
esac
echo "$name: $((n - fail)) checks passed, $fail failed"
[ "$fail" -eq 0 ]
