#!/usr/bin/python3
"""Writes the result tables of the docs from the experiments' results.json.

Usage: scripts/doc-tables.py [--results-root DIR] [--check] FILE.md...

A table sits between an opening marker that declares it and `<!-- end results -->`;
everything between the two is replaced, everything else stays byte for byte
(docs/experiments.md, "Result tables in the docs", explains the marker):

  <!-- results: experiment=slumber platform=fermi workload=geomean
       corner: "{mean}"
       rows: metric=rf_leakage "register-file leakage"; speedup "speedup over always-on"
       columns: wrf "WRF"; slumber "Slumber"; paper:slumber "thesis: Slumber" -->
  <!-- end results -->

Each cell takes platform, metric, configuration and workload from the table, its row and
its column (a row and its column may not set the same one differently), from
DIR/<experiment>/results.json (DIR default build/experiments, where `gputlm experiment`
writes). An experiment's summary gives, per metric, platform, configuration and workload
(or "geomean" for the mean over all workloads and "group:<g>" for a group's), the value
and, unless the metric's compare is none, the value compared with the baseline; a cell
shows the compared value, or the value for compare none (field=value: the value).

Numbers: ratio (default for a speedup or normalized comparison) 3 decimals; number
(default otherwise) 3 significant digits, from 100 on a whole number with thousands
separators; percent (format=percent) x 100 with one decimal and " %", 2 significant digits
below 1, a difference in percentage points (" pt"); a difference signed; a paper value
without trailing zeros. A mean is always said: in the corner when every cell of ours is a
mean of one kind, else after each row's label, each column's, or in each cell.

Prints `FILE:LINE: table of experiment E rewritten` per table changed. --check writes
nothing and exits 1 listing the tables that differ from the results. Bad input (a
malformed marker; an unknown experiment, metric, platform, configuration or workload; a
missing results file) is one line `error: FILE:LINE: what`, exit status 2, and nothing
written; an experiment with failed points is a warning. A file is written to a temporary
file and renamed into place; markers inside code fences are left alone.
"""
import argparse
import json
import math
import os
import re
import sys
import tempfile

KEYS = ("platform", "metric", "configuration", "workload")
FORMATS = ("ratio", "number", "percent")
FIELDS = ("value", "compared")
SECTIONS = ("rows:", "columns:", "corner:")
END = "<!-- end results -->"
OPEN = re.compile(r"^([ \t]*)<!--\s*results:")
FENCE = re.compile(r"^[ \t]*(```|~~~)")
MINUS = "\u2212"
NONE = "\u2014"  # a cell without a value
MEAN_NAMES = {True: "geomean", False: "arithmetic mean"}


class Bad(Exception):
    def __init__(self, line, what):
        super().__init__(what)
        self.line = line
        self.what = what


# ---------------------------------------------------------------------------------------
# Numbers


def _decimals_for(x, significant):
    return max(0, significant - 1 - math.floor(math.log10(abs(x))))


def _fixed(x, decimals, strip):
    s = f"{abs(x):.{decimals}f}"
    if strip and "." in s:
        s = s.rstrip("0").rstrip(".")
    return s


def format_number(x, fmt, signed, strip):
    """`x` as the table shows it. ratio: 3 decimals. number: 3 significant digits, from 100
    on a whole number with thousands separators. percent: x * 100 with one decimal, two
    significant digits below 1, and " %" (" pt", percentage points, when signed). Signed
    (a difference with the baseline): "+" or "−". strip: no trailing zeros (paper values)."""
    unit = ""
    if fmt == "percent":
        x *= 100
        unit = " pt" if signed else " %"
    if x == 0:
        body = "0.000" if fmt == "ratio" and not strip else "0"
        return body + unit
    if fmt == "ratio":
        body = _fixed(x, 3, strip)
    elif fmt == "number":
        if abs(x) >= 100:
            body = f"{round(abs(x)):,}"
        else:
            body = _fixed(x, _decimals_for(x, 3), strip)
    else:
        body = _fixed(x, 1 if abs(x) >= 1 else _decimals_for(x, 2), strip)
    if x < 0:
        body = MINUS + body
    elif signed:
        body = "+" + body
    return body + unit


# ---------------------------------------------------------------------------------------
# The marker


def tokenize(text, first_line):
    """Words, "labels" and ';' of a marker's text, each with its line number."""
    tokens, i, line = [], 0, first_line
    while i < len(text):
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif c == ";":
            tokens.append((";", ";", line))
            i += 1
        elif c == '"':
            j = text.find('"', i + 1)
            if j < 0 or "\n" in text[i:j]:
                raise Bad(line, "unterminated label (a label is one line between double quotes)")
            tokens.append(("label", text[i + 1:j], line))
            i = j + 1
        else:
            j = i
            while j < len(text) and not text[j].isspace() and text[j] not in ';"':
                j += 1
            tokens.append(("word", text[i:j], line))
            i = j
    return tokens


class Selector:
    """What a table, a row or a column fixes, and a row's or column's label."""

    def __init__(self, line):
        self.line = line
        self.coords = {}  # key -> [name, ...] (several: the cell lists them, " / ")
        self.lines = {}  # key -> the line that set it
        self.bare = []  # names whose key is found in the experiment
        self.paper = False
        self.field = None
        self.format = None
        self.label = None

    def add_word(self, word, line):
        if word == "paper":
            self.paper = True
            return
        if word.startswith("paper:"):
            self.paper = True
            word = word[len("paper:"):]
        key, eq, value = word.partition("=")
        if eq and key in KEYS + ("field", "format"):
            if not value:
                raise Bad(line, f"'{word}': no value")
            if key in self.coords or (key == "field" and self.field) or (
                    key == "format" and self.format):
                raise Bad(line, f"'{key}' set twice")
            if key == "field":
                if value not in FIELDS:
                    raise Bad(line, f"field '{value}': one of {', '.join(FIELDS)}")
                self.field = value
            elif key == "format":
                if value not in FORMATS:
                    raise Bad(line, f"format '{value}': one of {', '.join(FORMATS)}")
                self.format = value
            else:
                self.coords[key] = value.split("/")
                self.lines[key] = line
        elif word:
            self.bare.append((word, line))

    def resolve(self, exp):
        """Gives each bare name its key (the one kind of name it is in the experiment) and
        checks every name."""
        for word, line in self.bare:
            parts = word.split("/")
            kinds = {k for p in parts for k in KEYS if p in exp.names[k]}
            if not kinds:
                raise Bad(line, f"unknown name '{word}' in experiment {exp.name}")
            if len(kinds) > 1:
                ks = " or ".join(sorted(kinds))
                raise Bad(line, f"'{word}' is ambiguous in experiment {exp.name} ({ks}): "
                          f"write it as key=value")
            key = kinds.pop()
            if key in self.coords:
                raise Bad(line, f"'{key}' set twice")
            self.coords[key] = parts
            self.lines[key] = line
        self.bare = []
        for key, names in self.coords.items():
            for n in names:
                if n not in exp.names[key]:
                    known = ", ".join(exp.listed[key])
                    raise Bad(self.lines.get(key, self.line),
                              f"unknown {key} '{n}' in experiment {exp.name} "
                              f"(it has: {known})")


def parse_marker(text, first_line):
    """The table a marker declares: (header selector, corner, rows, columns)."""
    tokens = tokenize(text, first_line)
    header = Selector(first_line)
    corner, rows, columns = "", [], []
    section, seen, current = None, set(), None
    for kind, val, line in tokens:
        if kind == "word" and val in SECTIONS:
            if current is not None:
                raise Bad(current.line, "a row or column without a \"label\"")
            if val in seen:
                raise Bad(line, f"'{val}' given twice")
            seen.add(val)
            section = val
            continue
        if section is None:
            if kind != "word":
                raise Bad(line, f"unexpected {kind!r} before rows:/columns:")
            header.add_word(val, line)
        elif section == "corner:":
            if kind != "label" or corner:
                raise Bad(line, 'corner: takes one "label"')
            corner = val
        else:
            target = rows if section == "rows:" else columns
            if kind == ";":
                if current is not None:
                    raise Bad(current.line, "a row or column without a \"label\"")
                continue
            if current is None:
                current = Selector(line)
            if kind == "label":
                current.label = val
                target.append(current)
                current = None
            else:
                current.add_word(val, line)
    if current is not None:
        raise Bad(current.line, "a row or column without a \"label\"")
    for s in ("rows:", "columns:"):
        if s not in seen or not (rows if s == "rows:" else columns):
            raise Bad(first_line, f"no {s} in the marker")
    exp_names = [w for w, _ in header.bare if w.startswith("experiment=")]
    if len(exp_names) != 1:
        raise Bad(first_line, "the marker names no experiment (experiment=NAME)")
    header.bare = [(w, ln) for w, ln in header.bare if not w.startswith("experiment=")]
    return exp_names[0][len("experiment="):], header, corner, rows, columns


# ---------------------------------------------------------------------------------------
# Results


class Experiment:
    def __init__(self, name, path, line):
        try:
            with open(path, encoding="utf-8") as f:
                r = json.load(f)
        except OSError as e:
            raise Bad(line, f"no results of experiment '{name}': {path}: {e.strerror}")
        except ValueError as e:
            raise Bad(line, f"{path}: not JSON: {e}")
        try:
            if r["experiment"]["name"] != name:
                raise Bad(line, f"{path} holds experiment '{r['experiment']['name']}', "
                          f"not '{name}'")
            self.name = name
            self.summary = r["summary"]
            self.paper = r.get("paper", [])
            self.metrics = {m["name"]: m for m in r["metrics"]}
            workloads = [w["name"] for w in r["workloads"]]
            aggregates = ["geomean", "mean"] + ["group:" + g for g in r.get("groups", [])]
            self.listed = {"platform": r["platforms"], "metric": list(self.metrics),
                           "configuration": r["configurations"],
                           "workload": workloads + aggregates}
        except (KeyError, TypeError) as e:
            raise Bad(line, f"{path}: not an experiment's results.json (no {e})")
        self.names = {k: set(v) for k, v in self.listed.items()}
        points = r.get("points", [])
        failed = sum(1 for p in points if p.get("error"))
        self.warning = (f"{failed} of {len(points)} points of experiment '{name}' failed "
                        f"({path})") if failed else ""

    def ours(self, metric, platform, configuration, workload, field):
        """(value or None, count annotation) of one summary cell."""
        cell = (self.summary.get(metric, {}).get(platform, {}).get(configuration, {})
                .get(workload))
        if not isinstance(cell, dict):
            return None, ""
        x = cell.get(field)
        note = ""
        if x is not None and cell.get("of") and cell.get("count", 0) < cell["of"]:
            note = f" ({cell['count']} of {cell['of']})"
        return x, note

    def cannot_move(self, metric, platform):
        """The experiment found no configuration moves this comparison on this platform
        (results.json's paper entries say cannot_move): no paper value stands beside it."""
        return any(p.get("cannot_move") and (p.get("metric"), p.get("platform")) ==
                   (metric, platform) for p in self.paper)

    def paper_value(self, metric, platform, configuration, workload):
        for p in self.paper:
            if (p.get("metric"), p.get("platform"), p.get("configuration"),
                    p.get("workload")) == (metric, platform, configuration, workload):
                return p.get("value")
        return None


# ---------------------------------------------------------------------------------------
# A table


def build_table(exp, header, corner, rows, columns, indent):
    for s in [header] + rows + columns:
        s.resolve(exp)
    if not header.coords.get("platform") and len(exp.listed["platform"]) == 1:
        header.coords["platform"] = exp.listed["platform"][:]

    label_cols = corner.count("|") + 1
    for r in rows:
        if r.label.count("|") + 1 != label_cols:
            raise Bad(r.line, f"the row's label has {r.label.count('|') + 1} parts ('|'), "
                      f"the corner {label_cols}")

    # cells[i][j]: the cell's values, each (text, count note, mean kind, paper?); the kind is
    # True for a geometric mean, False for an arithmetic one, None for no mean.
    cells = []
    for r in rows:
        line = []
        for c in columns:
            coords = dict(header.coords)
            for key in KEYS:
                if key in r.coords and key in c.coords and r.coords[key] != c.coords[key]:
                    raise Bad(r.line, f"row \"{r.label}\" and column \"{c.label}\" both set "
                              f"the {key}")
                for s in (r, c):
                    if key in s.coords:
                        coords[key] = s.coords[key]
            for key in KEYS:
                if key not in coords:
                    raise Bad(r.line, f"row \"{r.label}\", column \"{c.label}\": no {key}")
            lists = [k for k in KEYS if len(coords[k]) > 1]
            if len(lists) > 1:
                raise Bad(r.line, f"row \"{r.label}\", column \"{c.label}\": lists of more "
                          f"than one of {', '.join(lists)}")
            opts = {}
            for opt in ("field", "format"):
                vals = {getattr(s, opt) for s in (header, r, c) if getattr(s, opt)}
                vals_rc = {getattr(s, opt) for s in (r, c) if getattr(s, opt)}
                if len(vals_rc) > 1:
                    raise Bad(r.line, f"row \"{r.label}\" and column \"{c.label}\" set "
                              f"different {opt}s")
                opts[opt] = (vals_rc or vals or {None}).pop()
            paper = header.paper or r.paper or c.paper
            n = max(len(coords[k]) for k in KEYS)
            parts = []
            for i in range(n):
                pt = {k: coords[k][i] if len(coords[k]) > 1 else coords[k][0] for k in KEYS}
                parts.append(cell_part(exp, pt, opts, paper, r.line))
            line.append(parts)
        cells.append(line)

    # Where the kind of mean is said: once (the corner) when every "ours" cell is a mean of
    # one kind; else on each row, else on each column, whose means are all of one kind;
    # else in each cell.
    def kinds(parts):
        return {p[2] for p in parts if p[2] is not None}

    def all_means(parts):
        return all(p[2] is not None for p in parts if not p[3])

    ours_parts = [p for line in cells for parts in line for p in parts if not p[3]]
    table_kinds = {p[2] for p in ours_parts}
    where = {"corner": None, "rows": {}, "columns": {}, "cells": False}
    if ours_parts and len(table_kinds) == 1 and None not in table_kinds:
        where["corner"] = table_kinds.pop()
    else:
        row_kinds = [set().union(*(kinds(p) for p in line)) for line in cells]
        col_kinds = [set().union(*(kinds(line[j]) for line in cells))
                     for j in range(len(columns))]
        mixed_cells = any(len(kinds(p)) > 1 for line in cells for p in line)
        if not mixed_cells and all(len(k) <= 1 for k in row_kinds):
            where["rows"] = {i: k.pop() for i, k in enumerate(row_kinds) if k}
        elif not mixed_cells and all(len(k) <= 1 for k in col_kinds):
            where["columns"] = {j: k.pop() for j, k in enumerate(col_kinds) if k}
        else:
            where["cells"] = True

    def say(text, kind, line):
        if kind is None:
            if "{mean}" in text:
                raise Bad(line, f"'{{mean}}' in \"{text}\", where no mean is said")
            return text
        name = MEAN_NAMES[kind]
        if "{mean}" in text:
            return text.replace("{mean}", name)
        return f"{text} ({name})" if text else name

    corner_text = say(corner, where["corner"], header.line)
    col_labels = [say(c.label, where["columns"].get(j), c.line) for j, c in enumerate(columns)]

    def row(texts):
        return "|" + "|".join(f" {s} " if s else " " for s in texts) + "|"

    out = [row([corner_text] + col_labels), "|" + "---|" * label_cols + "---:|" * len(columns)]
    for i, r in enumerate(rows):
        texts = []
        for parts in cells[i]:
            shown = []
            for text, note, kind, paper in parts:
                if where["cells"] and kind is not None and text != NONE:
                    note += f" ({MEAN_NAMES[kind]})"
                shown.append(text + note)
            texts.append(join_parts(shown))
        out.append(row([say(r.label, where["rows"].get(i), r.line)] + texts))
    return [indent + line for line in out]


def cell_part(exp, pt, opts, paper, line):
    """(text, count note, mean kind of an "ours" part or None, paper?) of one value."""
    m = exp.metrics[pt["metric"]]
    compared = m.get("compare", "none") != "none"
    field = opts["field"] or ("compared" if compared else "value")
    if field == "compared" and not compared:
        raise Bad(line, f"metric {m['name']} is not compared with a baseline (compare: none)")
    fmt = opts["format"] or ("ratio" if field == "compared" and m.get("compare") in
                             ("speedup", "normalized") else "number")
    signed = field == "compared" and m.get("compare") == "difference"
    workload = "geomean" if pt["workload"] == "mean" else pt["workload"]
    aggregate = workload == "geomean" or workload.startswith("group:")
    if paper and exp.cannot_move(m["name"], pt["platform"]):
        return "not compared (cannot move)", "", None, True
    if paper:
        x = None if field == "value" and compared else exp.paper_value(
            m["name"], pt["platform"], pt["configuration"], workload)
        text = NONE if x is None else format_number(x, fmt, signed, strip=True)
        return text, "", None, True
    x, note = exp.ours(m["name"], pt["platform"], pt["configuration"], workload, field)
    kind = (m.get("mean") != "arithmetic") if aggregate else None
    if x is None:
        return NONE, "", kind, False
    return format_number(x, fmt, signed, strip=False), note, kind, False


def join_parts(shown):
    """Values of one cell, " / " between them, a shared unit written once."""
    if all(s == NONE for s in shown):
        return NONE
    for unit in (" %", " pt"):
        if all(s.endswith(unit) for s in shown):
            return " / ".join(s[:-len(unit)] for s in shown) + unit
    return " / ".join(shown)


# ---------------------------------------------------------------------------------------
# A file


def rewrite(path, text, root, cache):
    """The file's text with every table regenerated, and [(line, changed)] per table."""
    lines = text.splitlines(keepends=True)
    out, tables, i, fence = [], [], 0, None
    while i < len(lines):
        line = lines[i]
        f = FENCE.match(line)
        if f:
            fence = None if fence == f.group(1) else (fence or f.group(1))
        m = OPEN.match(line) if fence is None else None
        if m is None:
            if fence is None and line.strip() == END:
                raise Bad(i + 1, f"{END} without a table marker before it")
            out.append(line)
            i += 1
            continue
        first = i + 1
        body = line[m.end():]
        j = i
        while "-->" not in body:
            j += 1
            if j >= len(lines):
                raise Bad(first, "the marker's comment is not closed (-->)")
            body += lines[j]
        body = body[:body.index("-->")]
        k = j + 1
        while k < len(lines) and lines[k].strip() != END:
            if OPEN.match(lines[k]):
                raise Bad(first, f"no {END} before the next table marker (line {k + 1})")
            k += 1
        if k >= len(lines):
            raise Bad(first, f"no {END} after the marker")
        name, header, corner, rows, columns = parse_marker(body, first)
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
            raise Bad(first, f"experiment '{name}': not a name")
        if name not in cache:
            cache[name] = Experiment(name, os.path.join(root, name, "results.json"), first)
            if cache[name].warning:
                print(f"warning: {path}:{first}: {cache[name].warning}", file=sys.stderr)
        nl = "\r\n" if line.endswith("\r\n") else "\n"
        table = build_table(cache[name], header, corner, rows, columns, m.group(1))
        new = [nl] + [t + nl for t in table] + [nl]
        old = lines[j + 1:k]
        out.extend(lines[i:j + 1])
        out.extend(new)
        out.append(lines[k])
        tables.append((first, name, new != old))
        i = k + 1
    return "".join(out), tables


def write_atomically(path, text):
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".doc-tables-", dir=d)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(text.encode("utf-8"))
        os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def main(argv):
    ap = argparse.ArgumentParser(
        prog="doc-tables.py", description="Writes the docs' result tables from the "
        "experiments' results.json (docs/experiments.md, \"Result tables in the docs\").")
    ap.add_argument("--results-root", default=os.path.join("build", "experiments"),
                    help="folder of the experiments' output folders (default: "
                    "build/experiments, as `gputlm experiment` writes them)")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 listing the tables that differ")
    ap.add_argument("files", nargs="+", metavar="FILE.md")
    args = ap.parse_args(argv)

    cache, results = {}, []
    for path in args.files:
        try:
            with open(path, "rb") as f:
                text = f.read().decode("utf-8")
        except (OSError, UnicodeDecodeError) as e:
            print(f"error: {path}:1: cannot read: {e}", file=sys.stderr)
            return 2
        try:
            new, tables = rewrite(path, text, args.results_root, cache)
        except Bad as e:
            print(f"error: {path}:{e.line}: {e.what}", file=sys.stderr)
            return 2
        results.append((path, text, new, tables))

    differ = 0
    for path, text, new, tables in results:
        for line, name, changed in tables:
            if changed:
                differ += 1
                print(f"{path}:{line}: table of experiment {name} "
                      f"{'differs from its results' if args.check else 'rewritten'}")
        if not args.check and new != text:
            write_atomically(path, new)
    return 1 if args.check and differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
