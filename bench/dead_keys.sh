#!/usr/bin/env bash
# The dead-key oracle (docs/platforms.md, "Every key does something"): for each platform and
# each parameter of its effective configuration (`gputlm elaborate P --dump-config`: block
# parameters, clock domains, the power table and policy), run workloads with that one
# parameter changed, and report every parameter whose change leaves the statistics of every
# workload (`--stats --no-wall-clock`) byte-identical: a key that is read but does nothing.
# Not a unit test; a few minutes on 2 cores.
#
# Usage: bench/dead_keys.sh [-j JOBS] [-k] [PLATFORM.yaml...]
#   PLATFORM  default: yaml/*.yaml (the shipped platforms)
#   -j JOBS   parallel runs (default 2, through xargs -P)
#   -k        keep the work directory (runs, statistics, per-key results) and print its path
#   GPUTLM=path/to/gputlm (default build/sc_main/gputlm)
# Prints one line per parameter found dead (or that it could not change) and a one-line
# verdict. Exit status: 0 no dead key, 1 dead keys found, 2 a setup error.
#
# Workloads, tried in turn until one's statistics differ: the bundled sgemm_tiled sample (a
# cheap run that most changes show in), `mix`, made here with `gputlm trace gen` (vectoradd of
# 128 Ki elements on CUDA stream 0 and a 256 x 256 x 32 tiled SGEMM on stream 1, launched
# together: enough TBs to fill every platform's SMXs, DRAM row conflicts and writes, two
# hardware queues and kernel entries busy), then the other samples (traces/samples: atomics,
# CDP launches, many short kernels, reductions, irregular accesses).
#
# How a parameter is changed, from its value's type: an integer x2, +1, -1, /2, 1 or 0; cycles
# +1, x2, -1, x8; a size x2, /2, /16; a frequency or voltage x2, /2; a boolean flipped; a
# choice the other values in turn (read from the error a wrong value gets, as is any "one of"
# list of a validation error); an address map with its last bank and column bits swapped, or
# its channel bits moved up one; a list reversed. Values are tried in that order, workload by
# workload: one that fails validation is dropped, one that changes nothing is followed by
# the next. Parameters that cannot change alone change in consistent groups: a cache's sets,
# ways or line size with its size; the DRAM channel count (vars.channels) with the network's
# memory ports and the L2 banks that follow from it. The power table is changed in a copy of the platform: static powers and
# event energies x2 (1 mW or 1 pJ when zero), wake-up and break-even times +1 or 2n + 1
# cycles, a granularity x2.
#
# Contexts (CONTEXTS below): a parameter that acts only under other keys' values is compared
# with those values set in both runs: a low-power state's wake-up, break-even and static
# power and a granularity under idle_timeout into that state (after 20 idle cycles); the
# keys of an L1 that global loads bypass with the bypass off; write-allocation in a
# write-back L1; the dirty-line cap in a write-back L1 of 4 sets; replacement and set index
# with fewer ways; the queues in front of a crossbar with one-packet input buffers.
#
# The allowlist (ALLOW below) names parameters that are inert for a stated reason: because of
# another key's value on that platform (dual issue with one issue slot, latencies of a unit
# class without units, the interleave of a single bank, ...), a pinned or single-valued key, a
# consistency or structural key, or because no workload exercises it (checked from the
# baseline statistics, e.g. no DP instruction, no DRAM write). An entry applies only while its
# condition holds. With -k the work directory's allowed.json lists what was allowlisted and
# why, runs/*.result what changed each live parameter.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=2 keep=0
usage() { sed -n '9,15p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
while getopts "j:kh" o; do
  case $o in j) jobs=$OPTARG ;; k) keep=1 ;; *) usage ;; esac
done
shift $((OPTIND - 1))
platforms=("$@")
[ ${#platforms[@]} -gt 0 ] || platforms=(yaml/*.yaml)
gputlm=${GPUTLM:-build/sc_main/gputlm}
[ -x "$gputlm" ] || { echo "dead_keys: no $gputlm (cmake --build build --target gputlm)"; exit 2; }
python3 -c 'import yaml' 2>/dev/null || { echo "dead_keys: needs python3 with PyYAML"; exit 2; }
work=$(mktemp -d /tmp/dead_keys.XXXXXX)
if [ $keep = 1 ]; then echo "work directory: $work"; else trap 'rm -rf "$work"' EXIT; fi
start=$(date +%s)

cat >"$work/dk.py" <<'PY'
import copy, fnmatch, glob, json, os, re, subprocess, sys

SAMPLES = ["sgemm_tiled", "mix", "histogram", "bfs_cdp", "reduction", "spmv", "vectoradd",
           "stencil2d", "spu_stencil", "bfs"]
RESERVED = {"type", "count", "clock", "bind"}
GATE = ["--set", "power.policy=idle_timeout", "--set", "power.policy.after=20cycles"]
ROOT = sys.argv[2]


def trace_dir(s):
    return os.path.join(ROOT, "workloads", s) if s == "mix" else "traces/samples/" + s


yaml = None  # PyYAML, imported by the planning steps only (the runs start faster without)


def load(text):
    """YAML as gputlm reads it: only true/false are booleans (`on:` and `off:` are states)."""
    global yaml
    if yaml is None:
        import yaml
    class Loader(yaml.SafeLoader):
        pass
    Loader.yaml_implicit_resolvers = {
        k: [r for r in v if r[0] != "tag:yaml.org,2002:bool"]
        for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()}
    Loader.add_implicit_resolver("tag:yaml.org,2002:bool",
                                 re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                                 list("tTfF"))
    return yaml.load(text, Loader=Loader)


def dump(obj):
    global yaml
    if yaml is None:
        import yaml
    return yaml.safe_dump(obj, sort_keys=False)


# ---- the allowlist: (key pattern, condition(ctx, key), reason) -----------------------------
# ctx.cfg("smx.max_issue_per_warp") reads the platform's effective configuration;
# ctx.stat_sum(block_glob, stat[, block_type]) sums a statistic over the workloads' baselines.
def unit_class(key):  # "smx.dp_latency" -> "dp"
    return key.split(".")[-1].rsplit("_", 1)[0]


def units(ctx, key):
    return ctx.cfg("smx." + unit_class(key) + "_units")


def issued(ctx, key):  # warp instructions of the unit's class, every workload
    return ctx.stat_sum("gpu.smx*", "mix_" + unit_class(key))


def event_count(ctx, key):  # power.components.<type>.<component>.events.<event>
    _, _, btype, comp, _, ev = key.split(".", 5)
    return ctx.stat_sum("*", "power.%s.events.%s" % (comp, ev), btype)


def component_events(ctx, key):  # every event of the component, every workload
    _, _, btype, comp = key.split(".")[:4]
    return ctx.stat_sum("*", "power.%s.events.*" % comp, btype)


WATTS = {"W": 1, "mW": 1e-3, "uW": 1e-6, "nW": 1e-9}


def watts(v):
    m = re.fullmatch(r"([\d.eE+-]+)\s*([munk]?W)", str(v))
    return float(m.group(1)) * WATTS[m.group(2)]


def saves_nothing(ctx, key):  # power.components.<type>.<c>.states.<s>.break_even
    _, _, btype, comp, _, state, _ = key.split(".")
    states = ctx.p["power"]["components"][btype][comp]["states"]
    static = lambda st: watts(st["static"] if isinstance(st, dict) else st)
    return static(states[state]) >= static(list(states.values())[0])


ALLOW = [
    ("smx.warp_size", lambda c, k: True, "pinned to 32: traces are recorded for 32-lane warps"),
    ("smx.l1.size", lambda c, k: True, "consistency: sets x ways x line_size (changed with them)"),
    ("l2.size", lambda c, k: True, "consistency: sets x ways x line_size (changed with them)"),
    ("*.line_size", lambda c, k: c.cfg(k.rsplit(".", 1)[0] + ".sectored") is True,
     "a sectored cache's line is 4 x 32 B sectors"),
    ("smx_scheduler.tb_selection", lambda c, k: True, "a single choice (fcfs), an extension point"),
    ("smx_scheduler.smx_selection", lambda c, k: True,
     "a single choice (round_robin), an extension point"),
    ("platform.description", lambda c, k: True, "documentation, printed by --dump-config only"),
    ("smx.dual_issue_different_units", lambda c, k: c.cfg("smx.max_issue_per_warp") == 1,
     "acts only with max_issue_per_warp > 1 (1 here)"),
    ("smx.*_latency", lambda c, k: units(c, k) == 0, "the class has no units here"),
    ("smx.*_initiation", lambda c, k: units(c, k) == 0, "the class has no units here"),
    ("smx.*_latency", lambda c, k: issued(c, k) == 0, "no workload issues this unit class"),
    ("smx.*_initiation", lambda c, k: issued(c, k) == 0, "no workload issues this unit class"),
    ("smx.*_units", lambda c, k: issued(c, k) == 0, "no workload issues this unit class"),
    ("smx.collectors_*", lambda c, k: True,
     "acts through the sum of the four (one pool, docs/core.md); inert here unless that sum "
     "binds, which no single change of one of them makes it do on the shipped values"),
    ("*.allocate", lambda c, k: c.cfg(k.rsplit(".", 1)[0] + ".write_policy") == "write_back",
     "write_back needs on_miss (other allocations would deadlock): the only valid value"),
    ("smx.coalescing_arch", lambda c, k: True,
     "20/35 and 60+ differ only for 8 and 16 B accesses whose 128 B lines are touched by "
     "lanes of different sub-warps; the workloads' wide accesses are contiguous"),
    ("smx.ni.response_buffer", lambda c, k: True,
     "the L1 takes every response in the cycle it arrives: nothing ever waits here"),
    ("l2_ni.response_buffer", lambda c, k: True,
     "no workload's responses wait here, even with one entry (the network never pushes back "
     "on an L2's replies in them)"),
    ("power.components.*.states.*.break_even", saves_nothing,
     "the state saves no static power here (the component's ON power is not above it): "
     "a transition into it costs nothing"),
    ("smx.l1.bank_interleave", lambda c, k: c.cfg("smx.l1.banks") == 1,
     "acts only with more than one L1 bank (1 here)"),
    ("icnt.smx_nodes", lambda c, k: c.cfg(k) == [], "empty: the default placement"),
    ("icnt.mem_nodes", lambda c, k: c.cfg(k) == [], "empty: the default placement"),
    ("dram.tCCDL", lambda c, k: c.cfg("dram.bank_groups") == 1, "acts only with bank groups"),
    ("dram.tRTPL", lambda c, k: c.cfg("dram.bank_groups") == 1, "acts only with bank groups"),
    ("dram.bank_group_indexing", lambda c, k: c.cfg("dram.bank_groups") == 1,
     "acts only with bank groups"),
    ("dram.tRAS", lambda c, k: c.stat_sum("gpu.dram*", "power.device.events.precharge") == 0,
     "no workload closes a DRAM row here (no precharge)"),
    ("dram.tRC", lambda c, k: c.stat_sum("gpu.dram*", "power.device.events.precharge") == 0,
     "no workload closes a DRAM row here (no precharge)"),
    ("dram.tRP", lambda c, k: c.stat_sum("gpu.dram*", "power.device.events.precharge") == 0,
     "no workload closes a DRAM row here (no precharge)"),
    ("dram.WL", lambda c, k: c.stat_sum("gpu.dram*", "writes") == 0,
     "no workload writes to the DRAM here (the L2 keeps every dirty line)"),
    ("dram.tWR", lambda c, k: c.stat_sum("gpu.dram*", "writes") == 0,
     "no workload writes to the DRAM here (the L2 keeps every dirty line)"),
    ("dram.tCDLR", lambda c, k: c.stat_sum("gpu.dram*", "writes") == 0,
     "no workload writes to the DRAM here (the L2 keeps every dirty line)"),
    ("dram.bank_groups", lambda c, k: c.cfg("dram.tCCDL") == "0cycles" and
     c.cfg("dram.tRTPL") == "0cycles", "bank groups act through tCCDL and tRTPL, 0 here"),
    ("dram.return_queue", lambda c, k: c.cfg("l2.count") == c.cfg("dram.count"),
     "with one sub-partition per channel its L2 bank takes each reply as it returns: no "
     "workload's replies wait (even with one entry)"),
    ("l2.replacement", lambda c, k: c.stat_sum("gpu.l2*", "evictions") == 0,
     "no workload evicts an L2 line here"),
    ("l2.set_index", lambda c, k: c.stat_sum("gpu.l2*", "evictions") == 0 and
     c.stat_sum("gpu.l2*", "reservation_fails.no_line") == 0,
     "no workload fills an L2 set here (no eviction, no set without a free line)"),
    ("power.components.*.events.*", lambda c, k: event_count(c, k) == 0,
     "no workload has this event on this platform"),
    ("power.components.*.states.*.wake", lambda c, k: component_events(c, k) == 0,
     "the component is never used here, so never woken"),
]


# Contexts: a parameter that acts only under other keys' values is compared with those values
# set in both runs: (key patterns, condition on the configuration, name, arguments). The
# contexts a key matches add up.
def max_packet_flits(cfg):
    flit = int(re.fullmatch(r"(\d+)B", cfg["gpu"]["icnt"]["flit_size"]).group(1))
    return (8 + 128 + flit - 1) // flit


def fewer_ways(block, node, by):  # a cache with `by` times fewer ways (sets and lines kept)
    ways = max(min(node["ways"], 4), node["ways"] // by)  # (LRU and FIFO need a choice)
    line = int(re.fullmatch(r"(\d+)B", node["line_size"]).group(1))
    return ["%s.ways=%d" % (block, ways), "%s.size=%dB" % (block, node["sets"] * ways * line)]


CONTEXTS = [
    # The dirty-line cap and write-allocation act on lines written back: with
    # local_wb_global_evict only local stores (none in the workloads) write back, and
    # write-through never does.
    (["smx.l1.write_allocate"],
     lambda cfg: cfg["gpu"]["smx"]["l1"]["write_policy"] != "write_back", "l1_write_back",
     lambda cfg: ["smx.l1.write_policy=write_back", "smx.l1.allocate=on_miss",
                  "smx.l1.bypass_global_loads=false"]),
    # The dirty-line cap, moreover, may be at most 100 / sets % (docs/memory.md): with 4 sets
    # (linear index), up to 25 %; and a quarter of the ways, so that written lines are evicted
    # before the kernel-end flush.
    (["smx.l1.dirty_line_cap"], lambda cfg: True, "l1_dirty",
     lambda cfg: ["smx.l1.write_policy=write_back", "smx.l1.allocate=on_miss",
                  "smx.l1.bypass_global_loads=false", "smx.l1.set_index=linear",
                  "smx.l1.sets=4"] +
     fewer_ways("smx.l1", dict(cfg["gpu"]["smx"]["l1"], sets=4), 4)),
    # An L1 that global loads bypass serves only local memory, which no workload has.
    (["smx.l1.*"], lambda cfg: cfg["gpu"]["smx"]["l1"]["bypass_global_loads"] is True,
     "l1_cached", lambda cfg: ["smx.l1.bypass_global_loads=false"]),
    # Replacement, the set index and the dirty-line cap choose among the lines of full sets:
    # with a quarter of the L1's ways, an eighth of the L2's.
    (["smx.l1.replacement", "smx.l1.set_index"], lambda cfg: True,
     "small_l1", lambda cfg: fewer_ways("smx.l1", cfg["gpu"]["smx"]["l1"], 4)),
    (["l2.replacement", "l2.set_index"], lambda cfg: True,
     "small_l2", lambda cfg: fewer_ways("l2", cfg["gpu"]["l2"], 8)),
    # Queues in front of a crossbar fill only when it pushes back: with input buffers of one
    # packet.
    (["smx.ni.request_buffer", "smx.l1.miss_queue"],
     lambda cfg: cfg["gpu"]["icnt"]["type"] == "crossbar", "tight_network",
     lambda cfg: ["icnt.input_buffer=%d" % max_packet_flits(cfg)]),
]


def context(cfg, key):
    """The baseline variant and the arguments a key is compared under (None: as shipped)."""
    names, args = [], []
    for pats, cond, name, extra in CONTEXTS:
        if key != "smx.l1.bypass_global_loads" and any(fnmatch.fnmatchcase(key, p) for p in pats) \
                and cond(cfg):
            names.append(name)
            args += sets_of(extra(cfg))
    return ("+".join(names), args) if names else None


def allowed(ctx, key):
    for pat, cond, reason in ALLOW:
        if fnmatch.fnmatchcase(key, pat):
            try:
                if cond(ctx, key):
                    return reason
            except (KeyError, TypeError):
                pass
    return None


# ---- helpers ---------------------------------------------------------------------------------
def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    lines = p.stderr.strip().splitlines()
    return p.returncode, lines[-1] if lines else ""


def walk_gpu(node, prefix, out):
    """(path below gpu, block type, value) of every parameter, in block order."""
    for k, v in node.items():
        if k in RESERVED:
            continue
        if isinstance(v, dict) and "type" in v:
            walk_gpu(v, prefix + k + ".", out)
        else:
            out.append((prefix + k, node.get("type"), v))


SIZE = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}


def ints(n):
    out = []
    for x in ([2 * n, n + 1, n - 1, n // 2, 1, 0] if n > 0 else [1, 2]):
        if x >= 0 and x != n and x not in out:
            out.append(x)
    return out


def candidates(value):
    """Values to try for a parameter, derived from its printed value's type."""
    if isinstance(value, bool):
        return [str(not value).lower()]
    if isinstance(value, int):
        return [str(x) for x in ints(value)]
    if isinstance(value, float):
        return [repr(value * 2), repr(value / 2)]
    if isinstance(value, list):
        if not value:
            return []
        r = list(reversed(value))
        if r == value and isinstance(value[0], int):
            r = [value[0] + 1] + value[1:]
        return ["[" + ", ".join(str(x) for x in r) + "]"]
    s = str(value)
    m = re.fullmatch(r"(\d+)cycles", s)
    if m:
        n = int(m.group(1))
        out = []
        for x in [n + 1, 2 * n, n - 1, 8 * n]:
            if x >= 0 and x != n and x not in out:
                out.append(x)
        return ["%dcycles" % x for x in out]
    m = re.fullmatch(r"(\d+)(B|KiB|MiB|GiB)", s)
    if m:
        n = int(m.group(1)) * SIZE[m.group(2)]
        return ["%dB" % x for x in [2 * n, n // 2, n // 16] if x > 0]
    m = re.fullmatch(r"([\d.]+)(Hz|kHz|MHz|GHz)", s)
    if m:
        return ["%g%s" % (float(m.group(1)) * f, m.group(2)) for f in (2, 0.5)]
    m = re.fullmatch(r"([\d.]+)(V|mV)", s)
    if m:
        return ["%g%s" % (float(m.group(1)) * f, m.group(2)) for f in (0.5, 2)]
    if re.fullmatch(r"(dramid@\d+;)?[0-9RBCS.]+", s) and "B" in s and "C" in s:
        b, c = s.rfind("B"), s.rfind("C")  # an address map: swap its last B and C bits,
        t = list(s)
        t[b], t[c] = t[c], t[b]
        out = ["".join(t)]
        m = re.match(r"dramid@(\d+);", s)  # or move the channel bits up by one
        if m:
            out.append("dramid@%d;" % (int(m.group(1)) + 1) + s[m.end():])
        return out
    return ["?"]  # a choice: its other values come from the error this one gets


# Values worth trying besides those derived from the type.
EXTRA = {"smx.l1.dirty_line_cap": ["25", "10"]}

ONE_OF = re.compile(r"(?:expected|must be) one of ([^']+?)(?:, got .*)?$")


def one_of(message):
    m = ONE_OF.search(message)
    return [x.strip() for x in m.group(1).split(",")] if m else []


def power_values(val, field):
    """Changed power-table values: a power or an energy x2 (1 mW or 1 pJ if 0); cycles +1,
    then 2n + 1 (a wake-up can hide behind a longer one that runs alongside)."""
    s = str(val)
    if field in ("wake", "break_even"):
        n = int(re.fullmatch(r"(\d+)cycles", s).group(1))
        return ["%dcycles" % (n + 1), "%dcycles" % (2 * n + 1)]
    m = re.fullmatch(r"([\d.eE+-]+)\s*([a-zA-Z]*)", s)
    num, unit = float(m.group(1)), m.group(2)
    if num == 0:
        return ["1pJ" if unit.endswith("J") else "1mW"]
    return ["%g%s" % (2 * num, unit)]


class Work:
    def __init__(self):
        f = os.path.join(ROOT, "state.json")
        self.state = json.load(open(f)) if os.path.exists(f) else {}

    def path(self, *p):
        return os.path.join(ROOT, *p)

    def save(self):
        json.dump(self.state, open(self.path("state.json"), "w"), indent=1)

    def base(self, pid, variant, sample):
        return self.path("base", "%s.%s.%s.json" % (pid, variant, sample))


class Ctx:
    def __init__(self, w, p):
        self.w, self.p = w, p

    def cfg(self, path):
        node = self.p["cfg"]["gpu"]
        for part in path.split("."):
            node = node[part]
        return node

    def block_type(self, instance):  # gpu.smx[3].l1 -> l1_cache
        node = self.p["cfg"]
        for part in instance.split("."):
            node = node[re.sub(r"\[\d+\]$", "", part)]
        return node.get("type")

    def stat_sum(self, block_glob, stat, block_type=None, variant="on"):
        if not hasattr(self, "stats"):
            self.stats = {}
        if variant not in self.stats:  # the baselines, read once
            self.stats[variant] = [json.load(open(self.w.base(self.p["pid"], variant, s)))
                                   for s in SAMPLES]
        total = 0.0
        for j in self.stats[variant]:
            for name, b in j["blocks"].items():
                if not fnmatch.fnmatchcase(name, block_glob):
                    continue
                if block_type is not None and self.block_type(name) != block_type:
                    continue
                total += sum(float(v) for k, v in b.items()
                             if fnmatch.fnmatchcase(k, stat) and isinstance(v, (int, float)))
        return total


# ---- commands --------------------------------------------------------------------------------
def cmd_workloads(gputlm):
    """`mix`: vectoradd (stream 0) and a tiled SGEMM (stream 1), launched together."""
    wl = os.path.join(ROOT, "workloads")
    gen = {"va": ["vectoradd", "-p", "n=131072"],
           "sgemm": ["sgemm_tiled", "-p", "M=256", "-p", "N=256", "-p", "K=32"]}
    for d, args in gen.items():
        subprocess.run([gputlm, "trace", "gen"] + args + ["-o", os.path.join(wl, d)], check=True,
                       stdout=subprocess.DEVNULL)
    mix = os.path.join(wl, "mix")
    os.makedirs(mix, exist_ok=True)
    copies, kernels = [], []
    for i, d in enumerate(("va", "sgemm")):
        for line in open(os.path.join(wl, d, "kernelslist.g")):
            line = line.strip()
            if line.startswith("Memcpy"):
                copies.append(line)
            elif line:
                text = open(os.path.join(wl, d, line)).read()
                text = text.replace("-kernel id = 1\n", "-kernel id = %d\n" % (i + 1), 1)
                text = text.replace("-cuda stream id = 0\n", "-cuda stream id = %d\n" % i, 1)
                kernels.append("kernel-%d.traceg" % (i + 1))
                open(os.path.join(mix, kernels[-1]), "w").write(text)
    open(os.path.join(mix, "kernelslist.g"), "w").write("\n".join(copies + kernels) + "\n")


def cmd_plan_base(gputlm, platforms):
    """Each platform's effective configuration; a copy of it whose power section PyYAML
    writes back (every run, baselines included, uses the copy); the baseline runs: always_on,
    and idle_timeout into each low-power state of the table."""
    w = Work()
    os.makedirs(w.path("base"), exist_ok=True)
    os.makedirs(w.path("yaml"), exist_ok=True)
    w.state = {"gputlm": gputlm, "platforms": []}
    jobs = []
    for i, plat in enumerate(platforms):
        pid = "p%d" % i
        cfg = load(subprocess.run([gputlm, "elaborate", plat, "--dump-config", "-q"], check=True,
                                  stdout=subprocess.PIPE, text=True).stdout)
        text = open(plat).read()
        power = load(text).get("power")
        head = text[:text.index("\npower:") + 1] if power is not None else text
        copy_yaml = w.path("yaml", pid + ".yaml")
        open(copy_yaml, "w").write(
            head + (dump({"power": power}) if power else ""))
        states = sorted({s for t in (power or {}).get("components", {}).values()
                         for c in t.values() for s in list(c.get("states", {}))[1:]})
        variants = {"on": []}
        for s in states:
            variants["gate_" + s] = GATE + ["--set", "power.policy.state=" + s]
        params = []
        walk_gpu(cfg["gpu"], "", params)
        for key, _, _ in params:
            c = context(cfg, key)
            if c:
                variants[c[0]] = c[1]
        w.state["platforms"].append({"pid": pid, "file": plat, "name": os.path.basename(plat),
                                     "cfg": cfg, "variants": variants, "head": head,
                                     "power": power, "yaml": copy_yaml})
        # The as-shipped baselines now (the allowlist reads them); the others when a
        # parameter's runs first need them (most stop at the first workload).
        for s in SAMPLES:
            jobs.append({"out": w.base(pid, "on", s), "yaml": copy_yaml, "sample": trace_dir(s),
                         "sets": []})
    w.save()
    with open(w.path("base.jobs"), "w") as f:
        for n, j in enumerate(jobs):
            json.dump(j, open(w.path("base", "job%d.json" % n), "w"))
            f.write(w.path("base", "job%d.json" % n) + "\n")


def cmd_base(jobfiles):
    w = Work()
    for jobfile in jobfiles:
        j = json.load(open(jobfile))
        rc, err = run([w.state["gputlm"], "run", j["yaml"], j["sample"], "--no-wall-clock",
                       "--stats-form=full", "--stats", j["out"]] + j["sets"])
        if rc != 0:
            print("dead_keys: baseline %s %s %s failed: %s" % (j["yaml"], j["sample"],
                                                               " ".join(j["sets"]), err))
            sys.exit(255)  # (xargs stops)


def sets_of(assignments):
    return [a for x in assignments for a in ("--set", x)]


def groups(cfg, key, btype, value):
    """The changes of a parameter that cannot change alone, with what must follow it."""
    gpu = cfg["gpu"]
    leaf = key.rsplit(".", 1)[-1]
    block = key[: len(key) - len(leaf)]
    if btype in ("l1_cache", "l2_cache") and leaf in ("sets", "ways", "line_size"):
        node = gpu
        for part in block.strip(".").split("."):
            node = node[part]
        geo = {"sets": node["sets"], "ways": node["ways"],
               "line_size": int(re.fullmatch(r"(\d+)B", node["line_size"]).group(1))}
        out = []
        for v in candidates(value):
            g = dict(geo)
            g[leaf] = int(v[:-1]) if leaf == "line_size" else int(v)
            if g[leaf] > 0:
                out.append([key + "=" + v,
                            block + "size=%dB" % (g["sets"] * g["ways"] * g["line_size"])])
        return out
    channels = cfg.get("vars", {}).get("channels")
    if key in ("icnt.mem_channels", "dram.channels") and channels:
        # The channel count is the platform's variable: the DRAM channels, the network's
        # memory ports and the L2 banks (and their interfaces) follow it.
        return [["vars.channels=%d" % m] for m in (channels // 2, channels - 1) if m >= 1]
    return None


def cmd_plan_perturb():
    w = Work()
    jobs, allowed_keys = [], []
    for p in w.state["platforms"]:
        ctx, cfg = Ctx(w, p), p["cfg"]
        todo = []  # (key, baseline variant, [(platform copy, arguments) to try in turn])
        params = []
        walk_gpu(cfg["gpu"], "", params)
        for key, btype, value in params:
            g = groups(cfg, key, btype, value)
            cands = g if g is not None else [[key + "=" + v]
                                             for v in candidates(value) + EXTRA.get(key, [])]
            variant, pre = context(cfg, key) or ("on", [])
            todo.append((key, variant, [(p["yaml"], pre + sets_of(c)) for c in cands]))
        for d, dv in cfg.get("clocks", {}).items():
            for k, v in dv.items():
                todo.append(("clocks.%s.%s" % (d, k), "on",
                             [(p["yaml"], ["--set", "clocks.%s.%s=%s" % (d, k, c)])
                              for c in candidates(v)]))
        todo.append(("platform.description", "on", []))
        power = p["power"]
        if power is not None:
            n = [0]

            def changed(edit):  # a copy of the platform with the power section edited
                pw = copy.deepcopy(power)
                edit(pw)
                n[0] += 1
                path = w.path("yaml", "%s.t%d.yaml" % (p["pid"], n[0]))
                open(path, "w").write(p["head"] + dump({"power": pw}))
                return path

            todo.append(("power.policy", "on",
                         [(p["yaml"], v) for k, v in sorted(p["variants"].items()) if k != "on"]))
            todo.append(("power.source", "on", [(changed(
                lambda pw: pw.__setitem__("source", str(pw.get("source")) + "+")), [])]))
            for btype, comps in power.get("components", {}).items():
                for comp, spec in comps.items():
                    base = "power.components.%s.%s" % (btype, comp)
                    names = list(spec.get("states", {}))
                    for si, s in enumerate(names):
                        st = spec["states"][s]
                        variant = "on" if si == 0 else "gate_" + s
                        fields = st if isinstance(st, dict) else {"static": st}
                        for field, val in fields.items():
                            key = base + ".states." + s + ("." + field if isinstance(st, dict) else "")
                            cands = []
                            for new in power_values(val, field):
                                def edit(pw, btype=btype, comp=comp, s=s, field=field, new=new):
                                    states = pw["components"][btype][comp]["states"]
                                    if isinstance(states[s], dict):
                                        states[s][field] = new
                                    else:
                                        states[s] = new
                                cands.append((changed(edit), p["variants"][variant]))
                            todo.append((key, variant, cands))
                    for ev, val in spec.get("events", {}).items():
                        def edit(pw, btype=btype, comp=comp, ev=ev, new=power_values(val, "event")[0]):
                            pw["components"][btype][comp]["events"][ev] = new
                        todo.append((base + ".events." + ev, "on", [(changed(edit), [])]))
                    if "granularity" in spec:
                        variant = "gate_" + names[1] if len(names) > 1 else "on"

                        def edit(pw, btype=btype, comp=comp, g=spec["granularity"]):
                            b = int(re.fullmatch(r"(\d+)B", g).group(1))
                            pw["components"][btype][comp]["granularity"] = "%dB" % (2 * b)
                        todo.append((base + ".granularity", variant,
                                     [(changed(edit), p["variants"][variant])]))
        for key, variant, cands in todo:
            reason = allowed(ctx, key)
            if reason:
                allowed_keys.append({"platform": p["name"], "key": key, "reason": reason})
            else:
                jobs.append({"platform": p["name"], "pid": p["pid"], "key": key,
                             "variant": variant, "candidates": cands})
    os.makedirs(w.path("jobs"), exist_ok=True)
    os.makedirs(w.path("runs"), exist_ok=True)
    with open(w.path("perturb.jobs"), "w") as f:
        for n, j in enumerate(jobs):
            j["id"] = n
            json.dump(j, open(w.path("jobs", "%d.json" % n), "w"))
            f.write(w.path("jobs", "%d.json" % n) + "\n")
    json.dump(allowed_keys, open(w.path("allowed.json"), "w"), indent=1)


def cmd_perturb(jobfiles):
    w = Work()
    for jobfile in jobfiles:
        perturb(w, json.load(open(jobfile)))


def perturb(w, j):
    """Workload by workload, each candidate change in turn, until one differs from the
    baseline. A change that fails (validation) is dropped; if its error lists the valid
    values, they become candidates."""
    out = w.path("runs", "%d.json" % j["id"])
    result = {"platform": j["platform"], "key": j["key"], "verdict": "unchangeable", "errors": [],
              "runs": 0}
    cands, seen = [], set()

    def add(yml, c):
        if c and c[-1].endswith("=?"):  # a choice: its values come from the error
            c = c[:-1] + [c[-1] + "invalid?"]
        if (yml, tuple(c)) not in seen:
            seen.add((yml, tuple(c)))
            cands.append([yml, c, None])  # None: not run yet, then True (valid) or False

    for yml, c in j["candidates"]:
        add(yml, c)
    for s in SAMPLES:
        k = 0
        while k < len(cands):
            yml, c, ok = cands[k]
            k += 1
            if ok is False:
                continue
            rc, err = run([w.state["gputlm"], "run", yml, trace_dir(s), "--no-wall-clock",
                           "--stats-form=full", "--stats", out] + c)
            result["runs"] += 1
            if rc != 0:
                cands[k - 1][2] = False
                if not c or not c[-1].endswith("?invalid?"):
                    result["errors"].append(" ".join(c) + ": " + err)
                if len(c) >= 2 and c[-2] == "--set":  # the values a validation error lists
                    key, _, v = c[-1].partition("=")
                    for alt in one_of(err):
                        if alt != v and alt != str(ctx_value(w, j, key)):
                            add(yml, c[:-1] + [key + "=" + alt])
                continue
            cands[k - 1][2] = True
            if open(out, "rb").read() != open(baseline(w, j, s), "rb").read():
                result.update(verdict="live", change=" ".join(c), workload=s)
                json.dump(result, open(w.path("runs", "%d.result" % j["id"]), "w"))
                return
    if any(ok for _, _, ok in cands):
        result["verdict"] = "dead"
    json.dump(result, open(w.path("runs", "%d.result" % j["id"]), "w"))


def baseline(w, j, s):
    """The statistics of workload s under the job's baseline variant, run if still missing
    (two workers may both run it: the same bytes, renamed into place)."""
    path = w.base(j["pid"], j["variant"], s)
    if not os.path.exists(path):
        p = next(p for p in w.state["platforms"] if p["pid"] == j["pid"])
        tmp = "%s.%d.tmp" % (path, os.getpid())
        rc, err = run([w.state["gputlm"], "run", p["yaml"], trace_dir(s), "--no-wall-clock",
                       "--stats-form=full", "--stats", tmp] + p["variants"][j["variant"]])
        if rc != 0:
            sys.exit("dead_keys: baseline %s %s (%s) failed: %s" % (p["name"], s, j["variant"], err))
        os.replace(tmp, path)
    return path


def ctx_value(w, job, key):
    for p in w.state["platforms"]:
        if p["pid"] == job["pid"]:
            try:
                return Ctx(w, p).cfg(key)
            except (KeyError, TypeError):
                return None


def cmd_report(seconds):
    w = Work()
    results = [json.load(open(f)) for f in glob.glob(w.path("runs", "*.result"))]
    results.sort(key=lambda r: (r["platform"], r["key"]))
    allowed_keys = json.load(open(w.path("allowed.json")))
    jobs = len(glob.glob(w.path("jobs", "*.json")))
    bad = [r for r in results if r["verdict"] != "live"]
    for r in bad:
        if r["verdict"] == "dead":
            print("DEAD           %-12s %s" % (r["platform"], r["key"]))
        else:
            print("CANNOT CHANGE  %-12s %s: %s" % (r["platform"], r["key"],
                                                  "; ".join(r["errors"][:2]) or "no value to try"))
    missing = jobs - len(results)
    if missing:
        print("dead_keys: %d of %d parameter runs did not finish" % (missing, jobs))
    live = sum(r["verdict"] == "live" for r in results)
    n = len(w.state["platforms"])
    if bad or missing:
        print("dead_keys: %d dead or unchangeable parameters on %d platform%s (%d live, %d "
              "allowlisted); %d s" % (len(bad), n, "s" if n > 1 else "", live, len(allowed_keys),
                                      seconds))
        sys.exit(1)
    print("dead_keys: no dead keys on the %d platform%s (%d parameters live, %d allowlisted); %d s"
          % (n, "s" if n > 1 else "", live, len(allowed_keys), seconds))


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "workloads":
        cmd_workloads(sys.argv[3])
    elif cmd == "plan-base":
        cmd_plan_base(sys.argv[3], sys.argv[4:])
    elif cmd == "base":
        cmd_base(sys.argv[3:])
    elif cmd == "plan-perturb":
        cmd_plan_perturb()
    elif cmd == "perturb":
        cmd_perturb(sys.argv[3:])
    elif cmd == "report":
        cmd_report(int(sys.argv[3]))
PY

dk() { python3 "$work/dk.py" "$1" "$work" "${@:2}"; }
stamp() { [ $keep = 0 ] || echo "  $1: $(($(date +%s) - start)) s"; }
dk workloads "$gputlm" || exit 2
dk plan-base "$gputlm" "${platforms[@]}" || exit 2
stamp planned
# (several runs per Python process: its start costs as much as a short run)
xargs -d '\n' -P "$jobs" -n 8 python3 "$work/dk.py" base "$work" <"$work/base.jobs" || exit 2
stamp baselines
dk plan-perturb || exit 2
stamp "parameters planned"
xargs -d '\n' -P "$jobs" -n 8 python3 "$work/dk.py" perturb "$work" <"$work/perturb.jobs" || exit 2
stamp "parameters run"
dk report $(($(date +%s) - start))
