#!/usr/bin/env python3
"""Watcher latency probe for Benchmarks/run.sh.

Assumes `tick watch` is already running on STORE. N times: append a task with
a unique one-word title to LIST_FILE the way an editor or sync tool would
(write a hidden temp file in the same directory, then rename it over the
original), then poll tick until the task is visible, and record the time
from the rename to the end of the first poll that shows it.

Polling uses `tick search TITLE` when tick has a search command, else
`tick list LIST --json` and a substring check. Each sample is therefore
"rename -> a user running tick sees it", including the cost of that one tick
call; the cost of a poll that misses is also recorded (poll_ms).

Second measurement (when tick has a `status` command that names its SQLite
index): N more probes where nothing but the watcher can update the index;
after the rename the index file is polled directly (read-only sqlite3, by the
task's id, every ~2 ms) until the task is in it. This isolates the watcher:
tick's read commands also refresh stale files themselves, so the first
measurement does not need the watcher at all. It relies on tick's internal
index schema (a table with `id` and `title` columns) and is skipped ("n/a")
when that is not found.

Writes a JSON summary to --out and prints it.
"""

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_store import canonical_json, ts, BASE  # noqa: E402

import datetime as dt


def pct(xs, p):
    xs = sorted(xs)
    if not xs:
        return None
    k = (len(xs) - 1) * p / 100.0
    lo, hi = int(k), min(int(k) + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def find_index(tick, store):
    """(db path, table) of tick's SQLite index, or None."""
    try:
        p = subprocess.run([tick, "--store", store, "status", "--json"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           timeout=300)
        path = json.loads(p.stdout).get("index")
    except (subprocess.SubprocessError, ValueError, AttributeError):
        return None
    if not path or not os.path.isfile(path):
        return None
    try:
        con = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
        try:
            for name, sql in con.execute(
                    "SELECT name, sql FROM sqlite_master WHERE type = 'table'"):
                if (sql or "").upper().startswith("CREATE VIRTUAL"):
                    continue
                cols = {r[1] for r in con.execute(
                    "PRAGMA table_info(\"%s\")" % name.replace('"', '""'))}
                if {"id", "title"} <= cols:
                    return path, '"%s"' % name.replace('"', '""')
        finally:
            con.close()
    except sqlite3.Error:
        return None
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tick", required=True)
    ap.add_argument("--store", required=True)
    ap.add_argument("--list-file", required=True, help="relative to the store")
    ap.add_argument("--list-name", required=True)
    ap.add_argument("--n", type=int, default=50)
    ap.add_argument("--timeout", type=float, default=10.0,
                    help="seconds to wait for one task to become visible")
    ap.add_argument("--ready-timeout", type=float, default=120.0,
                    help="seconds to wait for the first (untimed) probe")
    ap.add_argument("--use-search", action="store_true")
    ap.add_argument("--watch-pid", type=int)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()

    path = os.path.join(a.store, a.list_file)
    d, base = os.path.split(path)
    run_tag = "%x" % (os.getpid() & 0xFFFFFF)

    def poll_cmd(title):
        if a.use_search:
            return [a.tick, "--store", a.store, "search", title]
        # "list:NAME": one bare argument with a space is a phrase, not a list.
        return [a.tick, "--store", a.store, "list", "list:" + a.list_name, "--json"]

    def visible(title):
        p = subprocess.run(poll_cmd(title), stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL)
        return title.encode() in p.stdout

    def alive():
        if a.watch_pid is None:
            return True
        try:
            os.kill(a.watch_pid, 0)
            return True
        except OSError:
            return False

    def append(i, title):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        now = BASE + dt.timedelta(hours=12, seconds=i)
        doc["tasks"].append({
            "id": task_id(i),
            "title": title, "state": "open",
            "createdAt": ts(now), "modifiedAt": ts(now)})
        tmp = os.path.join(d, ".%s.bench-%s-%d.tmp" % (base, run_tag, i))
        with open(tmp, "w", encoding="utf-8", newline="\n") as f:
            f.write(canonical_json(doc))
            f.flush()
            os.fsync(f.fileno())
        t0 = time.monotonic()
        os.rename(tmp, path)
        return t0

    def task_id(i):
        return "00000000-0000-4000-8000-%012x" % ((int(run_tag, 16) << 16) + i)

    def probe(i, timeout):
        title = "watchprobe%s%04d" % (run_tag, i)
        t0 = append(i, title)
        misses, miss_ms = 0, []
        while True:
            s = time.monotonic()
            if visible(title):
                return (time.monotonic() - t0) * 1000.0, misses, miss_ms
            miss_ms.append((time.monotonic() - s) * 1000.0)
            misses += 1
            if time.monotonic() - t0 > timeout or not alive():
                return None, misses, miss_ms

    # Untimed first probe: lets the watcher finish its start-up work.
    first, _, _ = probe(0, a.ready_timeout)
    samples, timeouts, misses_total, miss_ms_all = [], 0, 0, []
    if first is not None:
        for i in range(1, a.n + 1):
            ms, misses, miss_ms = probe(i, a.timeout)
            misses_total += misses
            miss_ms_all += miss_ms
            if ms is None:
                timeouts += 1
                if not alive():
                    break
            else:
                samples.append(ms)
    # Phase B: the watcher alone, observed in the index file.
    idx = find_index(a.tick, a.store)
    idx_samples, idx_timeouts, idx_note = [], 0, None
    if idx is None:
        idx_note = "no index found via `tick status --json`"
    else:
        db_path, table = idx
        for i in range(a.n + 1, 2 * a.n + 1):
            if not alive():
                break
            title = "watchprobe%s%04d" % (run_tag, i)
            t0 = append(i, title)
            got = None
            while time.monotonic() - t0 < a.timeout:
                try:
                    con = sqlite3.connect("file:%s?mode=ro" % db_path, uri=True,
                                          timeout=1.0)
                    try:
                        row = con.execute("SELECT 1 FROM %s WHERE id = ? LIMIT 1"
                                          % table, (task_id(i),)).fetchone()
                    finally:
                        con.close()
                except sqlite3.Error:
                    row = None
                if row:
                    got = (time.monotonic() - t0) * 1000.0
                    break
                time.sleep(0.002)
            if got is None:
                idx_timeouts += 1
            else:
                idx_samples.append(got)

    res = {
        "n": a.n, "ok": len(samples), "timeouts": timeouts,
        "first_probe_ms": first,
        "p50_ms": pct(samples, 50), "p95_ms": pct(samples, 95),
        "max_ms": max(samples) if samples else None,
        "polls_missed": misses_total,
        "miss_poll_median_ms": statistics.median(miss_ms_all) if miss_ms_all else None,
        "poll": "search" if a.use_search else "list --json",
        "watcher_alive": alive(),
        "samples_ms": samples,
        "index_ok": len(idx_samples), "index_timeouts": idx_timeouts,
        "index_p50_ms": pct(idx_samples, 50), "index_p95_ms": pct(idx_samples, 95),
        "index_max_ms": max(idx_samples) if idx_samples else None,
        "index_note": idx_note,
        "index_samples_ms": idx_samples,
    }
    with open(a.out, "w") as f:
        json.dump(res, f, indent=2)
    print(json.dumps({k: v for k, v in res.items()
                      if k not in ("samples_ms", "index_samples_ms")}))


if __name__ == "__main__":
    main()
