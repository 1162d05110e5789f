#!/usr/bin/env bash
# ctest cross_outputs (cross builds): codec_outputs, run under the emulator,
# lists every corpus message's decode and encodes; the listing must equal the
# one a native build wrote, byte for byte (every output of every encoding and
# direction, every error status and position).
# usage: cross_outputs.sh CODEC_OUTPUTS CORPUS_DIR OUT NATIVE_LISTING
set -u
tool=$1 corpus=$2 out=$3 ref=${4:-}
if [ -z "$ref" ]; then
	echo "skipped: no native listing to compare with; configure with -DMEGACO_REFERENCE_OUTPUTS=<native build>/tests/codec_outputs.txt (scripts/test.sh does)"
	exit 77
fi
[ -r "$ref" ] || { echo "FAIL native listing $ref not found"; exit 1; }
"$tool" "$corpus" "$out" || { echo "FAIL codec_outputs exited with $?"; exit 1; }
if ! cmp -s "$ref" "$out"; then
	echo "FAIL $(diff "$ref" "$out" | grep -c '^>') of $(wc -l <"$ref") lines differ from the native build's; first ones (< native, > this build):"
	diff "$ref" "$out" | head -20 | cut -c1-200
	exit 1
fi
echo "$(wc -l <"$out") lines equal to the native build's listing"
