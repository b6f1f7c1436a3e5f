"""The statistics of one run (`gputlm run ... --stats FILE.json`) as nested dicts and tables.

The file is plain JSON (models/common/stats.cpp writes it, keys sorted):

  total_cycles, ipc, warp_instructions, energy_joules, platform, trace, ...   the run's summary
  kernels   [{name, file, launch_cycle, start_cycle, end_cycle, cycles, warp_instructions,
              thread_instructions, ipc, tbs, finished, (launch, parent, depth, coalesced_into
              for device launches), tb_log: [[tb, smx, start_cycle, end_cycle], ...]}, ...]
              (no tb_log with --no-tb-log, as the experiment runner's points)
  power     {source, policy, by_component: {"<type>.<component>": {...}}}   with a power model
  blocks    {"<block path>": {"<statistic>": value}}, e.g. "gpu.smx[0].l1": {"hits": 96}

A statistic's value is a counter (int), a derived value (float, or null where it is 0/0) or a
histogram {"bucket_width": w, "counts": [c0, c1, ...]}: bucket i counts samples in
[i*w, (i+1)*w), the last one also every sample above. A statistic's name may be dotted
("power.data.average_watts") or indexed ("port.mem[3].flits").

That is the full form (`--stats-form full`). `gputlm run --stats` writes the compact form by
default ("stats_form": "compact"): the instances of a block type as one table,
"gpu.smx[*]": {"instances": ["gpu.smx[0]", ...], "<statistic>": value or [one per instance]},
and histograms as {"bucket_width": w, "buckets": n, "nonzero": [[bucket, count], ...]}. Every
function here reads either form (full_form turns the compact one into the full one, value for
value, as `gputlm stats FILE --form full` does).

load_stats        the file as nested dicts, the blocks by hierarchy
full_form         the file's JSON in the full form
block_table       one row per instance of a block type, one column per statistic
stats_frame       one row per scalar statistic of a block
histograms_frame  one row per histogram bucket of a block
run_summary       the run's top-level numbers and texts
kernels_frame     one row per kernel
tb_log_frame      one row per thread block (the kernels' tb_log)

Each takes a path, the dict that load_stats returns or the file's JSON as json.load gives it.
pandas is imported by the functions that return a DataFrame, not by this module.
"""
import json
import math
import os
import re

__all__ = ["load_stats", "full_form", "block_table", "stats_frame", "histograms_frame", "run_summary", "kernels_frame",
           "tb_log_frame"]

_SEGMENT = re.compile(r"([^\[\]]*)((?:\[\d+\])*)")


class Stats(dict):
    """What load_stats returns: the nested form. `flat` is the file's JSON as read."""

    flat = None


def _pandas():
    """pandas, or an ImportError that says where it comes from."""
    try:
        import pandas as pd
    except ImportError as e:
        raise ImportError("gputlm's tables need pandas (Debian: apt-get install python3-pandas)"
                          ) from e
    return pd


def split_path(path):
    """The keys a dotted path nests under: "gpu.smx[0].l1" -> ["gpu", "smx", 0, "l1"],
    "port.mem[3].flits" -> ["port", "mem", 3, "flits"]. Dots inside [] do not split."""
    keys = []
    for segment in _segments(path):
        m = _SEGMENT.fullmatch(segment)
        if m is None:  # not `name[i]...`: the segment is a plain name
            keys.append(segment)
            continue
        keys.append(m.group(1))
        keys += [int(i) for i in re.findall(r"\d+", m.group(2))]
    return keys


def _segments(path):
    out, depth = [""], 0
    for c in path:
        depth += (c == "[") - (c == "]")
        if c == "." and depth == 0:
            out.append("")
        else:
            out[-1] += c
    return out


def natural_key(path):
    """Sort key of a block path: names as text, indices as numbers, a block before the blocks
    inside it ("gpu.smx[2]" < "gpu.smx[2].l1" < "gpu.smx[10]")."""
    return tuple((0, k) if isinstance(k, int) else (1, k) for k in split_path(path))


def instance(path):
    """The indices of a block path, (2, 1) for "gpu.smx[2].rf.bank[1]"; None without any."""
    return tuple(k for k in split_path(path) if isinstance(k, int)) or None


def is_histogram(value):
    return isinstance(value, dict) and set(value) == {"bucket_width", "counts"}


def _read(source):
    """The file's JSON in the full form from a path, a load_stats result or a dict as
    json.load gives it."""
    if isinstance(source, Stats):
        return source.flat
    if isinstance(source, dict):
        return full_form(source)
    with open(os.fspath(source), encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, dict):
        raise ValueError(f"{os.fspath(source)}: not a statistics file (not a JSON object)")
    return full_form(data)


def _type_of(path):
    return re.sub(r"\[\d+\]", "[*]", path)


def _dense(value, where):
    if not (isinstance(value, dict) and "nonzero" in value):
        if isinstance(value, (dict, list)):
            raise ValueError(f"{where}: not a statistic's value")
        return value
    n = value.get("buckets")
    if not isinstance(n, int) or n <= 0:
        raise ValueError(f"{where}: a histogram needs \"buckets\", a positive count")
    counts = [0] * n
    for entry in value["nonzero"]:
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], int)
                and 0 <= entry[0] < n):
            raise ValueError(f"{where}: a \"nonzero\" entry is not [bucket, count] in range")
        counts[entry[0]] = entry[1]
    return {"bucket_width": value.get("bucket_width", 1), "counts": counts}


def full_form(data):
    """The statistics file's JSON in the full form: a compact-form document ("stats_form":
    "compact") expanded value for value (each block by its path, each histogram with all its
    buckets); a full-form one returned as it is. A document that says it is compact but is
    not in that form is a ValueError naming the key."""
    if not isinstance(data, dict) or "stats_form" not in data:
        return data
    if data["stats_form"] != "compact":
        raise ValueError('stats_form: expected "compact"')
    out = {k: v for k, v in data.items() if k != "stats_form"}
    blocks = {}
    for key, table in (data.get("blocks") or {}).items():
        where = "blocks." + key
        if not isinstance(table, dict):
            raise ValueError(f"{where}: not an object")
        if "[*]" not in key:
            if key in blocks:
                raise ValueError(f"{where}: block {key} twice")
            blocks[key] = {n: _dense(v, f"{where}.{n}") for n, v in table.items()}
            continue
        paths = table.get("instances")
        if not (isinstance(paths, list) and paths and
                all(isinstance(p, str) and _type_of(p) == key for p in paths)):
            raise ValueError(f"{where}: a block type needs \"instances\", a list of its paths")
        for p in paths:
            if p in blocks:
                raise ValueError(f"{where}: block {p} twice")
            blocks[p] = {}
        for name, value in table.items():
            if name == "instances":
                continue
            if isinstance(value, list) and len(value) != len(paths):
                raise ValueError(f"{where}.{name}: expected {len(paths)} values (one per "
                                 f"instance), found {len(value)}")
            for i, p in enumerate(paths):
                blocks[p][name] = _dense(value[i] if isinstance(value, list) else value,
                                         f"{where}.{name}")
    out["blocks"] = dict(sorted(blocks.items()))
    return out


def block_table(source, block_type):
    """One row per instance of a block type ("gpu.smx[*].l1"; a path without [*] is its one
    block), indexed by the instance's path in numeric order, one column per scalar statistic
    (float; NaN for null). Histograms are histograms_frame's. A type no block has is a
    KeyError naming the types there are."""
    pd = _pandas()
    rows, names = [], []
    for block, stats in _blocks(_read(source)):
        if _type_of(block) == block_type or block == block_type:
            names.append(block)
            rows.append({n: math.nan if v is None else v for n, v in stats.items()
                         if not is_histogram(v)})
    if not names:
        types = sorted({_type_of(b) for b, _ in _blocks(_read(source))})
        raise KeyError(f"no block of type {block_type!r} (types: {', '.join(types)})")
    return pd.DataFrame(rows, index=pd.Index(names, name="block"))


def _blocks(data):
    """[(block path, {statistic: value})] in natural order, checked to be the file's form."""
    blocks = data.get("blocks", {})
    if not isinstance(blocks, dict):
        raise ValueError("`blocks` is not an object")
    for block, stats in blocks.items():
        bad = not isinstance(stats, dict) or any(
            isinstance(v, (dict, list)) and not is_histogram(v) for v in stats.values())
        if bad:
            raise ValueError(f"block {block!r} is not in the statistics file's form (pass a path, "
                             "load_stats()'s result or the file's JSON as json.load gives it)")
    return sorted(blocks.items(), key=lambda item: natural_key(item[0]))


def load_stats(source):
    """The statistics as nested dicts.

    The run-level values are as in the file. The blocks nest by hierarchy: block
    "gpu.smx[0].l1" is d["blocks"]["gpu"]["smx"][0]["l1"], its statistic "hits" is
    d["blocks"]["gpu"]["smx"][0]["l1"]["hits"]. Instances are dicts keyed by int (in numeric
    order: smx[2] before smx[10]; a missing index is simply absent), so a name's own
    statistics (str keys) and its instances (int keys) never collide. A dotted or indexed
    statistic nests too: "power.data.average_watts" is [...]["power"]["data"]["average_watts"],
    "port.mem[3].flits" is [...]["port"]["mem"][3]["flits"]. A histogram stays
    {"bucket_width": w, "counts": [...]}, a null stays None. A block's statistic and another
    block (or statistic) that would nest at the same place are a ValueError.
    """
    data = _read(source)
    nested, nodes = {}, set()  # nodes: ids of the dicts made here (not histograms)
    nodes.add(id(nested))
    for block, stats in _blocks(data):
        for name, value in stats.items():
            keys = split_path(block) + split_path(name)
            d = nested
            for i, k in enumerate(keys[:-1]):
                if k not in d:
                    d[k] = {}
                    nodes.add(id(d[k]))
                elif id(d[k]) not in nodes:
                    raise ValueError(f"statistic {name!r} of block {block!r}: "
                                     f"{_show(keys[:i + 1])} is already a statistic")
                d = d[k]
            if keys[-1] in d:
                raise ValueError(f"statistic {name!r} of block {block!r}: {_show(keys)} "
                                 "already holds a block or a statistic")
            d[keys[-1]] = value
    out = Stats((k, nested if k == "blocks" else v) for k, v in data.items())
    out["blocks"] = nested  # (an empty one when the file has none)
    out.flat = data
    return out


def _show(keys):
    return "blocks" + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in keys)


def stats_frame(source):
    """One row per scalar statistic of a block: columns block (the path as in the file,
    "gpu.smx[0].l1"), instance (its indices as a tuple, (0,), or NaN), statistic (its name as
    in the file, dotted) and value (float; NaN for null). Rows follow the blocks in natural
    order (gpu.smx[2] before gpu.smx[10], a block before the blocks inside it), each block's
    statistics in the file's order. Histograms are left out: histograms_frame has them, one
    row per bucket. The file names no block types, so there is no type column; the last name
    of the path ("l1", "smx") says what the block is.
    """
    pd = _pandas()
    rows = []
    for block, stats in _blocks(_read(source)):
        idx = instance(block)
        for name, value in stats.items():
            if not is_histogram(value):
                rows.append((block, math.nan if idx is None else idx, name,
                             math.nan if value is None else value))
    return pd.DataFrame(rows, columns=["block", "instance", "statistic", "value"])


def histograms_frame(source):
    """One row per bucket of every histogram of a block: columns block, instance, statistic
    (as stats_frame), bucket (its index), low and high (the bucket holds samples v with
    low <= v < high; the last bucket's high is inf: it also collects the overflow) and count.
    Rows in stats_frame's order, buckets in order."""
    pd = _pandas()
    rows = []
    for block, stats in _blocks(_read(source)):
        idx = instance(block)
        for name, value in stats.items():
            if is_histogram(value):
                w, counts = value["bucket_width"], value["counts"]
                for b, count in enumerate(counts):
                    high = math.inf if b == len(counts) - 1 else (b + 1) * w
                    rows.append((block, math.nan if idx is None else idx, name, b, b * w, high,
                                 count))
    return pd.DataFrame(rows, columns=["block", "instance", "statistic", "bucket", "low", "high",
                                       "count"])


def run_summary(source):
    """The run's top-level values that are numbers, texts or booleans (total_cycles, ipc,
    warp_instructions, energy_joules, platform, trace, ...), in the file's order; the
    sections (blocks, kernels, power) are load_stats's."""
    return {k: v for k, v in _read(source).items() if not isinstance(v, (dict, list))}


def kernels_frame(source):
    """One row per kernel record: column kernel (its index, as in the metric path
    kernels[i]), then the record's fields (name, file, launch_cycle, start_cycle, end_cycle,
    cycles, warp_instructions, thread_instructions, ipc, tbs, finished; launch, parent, depth
    and coalesced_into where kernels are launched from the device, NaN elsewhere). The
    tb_log is tb_log_frame's."""
    pd = _pandas()
    records = [dict({"kernel": i}, **{key: v for key, v in kernel.items() if key != "tb_log"})
               for i, kernel in enumerate(_read(source).get("kernels") or [])]
    return pd.DataFrame(records, columns=None if records else ["kernel"])


def tb_log_frame(source):
    """One row per thread block of every kernel's tb_log: columns kernel (its index), tb, smx,
    start_cycle, end_cycle. Empty for a file written with --no-tb-log."""
    pd = _pandas()
    rows = [(i, *entry) for i, k in enumerate(_read(source).get("kernels") or [])
            for entry in k.get("tb_log") or []]
    return pd.DataFrame(rows, columns=["kernel", "tb", "smx", "start_cycle", "end_cycle"])
