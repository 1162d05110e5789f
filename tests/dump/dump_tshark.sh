#!/usr/bin/env bash
# megaco-dump against tshark: on captures dump-mkpcap writes from the text
# and BER corpus (UDP, TCP with retransmissions, SCTP), both find
# the same messages in the same frames with the same transaction IDs.
#   dump_tshark.sh MEGACO_DUMP DUMP_MKPCAP CORPUS
set -euo pipefail
dump=$1 mkpcap=$2 corpus=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
if "$dump" --version | grep -q '^captures: none'; then
  echo "dump_tshark: SKIP: megaco-dump was built without libpcap (it reads message logs only)"
  exit 77
fi
if ! command -v tshark >/dev/null; then
  echo "dump_tshark: SKIP: tshark is not installed (scripts/install-deps.sh installs it)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
files=$(ls "$corpus"/pretty/* "$corpus"/compact/* "$corpus"/ber/*)
# tshark 4.0 fills megaco.transid for text, and for BER one field per
# transaction kind (h248.transactionId stays empty there). Compared frame by
# frame: the frame a message completes in, and its transaction IDs. Left out,
# where tshark's dissectors give no or partial IDs: messages that are only
# acknowledgements (the text dissector gives the first ID of the first
# range, the BER one none of these fields) and text segment replies (none).
# SCTP: user messages fragmented over DATA chunks, reordered and
# retransmitted (tshark, as megaco-dump, takes a retransmitted DATA chunk
# once). Several DATA chunks in a packet are checked against the reference
# capture only (dump_cli.sh): tshark 4.0 stops at a chunk whose text message
# its dissector takes for cut short ("MEGACO truncated") and leaves the
# packet's later chunks undissected.
# Reordered TCP segments are checked against the reference capture only:
# tshark 4.0, even with tcp.reassemble_out_of_order, loses messages of a
# direction whose first data segments arrive out of order.
fields=(-e frame.number -e megaco.transid -e h248.transactionRequest.transactionId
        -e h248.transactionpending.transactionId -e h248.transactionreply.transactionId
        -e h248.segmentreply.transactionId)
for v in "" "--transport tcp --segment 60 --retransmit" "--transport sctp --segment 50 --reorder --retransmit" \
         "--transport sctp --segment 200 --retransmit"; do
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
# a frame with such a message is left out whole (a packet may carry several)
lines = open(sys.argv[2]).read().splitlines()
skip = set(int(l.split()[0]) for l in lines
           if ' ack ' in l or (l.split()[5] in ('pretty', 'compact') and 'segment-reply' in l))
skipped = 0
for line in lines:
    w = line.split()
    if int(w[0]) in skip:
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
print('dump_tshark: %s: the same %d frames and %d transaction IDs (%d messages left out)'
      % (sys.argv[3], len(ours), sum(len(v) for v in ours.values()), skipped))
if len(ours) < 100:
    print('%s: only %d frames compared: a check that cannot fail' % (sys.argv[3], len(ours)))
    sys.exit(1)
EOF2
done
