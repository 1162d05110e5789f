#!/usr/bin/env bash
# megaco-dump on real traffic: Erlang/OTP megaco users (a gateway and a
# controller, tests/dump/megaco-traffic.escript) talk over 127.0.0.1 by UDP
# and TCP, in text and in BER, while tcpdump captures the loopback. Every
# message the Erlang side logged sending must be in megaco-dump's report of
# the capture, with the same transaction IDs, and nothing else.
#   dump_erlang.sh MEGACO_DUMP CORPUS
# Needs root (tcpdump on lo), tcpdump and escript; says which is missing and
# skips otherwise. It holds /tmp/megaco-erlang.lock while Erlang runs (so
# never run it under that lock: it would wait for itself).
set -euo pipefail
dump=$1 corpus=$2
here=$(cd "$(dirname "$0")" && pwd)
skip() { echo "dump_erlang: SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
if "$dump" --version | grep -q '^captures: none'; then
  echo "dump_erlang: SKIP: megaco-dump was built without libpcap (it reads message logs only)"
  exit 77
fi
[[ $(id -u) == 0 ]] || skip "tcpdump needs root to capture on lo"
command -v tcpdump >/dev/null || skip "tcpdump is not installed"
command -v escript >/dev/null || skip "escript (Erlang/OTP) is not installed"

work=$(mktemp -d)
tcpdump_pid=
cleanup() {
  [[ -z $tcpdump_pid ]] || kill "$tcpdump_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
[[ -z ${DUMP_ERLANG_KEEP:-} ]] || trap - EXIT # keep the files to look at
cd "$work"

# Four runs, ten ports apart, below Linux's ephemeral ports (32768-).
base=$((20000 + (RANDOM % 1200) * 10))
runs=(udp:text:$base tcp:binary:$((base + 10)) udp:binary:$((base + 20)) tcp:text:$((base + 30)))
# The file exists before the wait loop reads it; the background shell opens
# it (2>>) only when it gets to run.
: > tcpdump.err
tcpdump -i lo -n -U -w cap.pcap "portrange $base-$((base + 39))" 2>> tcpdump.err &
tcpdump_pid=$!
for _ in $(seq 50); do
  grep -q 'listening on' tcpdump.err && break
  sleep 0.1
done
grep -q 'listening on' tcpdump.err || fail "tcpdump did not start: $(cat tcpdump.err)"

flock -w 600 /tmp/megaco-erlang.lock escript "$here/megaco-traffic.escript" "$corpus" erlang.log 6 "${runs[@]}" > erlang.out 2>&1 ||
  fail "the Erlang side failed: $(tail -20 erlang.out)"
ports=()
for r in "${runs[@]}"; do ports+=(--port "${r##*:}"); done
# tcpdump writes behind the traffic: wait (up to 10 s) until the capture
# holds as many messages as the log (megaco-dump reads a capture that is
# still being written up to its last whole frame).
want=$(wc -l < erlang.log)
for _ in $(seq 100); do
  n=$("$dump" "${ports[@]}" --count cap.pcap 2>/dev/null || true)
  [[ ${n:-0} -lt $want ]] || break
  sleep 0.1
done
kill "$tcpdump_pid"
wait "$tcpdump_pid" 2>/dev/null || true
tcpdump_pid=

"$dump" "${ports[@]}" cap.pcap > dump.out || fail "megaco-dump: exit status $?: $(grep 'error' dump.out | head -3)"

# Each message as "PORT KIND ID ...", PORT the controller's.
awk -v runs="${runs[*]}" 'BEGIN { n = split(runs, r, " "); for (i = 1; i <= n; i++) { split(r[i], f, ":"); mgc[f[3]] = 1 } }
{
  split($3, s, ":"); split($5, d, ":");
  p = (s[length(s)] in mgc) ? s[length(s)] : d[length(d)];
  line = p;
  for (i = 6; i < NF; i++)
    if ($i ~ /^(request|reply|pending|ack|segment-reply)$/) line = line " " $i " " $(i + 1);
  print line
}' dump.out | sort > ours.txt
sort erlang.log > theirs.txt
[[ $(wc -l < theirs.txt) -ge 4 ]] || fail "the Erlang side logged $(wc -l < theirs.txt) messages"
cmp -s ours.txt theirs.txt ||
  fail "megaco-dump and the Erlang log differ:$(diff theirs.txt ours.txt | head -10)"
echo "dump_erlang: $(wc -l < ours.txt) messages of ${#runs[@]} Erlang runs (${runs[*]}), the same transaction IDs"
