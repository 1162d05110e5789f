#!/usr/bin/env python3
"""Build step: data/packages.yaml -> the built-in package registry as const C
tables (src/registry.h describes them; src/registry.c looks them up).

Runs on the build machine at build time (cmake/Names.cmake), needs nothing
but python3: it reads the subset of YAML that file is written in (block
mappings and sequences, flow mappings, plain and double-quoted scalars,
comments; flow sequences of flow mappings) and refuses anything else with the line number. The entries obey
the rules megaco_registry_add_*() enforce at run time (names, reserved IDs,
clashes, extends), and the tables are sorted with the same case-insensitive
order the lookups' binary searches use.

usage: registry_tables.py IN.yaml OUT.c
"""
import re
import sys

NAME_MAX = 64
KINDS = ("properties", "events", "signals", "statistics")


class Bad(Exception):
    pass


# --- the YAML subset ---------------------------------------------------------

def strip_comment(text):
    out, quoted = [], False
    for i, c in enumerate(text):
        if c == '"':
            quoted = not quoted
        elif c == "#" and not quoted and (i == 0 or text[i - 1] in " \t"):
            break
        out.append(c)
    return "".join(out).rstrip()


def read_lines(path):
    lines = []
    with open(path, encoding="utf-8") as f:
        for no, raw in enumerate(f, 1):
            if "\t" in raw[: len(raw) - len(raw.lstrip())]:
                raise Bad(f"line {no}: tab in indentation")
            text = strip_comment(raw.rstrip("\n"))
            if text.strip():
                lines.append([len(text) - len(text.lstrip(" ")), text.strip(), no])
    return lines


def scalar(text, no):
    if text.startswith('"'):
        if not text.endswith('"') or len(text) < 2 or "\\" in text:
            raise Bad(f"line {no}: unsupported quoted scalar {text}")
        return text[1:-1]
    if text[:1] in "'&*!|>%@`[":
        raise Bad(f"line {no}: unsupported YAML: {text}")
    return text


def flow(text, no):
    """A flow mapping {k: v, k: {..}, k: [..]} -> (dict, rest)."""
    assert text[0] == "{"
    out, rest = {}, text[1:].lstrip()
    while True:
        if rest.startswith("}"):
            return out, rest[1:].lstrip()
        m = re.match(r'([^:,{}\s]+|"[^"]*"):\s*', rest)
        if not m:
            raise Bad(f"line {no}: bad flow mapping at {rest!r}")
        key, rest = scalar(m.group(1), no), rest[m.end():]
        if rest.startswith("{"):
            val, rest = flow(rest, no)
        elif rest.startswith("["):
            val, rest = flow_seq(rest, no)
        else:
            m = re.match(r'("[^"]*"|[^,{}]*?)\s*(?=[,}])', rest)
            if not m:
                raise Bad(f"line {no}: bad flow value at {rest!r}")
            val, rest = scalar(m.group(1), no), rest[m.end():]
        if key in out:
            raise Bad(f"line {no}: key {key} twice")
        out[key] = val
        if rest.startswith(","):
            rest = rest[1:].lstrip()


def flow_seq(text, no):
    """A flow sequence of flow mappings [{..}, {..}] -> (list, rest)."""
    out, rest = [], text[1:].lstrip()
    while not rest.startswith("]"):
        if not rest.startswith("{"):
            raise Bad(f"line {no}: a flow sequence here holds mappings, not {rest!r}")
        val, rest = flow(rest, no)
        out.append(val)
        if rest.startswith(","):
            rest = rest[1:].lstrip()
        elif not rest.startswith("]"):
            raise Bad(f"line {no}: bad flow sequence at {rest!r}")
    return out, rest[1:].lstrip()


def value(text, no):
    if text.startswith("{"):
        val, rest = flow(text, no)
        if rest:
            raise Bad(f"line {no}: text after a flow mapping: {rest}")
        return val
    return scalar(text, no)


def block(lines, i, indent):
    """The node starting at lines[i] with this indentation -> (node, next i)."""
    if lines[i][1].startswith("- ") or lines[i][1] == "-":
        seq = []
        while i < len(lines) and lines[i][0] == indent and lines[i][1][:1] == "-":
            ind, text, no = lines[i]
            rest = text[1:].lstrip()
            if not rest:
                raise Bad(f"line {no}: empty sequence entry")
            # The entry's first line, as if it stood on its own line.
            lines[i] = [indent + (len(text) - len(rest)), rest, no]
            node, i = block(lines, i, lines[i][0])
            seq.append(node)
        return seq, i
    if lines[i][1].startswith("{"):
        return value(lines[i][1], lines[i][2]), i + 1
    node, first = {}, lines[i][2]
    while i < len(lines) and lines[i][0] == indent and not lines[i][1].startswith("-"):
        ind, text, no = lines[i]
        m = re.match(r'([^:\s"]+|"[^"]*"):(\s+|$)', text)
        if not m:
            raise Bad(f"line {no}: expected 'key: value'")
        key, rest = scalar(m.group(1), no), text[m.end():]
        if key in node:
            raise Bad(f"line {no}: key {key} twice")
        i += 1
        if rest:
            node[key] = (value(rest, no), no)
        elif i < len(lines) and lines[i][0] > indent:
            sub, i = block(lines, i, lines[i][0])
            node[key] = (sub, no)
        else:
            node[key] = ("", no)  # empty: an empty list where a list is expected
    if i < len(lines) and lines[i][0] > indent:
        raise Bad(f"line {lines[i][2]}: unexpected indentation")
    node["__line__"] = first
    return node, i


# --- the registry rules (as src/registry.c applies them at run time) --------

def u16(text, no, what):
    s = text if isinstance(text, str) else ""
    try:  # strtoul(s, NULL, 0): 0x hex, leading 0 octal, else decimal
        if re.fullmatch(r"0[xX][0-9a-fA-F]+", s):
            v = int(s, 16)
        elif re.fullmatch(r"0[0-7]*", s):
            v = int(s, 8)
        elif re.fullmatch(r"[1-9][0-9]*", s):
            v = int(s, 10)
        else:
            raise ValueError
    except ValueError:
        raise Bad(f"line {no}: {what} must be an integer 0..0xFFFF, not {text!r}")
    if v > 0xFFFF:
        raise Bad(f"line {no}: {what} {text} is over 0xFFFF")
    return v


def fallback(name):
    return re.fullmatch(r"[xX][0-9a-fA-F]{4}", name) is not None


def check_name(name, no):
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name) or len(name) > NAME_MAX or fallback(name):
        raise Bad(f"line {no}: invalid name {name!r} (ALPHA *(ALPHA/DIGIT/_), at most "
                  f"{NAME_MAX} chars, not the xHHHH fallback form)")


def entry(node, no, keys):
    if not isinstance(node, dict):
        raise Bad(f"line {no}: expected a mapping")
    line = node.get("__line__", no)
    fields = {}
    for k, v in node.items():
        if k == "__line__":
            continue
        val, kno = v if isinstance(v, tuple) else (v, line)
        if k in ("description", "values"):
            continue
        if k not in keys:
            raise Bad(f"line {kno}: unknown key {k}")
        fields[k] = (val, kno)
    if "name" not in fields or "id" not in fields:
        raise Bad(f"line {line}: entry needs a name and an id")
    name, nno = fields["name"]
    if not isinstance(name, str):
        raise Bad(f"line {nno}: name must be a string")
    ident = u16(fields["id"][0], fields["id"][1], "id")
    if ident == 0xFFFF:
        raise Bad(f"line {fields['id'][1]}: 0xFFFF is the wildcard and cannot be registered")
    return name, ident, fields, line


def as_list(val, no):
    if val == "":
        return []
    if not isinstance(val, list):
        raise Bad(f"line {no}: expected a list")
    return val


def add(table, name, ident, no, what, **extra):
    """table: {lower name: entry}; the same name and id again is the same entry."""
    same_name = table.get(name.lower())
    same_id = next((e for e in table.values() if e["id"] == ident), None)
    if same_name or same_id:
        if same_name is not same_id:
            raise Bad(f"line {no}: {what} {name!r} 0x{ident:04x} clashes with an earlier one")
        return same_name
    e = dict(name=name, id=ident, **extra)
    table[name.lower()] = e
    return e


def load(path):
    lines = read_lines(path)
    if not lines:
        return {}
    root, i = block(lines, 0, lines[0][0])
    if i != len(lines) or not isinstance(root, dict):
        raise Bad("expected a mapping with a \"packages\" list")
    for k in root:
        if k not in ("packages", "__line__"):
            raise Bad(f"line {root[k][1]}: unknown top-level key (expected \"packages\")")
    packages = {}
    for pn in as_list(*root.get("packages", ("", 0))):
        name, ident, f, line = entry(pn, 0, ("name", "id", "version", "extends") + KINDS)
        if name:
            check_name(name, line)
        elif ident != 0:
            raise Bad(f"line {line}: only package 0x0000 has the empty name")
        version = u16(*f["version"], "version") if "version" in f else 0
        extends = f["extends"][0] if "extends" in f else ""
        if extends and extends.lower() not in packages:
            raise Bad(f"line {f['extends'][1]}: extends {extends!r}, not a package listed earlier")
        p = add(packages, name, ident, line, "package", version=version,
                base=packages[extends.lower()]["id"] if extends else -1,
                items={k: {} for k in KINDS})
        if extends and p["base"] != packages[extends.lower()]["id"]:
            raise Bad(f"line {line}: package {name!r} again with another base")
        for kind in KINDS:
            if kind not in f:
                continue
            for it in as_list(*f[kind]):
                iname, iid, itf, iline = entry(it, f[kind][1], ("name", "id", "parameters"))
                check_name(iname, iline)
                item = add(p["items"][kind], iname, iid, iline, "item", params={})
                if "parameters" not in itf:
                    continue
                if kind not in ("events", "signals"):
                    raise Bad(f"line {itf['parameters'][1]}: only events and signals have parameters")
                for pa in as_list(*itf["parameters"]):
                    pname, pid, _, pline = entry(pa, itf["parameters"][1], ("name", "id"))
                    check_name(pname, pline)
                    add(item["params"], pname, pid, pline, "parameter")
    return packages


# --- C output ----------------------------------------------------------------

def c_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def emit(packages, src):
    out = [f"/* Generated from {src} by tools/registry_tables.py; do not edit. */",
           '#include <stddef.h>', "", '#include "registry.h"', ""]
    count = [0]

    def sym():
        count[0] += 1
        return f"r{count[0]}"

    def vec(entries, ref):
        """The two sorted vectors (by name, by id) over entries, as initialisers."""
        if not entries:
            return "{ NULL, 0, 0 }", "{ NULL, 0, 0 }"
        a, b = sym(), sym()
        for arr, order in ((a, lambda e: e["name"].lower()), (b, lambda e: e["id"])):
            refs = ", ".join(ref(e) for e in sorted(entries, key=order))
            out.append(f"static const reg_named *const {arr}[] = {{ {refs} }};")
        return f"{{ {a}, {len(entries)}, 0 }}", f"{{ {b}, {len(entries)}, 0 }}"

    def head(e):
        return f"{{ {c_str(e['name'])}, 0x{e['id']:04x}, 0 }}"

    for p in sorted(packages.values(), key=lambda p: p["id"]):
        by_name, by_id = [], []
        for kind in KINDS:
            items = list(p["items"][kind].values())
            for it in items:
                params = list(it["params"].values())
                for pa in params:
                    pa["sym"] = sym()
                    out.append(f"static const reg_named {pa['sym']} = {head(pa)};")
                vn, vi = vec(params, lambda e: "&" + e["sym"])
                it["sym"] = sym()
                out.append(f"static const reg_item {it['sym']} = {{ {head(it)}, {vn}, {vi} }};")
            vn, vi = vec(items, lambda e: "&" + e["sym"] + ".hd")
            by_name.append(vn)
            by_id.append(vi)
        p["sym"] = sym()
        out.append(f"static const reg_package {p['sym']} = {{ {head(p)}, {p['version']}, {p['base']},\n"
                   f"\t{{ {', '.join(by_name)} }},\n\t{{ {', '.join(by_id)} }} }};")
    vn, vi = vec(list(packages.values()), lambda e: "&" + e["sym"] + ".hd")
    out += ["", "const struct megaco_registry reg_builtin = { NULL, " + vn + ", " + vi + " };"]
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: registry_tables.py IN.yaml OUT.c")
    try:
        text = emit(load(sys.argv[1]), "data/packages.yaml")
    except Bad as e:
        sys.exit(f"{sys.argv[1]}: {e}")
    with open(sys.argv[2] + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    import os
    os.replace(sys.argv[2] + ".tmp", sys.argv[2])


if __name__ == "__main__":
    main()
