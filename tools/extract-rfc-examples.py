#!/usr/bin/env python3
"""Extract the example messages of RFC 3525 Appendix I ("Example call flows",
sections A.1.x) into one file per message, for corpus/rfc3525/.

The RFC page layout is undone: page footers, form feeds, page headers and the
blank padding lines around each page break are dropped, and every message is
dedented by the indentation of its "MEGACO/n" line (the RFC's 3-space body
indent), so each file holds the message text as the RFC prints it.  Trailing
spaces are stripped from every line and each file ends with one newline.

A message starts at a line whose first non-blank text is "MEGACO/<digit>" and
ends at the line where its braces balance again (braces inside quoted strings
and ';' comments are not counted).

The RFC's Full Copyright Statement, which must accompany extracts, is written
to LICENSE.rfc3525 in the parent of OUT_DIR.

Files are named a1_NN in order of appearance (NN from 01).  An index with the
step number of the call flow and the source line of each message is printed on
stdout as tab-separated values (id, step, rfc line, first line) and, with
--index FILE, written to FILE.

Usage: extract-rfc-examples.py [RFC_TXT [OUT_DIR]] [--index FILE]
Defaults (relative to the repository top): ../shared/spec/rfc3525.txt, corpus/rfc3525
Standard library only.
"""

import os
import re
import sys

START_MARK = re.compile(r"^APPENDIX I\s+EXAMPLE CALL FLOWS")
END_MARK = re.compile(r"^APPENDIX II\b")
FOOTER = re.compile(r"^\S.*\[Page \d+\]\s*$")
HEADER = re.compile(r"^RFC 3525\s+.*\s(19|20)\d\d\s*$")
MSG_START = re.compile(r"^( *)MEGACO/\d")
STEP = re.compile(r"^ {3}(\d+)\.\s")


def page_lines(text):
    """Yield (rfc_line_number, line) for Appendix I with page breaks removed."""
    raw = text.split("\n")
    out = []
    inside = False
    i = 0
    while i < len(raw):
        line = raw[i]
        if not inside:
            if START_MARK.match(line):
                inside = True
            i += 1
            continue
        if END_MARK.match(line.lstrip("\f")):
            break
        if FOOTER.match(line):
            # Drop the padding blank lines before the footer ...
            while out and out[-1][1].strip() == "":
                out.pop()
            i += 1
            # ... the form feed, the next page's header and its blank lines.
            while i < len(raw) and raw[i].strip("\f").strip() == "":
                i += 1
            if i < len(raw) and HEADER.match(raw[i].lstrip("\f")):
                i += 1
            while i < len(raw) and raw[i].strip() == "":
                i += 1
            continue
        out.append((i + 1, line.replace("\f", "")))
        i += 1
    return out


def brace_delta(line):
    """Net '{' minus '}' in a line, skipping quoted strings and ';' comments."""
    depth = 0
    seen_open = False
    in_quote = False
    for ch in line:
        if in_quote:
            if ch == '"':
                in_quote = False
        elif ch == '"':
            in_quote = True
        elif ch == ";":
            break
        elif ch == "{":
            depth += 1
            seen_open = True
        elif ch == "}":
            depth -= 1
    return depth, seen_open


def extract(lines):
    """Return a list of (step, rfc_line, [message lines])."""
    messages = []
    step = None
    i = 0
    while i < len(lines):
        lineno, line = lines[i]
        m = STEP.match(line)
        # Steps are numbered 1, 2, 3, ...; a wrapped paragraph line that
        # happens to start with "1." (step 10's text does) is not a new step.
        if m and int(m.group(1)) == (step or 0) + 1:
            step = int(m.group(1))
        m = MSG_START.match(line)
        if not m:
            i += 1
            continue
        indent = len(m.group(1))
        body = []
        depth = 0
        opened = False
        start = lineno
        while i < len(lines):
            _, line = lines[i]
            d, o = brace_delta(line)
            depth += d
            opened = opened or o
            body.append(line)
            i += 1
            if opened and depth <= 0:
                break
        if depth != 0:
            raise SystemExit("unbalanced braces in message at RFC line %d" % start)
        text = []
        for l in body:
            l = l.rstrip()
            n = len(l) - len(l.lstrip(" "))
            text.append(l[min(n, indent):])
        messages.append((step, start, text))
    return messages


def copyright_statement(text):
    """The RFC's "Full Copyright Statement" section, dedented."""
    m = re.search(r"^Full Copyright Statement\n(.*?)\n(?=\S)", text, re.M | re.S)
    if not m:
        raise SystemExit("Full Copyright Statement not found")
    body = [l[3:] if l.startswith("   ") else l for l in m.group(1).split("\n")]
    return "Full Copyright Statement\n" + "\n".join(body).rstrip() + "\n"


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    index_file = None
    if "--index" in argv:
        k = argv.index("--index")
        index_file = argv[k + 1]
        args = [a for a in argv[:k] + argv[k + 2:] if not a.startswith("--")]
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    rfc = args[0] if len(args) > 0 else os.path.join(top, "..", "shared", "spec", "rfc3525.txt")
    out_dir = args[1] if len(args) > 1 else os.path.join(top, "corpus", "rfc3525")
    with open(rfc, encoding="ascii") as f:
        text = f.read()
    messages = extract(page_lines(text))
    if not messages:
        raise SystemExit("no messages found in %s" % rfc)
    os.makedirs(out_dir, exist_ok=True)
    # Idempotent: remove stale a1_* files from an earlier run first.
    for name in os.listdir(out_dir):
        if re.match(r"^a1_\d+$", name):
            os.remove(os.path.join(out_dir, name))
    rows = []
    for n, (step, lineno, body) in enumerate(messages, 1):
        ident = "a1_%02d" % n
        with open(os.path.join(out_dir, ident), "w", encoding="ascii", newline="\n") as f:
            f.write("\n".join(body) + "\n")
        rows.append("%s\t%s\t%d\t%s" % (ident, step, lineno, body[0]))
    # The RFC's copyright notice must travel with extracts: write it beside
    # the output directory as LICENSE.rfc3525.
    notice = copyright_statement(text)
    with open(os.path.join(os.path.dirname(os.path.abspath(out_dir)), "LICENSE.rfc3525"),
              "w", encoding="ascii") as f:
        f.write("The files in rfc3525/ and rfc3525-compact/ are taken from RFC 3525,\n"
                "Appendix I, under the following notice from that RFC:\n\n" + notice)
    index = "id\tstep\trfc_line\tfirst_line\n" + "\n".join(rows) + "\n"
    sys.stdout.write(index)
    if index_file:
        with open(index_file, "w", encoding="ascii") as f:
            f.write(index)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
