#!/usr/bin/env bash
# Installs the build into a scratch prefix and builds a small application
# against it the two ways users do: pkg-config (shared and --static) and
# CMake's find_package. Each binary must decode a corpus BER message and
# print it as compact text. usage: install_consumer.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1 src=$2
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig:$prefix/lib/x86_64-linux-gnu/pkgconfig
sample=$src/corpus/ber/msg03
want=$(head -c 2 "$src/corpus/compact/msg03")   # "!/"
cc -std=c11 -Wall -Wextra -Werror -o "$tmp/pc_shared" "$src/tests/consumer/consumer.c" $(pkg-config --cflags --libs megaco)
LD_LIBRARY_PATH=$(pkg-config --variable=libdir megaco) "$tmp/pc_shared" "$sample" | grep -q "^v1 $want"
cc -std=c11 -Wall -Wextra -Werror -static-libgcc -o "$tmp/pc_static" "$src/tests/consumer/consumer.c" \
	$(pkg-config --cflags megaco) "$(pkg-config --variable=libdir megaco)/libmegaco.a" $(pkg-config --libs-only-l --static megaco | sed 's/-lmegaco//')
"$tmp/pc_static" "$sample" | grep -q "^v1 $want"
# The model is <megaco/model.h>: no directory of ours but include/ on an
# application's include path, and no asn1c header installed.
if pkg-config --cflags megaco | grep -q asn1; then echo "pkg-config --cflags adds an asn1 directory" >&2; exit 1; fi
if [ -e "$prefix/include/megaco/asn1" ]; then echo "asn1c's headers are installed" >&2; exit 1; fi
cmake -S "$src/tests/consumer" -B "$tmp/cm" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
grep -q "MEGACO_VERSION_NUM" "$prefix/include/megaco/version.h"
# find_package(megaco 0.1) found this 0.1.z tree above; a 0.2 or 1.0 request must not.
for v in 0.2 1.0; do
	if cmake -S "$src/tests/consumer" -B "$tmp/cm$v" -DCMAKE_PREFIX_PATH="$prefix" -DMEGACO_WANT=$v >/dev/null 2>&1; then
		echo "find_package(megaco $v) accepted a $(pkg-config --modversion megaco) tree" >&2; exit 1
	fi
done
cmake --build "$tmp/cm" >/dev/null
LD_LIBRARY_PATH=$(pkg-config --variable=libdir megaco) "$tmp/cm/consumer_shared" "$sample" | grep -q "^v1 $want"
"$tmp/cm/consumer_static" "$sample" | grep -q "^v1 $want"
# The installed megaco-bench runs over the installed corpus (not the source
# tree's it was built from, which still exists here) and finds the escript.
n=4
if [ -x "$prefix/bin/megaco-bench" ]; then
	out=$("$prefix/bin/megaco-bench" --min-time 0.0001 --codecs ber --messages msg03)
	printf '%s\n' "$out" | grep -q "^# corpus  *$(realpath "$prefix")/share/megaco/corpus,"
	printf '%s\n' "$out" | grep -q "^ber  *1 "
	cp -a "$prefix" "$tmp/moved" # a tree moved after installing finds its own too
	"$tmp/moved/bin/megaco-bench" --min-time 0.0001 --codecs ber --messages msg03 |
		grep -q "^# corpus  *$(realpath "$tmp/moved")/share/megaco/corpus,"
	[ -r "$prefix/share/megaco/megaco-bench.escript" ]
	n=5
fi
echo "$n passed, 0 failed"
