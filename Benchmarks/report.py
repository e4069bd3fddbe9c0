#!/usr/bin/env python3
"""Turn one Benchmarks/run.sh run directory into the Markdown report.

    python3 Benchmarks/report.py --run DIR --targets Benchmarks/targets.tsv \
        --info DIR/info.md

Reads DIR/results/hf-<op>-<tool>.json (hyperfine --export-json),
DIR/results/watch.json, DIR/results/rss.tsv and DIR/results/notes.tsv.
"""

import argparse
import json
import os


def load_hf(path):
    if not os.path.exists(path):
        return None
    with open(path) as f:
        r = json.load(f)["results"][0]
    return r


def fmt_ms(ms):
    if ms is None:
        return "n/a"
    if ms >= 10000:
        return "%.1f s" % (ms / 1000)
    if ms >= 1000:
        return "%.2f s" % (ms / 1000)
    if ms >= 100:
        return "%.0f ms" % ms
    if ms >= 10:
        return "%.1f ms" % ms
    return "%.2f ms" % ms


def fmt_kb(kb):
    if kb is None:
        return "n/a"
    return "%.1f MiB" % (kb / 1024.0)


def ratio(tw, tick):
    if tw is None or tick is None or tick == 0:
        return "n/a"
    r = tw / tick
    return ("%.2f×" % r) if r < 10 else ("%.0f×" % r)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", required=True)
    ap.add_argument("--targets", required=True)
    ap.add_argument("--info", required=True)
    ap.add_argument("--tick", help="tick path, shown as `tick` in commands")
    a = ap.parse_args()
    res = os.path.join(a.run, "results")

    targets = {}
    if os.path.exists(a.targets):
        for line in open(a.targets, encoding="utf-8"):
            line = line.rstrip("\n")
            if not line or line.startswith("#") or "\t" not in line:
                continue
            k, v = line.split("\t", 1)
            targets[k.strip()] = v.strip()

    notes = {}
    p = os.path.join(res, "notes.tsv")
    if os.path.exists(p):
        for line in open(p, encoding="utf-8"):
            if "\t" in line:
                k, v = line.rstrip("\n").split("\t", 1)
                notes.setdefault(k, []).append(v)

    def med(op, tool):
        r = load_hf(os.path.join(res, "hf-%s-%s.json" % (op, tool)))
        return None if r is None else r["median"] * 1000.0

    ops = [
        ("cold", "cold full index (`reindex` / `task import`)"),
        ("today", "`today`"),
        ("list", "`list LIST`"),
        ("search", "`search WORD`"),
        ("stats", "`stats` (12 weeks, all lists)"),
        ("add", "`add` (to Bench 500)"),
        ("done", "`done ID` (in Bench 500)"),
    ]
    rows = []
    hdr = ("| operation | tick median | Taskwarrior median | grep median "
           "(search only) | ratio (Taskwarrior ÷ tick) | target |")
    rows.append(hdr)
    rows.append("|---|---:|---:|---:|---:|---|")
    for key, label in ops:
        tick, tw = med(key, "tick"), med(key, "tw")
        grep = fmt_ms(med(key, "grep")) if key == "search" else ""
        if key == "cold" and tw is None:
            single = os.path.join(res, "cold-tw-single.txt")
            if os.path.exists(single):
                tw = float(open(single).read().strip()) * 1000.0
        rows.append("| %s | %s | %s | %s | %s | %s |" % (
            label, fmt_ms(tick), fmt_ms(tw), grep, ratio(tw, tick),
            targets.get(key, "")))

    w = None
    p = os.path.join(res, "watch.json")
    if os.path.exists(p):
        w = json.load(open(p))
    for q in ("p50", "p95"):
        v = None if w is None else w.get(q + "_ms")
        rows.append("| watcher latency %s (rename → visible to `tick search`) "
                    "| %s | — |  | | %s |" % (q, fmt_ms(v),
                                             targets.get("watch_" + q, "")))
    for q in ("p50", "p95"):
        v = None if w is None else w.get("index_" + q + "_ms")
        rows.append("| watcher latency %s (rename → in the index, watcher "
                    "alone) | %s | — |  | | %s |" % (
                        q, fmt_ms(v), targets.get("watch_index_" + q, "")))

    rss = {}
    p = os.path.join(res, "rss.tsv")
    if os.path.exists(p):
        for line in open(p):
            k, v = line.rstrip("\n").split("\t")
            rss[k] = None if v in ("", "n/a") else float(v)
    for key, label in [("today", "`today`"), ("list", "`list LIST`"),
                       ("search", "`search WORD`"), ("watch", "`tick watch` (VmHWM)")]:
        t, tw = rss.get("tick-" + key), rss.get("tw-" + key)
        rows.append("| peak RSS %s | %s | %s |  | %s | %s |" % (
            label, fmt_kb(t), fmt_kb(tw) if key != "watch" else "—",
            ratio(tw, t) if key != "watch" else "",
            targets.get("rss_" + key, "")))

    out = []
    out.append(open(a.info, encoding="utf-8").read().rstrip("\n"))
    out.append("")
    out.append("## Results")
    out.append("")
    out.extend(rows)
    out.append("")
    # Detail table.
    out.append("## Details (hyperfine)")
    out.append("")
    out.append("| benchmark | command | median | mean ± σ | min | max | runs |")
    out.append("|---|---|---:|---:|---:|---:|---:|")
    for f in sorted(os.listdir(res)):
        if not (f.startswith("hf-") and f.endswith(".json")):
            continue
        r = load_hf(os.path.join(res, f))
        cmd = r["command"]
        if a.tick:
            cmd = cmd.replace("'%s'" % a.tick, "tick")
        cmd = cmd.replace(os.path.abspath(a.run), "$RUN").replace("|", "\\|")
        out.append("| %s | `%s` | %s | %s ± %s | %s | %s | %d |" % (
            f[3:-5], cmd, fmt_ms(r["median"] * 1000), fmt_ms(r["mean"] * 1000),
            fmt_ms((r.get("stddev") or 0) * 1000), fmt_ms(r["min"] * 1000),
            fmt_ms(r["max"] * 1000), len(r["times"])))
    if w is not None:
        out.append("")
        out.append("Watcher probe: %d/%d visible, %d timed out; first (untimed) "
                   "probe %s; max %s; polled with `tick %s` (a missed poll took "
                   "%s median, %d missed polls in total); watcher alive at the "
                   "end: %s." % (
                       w["ok"], w["n"], w["timeouts"], fmt_ms(w["first_probe_ms"]),
                       fmt_ms(w["max_ms"]), w["poll"],
                       fmt_ms(w["miss_poll_median_ms"]), w["polls_missed"],
                       w["watcher_alive"]))
        if w.get("index_note"):
            out.append("Index probe: n/a (%s)." % w["index_note"])
        elif "index_ok" in w:
            out.append("Index probe (watcher alone, index file polled "
                       "read-only every 2 ms): %d/%d in the index, %d timed "
                       "out; max %s." % (w["index_ok"], w["n"],
                                         w["index_timeouts"],
                                         fmt_ms(w["index_max_ms"])))
    if notes:
        out.append("")
        out.append("## Notes")
        out.append("")
        for k, vs in notes.items():
            for v in vs:
                out.append("- **%s**: %s" % (k, v))
    print("\n".join(out))


if __name__ == "__main__":
    main()
