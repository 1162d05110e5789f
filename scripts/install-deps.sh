#!/usr/bin/env bash
# Installs what libmegaco needs from Debian's packages: build tools and
# libraries always, the Erlang peer (for interoperability tests and the
# side-by-side benchmark), clang (sanitizer/fuzz builds) and the cross
# toolchains with qemu-user (the s390x and armhf stages of scripts/test.sh,
# cmake/toolchains/) unless told not to.
# Idempotent: packages already present are not fetched again.
#   scripts/install-deps.sh            build + test + peer + clang + cross
#   scripts/install-deps.sh --build    build only
#   scripts/install-deps.sh --cross    build + cross
set -euo pipefail

build_pkgs=(cmake make gcc flex bison asn1c libcmocka-dev libyaml-dev pkg-config python3 libpcap-dev)
test_pkgs=(erlang-base erlang-megaco erlang-asn1 erlang-src clang libclang-rt-14-dev valgrind
	tshark tcpdump mandoc)

# The target architectures' libraries come from Debian's multiarch packages.
cross_archs=(s390x armhf)
cross_pkgs=(qemu-user-static gcc-s390x-linux-gnu libc6-dev-s390x-cross gcc-arm-linux-gnueabihf
	libc6-dev-armhf-cross)
for a in "${cross_archs[@]}"; do
	cross_pkgs+=("libyaml-dev:$a" "libcmocka-dev:$a")
done

want=("${build_pkgs[@]}")
case "${1:-}" in
--build) ;;
--cross) want+=("${cross_pkgs[@]}") ;;
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
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
