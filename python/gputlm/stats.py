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
("power.data.average_watts") or indexed ("port.mem[3].flits"). The file names no block types.

load_stats        the file as nested dicts, the blocks by hierarchy
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

__all__ = ["load_stats", "stats_frame", "histograms_frame", "run_summary", "kernels_frame",
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
    """The file's JSON from a path, a load_stats result or a dict as json.load gives it."""
    if isinstance(source, Stats):
        return source.flat
    if isinstance(source, dict):
        return source
    with open(os.fspath(source), encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, dict):
        raise ValueError(f"{os.fspath(source)}: not a statistics file (not a JSON object)")
    return data


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
