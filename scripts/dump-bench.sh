#!/usr/bin/env bash
# megaco-dump's benchmark (docs/benchmarks.md, "megaco-dump"):
#  (a) a UDP capture of COUNT messages (default 1,000,000), the corpus's
#      pretty, compact and BER messages in turn, read by `megaco-dump
#      --stats` and by tshark side by side: the same message count, and the
#      ratio of their median times over a few rounds;
#  (b) the log study: the same messages as a text log and as a BER log:
#      size, time to write, and time to find the last record carrying a
#      transaction ID by decoding every record and by a scan (--scan).
#   scripts/dump-bench.sh [BUILD_DIR [COUNT]]     (default build, 1000000)
# DUMP_BENCH_PART=logs runs (b) only, DUMP_BENCH_PART=tshark (a) only;
# DUMP_BENCH_RUNS sets (a)'s rounds (default 5).
# Needs a built tree (megaco-dump, dump-mkpcap) and tshark for (a).
# dump-mkpcap (a test tool) is taken from BUILD_DIR, or from build/ when
# BUILD_DIR has no tests (a Release build made as scripts/bench.sh makes
# it), or from $DUMP_MKPCAP: it only writes the capture, untimed.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
count=${2:-1000000}
dump=$build/tools/megaco-dump
mkpcap=${DUMP_MKPCAP:-$build/tests/dump-mkpcap}
[[ -x $mkpcap || -n ${DUMP_MKPCAP:-} ]] || mkpcap=build/tests/dump-mkpcap
for t in "$dump" "$mkpcap"; do
  [[ -x $t ]] || { echo "dump-bench: $t not built (cmake --build $build)" >&2; exit 2; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/dump-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Runs a command, its output to $work/out; prints "WALL CPU" in seconds
# (CPU: user + system). Both, because a shared machine stretches wall time.
timed() {
  local TIMEFORMAT='%R %U %S' t
  t=$( { time "$@" > "$work/out" 2> "$work/err"; } 2>&1 )
  awk '{ printf "%.3f %.3f", $1, $2 + $3 }' <<<"$t"
}
wall() { echo "${1% *}"; }
cpu() { echo "${1#* }"; }
div() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; }
human() { numfmt --to=iec --suffix=B "$1"; }

echo "== megaco-dump benchmark: $count messages, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(uname -m), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "   commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), build $build ($(grep -m1 CMAKE_BUILD_TYPE: "$build/CMakeCache.txt" | cut -d= -f2), MEGACO_PGO=$(grep -m1 '^MEGACO_PGO:' "$build/CMakeCache.txt" | cut -d= -f2))"
cap=$work/bench.pcap
"$mkpcap" --count "$count" -o "$cap" corpus/pretty/* corpus/compact/* corpus/ber/*
echo "capture: $(human "$(stat -c %s "$cap")"), UDP, text on 2944 and BER on 2945, one message per datagram"

# --- (a) against tshark -----------------------------------------------------
# RUNS rounds (DUMP_BENCH_RUNS, default 5), each megaco-dump --stats then
# tshark, back to back so both meet the machine in the same state; the ratio
# is of the two programs' median times. One 0.4 s run of megaco-dump is at
# the mercy of a neighbour's burst on a shared machine in a way a 20 s run of
# tshark is not, so one round alone is no measure; every round is printed.
if [[ ${DUMP_BENCH_PART:-all} != logs ]]; then
runs=${DUMP_BENCH_RUNS:-5}
# for reference, all decoding in the reading thread; the rounds use the
# default, one decoding thread per CPU, the reading one included
t_one=$(timed "$dump" --threads 0 --stats "$cap")
cp "$work/out" "$work/stats.one"
echo "megaco-dump --stats --threads 0: $(wall "$t_one") s wall, $(cpu "$t_one") s CPU"
n_dump=$(sed -n 's/^frames [0-9]*, messages \([0-9]*\), decoded \([0-9]*\), .*/\2/p' "$work/out")
fails=$(sed -n 's/.*decode failures \([0-9]*\)$/\1/p' "$work/out" | head -1)
echo "megaco-dump --stats: $n_dump messages decoded, $fails failures"
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
if command -v tshark >/dev/null; then
  # Both dissectors: `-Y h248` alone passes only the BER frames (the text
  # ones are `megaco`), and tshark 4.0 leaves h248.transactionId empty
  # (it fills one field per transaction kind), so this is the filter and
  # the fields under which tshark reports every message of the capture.
  : > "$work/times"
  for ((r = 1; r <= runs; r++)); do
    t_dump=$(timed "$dump" --stats "$cap")
    cmp -s "$work/out" "$work/stats.one" || echo "--stats DIFFERS with --threads 0"
    t_tshark=$(timed tshark -r "$cap" -Y 'megaco || h248' -T fields -e megaco.transid \
      -e h248.transactionRequest.transactionId -e h248.transactionreply.transactionId \
      -e h248.transactionpending.transactionId -e h248.segmentreply.transactionId -e h248.firstAck)
    n_tshark=$(wc -l < "$work/out")
    [[ $n_tshark == "$n_dump" ]] || echo "MESSAGE COUNTS DIFFER: tshark $n_tshark, megaco-dump $n_dump"
    echo "round $r: megaco-dump --stats $(wall "$t_dump") s wall, $(cpu "$t_dump") s CPU;" \
      "tshark $(wall "$t_tshark") s wall, $(cpu "$t_tshark") s CPU, $n_tshark messages;" \
      "ratio $(div "$(wall "$t_tshark")" "$(wall "$t_dump")")x wall"
    echo "$t_dump $t_tshark" >> "$work/times"
  done
  dw=$(awk '{ print $1 }' "$work/times" | median); dc=$(awk '{ print $2 }' "$work/times" | median)
  tw=$(awk '{ print $3 }' "$work/times" | median); tc=$(awk '{ print $4 }' "$work/times" | median)
  rounds=$(awk '{ printf "%s%.1f", (NR > 1 ? ", " : ""), $3 / $1 }' "$work/times")
  echo "medians of $runs rounds: megaco-dump $dw s wall, $dc s CPU; tshark $tw s wall, $tc s CPU"
  echo "ratio tshark / megaco-dump: $(div "$tw" "$dw")x wall, $(div "$tc" "$dc")x CPU (goal >= 50x);" \
    "the rounds' wall ratios: $rounds"
  echo "per message: megaco-dump $(div "${dc}e6" "$n_dump") us CPU, tshark $(div "${tc}e6" "$n_tshark") us CPU"
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
else
  echo "tshark: not installed, (a) has no ratio"
fi
fi

# --- (b) the log study ----------------------------------------------------------
[[ ${DUMP_BENCH_PART:-all} != tshark ]] || exit 0
t_base=$(timed "$dump" --count "$cap")
echo
echo "log study (seconds as wall / CPU): reading and decoding the capture alone takes $(wall "$t_base") / $(cpu "$t_base");"
echo "'write' is the whole run: read, decode, encode, write"
printf '| log | size | bytes/message | write | find last, full decode | find last, scan | records found |\n'
printf '|---|---|---|---|---|---|---|\n'
for fmt in text ber; do
  log=$work/log.$fmt
  t_write=$(timed "$dump" --count --write-log "$log" --log-format $fmt "$cap")
  size=$(stat -c %s "$log")
  # the rarest transaction ID of the log (acknowledgements aside; the
  # corpus repeats IDs, so this is what shows a search skipping records)
  tid=$("$dump" --log "$log" | grep -o '\(request\|reply\|pending\|segment-reply\) [0-9]*' |
        cut -d' ' -f2 | sort | uniq -c | sort -k1,1n -k2,2n | awk 'NR == 1 { print $2 }')
  t_full=$(timed "$dump" --log "$log" --tid "$tid" --last)
  full_out=$(cat "$work/out")
  t_scan=$(timed "$dump" --log "$log" --tid "$tid" --last --scan)
  [[ "$(cat "$work/out")" == "$full_out" ]] || echo "SCAN AND FULL DECODE DIFFER for $fmt"
  found=$("$dump" --log "$log" --tid "$tid" --count --scan)
  printf '| %s | %s | %s | %s / %s | %s / %s | %s / %s | %s with ID %s, the last record %s |\n' \
    "$fmt" "$(human "$size")" "$(div "$size" "$count")" "$(wall "$t_write")" "$(cpu "$t_write")" \
    "$(wall "$t_full")" "$(cpu "$t_full")" "$(wall "$t_scan")" "$(cpu "$t_scan")" "$found" "$tid" \
    "${full_out%% *}"
done
