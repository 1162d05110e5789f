#!/usr/bin/env bash
# The project's benchmark command (README): installs what is missing, builds
# an optimised megaco-bench and runs it over the bundled corpus. Extra
# arguments go to megaco-bench (e.g. --compare-erlang, --format json).
# The library is built profile-guided (cmake/Pgo.cmake), as a user gets it
# with -DMEGACO_PGO=ON; MEGACO_PGO=OFF scripts/bench.sh times a plain build.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DMEGACO_TESTS=OFF -DMEGACO_WERROR=ON \
	-DMEGACO_PGO="${MEGACO_PGO:-ON}" >/dev/null
cmake --build build-release -j"$(nproc 2>/dev/null || echo 2)" --target megaco-bench >/dev/null
exec build-release/tools/megaco-bench "$@"
