#!/usr/bin/env bash
# megaco-conv over the corpus: every message from each of the five encodings
# to each of the five, one megaco-conv run per pair (-o DIR FILE...). Binary
# outputs must equal the reference vectors; text outputs must convert back to
# the reference BER. Then the command line itself: exit statuses and error
# text on bad input and bad options, one-file mode, --version.
# usage: conv_cli.sh MEGACO_CONV CORPUS_DIR [SIZEOF_LONG]
set -u
conv=$1 corpus=$2 long_bytes=${3:-8}
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
encs=(pretty compact ber per aper)
fail() { echo "FAIL $*"; fail=$((fail + 1)); }

names=()
for f in "$corpus"/ber/*; do names+=("${f##*/}"); done

# Compares DIR/NAME with REF/NAME for every name, with one checksum run per
# side; each message that differs or is missing is one failure, or with
# KNOWN set only listed as a known difference (and the count printed).
same_as() { # LABEL DIR REF [KNOWN]
	local -A want=() got=()
	local sum name known=()
	while read -r sum name; do want[$name]=$sum; done < <(cd "$3" && sha256sum -- "${names[@]}")
	while read -r sum name; do got[$name]=$sum; done < <(cd "$2" && sha256sum -- "${names[@]}" 2>/dev/null)
	for name in "${names[@]}"; do
		n=$((n + 1))
		if [ "${got[$name]-}" != "${want[$name]}" ]; then
			if [ -n "${4-}" ] && [ -n "${got[$name]-}" ]; then known+=("$name"); else fail "$name $1 differs from $3"; fi
		fi
	done
	if ((${#known[@]})); then
		echo "known: ${#known[@]} messages $1 differ from $3 (${known[*]}): $4"
	fi
}

for from in "${encs[@]}"; do
	inputs=("${names[@]/#/$corpus/$from/}")
	for to in "${encs[@]}"; do
		out=$tmp/$from.$to
		mkdir "$out"
		"$conv" --from "$from" --to "$to" -o "$out" "${inputs[@]}" 2>"$tmp/err" ||
			fail "$from->$to: $(head -3 "$tmp/err")"
		case $to in
		ber|per|aper) same_as "$from->$to" "$out" "$corpus/$to" ;;
		*)
			mkdir "$out.ber"
			"$conv" --from "$to" --to ber -o "$out.ber" "${names[@]/#/$out/}" 2>"$tmp/err" ||
				fail "$from->$to->ber: $(head -3 "$tmp/err")"
			same_as "$from->$to->ber" "$out.ber" "$corpus/ber" ;;
		esac
	done
done

# asn1c's own codecs (--engine asn1c) give the same binary bytes, except
# asn1c's DER where long has 32 bits: asn1c 0.9.28's NativeInteger_encode_der
# writes unsigned values over 2^31-1 (contextId $) as negative there, a
# defect test_der_writer and test_engine allow for too. asn1c's PER is the v3
# module's: the version 1 messages whose per/ vector follows the v1 module
# (the manifest's notes say so) are refused, not converted (docs/aper.md).
all_names=("${names[@]}")
v1_per=($(awk '/- name:/ { name = $3 } /notes:.*per vector follows the v1 module/ { print name }' \
	"$corpus/manifest.yaml"))
n=$((n + 1))
((${#v1_per[@]})) || fail "no per/ vector follows the v1 module in the manifest"
for enc in ber per; do
	names=("${all_names[@]}")
	if [ "$enc" = per ]; then
		names=($(printf '%s\n' "${names[@]}" | grep -vxF -f <(printf '%s\n' "${v1_per[@]}")))
	fi
	out=$tmp/asn1c.$enc
	mkdir "$out"
	"$conv" --engine asn1c --from "$enc" --to "$enc" -o "$out" "${names[@]/#/$corpus/$enc/}" 2>"$tmp/err" ||
		fail "--engine asn1c $enc->$enc: $(head -3 "$tmp/err")"
	known=""
	if [ "$enc" = ber ] && [ "$long_bytes" -lt 8 ]; then
		known="asn1c writes unsigned values over 2^31-1 in a $((long_bytes * 8))-bit long as negative"
	fi
	same_as "--engine asn1c $enc->$enc" "$out" "$corpus/$enc" "$known"
done
names=("${all_names[@]}")

# expect STATUS GREP-PATTERN LABEL -- ARGS...: megaco-conv ARGS exits with
# STATUS and its stderr matches the pattern (stdin from $tmp/stdin).
: >"$tmp/stdin"
expect() {
	local want=$1 pattern=$2 label=$3 rc
	shift 4
	n=$((n + 1))
	"$conv" "$@" <"$tmp/stdin" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		fail "$label: exit status $rc, not $want: $(head -3 "$tmp/err")"
	elif [ -n "$pattern" ] && ! grep -q -e "$pattern" "$tmp/err"; then
		fail "$label: stderr lacks '$pattern': $(head -3 "$tmp/err")"
	fi
}

# Text errors carry line:column; binary ones say what went wrong.
printf 'MEGACO/1 [1.2.3.4]\nTransaction = 1 {\n  Context = - { Bogus }\n}\n' >"$tmp/bad.txt"
expect 1 "bad.txt: decode: syntax error at line 3, column 17" "bad text" -- --from pretty --to ber "$tmp/bad.txt"
head -c 20 "$corpus/ber/msg01a" >"$tmp/trunc.ber"
expect 1 "truncated" "truncated BER" -- --from ber --to pretty "$tmp/trunc.ber"
# Detected input: bytes that are no encoding are "not a Megaco message";
# input that reads as text (a mistyped header too) is a text syntax error.
printf '\177ELF\2\1\1\0\0\0\0\0\0\0\0\0' >"$tmp/elf"
expect 1 "elf: decode: not a Megaco message" "ELF header" -- "$tmp/elf"
printf 'hello world\n' >"$tmp/hello"
expect 1 "hello: decode: syntax error at line 1, column 1" "hello world" -- "$tmp/hello"
sed '1s/MEGACO/MEGCAO/' "$corpus/pretty/msg01a" >"$tmp/typo"
expect 1 "typo: decode: syntax error at line 1, column 1: found 'MEGCAO/1'" "mistyped header" -- "$tmp/typo"

# A bad file among good ones: the others are still converted, status 1.
mkdir "$tmp/mixed"
expect 1 "bad.txt: decode: syntax error" "bad file among good" -- --to ber -o "$tmp/mixed" \
	"$corpus/pretty/msg01a" "$tmp/bad.txt" "$corpus/compact/msg01b"
for m in msg01a msg01b; do
	n=$((n + 1))
	cmp -s "$tmp/mixed/$m" "$corpus/ber/$m" || fail "$m not converted beside a bad file"
done
n=$((n + 1))
[ ! -e "$tmp/mixed/bad.txt" ] || fail "a failed conversion left an output file"

# Options and paths are checked before any conversion.
expect 2 "unknown option '--bogus'" "unknown option" -- --bogus
expect 2 "needs a value" "missing value" -- --to
expect 2 "unknown output encoding 'xml'" "bad --to" -- --to xml
expect 2 "unknown encoding 'bert'" "bad --from" -- --from bert
expect 2 "engine is fast or asn1c, not 'foo'" "--engine foo" -- --engine foo "$corpus/ber/msg01a"
expect 2 "scanner is reentrant or non-reentrant, not 'x'" "--scanner x" -- --scanner x "$corpus/pretty/msg01a"
expect 2 "--max-size wants" "--max-size abc" -- --max-size abc "$corpus/ber/msg01a"
expect 2 "--max-size wants" "--max-size -5" -- --max-size -5 "$corpus/ber/msg01a"
expect 2 "bad layout" "--layout 8/8/" -- --layout 8/8/ "$corpus/pretty/msg01a"
expect 2 "No such file or directory" "missing -o DIR" -- -o "$tmp/none" "$corpus/ber/msg01a"
expect 2 "would both be written" "same name twice" -- -o "$tmp/mixed" "$corpus/ber/msg01a" "$corpus/per/msg01a"
expect 2 "No such file or directory" "unwritable OUT" -- "$corpus/ber/msg01a" "$tmp/none/x"
expect 2 "use -o DIR" "three operands" -- "$corpus/ber/msg01a" "$corpus/ber/msg01b" "$tmp/x"
expect 1 "too large" "--max-size 10" -- --max-size 10 "$corpus/ber/msg01a"
# asn1c has no aligned PER: a codec error, not UPER bytes.
expect 1 "no aligned PER" "--engine asn1c --from aper" -- --engine asn1c --from aper "$corpus/aper/msg01a"
expect 1 "no aligned PER" "--engine asn1c --to aper" -- --engine asn1c --to aper "$corpus/ber/msg01a" "$tmp/x.aper"
for v in "${v1_per[@]}"; do
	expect 1 "has the v3 module only" "--engine asn1c --from per $v" -- --engine asn1c --from per --to ber "$corpus/per/$v" "$tmp/x.ber"
	expect 1 "has the v3 module only" "--engine asn1c --to per $v" -- --engine asn1c --from ber --to per "$corpus/ber/$v" "$tmp/x.per"
done

# One-file mode: IN OUT, and stdin to stdout.
expect 0 "" "IN OUT" -- --to per "$corpus/pretty/msg03" "$tmp/one.per"
n=$((n + 1))
cmp -s "$tmp/one.per" "$corpus/per/msg03" || fail "IN OUT: output differs from corpus/per/msg03"
cp "$corpus/compact/msg03" "$tmp/stdin"
expect 0 "" "stdin to stdout" -- --to ber
n=$((n + 1))
cmp -s "$tmp/out" "$corpus/ber/msg03" || fail "stdin to stdout: output differs from corpus/ber/msg03"

expect 0 "" "--version" -- --version
n=$((n + 1))
grep -Eq '^megaco-conv \(libmegaco\) [0-9]+\.[0-9]+\.[0-9]+' "$tmp/out" || fail "--version printed: $(cat "$tmp/out")"

# Binary output to a terminal is refused unless forced (script(1) gives the tty).
if command -v script >/dev/null; then
	n=$((n + 2))
	script -qec "'$conv' --to ber '$corpus/pretty/msg01a'" /dev/null >"$tmp/tty" 2>&1 &&
		fail "BER written to a terminal: $(head -c 200 "$tmp/tty")"
	grep -q "not writing ber to a terminal" "$tmp/tty" || fail "terminal refusal says: $(head -c 200 "$tmp/tty")"
	script -qec "'$conv' --force --to ber '$corpus/pretty/msg01a'" /dev/null >/dev/null 2>&1 ||
		fail "--force did not write BER to a terminal"
else
	echo "skipped: the terminal checks need script(1) (util-linux), not installed"
fi

echo "$((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
