#!/usr/bin/env python3
"""Turn one Benchmarks/run.sh run directory into the Markdown report.

    python3 Benchmarks/report.py --run DIR --targets Benchmarks/targets.tsv \
        --info DIR/info.md [--tick PATH]

Reads DIR/results/hf-<op>-<tool>.json (hyperfine --export-json; tools: tick,
tw = Taskwarrior, tdm = todoman, tpd = topydo, grep, grepfull, true),
DIR/results/lines.tsv (lines and tasks each read printed),
DIR/results/watch.json, DIR/results/rss.tsv and DIR/results/notes.tsv.
Anything missing is shown as n/a.
"""

import argparse
import json
import os


def load_hf(path):
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)["results"][0]


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


def ratio(num, den):
    """num ÷ den, or n/a."""
    if num is None or den is None or den == 0:
        return "n/a"
    r = num / den
    return ("%.2f×" % r) if r < 10 else ("%.0f×" % r)


def read_tsv(path):
    out = {}
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            if "\t" in line:
                k, v = line.rstrip("\n").split("\t", 1)
                out[k] = v
    return out


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
    tgt = lambda k: targets.get(k, "")

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

    def single(tool):
        p = os.path.join(res, "cold-%s-single.txt" % tool)
        if os.path.exists(p):
            return float(open(p).read().strip()) * 1000.0
        return None

    lines = {}
    for k, v in read_tsv(os.path.join(res, "lines.tsv")).items():
        lines[k] = None if v in ("", "n/a") else int(v)

    def nlines(key):
        v = lines.get(key)
        return "n/a" if v is None else "{:,}".format(v)

    rss = {}
    for k, v in read_tsv(os.path.join(res, "rss.tsv")).items():
        rss[k] = None if v in ("", "n/a") else float(v)

    out = [open(a.info, encoding="utf-8").read().rstrip("\n"), ""]

    # --- main table -----------------------------------------------------
    ops = [
        ("cold", "cold full index (`reindex` / `task import` / todoman's cache)"),
        ("today", "`today` (todoman, topydo: see `due`)"),
        ("due", "due by the end of the day (`list due.before:D`)"),
        ("list", "`list LIST` (one list, pending)"),
        ("listall", "`list` (every pending task)"),
        ("search", "`search WORD`"),
        ("searchlimit", "`search WORD --limit 10`"),
        ("stats", "`stats` (12 weeks, all lists)"),
        ("add", "`add` (to Bench 500)"),
        ("done", "`done ID` (in Bench 500)"),
    ]
    out += ["## Results", "",
            "Medians; a ratio is the peer's median ÷ tick's (above 1: tick is faster).", "",
            "| operation | tick | Taskwarrior | todoman | topydo | grep -ri | "
            "Taskwarrior ÷ tick | todoman ÷ tick | topydo ÷ tick | target |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for key, label in ops:
        tick, tw, tdm, tpd = (med(key, t) for t in ("tick", "tw", "tdm", "tpd"))
        if key == "cold":
            tw = tw if tw is not None else single("tw")
            tdm = tdm if tdm is not None else single("tdm")
        grep = fmt_ms(med("search", "grepfull")) if key in ("search", "searchlimit") else ""
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            label, fmt_ms(tick), fmt_ms(tw), fmt_ms(tdm), fmt_ms(tpd), grep,
            ratio(tw, tick), ratio(tdm, tick), ratio(tpd, tick), tgt(key)))
    out.append("")

    # --- start-up floor ---------------------------------------------------
    floor_true = med("floor", "true")
    empty = med("empty", "tick")
    out += ["## Start-up floor", "",
            "| command | median | ÷ `/bin/true` | peak RSS | target |",
            "|---|---:|---:|---:|---|"]
    for label, m, rk, tk in [
            ("`/bin/true` (a C program's start)", floor_true, "true-floor", ""),
            ("`tick --version`", med("version", "tick"), "tick-version", "floor"),
            ("`tick today` on an empty store", empty, "tick-empty", "floor")]:
        out.append("| %s | %s | %s | %s | %s |" % (
            label, fmt_ms(m), ratio(m, floor_true), fmt_kb(rss.get(rk)), tgt(tk)))
    out.append("")

    # --- cost per printed line ---------------------------------------------
    out += ["## Cost per printed line (tick, warm index)", "",
            "µs per line = (median − median of `tick today` on an empty store) ÷ "
            "lines printed. Lines are what the command prints (group headers "
            "included); tasks are the length of its `--json` array.", "",
            "| read | tick median | lines printed | tasks | above the floor | µs per line | target |",
            "|---|---:|---:|---:|---:|---:|---|"]
    for key, label in [("today", "`today`"), ("due", "`list due.before:D`"),
                       ("list", "`list LIST`"),
                       ("listall", "`list`"), ("search", "`search WORD`"),
                       ("searchlimit", "`search WORD --limit 10`")]:
        m = med(key, "tick")
        n = lines.get(key + "-tick")
        above = None if m is None or empty is None else m - empty
        per = "n/a"
        if above is not None and n:
            per = "%.1f µs" % (above * 1000.0 / n) if above >= 0 else "n/a (below the floor: noise)"
        out.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            label, fmt_ms(m), nlines(key + "-tick"), nlines("tasks-%s-tick" % key),
            fmt_ms(above), per, tgt("searchlimit" if key == "searchlimit" else "per_line")))
    out.append("")

    # --- search against grep ------------------------------------------------
    gfull = med("search", "grepfull")
    out += ["## Search against grep", "",
            "| command | median | lines printed | ratio | target |",
            "|---|---:|---:|---|---|"]
    out.append("| `grep -ri WORD STORE` (every matching line) | %s | %s | | |" % (
        fmt_ms(gfull), nlines("search-grepfull")))
    out.append("| `grep -ril WORD STORE` (file names; stops at a file's first match) | %s | %s | | |" % (
        fmt_ms(med("search", "grep")), nlines("search-grep")))
    s = med("search", "tick")
    out.append("| `tick search WORD` | %s | %s | %s of `grep -ri` | %s |" % (
        fmt_ms(s), nlines("search-tick"), ratio(s, gfull), tgt("search_grep")))
    sl = med("searchlimit", "tick")
    out.append("| `tick search WORD --limit 10` | %s | %s | %s of the floor (empty store), %s of `tick --version` | %s |" % (
        fmt_ms(sl), nlines("searchlimit-tick"), ratio(sl, empty), ratio(sl, med("version", "tick")), tgt("searchlimit")))
    out.append("")

    # --- what each tool printed --------------------------------------------
    out += ["## What each read printed (equivalence)", "",
            "Lines printed by the timed command; in brackets the tasks in its JSON "
            "(tick `--json`, Taskwarrior `export`, `todoman --porcelain`). "
            "topydo prints one line per task.", "",
            "| read | tick | Taskwarrior | todoman | topydo | grep -ri |",
            "|---|---:|---:|---:|---:|---:|"]

    def both(op, tool):
        l, t = lines.get("%s-%s" % (op, tool)), lines.get("tasks-%s-%s" % (op, tool))
        if l is None and t is None:
            return "n/a"
        s = nlines("%s-%s" % (op, tool))
        if t is not None and tool != "tw":
            s += " (%s)" % "{:,}".format(t)
        elif tool == "tw" and t is not None:
            s = "(%s)" % "{:,}".format(t)
        return s
    for key, label in [("today", "`today`"), ("due", "due by the end of the day"),
                       ("list", "`list LIST`"),
                       ("listall", "`list`"), ("search", "`search WORD`")]:
        out.append("| %s | %s | %s | %s | %s | %s |" % (
            label, both(key, "tick"), both(key, "tw"), both(key, "tdm"),
            both(key, "tpd"), nlines("search-grepfull") if key == "search" else ""))
    out.append("")

    # --- memory and watcher ---------------------------------------------------
    out += ["## Peak RSS and watcher", "",
            "| measure | tick | Taskwarrior | todoman | topydo | target |",
            "|---|---:|---:|---:|---:|---|"]
    for key, label in [("today", "`today`"), ("due", "due by the end of the day"),
                       ("list", "`list LIST`"),
                       ("listall", "`list`"), ("search", "`search WORD`")]:
        out.append("| peak RSS %s | %s | %s | %s | %s | %s |" % (
            label, fmt_kb(rss.get("tick-" + key)), fmt_kb(rss.get("tw-" + key)),
            fmt_kb(rss.get("tdm-" + key)), fmt_kb(rss.get("tpd-" + key)),
            tgt("rss_" + key) or tgt("rss_read")))
    out.append("| peak RSS `tick watch` (VmHWM) | %s | — | — | — | %s |" % (
        fmt_kb(rss.get("tick-watch")), tgt("rss_watch")))
    w = None
    p = os.path.join(res, "watch.json")
    if os.path.exists(p):
        w = json.load(open(p))
    for q in ("p50", "p95"):
        v = None if w is None else w.get(q + "_ms")
        out.append("| watcher latency %s (rename → visible to `tick search`) "
                   "| %s | — | — | — | %s |" % (q, fmt_ms(v), tgt("watch_" + q)))
    for q in ("p50", "p95"):
        v = None if w is None else w.get("index_" + q + "_ms")
        out.append("| watcher latency %s (rename → in the index, watcher alone) "
                   "| %s | — | — | — | %s |" % (q, fmt_ms(v), tgt("watch_index_" + q)))
    out.append("")

    # --- details ----------------------------------------------------------------
    out += ["## Details (hyperfine)", "",
            "| benchmark | command | median | mean ± σ | min | max | runs |",
            "|---|---|---:|---:|---:|---:|---:|"]
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
        out += ["", "## Notes", ""]
        for k, vs in notes.items():
            for v in vs:
                out.append("- **%s**: %s" % (k, v.replace(os.path.abspath(a.run), "$RUN")))
    print("\n".join(out))


if __name__ == "__main__":
    main()
