#!/usr/bin/env python3
"""Checks an RTL block's ports against what its transactor drives (docs/rtl.md).

Runs Verilator's front end on the block (--xml-only) and compares the top module's ports,
their directions and widths, with the transactor's port list (models/rtl/<block>_rtl.ports:
one `direction name width` per line, `#` comments). Any difference is one line on stderr,
naming the block, the source and the port, and exit status 1; a source Verilator rejects
(a syntax error, an unknown top module) is its first error line, also exit status 1.

usage: rtl-ports.py --block NAME --source FILE.sv --top MODULE --ports FILE.ports
                    [--verilator PATH] [--stamp FILE] [-- VERILATOR_ARGS...]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET


def expected_ports(path):
    ports = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            if len(parts) != 3 or parts[0] not in ("input", "output") or not parts[2].isdigit():
                raise SystemExit(f"{path}:{n}: expected 'input|output NAME WIDTH', got '{line}'")
            ports[parts[1]] = (parts[0], int(parts[2]))
    return ports


def actual_ports(xml_path, top):
    root = ET.parse(xml_path).getroot()
    widths = {}
    for t in root.iter("basicdtype"):
        left, right = t.get("left"), t.get("right")
        widths[t.get("id")] = abs(int(left) - int(right)) + 1 if left is not None else 1
    for module in root.iter("module"):
        if module.get("topModule") == "1" or module.get("origName") == top:
            ports = {}
            for v in module.findall("var"):
                d = v.get("dir")
                if d in ("input", "output", "inout"):
                    ports[v.get("name")] = (d, widths.get(v.get("dtype_id"), 0))
            return ports
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--block", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--top", required=True)
    ap.add_argument("--ports", required=True)
    ap.add_argument("--verilator", default="verilator")
    ap.add_argument("--stamp")
    ap.add_argument("verilator_args", nargs="*")
    a = ap.parse_args()
    where = f"RTL block {a.block} ({a.source})"

    def fail(msg):
        print(f"error: {where}: {msg}", file=sys.stderr)
        sys.exit(1)

    if not os.path.isfile(a.source):
        fail("source not found")
    want = expected_ports(a.ports)
    with tempfile.TemporaryDirectory() as tmp:
        xml = os.path.join(tmp, "ports.xml")
        r = subprocess.run([a.verilator, "--xml-only", "--xml-output", xml, "--top-module", a.top, "-Wno-fatal",
                            "-Mdir", tmp] + a.verilator_args + [a.source],
                           capture_output=True, text=True)
        if r.returncode != 0:
            lines = [l for l in r.stderr.splitlines() if l.startswith("%Error")]
            fail(lines[0] if lines else "verilator failed")
        have = actual_ports(xml, a.top)
    if have is None:
        fail(f"no top module '{a.top}'")
    for name, (d, w) in want.items():
        if name not in have:
            fail(f"port {name} missing (the transactor drives {d} {name} [{w}])")
        hd, hw = have[name]
        if hd != d:
            fail(f"port {name} is an {hd}, the transactor expects an {d}")
        if hw != w:
            fail(f"port {name} is {hw} bits wide, the transactor expects {w}")
    for name in have:
        if name not in want:
            fail(f"port {name} is not driven by the transactor ({a.ports})")
    if a.stamp:
        with open(a.stamp, "w", encoding="utf-8") as f:
            f.write("ports checked\n")


if __name__ == "__main__":
    main()
