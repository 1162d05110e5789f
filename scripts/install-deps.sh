#!/usr/bin/env bash
# Installs what libmegaco needs from Debian's packages: build tools and
# libraries always, the Erlang peer (for interoperability tests and the
# side-by-side benchmark), clang (sanitizer/fuzz builds) and the cross
# toolchains with qemu-user (the s390x and armhf stages of scripts/test.sh,
# cmake/toolchains/) unless told not to.
# Idempotent: packages already present are not fetched again.
#   scripts/install-deps.sh            build + test + peer + clang + cross
#   scripts/install-deps.sh --build    build only
#   scripts/install-deps.sh --cross    build + cross (s390x, armhf)
#   scripts/install-deps.sh --aarch64  build + the aarch64 cross toolchain (not in the test command)
set -euo pipefail

build_pkgs=(cmake make gcc flex bison asn1c libcmocka-dev libyaml-dev pkg-config python3 libpcap-dev)
test_pkgs=(erlang-base erlang-megaco erlang-asn1 erlang-src clang libclang-rt-14-dev valgrind
	tshark tcpdump mandoc)

# Cross targets by Debian architecture, with their GNU triplets
# (cmake/toolchains/): the compilers (C, and C++ for the tests' header and
# clash checks) and libc headers from the cross packages, the target's libraries from Debian's multiarch packages.
# scripts/test.sh runs s390x and armhf; arm64 (aarch64) only on request.
declare -A triplet=([s390x]=s390x-linux-gnu [armhf]=arm-linux-gnueabihf [arm64]=aarch64-linux-gnu)
cross_archs=(s390x armhf)
[[ "${1:-}" == --aarch64 ]] && cross_archs=(arm64)
cross_pkgs=(qemu-user-static)
for a in "${cross_archs[@]}"; do
	cross_pkgs+=("gcc-${triplet[$a]}" "g++-${triplet[$a]}" "libc6-dev-$a-cross" "libyaml-dev:$a"
		"libcmocka-dev:$a")
done

want=("${build_pkgs[@]}")
case "${1:-}" in
--build) ;;
--cross | --aarch64) want+=("${cross_pkgs[@]}") ;;
*) want+=("${test_pkgs[@]}" "${cross_pkgs[@]}") ;;
esac

missing=()
for p in "${want[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
	exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then
	sudo="sudo"
fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
if [[ " ${missing[*]}" == *:* ]]; then
	for a in "${cross_archs[@]}"; do
		dpkg --print-foreign-architectures | grep -qx "$a" || $sudo dpkg --add-architecture "$a"
	done
fi
# A mirror part-way through a sync can fail one index (seen: bookworm-security's
# armhf Packages); install from what was fetched, and let the install say
# what is really missing.
$sudo apt-get update -qq ||
	echo "install-deps: apt-get update reported errors; installing from the indexes it got" >&2
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
