#!/usr/bin/env bash
# Installs what libmegaco needs from Debian's packages: build tools and
# libraries always, the Erlang peer (for interoperability tests and the
# side-by-side benchmark) and clang (sanitizer/fuzz builds) unless told not to.
# Idempotent: packages already present are not fetched again.
#   scripts/install-deps.sh            build + test + peer + clang
#   scripts/install-deps.sh --build    build only
set -euo pipefail

build_pkgs=(cmake make gcc flex bison asn1c libcmocka-dev libyaml-dev pkg-config python3 libpcap-dev)
test_pkgs=(erlang-base erlang-megaco erlang-asn1 erlang-src clang libclang-rt-14-dev valgrind
	tshark tcpdump mandoc)

want=("${build_pkgs[@]}")
if [[ "${1:-}" != "--build" ]]; then
	want+=("${test_pkgs[@]}")
fi

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
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
