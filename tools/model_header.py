#!/usr/bin/env python3
"""Build step: asn1c's headers for the H.248.1 module -> megaco/model.h, the
model as an application sees it, and a check that both spell one layout.

asn1c names every type after the module's (Message_t, struct Message,
Command_PR_addReq) and its runtime after itself (INTEGER_t, _Message_H_), so
its headers collide with any other asn1c module's in one translation unit,
and they declare runtime functions the library keeps hidden. The installed
header is therefore derived from them at build time:

  - it declares the data model only: typedefs, struct/union/enum definitions
    and the list macros, with no function, no descriptor (asn_DEF_*) and no
    include of another asn1c header;
  - every name those declarations define gets a prefix: megaco_ for types,
    tags and enum constants (Message_t -> megaco_Message_t), MEGACO_ for
    macros (A_SEQUENCE_OF -> MEGACO_A_SEQUENCE_OF); member names stay;
  - declarations come in the order the C compiler sees them when it includes
    the module's headers, each once, and the runtime's only where the model
    uses them.

The tokens of each declaration are asn1c's, so the layout is the same by
construction; the second output, compiled into the library, asserts it for
the target compiler (sizeof and _Alignof of every type and tag, the value of
every enum constant) next to asn1c's own headers, which it can include in
the same translation unit only because no name is shared.

usage: model_header.py ASN1_DIR ROOT_HEADER OUT_MODEL_H OUT_CHECK_C
"""
import os
import re
import sys

PREFIX = "megaco_"
MACRO_PREFIX = "MEGACO_"

TOKEN = re.compile(r"""
    (?P<ws>[ \t\r\n]+)
  | (?P<comment>/\*.*?\*/|//[^\n]*)
  | (?P<pp>\#(?:\\\n|[^\n])*)
  | (?P<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<number>[0-9][A-Za-z0-9_.]*)
  | (?P<punct>->|\.\.\.|.)
""", re.S | re.X)

TAG_KEYWORDS = ("struct", "union", "enum")
C_KEYWORDS = set("""auto break case char const continue default do double else enum extern
    float for goto if inline int long register restrict return short signed sizeof static
    struct switch typedef union unsigned void volatile while _Bool""".split())


class Bad(Exception):
    pass


class Unit:
    """One top-level declaration (up to its ';') or one preprocessor line,
    with the whitespace and comments that lead up to it."""

    def __init__(self, path, kind, tokens, conds):
        self.path = path
        self.kind = kind  # "pp" or "decl"
        self.tokens = tokens  # [(kind, text)], leading ws/comments included
        self.conds = conds  # enclosing #if lines that are not include guards
        self.defines = set()  # names this unit defines (to be prefixed)
        self.tag_decl = None  # tag of a bare `struct X;`
        self.macro = None
        self.keep = False  # a declaration of the data model (not code)

    def code(self):
        return [t for t in self.tokens if t[0] not in ("ws", "comment")]

    def idents(self):
        out = []
        for kind, tok in self.tokens:
            if kind == "ident":
                out.append(tok)
            elif kind == "pp":
                out += re.findall(r"[A-Za-z_][A-Za-z0-9_]*", re.sub(r"/\*.*?\*/", "", tok, flags=re.S))
        return out


def tokenize(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    pos, out = 0, []
    while pos < len(text):
        m = TOKEN.match(text, pos)
        kind = m.lastgroup
        tok = m.group(kind)
        out.append((kind, tok))
        pos = m.end()
    return out


def directive(tok):
    """('include', 'X.h') / ('if', text) / ... for a preprocessor token."""
    body = re.sub(r"/\*.*?\*/", " ", tok[1:], flags=re.S).replace("\\\n", " ").strip()
    m = re.match(r"(\w+)\s*(.*)", body, re.S)
    return (m.group(1), m.group(2).strip()) if m else ("", "")


class Reader:
    """Reads headers in include order, each once, into a list of units."""

    def __init__(self, directory):
        self.dir = directory
        self.seen = set()
        self.units = []
        self.module_files = set()
        self.notices = {}  # file -> its copyright lines

    def read(self, name):
        if name in self.seen:
            return
        self.seen.add(name)
        path = os.path.join(self.dir, name)
        tokens = tokenize(path)
        for kind, tok in tokens:
            if kind == "comment" and "From ASN.1 module" in tok:
                self.module_files.add(name)
            elif kind == "comment" and "Copyright" in tok and name not in self.module_files:
                for line in tok.splitlines():
                    m = re.search(r"(Copyright .*?)(?:All rights reserved\.)?\s*$", line)
                    if m:
                        self.notices.setdefault(name, []).append(m.group(1).strip())
        conds = []  # [(text, trivial, skip)]
        lead = []
        body = []
        depth = 0
        fbody = False
        same_line = False  # just after a unit's end, before a newline
        i = 0
        guard = None
        while i < len(tokens):
            kind, tok = tokens[i]
            i += 1
            skipping = any(c[2] for c in conds)
            if kind == "pp" and not body:
                same_line = False
                d, arg = directive(tok)
                if d in ("if", "ifdef", "ifndef"):
                    trivial, skip = False, False
                    if d in ("ifdef", "ifndef") and arg == "__cplusplus":
                        # extern "C" braces: the output has its own.
                        trivial, skip = True, d == "ifdef"
                    elif d == "ifndef" and guard is None and self.guarded(tokens, i, arg):
                        guard, trivial = arg, True
                    conds.append([f"#{d} {arg}", trivial, skip])
                elif d == "else":
                    if not conds:
                        raise Bad(f"{name}: #else without #if")
                    c = conds[-1]
                    if c[0] == "#ifdef __cplusplus":
                        c[2] = False  # the C branch: keep reading
                        c[1] = False
                        c[0] = "#ifndef __cplusplus"
                    elif c[0] == "#ifndef __cplusplus":
                        c[2] = True
                    else:
                        c[0] = f"!({c[0]})"
                elif d == "elif":
                    conds[-1][0] += f" #elif {arg}"
                    conds[-1][1] = False
                elif d == "endif":
                    if not conds:
                        raise Bad(f"{name}: #endif without #if")
                    conds.pop()
                elif skipping:
                    pass
                elif d == "define" and guard and arg == guard:
                    pass
                elif d == "include":
                    m = re.match(r'["<]([^">]+)[">]', arg)
                    if m and os.path.exists(os.path.join(self.dir, m.group(1))):
                        self.read(m.group(1))
                    # System headers: the output includes what it needs.
                else:
                    u = Unit(name, "pp", lead + [(kind, tok)], self.active(conds))
                    self.units.append(u)
                lead = []
                continue
            if skipping:
                continue
            if kind in ("ws", "comment") and not body:
                if same_line and (kind == "comment" or "\n" not in tok):
                    self.units[-1].tokens.append((kind, tok))  # its trailing comment
                else:
                    same_line = False
                    lead.append((kind, tok))
                continue
            if kind == "pp":
                raise Bad(f"{name}: a directive inside a declaration: {tok.strip()}")
            prev = next((t for k, t in reversed(body) if k not in ("ws", "comment")), "")
            body.append((kind, tok))
            if tok in "{(":
                if tok == "{" and depth == 0 and prev == ")":
                    fbody = True  # a function definition: ends at its '}'
                depth += 1
            elif tok in "})":
                depth -= 1
                if depth == 0 and fbody:
                    self.units.append(Unit(name, "decl", lead + body, self.active(conds)))
                    lead, body, fbody, same_line = [], [], False, True
            elif tok == ";" and depth == 0:
                self.units.append(Unit(name, "decl", lead + body, self.active(conds)))
                lead, body, same_line = [], [], True
        if body:
            raise Bad(f"{name}: ends inside a declaration")
        if conds:
            raise Bad(f"{name}: unterminated #if")

    @staticmethod
    def guarded(tokens, i, arg):
        """#ifndef arg at tokens[i - 1] is followed by #define arg."""
        for kind, tok in tokens[i:]:
            if kind == "pp":
                return directive(tok) == ("define", arg)
            if kind not in ("ws", "comment"):
                return False
        return False

    @staticmethod
    def active(conds):
        return tuple(c[0] for c in conds if not c[1])


def analyse(unit):
    """Fills in what a unit defines and whether it belongs to the model."""
    if unit.kind == "pp":
        d, arg = directive(next(t[1] for t in unit.tokens if t[0] == "pp"))
        if d == "define":
            unit.macro = re.match(r"\w+", arg).group(0)
            unit.defines.add(unit.macro)
            unit.keep = True
        return
    code = unit.code()
    words = [t[1] for t in code]
    # Tags defined anywhere in it, and the constants of its enums.
    for i, (kind, tok) in enumerate(code):
        if tok in TAG_KEYWORDS and i + 2 < len(code) and code[i + 1][0] == "ident" \
                and code[i + 2][1] == "{":
            unit.defines.add(code[i + 1][1])
        if tok == "enum":
            j = i + 1
            while j < len(code) and code[j][1] != "{":
                if code[j][1] in (";", ")", ","):
                    break
                j += 1
            if j < len(code) and code[j][1] == "{":
                level, expect = 0, True
                for k in range(j + 1, len(code)):
                    w = code[k][1]
                    if w in "({":
                        level += 1
                    elif w == "}" and level == 0:
                        break
                    elif w in ")}":
                        level -= 1
                    elif level == 0 and w == ",":
                        expect = True
                    elif level == 0 and expect and code[k][0] == "ident":
                        unit.defines.add(w)
                        expect = False
    if words[0] == "typedef":
        unit.keep = True
        # The declarator: `( [*] NAME )` of a function type, else the last
        # name outside parentheses (A_SET_OF(void) NAME is a macro's).
        level, paren, last_ident, name = 0, 0, None, None
        for i, (kind, tok) in enumerate(code):
            if tok in "{[":
                level += 1
            elif tok in "}]":
                level -= 1
            elif level:
                continue
            elif tok == "(":
                rest = [t[1] for t in code[i + 1:i + 4]]
                if name is None and paren == 0:
                    if code[i + 1][0] == "ident" and rest[1] == ")" and rest[0] not in C_KEYWORDS:
                        name = rest[0]
                    elif rest[0] == "*" and code[i + 2][0] == "ident" and rest[2] == ")":
                        name = rest[1]
                paren += 1
            elif tok == ")":
                paren -= 1
            elif kind == "ident" and paren == 0:
                last_ident = tok
        name = name or last_ident
        unit.defines.add(name)
    elif words[0] in TAG_KEYWORDS and len(words) >= 3:
        if words[2] == ";" and code[1][0] == "ident":
            unit.tag_decl = words[1]  # forward declaration
            unit.keep = True
        elif words[2] == "{" and words[-2] == "}":
            unit.keep = True  # struct X { ... }; with no object declared


def generate(directory, root):
    reader = Reader(directory)
    reader.read(root)
    for name in sorted(os.listdir(directory)):
        if name.endswith(".h"):
            reader.read(name)
    units = reader.units
    for u in units:
        analyse(u)
    definers = {}
    for u in units:
        if u.keep and not u.conds:
            for n in u.defines:
                definers.setdefault(n, []).append(u)
    names = set(definers) - C_KEYWORDS
    tags_declared = {u.tag_decl for u in units if u.tag_decl}
    names |= tags_declared

    # The model: every declaration of the module's headers, then whatever
    # runtime declarations those reach.
    needed = set()
    work = [u for u in units if u.keep and u.path in reader.module_files]
    for u in work:
        if u.conds:
            raise Bad(f"{u.path}: a model declaration under {u.conds}")
    while work:
        u = work.pop()
        if id(u) in needed:
            continue
        needed.add(id(u))
        for w in u.idents():
            for d in definers.get(w, []):
                if id(d) not in needed:
                    work.append(d)
    for u in units:  # forward declarations of tags the model uses
        if u.tag_decl and not u.conds and u.tag_decl in definers and \
                any(id(d) in needed for d in definers[u.tag_decl]):
            needed.add(id(u))
    emitted = [u for u in units if id(u) in needed]
    for u in emitted:
        if u.conds:
            raise Bad(f"{u.path}: the model needs a declaration under {u.conds}: "
                      + "".join(t[1] for t in u.code())[:80])
    macros = {u.macro for u in units if u.macro}

    def rename(n):
        if n not in names:
            return n
        return (MACRO_PREFIX if n in macros else PREFIX) + n

    check_members(emitted, names)
    def rename_pp(text):
        return re.sub(r"[A-Za-z_][A-Za-z0-9_]*", lambda m: rename(m.group(0)), text)

    body = []
    for u in emitted:
        if u.path not in reader.module_files:
            # The runtime's comments speak of its code, which is not here.
            u.tokens = [t for t in u.tokens if t[0] != "comment"]
        body.append("".join(rename(t) if k == "ident" else rename_pp(t) if k == "pp" else t
                            for k, t in u.tokens))
    text = "".join(body)
    text = re.sub(r"[ \t]+\n", "\n", text)
    text = re.sub(r"\n{3,}", "\n\n", text).strip("\n")

    asn1c = re.search(r"Generated by (asn1c-[0-9.]+)",
                      open(os.path.join(directory, root), encoding="utf-8").read())
    module = re.search(r'From ASN.1 module "([^"]+)"',
                       open(os.path.join(directory, root), encoding="utf-8").read())
    notices = []
    for u in emitted:
        for n in reader.notices.get(u.path, []):
            if n not in notices:
                notices.append(n)
    notices = "".join(f" *   {n}\n" for n in notices)
    model_h = f"""/*
 * The Megaco message model: the C types {asn1c.group(1) if asn1c else "asn1c"} generates for the ASN.1
 * module {module.group(1) if module else "?"}, as megaco_message_model() returns them.
 * Generated by tools/model_header.py from asn1c's headers when libmegaco
 * was built; do not edit (docs/abi.md).
 *
 * asn1c's names with a prefix, so that this header and an application's own
 * asn1c headers can be included in one file: types, struct/union/enum tags
 * and enum constants carry megaco_ (Message_t is megaco_Message_t,
 * Command_PR_addReq is megaco_Command_PR_addReq), the list macros MEGACO_
 * (MEGACO_A_SEQUENCE_OF); member names are asn1c's. Only data types are
 * declared: encode, decode, print and free through the megaco_* API.
 *
 * The runtime types below (OCTET_STRING, INTEGER, the list and context
 * structs) are those of asn1c's runtime:
{notices} *   (BSD license)
 */
#ifndef MEGACO_MODEL_H
#define MEGACO_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h> /* ssize_t, in the decoder's context of each struct */

#ifdef __cplusplus
extern "C" {{
#endif

{text}

#ifdef __cplusplus
}}
#endif

#endif /* MEGACO_MODEL_H */
"""
    # The layout check: asn1c's headers and the prefixed ones side by side.
    checks = []
    for u in emitted:
        for n in sorted(u.defines):
            if n in macros:
                continue
            code = [t[1] for t in u.code()]
            if n in u.idents() and is_constant(u, n):
                checks.append(f"MODEL_SAME_VALUE({n}, {rename(n)});")
            elif is_tag(u, n):
                kw = code[code.index(n) - 1]
                checks.append(f"MODEL_SAME_LAYOUT({kw} {n}, {kw} {rename(n)});")
            else:
                checks.append(f"MODEL_SAME_LAYOUT({n}, {rename(n)});")
    includes = "".join(f'#include "{f}"\n' for f in sorted(reader.module_files))
    check_c = f"""/*
 * Generated by tools/model_header.py: megaco/model.h spells the layout
 * asn1c's own headers have, on this target. Compiled into the library; no
 * code, only compile-time assertions.
 */
{includes}
#include "megaco/model.h"

#define MODEL_SAME_LAYOUT(a, b) \\
	_Static_assert(sizeof(a) == sizeof(b) && _Alignof(a) == _Alignof(b), \\
	               #b " has the layout of " #a)
#define MODEL_SAME_VALUE(a, b) _Static_assert((long)(a) == (long)(b), #b " equals " #a)

{chr(10).join(checks)}

typedef int megaco_model_checked; /* not an empty unit */
"""
    return model_h, check_c


def is_tag(unit, name):
    code = [t[1] for t in unit.code()]
    return any(code[i] in TAG_KEYWORDS and code[i + 1] == name and code[i + 2] == "{"
               for i in range(len(code) - 2))


def is_constant(unit, name):
    """True when name is an enum constant of unit (not a tag or typedef)."""
    code = [t[1] for t in unit.code()]
    for i, w in enumerate(code):
        if w == name:
            prev = code[i - 1] if i else ""
            nxt = code[i + 1] if i + 1 < len(code) else ""
            if prev in ("{", ",") and nxt in ("=", ",", "}"):
                inside_enum = False
                level = 0
                for j in range(i - 1, -1, -1):
                    if code[j] == "}":
                        level += 1
                    elif code[j] == "{":
                        if level == 0:
                            inside_enum = "enum" in code[max(0, j - 2):j]
                            break
                        level -= 1
                if inside_enum:
                    return True
    return False


def check_members(units, names):
    """A member named like a prefixed name would be renamed with it."""
    for u in units:
        if u.kind != "decl":
            continue
        code = u.code()
        level = 0
        for i, (kind, tok) in enumerate(code):
            if tok == "{":
                level += 1
            elif tok == "}":
                level -= 1
            elif level and kind == "ident" and tok in names and i + 1 < len(code) \
                    and code[i + 1][1] in (";", "[", ":") \
                    and code[i - 1][1] not in TAG_KEYWORDS:
                raise Bad(f"{u.path}: member {tok} has the name of a type or constant")


def main(argv):
    if len(argv) != 5:
        sys.stderr.write(__doc__.rsplit("usage: ", 1)[1])
        return 2
    directory, root, out_h, out_c = argv[1:]
    try:
        model_h, check_c = generate(directory, root)
    except Bad as e:
        sys.stderr.write(f"model_header.py: {e}\n")
        return 1
    for path, text in ((out_h, model_h), (out_c, check_c)):
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        old = None
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                old = f.read()
        if old != text:  # unchanged output keeps its timestamp
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
