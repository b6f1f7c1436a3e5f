#!/usr/bin/python3
"""Tests of the Python package python/gputlm: statistics and results as dicts and tables, and
scripts/plot-experiment.py on top of gputlm.plots.

Run from anywhere: /usr/bin/python3 tests/python/test_gputlm.py. Exit status 0 when every
test passed, 1 when one failed, 77 when none failed but some were skipped because pandas or
matplotlib is missing (ctest: SKIP_RETURN_CODE 77).

Expected values are written by hand, or computed here by walking the raw JSON, never taken
from the package. data/fermi-vectoradd.json is the statistics of
`gputlm run yaml/fermi.yaml traces/samples/vectoradd --stats F --no-wall-clock`, with each
array of numbers on one line (the same JSON).
"""
import importlib.util
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
HERE = os.path.dirname(os.path.realpath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))

import gputlm  # noqa: E402
from gputlm import stats as gstats  # noqa: E402

HAVE_PANDAS = importlib.util.find_spec("pandas") is not None
HAVE_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None
needs_pandas = unittest.skipUnless(HAVE_PANDAS, "pandas is missing (python3-pandas)")
needs_matplotlib = unittest.skipUnless(HAVE_MATPLOTLIB, "matplotlib is missing")

REAL = os.path.join(HERE, "data", "fermi-vectoradd.json")
NAN = math.nan
INF = math.inf

# A statistics file as gputlm writes one: keys sorted, so "gpu.smx[10]" comes before
# "gpu.smx[2]"; a dotted and an indexed statistic name, a histogram, a null.
SMALL = """{
 "blocks": {
  "gpu": {"cycles": 100},
  "gpu.icnt": {"port.mem[0].flits": 4, "port.mem[1].flits": 9},
  "gpu.l2[0]": {"accesses": 11},
  "gpu.smx[10]": {
   "occupancy": {"bucket_width": 4, "counts": [1, 2, 3]},
   "power.core.static_joules": 0.5,
   "power.static_joules": 0.75,
   "warp_instructions": 7
  },
  "gpu.smx[2]": {
   "occupancy": {"bucket_width": 4, "counts": [0, 6, 1]},
   "power.core.static_joules": 0.25,
   "power.static_joules": 0.5,
   "warp_instructions": 5
  },
  "gpu.smx[2].l1": {"hit_rate": null, "hits": 3}
 },
 "ipc": 1.5,
 "kernels": [
  {"cycles": 900, "name": "k0", "tb_log": [[0, 2, 0, 450], [1, 10, 3, 900]]},
  {"cycles": 50, "launch": "cdp", "name": "k1", "parent": 0, "tb_log": []}
 ],
 "platform": "tiny",
 "power": {"by_component": {"smx.core": {"static_joules": 0.75}}, "policy": "always_on"},
 "total_cycles": 1000
}
"""


def same(a, b):
    """Equality where NaN equals NaN, for rows of tables."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def rows(df):
    return [tuple(r) for r in df.itertuples(index=False, name=None)]


class Case(unittest.TestCase):
    def assertRows(self, df, expected):
        got = rows(df) if not isinstance(df, list) else df
        self.assertEqual(len(got), len(expected), got)
        for i, (g, e) in enumerate(zip(got, expected)):
            self.assertTrue(same(g, e), f"row {i}: {g} != {e}")


def write(folder, name, text):
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


class SmallStats(Case):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = write(self.tmp.name, "stats.json", SMALL)

    def tearDown(self):
        self.tmp.cleanup()

    def test_nested(self):
        d = gputlm.load_stats(self.path)
        self.assertEqual(d["blocks"], {"gpu": {
            "cycles": 100,
            "icnt": {"port": {"mem": {0: {"flits": 4}, 1: {"flits": 9}}}},
            "l2": {0: {"accesses": 11}},
            "smx": {
                2: {"occupancy": {"bucket_width": 4, "counts": [0, 6, 1]},
                    "power": {"core": {"static_joules": 0.25}, "static_joules": 0.5},
                    "warp_instructions": 5, "l1": {"hit_rate": None, "hits": 3}},
                10: {"occupancy": {"bucket_width": 4, "counts": [1, 2, 3]},
                     "power": {"core": {"static_joules": 0.5}, "static_joules": 0.75},
                     "warp_instructions": 7}}}})
        self.assertEqual(list(d["blocks"]["gpu"]["smx"]), [2, 10])  # numeric order
        self.assertEqual(list(d["blocks"]["gpu"]), ["cycles", "icnt", "l2", "smx"])
        self.assertEqual(d["blocks"]["gpu"]["smx"][2]["l1"]["hits"], 3)
        # The run-level values as they are, in the file's order.
        self.assertEqual(list(d), ["blocks", "ipc", "kernels", "platform", "power",
                                   "total_cycles"])
        self.assertEqual(d["kernels"][0]["tb_log"], [[0, 2, 0, 450], [1, 10, 3, 900]])
        self.assertEqual(d["power"]["by_component"]["smx.core"], {"static_joules": 0.75})
        self.assertEqual(d["total_cycles"], 1000)
        # The same from the file's JSON as a dict, and from load_stats's own result.
        with open(self.path, encoding="utf-8") as f:
            raw = json.load(f)
        self.assertEqual(gputlm.load_stats(raw), d)
        self.assertEqual(gputlm.load_stats(d), d)

    def test_collisions(self):
        with self.assertRaisesRegex(ValueError, "already"):
            gputlm.load_stats({"blocks": {"gpu.smx[0]": {"l1": 1}, "gpu.smx[0].l1": {"h": 2}}})
        with self.assertRaisesRegex(ValueError, "already"):
            gputlm.load_stats({"blocks": {"a": {"p": 1, "p.q": 2}}})
        with self.assertRaisesRegex(ValueError, "already"):  # a histogram is a leaf
            gputlm.load_stats({"blocks": {"a": {"h": {"bucket_width": 1, "counts": [1]},
                                                "h.x": 2}}})
        # Statistics of a name and its instances do not collide (str and int keys).
        d = gputlm.load_stats({"blocks": {"gpu.x": {"n": 1}, "gpu.x[0]": {"n": 2}}})
        self.assertEqual(d["blocks"], {"gpu": {"x": {"n": 1, 0: {"n": 2}}}})

    def test_paths(self):
        self.assertEqual(gstats.split_path("gpu.smx[10].l1"), ["gpu", "smx", 10, "l1"])
        self.assertEqual(gstats.split_path("port.mem[3].flits"), ["port", "mem", 3, "flits"])
        self.assertEqual(gstats.split_path("a.b[1][2]"), ["a", "b", 1, 2])
        self.assertEqual(gstats.instance("gpu.smx[2].rf.bank[1]"), (2, 1))
        self.assertIsNone(gstats.instance("gpu.icnt"))
        names = ["gpu.smx[10]", "gpu.smx[2].l1", "gpu.smx[2]", "gpu.l2_ni[0]", "gpu.l2[11]",
                 "gpu.l2[9]", "gpu"]
        self.assertEqual(sorted(names, key=gstats.natural_key),
                         ["gpu", "gpu.l2[9]", "gpu.l2[11]", "gpu.l2_ni[0]", "gpu.smx[2]",
                          "gpu.smx[2].l1", "gpu.smx[10]"])

    def test_run_summary(self):
        self.assertEqual(list(gputlm.run_summary(self.path).items()),
                         [("ipc", 1.5), ("platform", "tiny"), ("total_cycles", 1000)])

    @needs_pandas
    def test_stats_frame(self):
        df = gputlm.stats_frame(self.path)
        self.assertEqual(list(df.columns), ["block", "instance", "statistic", "value"])
        self.assertRows(df, [
            ("gpu", NAN, "cycles", 100.0),
            ("gpu.icnt", NAN, "port.mem[0].flits", 4.0),
            ("gpu.icnt", NAN, "port.mem[1].flits", 9.0),
            ("gpu.l2[0]", (0,), "accesses", 11.0),
            ("gpu.smx[2]", (2,), "power.core.static_joules", 0.25),
            ("gpu.smx[2]", (2,), "power.static_joules", 0.5),
            ("gpu.smx[2]", (2,), "warp_instructions", 5.0),
            ("gpu.smx[2].l1", (2,), "hit_rate", NAN),
            ("gpu.smx[2].l1", (2,), "hits", 3.0),
            ("gpu.smx[10]", (10,), "power.core.static_joules", 0.5),
            ("gpu.smx[10]", (10,), "power.static_joules", 0.75),
            ("gpu.smx[10]", (10,), "warp_instructions", 7.0),
        ])
        # Any of the three inputs gives the same table.
        self.assertRows(gputlm.stats_frame(gputlm.load_stats(self.path)), rows(df))
        with self.assertRaisesRegex(ValueError, "form"):  # the nested form as a plain dict
            gputlm.stats_frame(dict(gputlm.load_stats(self.path)))

    @needs_pandas
    def test_histograms_frame(self):
        df = gputlm.histograms_frame(self.path)
        self.assertEqual(list(df.columns),
                         ["block", "instance", "statistic", "bucket", "low", "high", "count"])
        self.assertRows(df, [
            ("gpu.smx[2]", (2,), "occupancy", 0, 0, 4.0, 0),
            ("gpu.smx[2]", (2,), "occupancy", 1, 4, 8.0, 6),
            ("gpu.smx[2]", (2,), "occupancy", 2, 8, INF, 1),
            ("gpu.smx[10]", (10,), "occupancy", 0, 0, 4.0, 1),
            ("gpu.smx[10]", (10,), "occupancy", 1, 4, 8.0, 2),
            ("gpu.smx[10]", (10,), "occupancy", 2, 8, INF, 3),
        ])

    @needs_pandas
    def test_kernels(self):
        k = gputlm.kernels_frame(self.path)
        self.assertEqual(list(k.columns), ["kernel", "cycles", "name", "launch", "parent"])
        self.assertRows(k, [(0, 900, "k0", NAN, NAN), (1, 50, "k1", "cdp", 0.0)])
        self.assertRows(gputlm.tb_log_frame(self.path), [(0, 0, 2, 0, 450), (0, 1, 10, 3, 900)])
        empty = gputlm.tb_log_frame({"blocks": {}, "kernels": [{"name": "k"}]})
        self.assertEqual((len(empty), list(empty.columns)),
                         (0, ["kernel", "tb", "smx", "start_cycle", "end_cycle"]))


def compact_small():
    """SMALL in the compact form, written by hand: the SMs as one table in numeric order
    (smx[2], smx[10]), their histograms as non-zero buckets, one-instance types as tables of
    one."""
    data = json.loads(SMALL)
    data["stats_form"] = "compact"
    data["blocks"] = {
        "gpu": {"cycles": 100},
        "gpu.icnt": {"port.mem[0].flits": 4, "port.mem[1].flits": 9},
        "gpu.l2[*]": {"instances": ["gpu.l2[0]"], "accesses": 11},
        "gpu.smx[*]": {
            "instances": ["gpu.smx[2]", "gpu.smx[10]"],
            "occupancy": [{"bucket_width": 4, "buckets": 3, "nonzero": [[1, 6], [2, 1]]},
                          {"bucket_width": 4, "buckets": 3, "nonzero": [[0, 1], [1, 2], [2, 3]]}],
            "power.core.static_joules": [0.25, 0.5],
            "power.static_joules": [0.5, 0.75],
            "warp_instructions": [5, 7]},
        "gpu.smx[*].l1": {"instances": ["gpu.smx[2].l1"], "hit_rate": None, "hits": 3}}
    return data


class CompactForm(Case):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = write(self.tmp.name, "compact.json", json.dumps(compact_small()))

    def tearDown(self):
        self.tmp.cleanup()

    def test_full_form(self):
        self.assertEqual(gputlm.full_form(compact_small()), json.loads(SMALL))
        full = json.loads(SMALL)
        self.assertIs(gputlm.full_form(full), full)  # a full document as it is
        self.assertEqual(gputlm.load_stats(self.path)["blocks"]["gpu"]["smx"][10]["occupancy"],
                         {"bucket_width": 4, "counts": [1, 2, 3]})

    def test_malformed(self):
        bad = compact_small()
        bad["blocks"]["gpu.smx[*]"]["warp_instructions"] = [5]
        with self.assertRaisesRegex(ValueError, r"gpu\.smx\[\*\]\.warp_instructions: expected 2"):
            gputlm.full_form(bad)
        bad = compact_small()
        del bad["blocks"]["gpu.smx[*]"]["instances"]
        with self.assertRaisesRegex(ValueError, "needs \"instances\""):
            gputlm.full_form(bad)
        bad = compact_small()
        bad["blocks"]["gpu.smx[*]"]["occupancy"][0]["nonzero"] = [[3, 1]]
        with self.assertRaisesRegex(ValueError, "not \\[bucket, count\\] in range"):
            gputlm.full_form(bad)

    @needs_pandas
    def test_frames_read_either_form(self):
        self.assertTrue(gputlm.stats_frame(self.path).equals(gputlm.stats_frame(json.loads(SMALL))))
        t = gputlm.block_table(self.path, "gpu.smx[*]")
        self.assertEqual(list(t.index), ["gpu.smx[2]", "gpu.smx[10]"])
        self.assertEqual(list(t["warp_instructions"]), [5, 7])
        self.assertEqual(sorted(t.columns),
                         ["power.core.static_joules", "power.static_joules", "warp_instructions"])
        l1 = gputlm.block_table(self.path, "gpu.smx[*].l1")
        self.assertTrue(math.isnan(l1.loc["gpu.smx[2].l1", "hit_rate"]))
        self.assertEqual(gputlm.block_table(json.loads(SMALL), "gpu")["cycles"].tolist(),
                         [100])
        with self.assertRaisesRegex(KeyError, "types: gpu, gpu.icnt, gpu.l2"):
            gputlm.block_table(self.path, "gpu.sm[*]")


class RealStats(Case):
    """gputlm's own output: Fermi (15 SMs, 6 DRAM channels, 12 L2 banks) running vectoradd."""

    @classmethod
    def setUpClass(cls):
        with open(REAL, encoding="utf-8") as f:
            cls.raw = json.load(f)
        cls.smx = {int(m.group(1)): v for k, v in cls.raw["blocks"].items()
                   for m in [re.fullmatch(r"gpu\.smx\[(\d+)\]", k)] if m}

    def test_nested(self):
        d = gputlm.load_stats(REAL)
        smx = d["blocks"]["gpu"]["smx"]
        self.assertEqual(list(smx), list(range(15)))
        self.assertEqual(len(d["blocks"]["gpu"]["dram"]), 6)
        self.assertEqual(len(d["blocks"]["gpu"]["l2"]), 12)
        self.assertEqual(sum(s["warp_instructions"] for s in smx.values()),
                         sum(v["warp_instructions"] for v in self.smx.values()))
        # Every statistic of the file is where its block path and name say, and nothing else.
        count = 0
        for block, stats in self.raw["blocks"].items():
            for name, value in stats.items():
                node = d["blocks"]
                for key in re.findall(r"[^.\[\]]+|\[\d+\]", block + "." + name):
                    node = node[int(key[1:-1])] if key.startswith("[") else node[key]
                self.assertEqual(node, value, f"{block} {name}")
                count += 1

        def leaves(x):
            if isinstance(x, dict) and set(x) != {"bucket_width", "counts"}:
                return sum(leaves(v) for v in x.values())
            return 1
        self.assertEqual(leaves(d["blocks"]), count)
        self.assertEqual(d["platform"], "fermi-gtx480")

    @needs_pandas
    def test_stats_frame(self):
        df = gputlm.stats_frame(REAL)
        scalars = [(b, n) for b, s in self.raw["blocks"].items() for n, v in s.items()
                   if not isinstance(v, dict)]
        self.assertEqual(len(df), len(scalars))
        smx = df[df.block.str.fullmatch(r"gpu\.smx\[\d+\]")]
        for stat in ("warp_instructions", "thread_instructions", "active_cycles"):
            self.assertEqual(smx[smx.statistic == stat].value.sum(),
                             sum(v[stat] for v in self.smx.values()), stat)
        # The SMs in numeric order, each with its index.
        wi = smx[smx.statistic == "warp_instructions"]
        self.assertEqual(list(wi.block), [f"gpu.smx[{i}]" for i in range(15)])
        self.assertEqual(list(wi.instance), [(i,) for i in range(15)])
        l1 = df[df.block.str.endswith(".l1")]
        self.assertEqual(l1[l1.statistic == "accesses"].value.sum(),
                         sum(v["accesses"] for k, v in self.raw["blocks"].items()
                             if k.endswith(".l1")))
        # A dotted statistic, as in the file.
        watts = df[(df.block == "gpu.smx[3].l1") & (df.statistic == "power.data.average_watts")]
        self.assertEqual(list(watts.value),
                         [self.raw["blocks"]["gpu.smx[3].l1"]["power.data.average_watts"]])
        # Blocks in natural order: a block's index path never goes down between neighbours
        # of the same name.
        order = list(dict.fromkeys(df.block))
        self.assertLess(order.index("gpu.smx[2]"), order.index("gpu.smx[10]"))
        self.assertLess(order.index("gpu.l2[9]"), order.index("gpu.l2[10]"))
        self.assertEqual(sorted(order), sorted({b for b, _ in scalars}))

    @needs_pandas
    def test_histograms_frame(self):
        h = gputlm.histograms_frame(REAL)
        hists = {(b, n): v for b, s in self.raw["blocks"].items() for n, v in s.items()
                 if isinstance(v, dict)}
        self.assertEqual(len(h), sum(len(v["counts"]) for v in hists.values()))
        q = h[(h.block == "gpu.dram[0]") & (h.statistic == "queue_occupancy")]
        self.assertEqual(list(q["count"]), hists[("gpu.dram[0]", "queue_occupancy")]["counts"])
        self.assertEqual(h.groupby(["block", "statistic"])["count"].sum().to_dict(),
                         {k: sum(v["counts"]) for k, v in hists.items()})

    def test_run_summary(self):
        s = gputlm.run_summary(REAL)
        self.assertEqual(s, {k: v for k, v in self.raw.items()
                             if k not in ("blocks", "kernels", "power")})
        self.assertEqual((s["total_cycles"], s["warp_instructions"]), (1140, 4112))

    @needs_pandas
    def test_kernels(self):
        k = gputlm.kernels_frame(REAL)
        self.assertEqual(list(k.warp_instructions), [self.raw["warp_instructions"]])
        tb = gputlm.tb_log_frame(REAL)
        self.assertEqual(len(tb), self.raw["kernels"][0]["tbs"])
        self.assertEqual(list(tb.end_cycle), [t[3] for t in self.raw["kernels"][0]["tb_log"]])


# An experiment's results.json (keys sorted, as the runner writes it): baseline lrr, one
# platform, two workloads (mm in group dense), and gto's mm point failed.
RESULTS = {
    "experiment": {"name": "tiny", "baseline": "lrr"},
    "platforms": ["volta"],
    "configurations": ["lrr", "gto"],
    "workloads": [{"name": "va", "group": None}, {"name": "mm", "group": "dense"}],
    "groups": ["dense"],
    "metrics": [
        {"name": "cycles", "compare": "speedup", "baseline": "lrr"},
        {"name": "ipc", "compare": "normalized", "baseline": "lrr"},
        {"name": "hit", "compare": "difference", "baseline": "lrr"},
        {"name": "energy", "compare": "none", "baseline": "lrr"},
        {"name": "vs_gto", "compare": "normalized", "baseline": "gto"},
    ],
    "points": [
        {"platform": "volta", "configuration": "lrr", "workload": "va", "repetition": 0,
         "key": "k1", "status": "ok", "reused": False, "seconds": 0.5, "error": "",
         "stats": "points/k1/stats.json",
         "metrics": {"cycles": 100, "ipc": 2.0, "hit": 0.5, "energy": 3.0, "vs_gto": 100}},
        {"platform": "volta", "configuration": "lrr", "workload": "mm", "repetition": 0,
         "key": "k2", "status": "ok", "reused": True, "seconds": 0, "error": "",
         "stats": "points/k2/stats.json",
         "metrics": {"cycles": 400, "ipc": 1.0, "hit": None, "energy": 5.0, "vs_gto": 400}},
        {"platform": "volta", "configuration": "gto", "workload": "va", "repetition": 0,
         "key": "k3", "status": "ok", "reused": False, "seconds": 0.25, "error": "",
         "stats": "points/k3/stats.json",
         "metrics": {"cycles": 80, "ipc": 2.5, "hit": 0.75, "energy": 2.0, "vs_gto": 80}},
        {"platform": "volta", "configuration": "gto", "workload": "mm", "repetition": 0,
         "key": "k4", "status": "failed", "reused": False, "seconds": 1.0, "error": "boom",
         "stats": None,
         "metrics": {"cycles": None, "ipc": None, "hit": None, "energy": None,
                     "vs_gto": None}},
    ],
    "summary": {"cycles": {"volta": {
        "gto": {"geomean": {"value": None, "compared": 1.25, "of": 2, "count": 1},
                "group:dense": {"value": None, "compared": None, "of": 1, "count": 0},
                "mm": {"value": None, "compared": None},
                "va": {"value": 80, "compared": 1.25, "min": 1.1, "max": 1.4}},
        "lrr": {"geomean": {"value": None, "compared": 1.0, "of": 2, "count": 2},
                "group:dense": {"value": None, "compared": 1.0, "of": 1, "count": 1},
                "mm": {"value": 400, "compared": 1.0},
                "va": {"value": 100, "compared": 1.0}}}}},
    "paper": [{"metric": "cycles", "platform": "volta", "configuration": "gto",
               "workload": "geomean", "value": 1.1, "as_reported": "+10 %", "source": "X",
               "ours": 1.25, "cannot_move": False}],
    "plots": [],
}


@needs_pandas
class Results(Case):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        write(self.tmp.name, "results.json", json.dumps(RESULTS, indent=1, sort_keys=True))

    def tearDown(self):
        self.tmp.cleanup()

    def test_points(self):
        df = gputlm.load_results(self.tmp.name)
        self.assertEqual(list(df.columns), [
            "platform", "configuration", "workload", "group", "repetition", "status", "reused",
            "seconds", "key", "stats", "error", "cycles", "cycles.vs_baseline", "ipc",
            "ipc.vs_baseline", "hit", "hit.vs_baseline", "energy", "vs_gto",
            "vs_gto.vs_baseline"])
        stats = [os.path.join(self.tmp.name, "points", k, "stats.json") for k in ("k1", "k2", "k3")]
        # speedup 100/80, normalized 2.5/2, difference 0.75 - 0.5; vs_gto: against gto's point.
        self.assertRows(df, [
            ("volta", "lrr", "va", None, 0, "ok", False, 0.5, "k1", stats[0], "",
             100.0, 1.0, 2.0, 1.0, 0.5, 0.0, 3.0, 100.0, 1.25),
            ("volta", "lrr", "mm", "dense", 0, "ok", True, 0.0, "k2", stats[1],
             "", 400.0, 1.0, 1.0, 1.0, NAN, NAN, 5.0, 400.0, NAN),
            ("volta", "gto", "va", None, 0, "ok", False, 0.25, "k3", stats[2],
             "", 80.0, 1.25, 2.5, 1.25, 0.75, 0.25, 2.0, 80.0, 1.0),
            ("volta", "gto", "mm", "dense", 0, "failed", False, 1.0, "k4", None, "boom",
             NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN),
        ])
        # From the file and from the dict: the same, but for the stats paths.
        from_dict = gputlm.load_results(RESULTS)
        self.assertEqual(list(from_dict.stats)[:1], ["points/k1/stats.json"])
        self.assertRows(gputlm.load_results(os.path.join(self.tmp.name, "results.json")),
                        rows(df))
        with self.assertRaisesRegex(ValueError, "status"):
            gputlm.load_results(dict(RESULTS, metrics=[{"name": "status"}]))

    def test_summary(self):
        s = gputlm.summary_frame(self.tmp.name)
        self.assertEqual(list(s.columns), ["metric", "platform", "configuration", "cell", "value",
                                           "compared", "of", "count", "min", "max"])
        # The experiment's order (lrr before gto; workloads, groups, geomean), not the file's;
        # min and max only where the file gives them (a workload with repetitions).
        self.assertRows(s, [
            ("cycles", "volta", "lrr", "va", 100.0, 1.0, NAN, NAN, NAN, NAN),
            ("cycles", "volta", "lrr", "mm", 400.0, 1.0, NAN, NAN, NAN, NAN),
            ("cycles", "volta", "lrr", "group:dense", NAN, 1.0, 1.0, 1.0, NAN, NAN),
            ("cycles", "volta", "lrr", "geomean", NAN, 1.0, 2.0, 2.0, NAN, NAN),
            ("cycles", "volta", "gto", "va", 80.0, 1.25, NAN, NAN, 1.1, 1.4),
            ("cycles", "volta", "gto", "mm", NAN, NAN, NAN, NAN, NAN, NAN),
            ("cycles", "volta", "gto", "group:dense", NAN, NAN, 1.0, 0.0, NAN, NAN),
            ("cycles", "volta", "gto", "geomean", NAN, 1.25, 2.0, 1.0, NAN, NAN),
        ])
        p = gputlm.paper_frame(self.tmp.name)
        self.assertRows(p, [("cycles", "volta", "gto", "geomean", 1.1, "+10 %", "X", 1.25,
                             False)])


class Package(Case):
    def test_lazy_imports(self):
        """Importing gputlm imports neither pandas nor matplotlib (the plot script runs
        without pandas; a notebook keeps its matplotlib backend)."""
        code = ("import sys; sys.dont_write_bytecode = True; sys.path.insert(0, sys.argv[1]); "
                "import gputlm; print('pandas' in sys.modules, 'matplotlib' in sys.modules)")
        out = subprocess.run([sys.executable, "-c", code, os.path.join(ROOT, "python")],
                             capture_output=True, text=True, check=True).stdout
        self.assertEqual(out, "False False\n")


PLOTTED = {
    "experiment": {"name": "tiny", "baseline": "lrr"},
    "platforms": ["volta"], "configurations": ["lrr", "gto", "l=1", "l=2"],
    "workloads": [{"name": "va", "group": None}], "groups": [],
    "metrics": [{"name": "cycles", "label": "Speedup", "compare": "speedup", "unit": ""}],
    "sweeps": [{"name": "l", "parameter": "smx.l1.hit_latency", "values": ["1", "2"],
                "configurations": ["l=1", "l=2"]}],
    "summary": {"cycles": {"volta": {c: {"va": {"value": 10, "compared": v},
                                         "geomean": {"value": None, "compared": v}}
                                     for c, v in (("lrr", 1), ("gto", 1.2), ("l=1", 0.9),
                                                  ("l=2", 1.1))}}},
    "paper": [],
    "plots": [{"metric": "cycles", "kind": "bars", "file": "bars"},
              {"metric": "cycles", "kind": "line", "sweep": "l", "file": "line"}],
}


@needs_matplotlib
class PlotScript(Case):
    script = os.path.join(ROOT, "scripts", "plot-experiment.py")

    def run_script(self, *args):
        return subprocess.run([sys.executable, self.script, *args], capture_output=True,
                              text=True)

    def test_plots(self):
        with tempfile.TemporaryDirectory() as tmp:
            results = write(tmp, "results.json", json.dumps(PLOTTED))
            made = []
            for out in ("a", "b"):
                r = self.run_script(results, os.path.join(tmp, out))
                self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "", ""))
                made.append({})
                for f in os.listdir(os.path.join(tmp, out)):
                    with open(os.path.join(tmp, out, f), "rb") as file:
                        made[-1][f] = file.read()
            self.assertEqual(sorted(made[0]), ["bars.png", "bars.svg", "line.png", "line.svg"])
            self.assertTrue(made[0]["bars.png"].startswith(b"\x89PNG\r\n\x1a\n"))
            # 200 dpi: the pHYs chunk says 200 / 0.0254 = 7874 pixels per metre both ways.
            self.assertIn(b"pHYs" + (7874).to_bytes(4, "big") * 2 + b"\x01", made[0]["bars.png"])
            self.assertIn(b"<svg", made[0]["line.svg"])
            self.assertEqual(made[0], made[1])  # deterministic

    def test_errors(self):
        with tempfile.TemporaryDirectory() as tmp:
            results = write(tmp, "results.json",
                            json.dumps({k: v for k, v in PLOTTED.items() if k != "plots"}))
            out = os.path.join(tmp, "plots")
            r = self.run_script(results, out)
            self.assertEqual((r.returncode, r.stdout, r.stderr),
                             (2, "", f"plot-experiment: {results}: missing or malformed "
                                     "`plots`\n"))
            self.assertFalse(os.path.exists(out))
            r = self.run_script(results)
            self.assertEqual((r.returncode, r.stderr),
                             (2, "usage: plot-experiment.py RESULTS.json OUTDIR\n"))


# Two platforms: on volta gto moves (va 0.983, a range over repetitions 0.97..0.99; mm
# 1.051), on pascal nothing moves (every ratio 1, every difference 0), so pascal's panels are
# not drawn. va is repeated; mm is in group dense.
def cell(value, compared, spread=None):
    c = {"value": value, "compared": compared}
    if spread:
        c["min"], c["max"] = spread
    return c


def small_effects():
    def ratios(platform, config):
        moved = platform == "volta" and config != "lrr"
        return {"va": cell(80, 0.983 if moved else 1.0, (0.97, 0.99) if moved else (1, 1)),
                "mm": cell(90, 1.051 if moved else 1.0),
                "group:dense": cell(None, 1.051 if moved else 1.0),
                "geomean": cell(None, 1.0164 if moved else 1.0)}

    def differences(platform, config):
        moved = platform == "volta" and config != "lrr"
        return {"va": cell(0.5, 0.25 if moved else 0.0, (0.125, 0.375) if moved else (0, 0)),
                "mm": cell(0.25, -0.125 if moved else 0.0),
                "group:dense": cell(None, -0.125 if moved else 0.0),
                "geomean": cell(None, 0.0625 if moved else 0.0)}

    def measured(platform, config):
        return {"va": cell(1500.75 if config == "gto" else 1200.25, None, (1400, 1601)),
                "mm": cell(900, None), "group:dense": cell(900, None),
                "geomean": cell(1050.25, None)}

    configs = ["lrr", "gto", "l=1", "l=2"]
    return {
        "experiment": {"name": "small", "baseline": "lrr"},
        "platforms": ["volta", "pascal"], "configurations": configs,
        "workloads": [{"name": "va", "group": None, "repetitions": 2},
                      {"name": "mm", "group": "dense", "repetitions": 1}],
        "groups": ["dense"],
        "metrics": [
            {"name": "cycles", "label": "Speedup", "compare": "speedup", "mean": "geometric"},
            {"name": "hit", "label": "Hit rate", "compare": "difference", "mean": "arithmetic"},
            {"name": "energy", "label": "Energy", "compare": "none", "mean": "arithmetic"},
            {"name": "ipc", "label": "IPC", "compare": "normalized", "mean": "arithmetic"}],
        "sweeps": [{"name": "l", "parameter": "smx.l1.hit_latency", "values": ["1", "2"],
                    "configurations": ["l=1", "l=2"]}],
        "summary": {m: {p: {c: f(p, c) for c in configs} for p in ("volta", "pascal")}
                    for m, f in (("cycles", ratios), ("hit", differences),
                                 ("energy", measured), ("ipc", ratios))},
        "paper": [],
        "plots": [{"metric": "cycles", "kind": "bars", "file": "cycles"},
                  {"metric": "hit", "kind": "bars", "file": "hit"},
                  {"metric": "energy", "kind": "bars", "file": "energy"},
                  {"metric": "ipc", "kind": "bars", "file": "ipc"},
                  {"metric": "cycles", "kind": "line", "sweep": "l", "file": "line"}],
    }


@needs_matplotlib
class PlotContent(Case):
    """What the plots show, read back from matplotlib's objects (the SVG's text is paths)."""

    def setUp(self):
        from gputlm import plots
        self.plots = plots
        self.tmp = tempfile.TemporaryDirectory()
        self.data = small_effects()

    def tearDown(self):
        self.plots.plt.close("all")
        self.tmp.cleanup()

    def draw(self, file, data=None):
        results = write(self.tmp.name, "results.json", json.dumps(data or self.data))
        for plot, draw, args in self.plots.load(results):
            if plot["file"] == file:
                fig = draw(*args)
                fig.canvas.draw()
                return fig
        raise AssertionError(file)

    def notes(self, fig):
        return [t.get_text() for t in fig.texts]

    def value_labels(self, ax):
        return [t.get_text() for t in ax.texts if t.get_fontsize() == self.plots.LABEL_PT]

    def ranges(self, ax):
        """Each error bar as (x, low, high)."""
        from matplotlib.container import ErrorbarContainer
        return [(seg[0][0], seg[0][1], seg[1][1]) for c in ax.containers
                if isinstance(c, ErrorbarContainer) for seg in c.lines[2][0].get_segments()]

    def test_a_panel_where_nothing_moves_is_not_drawn(self):
        fig = self.draw("cycles")
        self.assertEqual([ax.get_title(loc="left") for ax in fig.axes], ["volta"])
        self.assertIn("pascal: every value 1.000 (not drawn)", self.notes(fig))
        fig = self.draw("hit")  # a difference: 0 is the baseline's own value
        self.assertEqual(len(fig.axes), 1)
        self.assertIn("pascal: every value 0.0000 (not drawn)", self.notes(fig))
        fig = self.draw("energy")  # not compared: every panel drawn
        self.assertEqual([ax.get_title(loc="left") for ax in fig.axes], ["volta", "pascal"])

    def test_no_panel_left_still_makes_the_files(self):
        data = self.data
        data["summary"]["cycles"]["volta"] = data["summary"]["cycles"]["pascal"]
        fig = self.draw("cycles", data)
        self.assertEqual(fig.axes, [])
        self.assertIn("volta: every value 1.000 (not drawn)\npascal: every value 1.000 "
                      "(not drawn)", self.notes(fig))
        results = write(self.tmp.name, "results.json", json.dumps(data))
        out = os.path.join(self.tmp.name, "out")
        self.assertEqual(self.plots.main(["plot-experiment.py", results, out]), 0)
        self.assertIn("cycles.png", os.listdir(out))

    def test_ratios_close_to_1_are_zoomed(self):
        ax = self.draw("cycles").axes[0]
        lo, hi = ax.get_ylim()
        # Every number (0.97 the lowest end of a range, 1.051 the highest value) and 1 are in
        # view; 0 is not.
        self.assertTrue(0 < lo < 0.97 and 1.051 < hi, (lo, hi))
        # The bars start at 1: va's gto bar reaches down to 0.983, mm's up to 1.051.
        bars = [(round(r.get_y(), 9), round(r.get_height(), 9)) for r in ax.patches]
        self.assertEqual(bars[:2], [(1.0, round(0.983 - 1, 9)), (1.0, round(1.051 - 1, 9))])
        # A ratio reaching 2.5 is not zoomed: bars from 0, the axis from 0.
        data = self.data
        data["summary"]["cycles"]["volta"]["gto"]["mm"]["compared"] = 2.5
        ax = self.draw("cycles", data).axes[0]
        self.assertEqual(ax.get_ylim()[0], 0.0)
        self.assertEqual(round(ax.patches[0].get_y(), 9), 0.0)

    def test_value_labels_as_the_report_writes_them(self):
        ax = self.draw("cycles").axes[0]
        # gto, l=1, l=2 (lrr is the baseline line): va, mm, dense, geomean, three decimals.
        self.assertEqual(self.value_labels(ax), ["0.983", "1.051", "1.051", "1.016"] * 3)
        # A difference: 0.25 the largest, so four decimals (four significant digits).
        ax = self.draw("hit").axes[0]
        self.assertEqual(self.value_labels(ax), ["0.2500", "-0.1250", "-0.1250", "0.0625"] * 3)
        lo, hi = ax.get_ylim()
        self.assertTrue(lo < -0.125 and hi > 0.375, (lo, hi))
        self.assertIn(0.0, [line.get_ydata()[0] for line in ax.lines])  # the zero line
        # Not compared: from 0, largest 1601 (a range's end): no decimals.
        ax = self.draw("energy").axes[0]
        self.assertEqual(ax.get_ylim()[0], 0.0)
        self.assertEqual(self.value_labels(ax),
                         ["1200", "900", "900", "1050", "1501", "900", "900", "1050"] +
                         ["1200", "900", "900", "1050"] * 2)

    def test_the_mean_has_the_report_s_name(self):
        names = lambda fig: [t.get_text() for t in fig.axes[-1].get_xticklabels()]  # noqa: E731
        self.assertEqual(names(self.draw("cycles")), ["va", "mm", "geomean dense", "geomean"])
        self.assertEqual(names(self.draw("hit")), ["va", "mm", "mean dense", "mean"])
        self.assertEqual(names(self.draw("energy")), ["va", "mm", "mean dense", "mean"])
        self.assertEqual(names(self.draw("ipc")), ["va", "mm", "mean dense", "mean"])
        legend = [t.get_text() for t in self.draw("line").legends[0].get_texts()]
        self.assertEqual(legend[:3], ["va", "mm", "geomean"])

    def test_a_workload_no_drawn_configuration_runs_is_left_out(self):
        names = lambda fig: [t.get_text() for t in fig.axes[-1].get_xticklabels()]  # noqa: E731
        data = self.data
        # mm (the dense group's one workload) runs under the baseline alone: no bar of gto,
        # l=1 or l=2 can show it, nor its group's mean (lrr is the baseline's line).
        data["workloads"][1]["configurations"] = ["lrr"]
        data["workloads"][0]["configurations"] = ["lrr", "gto", "l=1", "l=2"]
        self.assertEqual(names(self.draw("cycles", data)), ["va", "geomean"])
        # Not compared, the baseline's own bars are drawn, and mm with them.
        self.assertEqual(names(self.draw("energy", data)), ["va", "mm", "mean dense", "mean"])
        # Run under one drawn configuration, it is back.
        data["workloads"][1]["configurations"] = ["lrr", "l=2"]
        self.assertEqual(names(self.draw("cycles", data)),
                         ["va", "mm", "geomean dense", "geomean"])

    def test_repetitions_get_their_range(self):
        fig = self.draw("cycles")
        ax = fig.axes[0]
        va = [r.get_x() + r.get_width() / 2 for r in ax.patches][0::4]  # va's bar per config
        self.assertEqual([(round(x, 9), lo, hi) for x, lo, hi in self.ranges(ax)],
                         [(round(x, 9), 0.97, 0.99) for x in va])
        self.assertIn("min–max over repetitions",
                      [t.get_text() for t in fig.legends[0].get_texts()])
        ax = self.draw("energy").axes[1]  # pascal, not compared: 1400..1601 for each config
        self.assertEqual([r[1:] for r in self.ranges(ax)], [(1400, 1601)] * 4)
        # A sweep's line: the range at each point of va that has one.
        fig = self.draw("line")
        self.assertEqual(len(fig.axes), 1)
        self.assertEqual(self.ranges(fig.axes[0]), [(0, 0.97, 0.99), (1, 0.97, 0.99)])
        self.assertIn("pascal: every value 1.000 (not drawn)", self.notes(fig))


def main():
    result = unittest.main(exit=False, verbosity=2).result
    if not result.wasSuccessful():
        return 1
    if result.skipped:
        missing = [name for name, have in (("pandas", HAVE_PANDAS),
                                           ("matplotlib", HAVE_MATPLOTLIB)) if not have]
        print(f"test_gputlm: {len(result.skipped)} skipped, missing {', '.join(missing)}",
              file=sys.stderr)
        return 77
    return 0


if __name__ == "__main__":
    sys.exit(main())
