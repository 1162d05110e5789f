#!/usr/bin/env bash
# The project's test command (README, .ci/run): installs what is missing,
# builds with warnings as errors, runs the whole ctest suite, again with a
# profile-guided library (the benchmark's build), the text decoding tests
# again with bison's yacc.c parse loop, the whole suite without libyaml,
# cross builds for s390x (64-bit big-endian) and armhf (32-bit ARM) with
# the whole suite under qemu-user and their codec output bytes compared with
# this machine's, then the whole suite
# under AddressSanitizer + UndefinedBehaviorSanitizer (and the text tests with
# the parser's stacks growing), and the multi-threaded tests under
# ThreadSanitizer.
#   MEGACO_SKIP_ASAN=1 scripts/test.sh   skip the sanitizer passes (local use)
#   MEGACO_SKIP_CROSS=1 scripts/test.sh  skip the s390x and armhf passes (local use)
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)

echo "== build (warnings are errors) =="
cmake -S . -B build -DMEGACO_WERROR=ON >/dev/null
cmake --build build -j"$jobs"
echo "== tests =="
ctest --test-dir build --output-on-failure -j"$jobs"

# The build scripts/bench.sh times (cmake/Pgo.cmake): Release, trained on the
# corpus. Its optimiser works from different assumptions, so the whole suite
# runs against it too; with warnings as errors, a library object left without
# a profile fails the build, and its ctest pgo_applied checks that the hot
# code was compiled with the profile.
echo "== tests with a profile-guided library (MEGACO_PGO=ON, Release) =="
cmake -S . -B build-pgo -DMEGACO_WERROR=ON -DMEGACO_PGO=ON -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-pgo -j"$jobs"
ctest --test-dir build-pgo --output-on-failure -j"$jobs"

# The text parser's other loop: bison's own yacc.c, what a bison other than
# 3.8 builds (grammar/TextGrammar.cmake). Same tables and actions; the text
# decoding tests must pass with it too.
echo "== text tests with yacc.c's parse loop (MEGACO_LEAN_PARSER=OFF) =="
cmake -S . -B build-yacc -DMEGACO_WERROR=ON -DMEGACO_LEAN_PARSER=OFF >/dev/null
cmake --build build-yacc -j"$jobs" --target test_text_decode test_transcode test_interop
ctest --test-dir build-yacc --output-on-failure -j"$jobs" -R '^(text_decode|transcode|interop)$'

# Without libyaml (MEGACO_YAML=OFF): the built-in package registry is const
# tables compiled in either way, so the whole suite runs, and neither library
# file may refer to libyaml.
echo "== tests without libyaml (MEGACO_YAML=OFF) =="
cmake -S . -B build-noyaml -DMEGACO_WERROR=ON -DMEGACO_YAML=OFF >/dev/null
cmake --build build-noyaml -j"$jobs"
if readelf -d build-noyaml/libmegaco.so | grep -i 'NEEDED.*yaml' ||
	nm -u build-noyaml/libmegaco.a | grep ' yaml_'; then
	echo "libmegaco built with MEGACO_YAML=OFF still needs libyaml" >&2
	exit 1
fi
ctest --test-dir build-noyaml --output-on-failure -j"$jobs"

# Other CPUs (cmake/toolchains/): each cross build compiles exactly the
# code the native one does (its generators run on this machine; no target
# program runs during the build), then ctest runs the whole suite under
# qemu-user (CMAKE_CROSSCOMPILING_EMULATOR; tests say what they skip, and
# the exhaustive mutation tests take a lighter pass, saying what they
# reduce). Its cross_outputs compares every corpus message's decode and its
# encodes to every encoding, made under qemu, with the listing the native
# build writes here: every status, position and output byte must be equal.
if [[ "${MEGACO_SKIP_CROSS:-0}" != 1 ]]; then
	build/tests/codec_outputs corpus build/tests/codec_outputs.txt
	for arch in s390x armhf; do
		echo "== $arch: cross build, whole suite under qemu-user, outputs against x86_64's =="
		start=$SECONDS
		cmake -S . -B "build-$arch" -DMEGACO_WERROR=ON \
			-DCMAKE_TOOLCHAIN_FILE="cmake/toolchains/$arch.cmake" \
			-DMEGACO_REFERENCE_OUTPUTS="$PWD/build/tests/codec_outputs.txt" >/dev/null
		cmake --build "build-$arch" -j"$jobs"
		built=$SECONDS
		ctest --test-dir "build-$arch" --output-on-failure -j"$jobs"
		echo "== $arch: build $((built - start)) s, tests $((SECONDS - built)) s =="
	done
fi

if [[ "${MEGACO_SKIP_ASAN:-0}" != 1 ]]; then
	echo "== tests under ASan + UBSan =="
	cmake -S . -B build-asan -DMEGACO_WERROR=ON -DMEGACO_SANITIZE=ON \
		-DCMAKE_BUILD_TYPE=Debug >/dev/null
	cmake --build build-asan -j"$jobs"
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		ctest --test-dir build-asan --output-on-failure -j"$jobs"

	# No corpus message needs more than the parser's 200 stack entries, so
	# the growth code of grammar/lean-lalr.m4 only runs here: the text tests
	# again with stacks that start at 4 entries, under ASan. The scanner
	# hands over one token per batch here, so every token (the error token,
	# the end) also meets a batch's edge.
	echo "== text tests under ASan + UBSan, parser stacks starting at 4, 1-token batches =="
	cmake -S . -B build-asan-stack -DMEGACO_WERROR=ON -DMEGACO_SANITIZE=ON \
		-DCMAKE_BUILD_TYPE=Debug "-DCMAKE_C_FLAGS=-DYYINITDEPTH=4 -DTEXT_SCAN_BATCH=1" >/dev/null
	cmake --build build-asan-stack -j"$jobs" --target test_text_decode test_transcode test_alloc_count test_api
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		ctest --test-dir build-asan-stack --output-on-failure -j"$jobs" \
		-R '^(text_decode|transcode|alloc_count|api)$'

	echo "== threaded tests under TSan =="
	CC=clang cmake -S . -B build-tsan -DMEGACO_WERROR=ON -DMEGACO_TSAN=ON >/dev/null
	cmake --build build-tsan -j"$jobs" --target test_threads test_text_decode
	TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
		ctest --test-dir build-tsan --output-on-failure -R '^(threads|text_decode)$'
fi
