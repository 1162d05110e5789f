#!/usr/bin/env bash
# megaco-conv over the corpus: every message from each of the four encodings
# to each of the four. Binary outputs must equal the reference vectors; text
# outputs must convert back to the reference BER. Also checks exit statuses
# and error text on bad input.
# usage: conv_cli.sh MEGACO_CONV CORPUS_DIR [STRIDE]
# STRIDE k > 1 converts only every k-th message (sanitizer builds, whose
# process starts are slow); the error checks always run.
set -u
conv=$1 corpus=$2 stride=${3:-1}
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
fail=0 n=0 i=0
encs=(pretty compact ber per)
for f in "$corpus"/ber/*; do
	name=${f##*/}
	i=$((i + 1))
	(((i - 1) % stride == 0)) || continue
	for from in "${encs[@]}"; do
		for to in "${encs[@]}"; do
			n=$((n + 1))
			out="$tmp/$name.$from.$to"
			if ! "$conv" --from "$from" --to "$to" "$corpus/$from/$name" "$out" 2>"$tmp/err"; then
				echo "FAIL $name $from->$to: $(cat "$tmp/err")"; fail=$((fail + 1)); continue
			fi
			case $to in
			ber|per) cmp -s "$out" "$corpus/$to/$name" || { echo "FAIL $name $from->$to differs from corpus/$to"; fail=$((fail + 1)); } ;;
			*) "$conv" --from "$to" --to ber "$out" "$out.ber" 2>"$tmp/err" && cmp -s "$out.ber" "$corpus/ber/$name" ||
				{ echo "FAIL $name $from->$to->ber differs: $(cat "$tmp/err")"; fail=$((fail + 1)); } ;;
			esac
		done
	done
done
# Errors: non-zero status and the library's text, with line:col for text.
printf 'MEGACO/1 [1.2.3.4]\nTransaction = 1 {\n  Context = - { Bogus }\n}\n' >"$tmp/bad.txt"
n=$((n + 1))
if "$conv" --from pretty --to ber "$tmp/bad.txt" >/dev/null 2>"$tmp/err"; then
	echo "FAIL bad text accepted"; fail=$((fail + 1))
elif ! grep -q "syntax error at line 3, column" "$tmp/err"; then
	echo "FAIL bad text error lacks line:column: $(cat "$tmp/err")"; fail=$((fail + 1))
fi
n=$((n + 1))
head -c 20 "$corpus/ber/msg01a" >"$tmp/trunc.ber"
if "$conv" --from ber --to pretty "$tmp/trunc.ber" >/dev/null 2>"$tmp/err" || ! grep -q "truncated" "$tmp/err"; then
	echo "FAIL truncated BER: $(cat "$tmp/err")"; fail=$((fail + 1))
fi
echo "$((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
