#!/usr/bin/env bash
# megaco-dump end to end, on captures dump-mkpcap writes from the corpus:
# every message of a plain UDP capture decodes and re-encodes as megaco-conv
# does it from the file; every other transport, link layer and edge case
# (TCP segmented, reordered, retransmitted; IP fragments; several messages
# per datagram; SCTP with several DATA chunks per packet and user messages
# fragmented, reordered, retransmitted; pcapng) gives the same messages; cut and damaged
# captures are reported and the run goes on; filters, --stats and logs;
# memory stays bounded. dump_tshark.sh compares with tshark.
#   dump_cli.sh MEGACO_DUMP DUMP_MKPCAP MEGACO_CONV CORPUS [sanitized]
set -euo pipefail
dump=$1 mkpcap=$2 conv=$3 corpus=$4 sanitized=${5:-0}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

# --- usage ---------------------------------------------------------------
"$dump" --help | grep -q '^usage: megaco-dump' || fail "--help"
"$dump" --version | grep -q '^megaco-dump (libmegaco) [0-9]' || fail "--version"
rc=0; "$dump" --bogus 2>/dev/null || rc=$?
[[ $rc == 2 ]] || fail "unknown option gives exit status $rc, not 2"
rc=0; "$dump" --stats --count no-such.pcap > missing.out 2>/dev/null || rc=$?
[[ $rc == 2 && ! -s missing.out ]] || fail "a missing capture: exit status $rc, output $(head -2 missing.out)"
if "$dump" --version | grep -q '^captures: none'; then
  # built without libpcap: a capture is refused, saying why
  rc=0; "$dump" --stats /dev/null > nopcap.out 2> nopcap.err || rc=$?
  [[ $rc == 2 && ! -s nopcap.out ]] && grep -q 'built without libpcap' nopcap.err ||
    fail "without libpcap: exit status $rc, $(cat nopcap.err nopcap.out)"
  echo "dump_cli: SKIP: megaco-dump was built without libpcap (it reads message logs only), and every check here starts from a capture"
  exit 77
fi

# --- the reference capture: every text and BER corpus message, UDP ----------
files=$(ls "$corpus"/pretty/* "$corpus"/compact/* "$corpus"/ber/*)
nfiles=$(echo "$files" | wc -l)
# shellcheck disable=SC2086
"$mkpcap" --tids names.txt -o ref.pcap $files
"$dump" ref.pcap > ref.sum || fail "reference capture: exit status $?"
[[ $(wc -l < ref.sum) == "$nfiles" ]] || fail "reference: $(wc -l < ref.sum) lines for $nfiles messages"
! grep -q 'decode error' ref.sum || fail "reference: $(grep -m1 'decode error' ref.sum)"
"$dump" --json ref.pcap | sed 's/^.*"message"://' | sort > ref.json

# Each message as megaco-conv converts its file (every 7th file: each
# megaco-conv run is a process start).
"$dump" --to compact ref.pcap > ref.compact
python3 - names.txt ref.compact "$conv" <<'EOF' || fail "--to compact differs from megaco-conv"
import subprocess, sys
names = open(sys.argv[1]).read().split('\n')[:-1]
recs, cur = [], None
for line in open(sys.argv[2], 'rb').read().split(b'\n'):
    if line.startswith(b'; '):
        cur = []
        recs.append(cur)
    else:
        cur.append(line)
recs = [b'\n'.join(r).rstrip(b'\n') for r in recs]
assert len(recs) == len(names), (len(recs), len(names))
for i in range(0, len(names), 7):
    want = subprocess.run([sys.argv[3], '--to', 'compact', names[i]], check=True,
                          capture_output=True).stdout.rstrip(b'\n')
    if recs[i] != want:
        print('message %d (%s):\n%s\n-- megaco-conv:\n%s' % (i + 1, names[i], recs[i], want))
        sys.exit(1)
EOF

# --- the same messages over every transport and link layer ------------------
variants=(
  "--transport tcp"
  "--transport tcp --segment 50 --reorder --retransmit"
  "--transport tcp --segment 7 --per-datagram 5 --retransmit --reorder"
  "--transport tcp --ipv6 --link sll2 --pcapng --segment 100 --reorder"
  "--transport sctp"
  "--transport sctp --segment 50 --reorder --retransmit"
  "--transport sctp --segment 60 --per-datagram 3 --retransmit"
  "--transport sctp --ipv6 --per-datagram 4 --reorder"
  "--fragment 64"
  "--link vlan" "--link sll" "--link sll2" "--link raw" "--ipv6" "--pcapng"
  "--per-datagram 4"
)
for v in "${variants[@]}"; do
  # shellcheck disable=SC2086
  "$mkpcap" $v -o v.pcap $files
  "$dump" --json v.pcap 2> v.err | sed 's/^.*"message"://' | sort > v.json || fail "$v: exit status"
  cmp -s ref.json v.json || fail "$v: $(wc -l < v.json) messages, not the reference's $nfiles (or they differ): $(head -3 v.err)"
  [[ ! -s v.err ]] || fail "$v: warnings: $(head -3 v.err)"
done

# --- damaged input ------------------------------------------------------------
# shellcheck disable=SC2086
"$mkpcap" --truncate 10 -o cut.pcap $files
rc=0; "$dump" cut.pcap > cut.sum 2> cut.err || rc=$?
[[ $rc == 1 ]] || fail "cut capture: exit status $rc, not 1"
grep -q 'truncated' cut.err || fail "cut capture: no message: $(cat cut.err)"
n=$(wc -l < cut.sum)
(( n == nfiles - 1 )) || fail "cut capture: $n messages, expected $((nfiles - 1))"
# an SCTP user message whose last fragment is cut off
# shellcheck disable=SC2086
"$mkpcap" --transport sctp --segment 40 --truncate 10 -o cutsctp.pcap $files
rc=0; "$dump" cutsctp.pcap > cut.sum 2> cut.err || rc=$?
[[ $rc == 1 ]] || fail "cut SCTP capture: exit status $rc, not 1"
grep -q 'fragments of a user message never completed' cut.err || fail "cut SCTP capture: $(cat cut.err)"
n=$(wc -l < cut.sum)
(( n == nfiles - 1 )) || fail "cut SCTP capture: $n messages, expected $((nfiles - 1))"
# shellcheck disable=SC2086
"$mkpcap" --garbage -o bad.pcap $files
rc=0; "$dump" bad.pcap > bad.sum || rc=$?
[[ $rc == 1 ]] || fail "bad message: exit status $rc, not 1"
grep -q "^$((nfiles + 1)) .* decode error: .*line 1" bad.sum || fail "bad message not reported: $(tail -1 bad.sum)"
[[ $(grep -vc 'decode error' bad.sum) == "$nfiles" ]] || fail "bad message: the others are not all there"

# --- decoding threads: the same output, in the same order, with any number --
# (a capture of several batches, with decode failures and warnings among
# the messages, so that their order against the output is checked too)
printf 'MEGACO/1 [1.2.3.4]:5 Transaction = {' > broken
# shellcheck disable=SC2086
"$mkpcap" --count 3000 -o many.pcap $files broken
"$mkpcap" --transport tcp --segment 9 --truncate 3 -o cuttcp.pcap $files
for mode in "" "--json" "--stats" "--to pretty" "--count" "--last --tid 10003"; do
  for cap in many.pcap cuttcp.pcap; do
    # shellcheck disable=SC2086
    "$dump" --threads 0 $mode $cap > t0.out 2>&1 || true
    for t in 1 3; do
      # shellcheck disable=SC2086
      "$dump" --threads $t $mode $cap > t.out 2>&1 || true
      cmp -s t0.out t.out || fail "--threads $t $mode $cap: output differs from --threads 0"
    done
  done
done
n=$(grep -c 'decode error' <("$dump" --threads 2 many.pcap) || true)
[[ $n == $(( 3000 / (nfiles + 1) )) ]] || fail "--threads: $n bad messages"
for fmt in text ber; do
  # (BER: the text termination IDs with no binary form are warned about
  # among the summary lines)
  "$dump" --threads 0 --write-log t0.log --log-format $fmt many.pcap > t0.out 2>&1 || true
  "$dump" --threads 2 --write-log t.log --log-format $fmt many.pcap > t.out 2>&1 || true
  cmp -s t0.log t.log || fail "--threads: --write-log $fmt differs"
  cmp -s t0.out t.out || fail "--threads: --write-log $fmt: output or warnings differ"
done
rc=0; "$dump" --threads x ref.pcap 2>/dev/null || rc=$?
[[ $rc == 2 ]] || fail "--threads x: exit status $rc, not 2"

echo "dump_cli: capture checks passed ($nfiles messages, ${#variants[@]} variants, threads)"

# --- filters: each alone and combined, against the summary lines -------------
"$dump" --json ref.pcap | python3 -c '
import json, sys
n = 0
for line in sys.stdin:
    json.loads(line)
    n += 1
sys.exit(0 if n == int(sys.argv[1]) else 1)' "$nfiles" || fail "--json is not one JSON object per message"
check_filter() { # expected-lines-python-test  -- megaco-dump filter options
  local test=$1; shift
  "$dump" "$@" ref.pcap > f.out || fail "$* exit status"
  python3 - ref.sum f.out "$test" "$*" <<'EOF2' || fail "filter $*"
import re, sys
def tids(line):
    out = []
    for kind, a, b in re.findall(r' (request|reply|pending|segment-reply|ack) (\d+)(?:-(\d+))?', line):
        out.append((int(a), int(b or a)))
    return out
ref = open(sys.argv[1]).read().splitlines()
got = open(sys.argv[2]).read().splitlines()
want = [l for l in ref if eval(sys.argv[3], {'l': l, 're': re, 'tids': tids})]
if not want:
    print('filter %s: the reference has no such message: a test that cannot fail' % sys.argv[4])
    sys.exit(1)
if got != want:
    print('filter %s: %d lines, expected %d' % (sys.argv[4], len(got), len(want)))
    sys.exit(1)
EOF2
}
check_filter "any(a <= 10003 <= b for a, b in tids(l))" --tid 10003
check_filter "' C=2000 ' in l" --ctx 2000
check_filter "' C=\$ ' in l" --ctx '$'
check_filter "' E=' in l" --errors
check_filter "' v2 ' in l" --msg-version 2
check_filter "' ber ' in l and ' Notify(' in l" --encoding ber --command N
check_filter "' compact ' in l or ' pretty ' in l" --encoding text
check_filter "re.search(r'[(,]11111111/00000000/[^,)]*[,)]', l) is not None" --term '11111111/00000000/*'
check_filter "'[124.124.124.222]' in l and (' Add(' in l or ' Subtract(' in l)" --mid '*124.124.124.222*' --command Add --command S
rc=0; "$dump" --tid x ref.pcap 2>/dev/null || rc=$?
[[ $rc == 2 ]] || fail "--tid x: exit status $rc, not 2"

# --- --stats ------------------------------------------------------------------
"$dump" --stats ref.pcap > stats.out
grep -q "^frames $nfiles, messages $nfiles, decoded $nfiles, decode failures 0$" stats.out ||
  fail "--stats: $(head -1 stats.out)"
for enc in pretty compact ber; do
  grep -q "^by encoding:.* $enc $(grep -c " $enc v" ref.sum)\b" stats.out || fail "--stats: $enc count"
done
# unaligned and aligned PER are counted each as itself
"$mkpcap" -o per.pcap "$corpus"/per/* "$corpus"/aper/*
"$dump" per.pcap > per.sum
"$dump" --stats per.pcap > per.stats
for enc in per aper; do
  n=$(grep -c " $enc v" per.sum || true)
  [[ $n -gt 0 ]] || fail "per.pcap: no $enc message in the summary"
  grep -q "^by encoding:.* $enc $n\b" per.stats || fail "--stats: $enc count (want $n): $(grep '^by encoding' per.stats)"
done
for cmd in Add Modify Notify ServiceChange; do
  n=$(grep -o " $cmd(" ref.sum | wc -l)
  awk -v c="$cmd" -v n="$n" '$1 == c && $2 + $3 == n { ok = 1 } END { exit !ok }' stats.out ||
    fail "--stats: $cmd is not counted $n times: $(grep " $cmd " stats.out)"
done
# Response times: a request answered after a pending 300 µs later (the
# capture's frames are 100 µs apart), and one request never answered.
printf '!/1 [10.0.0.1]:2944\nT=77{C=-{SC=ROOT{SV{MT=RS,RE="901"}}}}' > req
printf '!/1 [10.0.0.2]:2944\nPN=77{}' > pending
printf '!/1 [10.0.0.1]:2944\nT=78{C=-{SC=ROOT{SV{MT=RS,RE="901"}}}}' > other
printf '!/1 [10.0.0.2]:2944\nP=77{C=-{SC=ROOT}}' > reply
"$mkpcap" -o rt.pcap req pending other reply
"$dump" --stats rt.pcap > rt.out
grep -q '^requests answered 1 (1 after a pending), unanswered 1, retransmitted 0, replies without a request 0, pendings 1$' rt.out ||
  fail "--stats transactions: $(grep requests rt.out)"
grep -q '^response time: min 300 us, mean 300 us, p50 300 us, .* max 300 us$' rt.out ||
  fail "--stats response time: $(grep 'response time:' rt.out)"

# --- message logs: written, read back, searched by a scan --------------------
"$dump" --to compact ref.pcap | grep -v '^;' > ref.msgs
for fmt in text ber; do
  "$dump" --write-log "log.$fmt" --log-format $fmt --count ref.pcap > /dev/null
  "$dump" --log "log.$fmt" --to compact | grep -v '^;' > log.msgs
  cmp -s ref.msgs log.msgs || fail "--log-format $fmt: the log does not give back the messages"
  "$dump" --log "log.$fmt" > log.sum
  cmp -s <(cut -d' ' -f1,2,3,4,5,7- ref.sum) <(cut -d' ' -f1,2,3,4,5,7- log.sum) ||
    fail "--log-format $fmt: records, times or addresses differ"
  for tid in 9 9999 10003 50007 8101; do
    "$dump" --log "log.$fmt" --tid $tid > full.out
    "$dump" --log "log.$fmt" --tid $tid --scan > scan.out
    [[ -s full.out ]] && cmp -s full.out scan.out || fail "--scan $fmt --tid $tid differs from the full decode"
  done
done

# --- progress: on a terminal, never in a pipe or a file ------------------------
# script(1) gives the run a pseudo-terminal; progress goes to standard error
# when that is a terminal, unless standard output is the same terminal with
# lines of its own to print.
if command -v script > /dev/null; then
  # shellcheck disable=SC2086
  "$mkpcap" --count 40000 -o progress.pcap $files
  progress_lines() { tr '\r' '\n' < "$1" | grep -c '^[0-9]* frames, [0-9]* messages, [0-9]* matched, [0-9]* failed$' || true; }
  script -qec "'$dump' --stats progress.pcap > tty.out" tty.log > /dev/null
  n=$(progress_lines tty.log)
  (( n >= 2 )) || fail "progress on a terminal: $n progress lines, expected a running one and the last: $(cat -v tty.log)"
  tr '\r' '\n' < tty.log | grep -q '^40000 frames, 40000 messages, 40000 matched, 0 failed$' ||
    fail "progress on a terminal: no final line: $(cat -v tty.log)"
  grep -q '^frames 40000, messages 40000' tty.out || fail "progress on a terminal: --stats: $(head -1 tty.out)"
  # summary lines into a pipe: progress on the terminal, none in the pipe
  script -qec "'$dump' progress.pcap | cat > piped.out" tty.log > /dev/null
  [[ $(progress_lines tty.log) -ge 1 ]] || fail "progress with output to a pipe, on a terminal: $(cat -v tty.log)"
  [[ $(progress_lines piped.out) == 0 && $(wc -l < piped.out) == 40000 ]] ||
    fail "progress in the pipe: $(grep -v '^[0-9]* [0-9.]* ' piped.out | head -3)"
  script -qec "'$dump' --count progress.pcap" tty.log > /dev/null
  [[ $(progress_lines tty.log) -ge 1 ]] || fail "progress with --count on a terminal: $(cat -v tty.log)"
  script -qec "'$dump' progress.pcap" tty.log > /dev/null
  [[ $(progress_lines tty.log) == 0 ]] || fail "progress mixed into summary lines on a terminal"
  "$dump" --stats progress.pcap 2> pipe.err | cat > /dev/null
  "$dump" --stats progress.pcap 2> file.err > /dev/null
  [[ ! -s pipe.err && ! -s file.err ]] || fail "progress without a terminal: $(cat -v pipe.err file.err | head -3)"
else
  echo "dump_cli: SKIP progress: script(1) (util-linux) is not installed"
fi

# --- memory: a capture larger than the address space megaco-dump may use ------
if [[ $sanitized == 1 ]]; then
  echo "dump_cli: SKIP memory limit: a sanitizer's shadow memory needs more than any ulimit -v here"
else
  # One TCP connection of 150,000 messages (~37 MB), read from a pipe by a
  # megaco-dump limited to 20 MB of address space (its code and libraries
  # take about 10), decoding on 4 threads (each a stack and a ring of
  # batches); then the same messages as SCTP user messages in 100-byte
  # fragments.
  set -o pipefail
  "$mkpcap" --transport tcp --count 150000 -o - "$corpus"/ber/* "$corpus"/compact/* |
    (ulimit -v 20000; "$dump" --threads 4 --stats -) > mem.out || fail "memory limit: exit status $?"
  grep -q '^frames 150008, messages 150000, decoded 150000, decode failures 0$' mem.out ||
    fail "memory limit: $(head -1 mem.out)"
  "$mkpcap" --transport sctp --segment 100 --count 150000 -o - "$corpus"/ber/* "$corpus"/compact/* |
    (ulimit -v 20000; "$dump" --stats -) > mem.out || fail "memory limit, SCTP: exit status $?"
  grep -q '^frames [0-9]*, messages 150000, decoded 150000, decode failures 0$' mem.out ||
    fail "memory limit, SCTP: $(head -1 mem.out)"
fi
echo "dump_cli: filters, --stats, logs, progress and the memory limit passed"

