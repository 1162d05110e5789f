#!/usr/bin/env bash
# Times two builds of megaco-bench against each other on a shared, noisy
# machine: runs them in turn ROUNDS times (thread-CPU clock, so time other
# processes take is left out) and prints, per row, the best and the mean
# decode and encode times of each. The best of several alternated runs is
# the figure to compare; one run of each is not (a 2-core VM drifts by 30 %).
#
#   scripts/compare-builds.sh BUILD_A BUILD_B [ROUNDS] [megaco-bench options...]
#
# BUILD_A/B are build directories with tools/megaco-bench built (e.g. a
# `git worktree` of the old commit configured as scripts/bench.sh does).
# Default: 4 rounds, --codecs pretty,compact --min-time 0.005.
set -euo pipefail
[[ $# -ge 2 ]] || { sed -n '2,12s/^# \{0,1\}//p' "$0" >&2; exit 2; }
a=$1 b=$2
shift 2
rounds=4
if [[ ${1:-} =~ ^[0-9]+$ ]]; then
	rounds=$1
	shift
fi
args=("$@")
[[ ${#args[@]} -gt 0 ]] || args=(--codecs pretty,compact --min-time 0.005)
for x in "$a" "$b"; do
	[[ -x $x/tools/megaco-bench ]] || { echo "$0: no $x/tools/megaco-bench" >&2; exit 2; }
done
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for ((r = 0; r < rounds; r++)); do
	for side in A B; do
		x=$a
		[[ $side == B ]] && x=$b
		"$x/tools/megaco-bench" --clock cpu --format csv "${args[@]}" 2>/dev/null |
			sed "s|^|$side,|" >>"$out"
	done
done
# megaco-bench's CSV (after the A or B prefixed here): impl,codec,config,status,
# messages,size_bytes,encode_us,decode_us,...; only rows that are ok count.
awk -F, -v a="$a" -v b="$b" '
	$2 != "libmegaco" || $5 != "ok" { next }
	{
		row = $3 ($4 != "" ? " [" $4 "]" : ""); k = $1 SUBSEP row
		if (!(row in seen)) { seen[row] = 1; order[++n] = row }
		if (!(k in dmin) || $9 < dmin[k]) dmin[k] = $9
		if ($8 != "" && (!(k in emin) || $8 < emin[k])) emin[k] = $8
		dsum[k] += $9; esum[k] += $8; cnt[k]++
	}
	END {
		printf "%-26s %-6s %12s %12s %12s %12s\n", "row", "build", "dec best", "dec mean", "enc best", "enc mean"
		for (i = 1; i <= n; i++)
			for (j = 0; j < 2; j++) {
				k = (j ? "B" : "A") SUBSEP order[i]
				if (!(k in cnt)) continue
				if (k in emin)
					printf "%-26s %-6s %12.3f %12.3f %12.3f %12.3f\n", order[i], (j ? "B" : "A"),
					       dmin[k], dsum[k] / cnt[k], emin[k], esum[k] / cnt[k]
				else
					printf "%-26s %-6s %12.3f %12.3f %12s %12s\n", order[i], (j ? "B" : "A"),
					       dmin[k], dsum[k] / cnt[k], "-", "-"
			}
		printf "A = %s\nB = %s\n(us per message, best and mean of the rounds)\n", a, b
	}' "$out"
