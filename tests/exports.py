#!/usr/bin/env python3
"""ctest `exports`: what the installed headers declare, both library files
provide, and nothing else is exported.

Installs the development component into a scratch prefix, runs the C
preprocessor over a file including every installed header (so the build's
own configuration decides, e.g. MEGACO_HAVE_YAML), and collects every
function and object those headers declare. Then, with nm:

  - libmegaco.so defines each of them in its dynamic symbol table, and
    libmegaco.a defines each as a global symbol;
  - every global symbol either library defines starts with megaco_, and
    every one the shared library exports is declared in an installed header
    (nothing internal leaks, nothing undocumented is exported).

usage: exports.py CMAKE BUILD_DIR CC NM SHARED_LIB STATIC_LIB
"""
import os
import re
import subprocess
import sys
import tempfile

TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<number>[0-9][A-Za-z0-9_.]*)
  | (?P<punct>->|\.\.\.|.)
""", re.S | re.X)


def installed_code(cmake, build, cc, tmp):
    """The preprocessed text of the installed headers, theirs alone."""
    prefix = os.path.join(tmp, "p")
    subprocess.run([cmake, "--install", build, "--prefix", prefix,
                    "--component", "megaco-development"], check=True, stdout=subprocess.DEVNULL)
    inc = os.path.join(prefix, "include")
    headers = sorted(os.path.relpath(os.path.join(d, f), inc)
                     for d, _, fs in os.walk(inc) for f in fs if f.endswith(".h"))
    src = os.path.join(tmp, "all.c")
    with open(src, "w") as f:
        f.write("".join(f"#include <{h}>\n" for h in headers))
    out = subprocess.run([cc, "-std=c11", "-E", "-I", inc, src], check=True,
                         capture_output=True, text=True).stdout
    mine, keep = [], False
    for line in out.splitlines():
        m = re.match(r'#\s*(?:line\s+)?\d+\s+"([^"]*)"', line)
        if m:
            keep = os.path.realpath(m.group(1)).startswith(os.path.realpath(inc) + os.sep)
        elif line.startswith("#"):
            continue  # #pragma and the like
        elif keep:
            mine.append(line)
    return headers, "\n".join(mine)


def strip_attributes(tokens):
    """Drops __attribute__((...)), __asm__(...) and __extension__."""
    out, i = [], 0
    while i < len(tokens):
        t = tokens[i]
        if t in ("__attribute__", "__asm__", "__asm", "asm", "__declspec") and \
                i + 1 < len(tokens) and tokens[i + 1] == "(":
            depth, i = 0, i + 1
            while True:
                depth += {"(": 1, ")": -1}.get(tokens[i], 0)
                i += 1
                if depth == 0:
                    break
            continue
        if t not in ("__extension__", "__restrict", "__inline", "__inline__"):
            out.append(t)
        i += 1
    return out


def declarations(code):
    """(kind, name) of every function and object the code declares."""
    tokens = [m.group(m.lastgroup) for m in TOKEN.finditer(code) if m.lastgroup != "ws"]
    tokens = strip_attributes(tokens)
    units, cur, depth = [], [], 0
    for t in tokens:
        prev = cur[-1] if cur else ""
        cur.append(t)
        if t in "({[":
            if t == "{" and depth == 0 and prev == ")":
                cur[-1] = "{body"  # a function defined in the header
            depth += 1
        elif t in ")}]":
            depth -= 1
            if depth == 0 and t == "}" and "{body" in cur:
                units.append(cur)
                cur = []
        elif t == ";" and depth == 0:
            units.append(cur)
            cur = []
    if cur:
        raise SystemExit(f"exports.py: the headers end inside a declaration: {' '.join(cur[:20])}")
    found = []
    for u in units:
        if u[0] == "typedef" or "static" in u:
            continue
        # Depth-0 tokens, with the braces of struct/enum bodies left out.
        top, depth = [], 0
        for t in u:
            if t in ("(", "[", "{", "{body"):
                if depth == 0:
                    top.append(t)
                depth += 1
            elif t in (")", "]", "}"):
                depth -= 1
                if depth == 0:
                    top.append(t)
            elif depth == 0:
                top.append(t)
        if top[0] in ("struct", "union", "enum") and (
                top[1:] in (["{", "}", ";"], [";"]) or top[2:] in (["{", "}", ";"], [";"])):
            continue  # a tag, no object
        if "," in top:
            raise SystemExit(f"exports.py: more than one declarator: {' '.join(u[:30])}")
        if "(" in top:
            at = top.index("(")
            m = re.fullmatch(r"\( \* (\w+) \)", " ".join(u[u.index("("):u.index("(") + 4]))
            if m:
                found.append(("object", m.group(1)))  # a pointer to a function
            else:
                found.append(("function", top[at - 1]))
        else:
            names = [t for t in top if re.fullmatch(r"[A-Za-z_]\w*", t)]
            found.append(("object", names[-1]))
    return found


def symbols(nm, args, lib):
    out = subprocess.run([nm] + args + [lib], check=True, capture_output=True, text=True).stdout
    glob = set()
    for line in out.splitlines():
        m = re.match(r"^[0-9a-fA-F]*\s+([A-Za-z])\s+([^\s@]+)", line)
        # Upper case: global; u, v, w: unique and weak, global too. Lower
        # case is local (coverage instrumentation leaves __start___sancov_*).
        if m and (m.group(1).isupper() or m.group(1) in "uvw"):
            glob.add(m.group(2))
    return glob


def main(argv):
    if len(argv) != 7:
        sys.stderr.write(__doc__.rsplit("usage: ", 1)[1])
        return 2
    cmake, build, cc, nm, shared, static = argv[1:]
    with tempfile.TemporaryDirectory() as tmp:
        headers, code = installed_code(cmake, build, cc, tmp)
    declared = declarations(code)
    names = {n for _, n in declared}
    so = symbols(nm, ["-D", "--defined-only"], shared)
    ar = symbols(nm, ["-g", "--defined-only"], static)
    fail = []
    for kind, n in sorted(declared, key=lambda d: d[1]):
        if n not in so:
            fail.append(f"{kind} {n} is declared but libmegaco.so does not export it")
        if n not in ar:
            fail.append(f"{kind} {n} is declared but libmegaco.a does not define it globally")
    for lib, syms in (("libmegaco.so", so), ("libmegaco.a", ar)):
        for n in sorted(syms):
            if not n.startswith("megaco_"):
                fail.append(f"{lib} defines {n}, which is not megaco_*")
    for n in sorted(so - names):
        if n.startswith("megaco_"):
            fail.append(f"libmegaco.so exports {n}, which no installed header declares")
    # The parse must have found the API, or the checks above prove nothing.
    for n in ("megaco_decode", "megaco_strerror", "megaco_message_model", "megaco_version"):
        if n not in names:
            fail.append(f"{n} not found among the declarations: is the parse broken?")
    kinds = {k: sum(1 for d in declared if d[0] == k) for k in ("function", "object")}
    print(f"{len(headers)} installed headers declare {kinds['function']} functions and "
          f"{kinds['object']} objects; libmegaco.so exports {len(so)} symbols, "
          f"libmegaco.a defines {len(ar)} globally")
    for f in fail:
        print("FAIL " + f)
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
