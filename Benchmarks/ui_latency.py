#!/usr/bin/env python3
"""Latency of `tick ui` on a real terminal (tmux), for issue 16's targets.

Runs `tick ui` in a detached tmux session and records every chunk the UI
writes to its terminal with a timestamp (`tmux pipe-pane -O` into a small
stamping process; both use CLOCK_MONOTONIC). A measurement starts just
before the stimulus and ends at the last chunk of the repaint it causes (the
burst of output that follows, ended by QUIET ms of silence); the screen is
then checked with `capture-pane`, so every sample is of a correct screen.

  first screen        from releasing `tick ui` (already started in tmux,
                      waiting on `tmux wait-for`) to the end of its first
                      full screen, index warm (a `tick today` ran before)
  key -> repaint      `j` / `k` (selection moves), from the moment the key is
                      handed to tmux (the stamper is also the pane's input)
  external -> screen  a title in a list file changed as an editor saves it
                      (temp file + rename), from before the rename

Usage:
  python3 Benchmarks/gen_store.py --tasks 100000 --lists 200 --seed 1 --profile heavy --out /tmp/heavy/store
  python3 Benchmarks/ui_latency.py --tick .build/release/tick --store /tmp/heavy/store [--runs 30] [--out ui.json]

Prints medians and p95 in ms, and writes them as JSON with --out. The
store is changed (one task is renamed `uiprobe PID N`); run it on a generated store.
"""

import argparse
import json
import os
import re
import shlex
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time

STAMPER = r'''
import os, struct, sys, threading, time
out = open(sys.argv[1], "ab", buffering=0)
lock = threading.Lock()
def log(kind, data):
    with lock:
        out.write(struct.pack("<cdI", kind, time.monotonic(), len(data)) + data)
def keys():
    # Keys for the pane: written to tmux (our stdout is the pane's input), then stamped.
    fifo = os.open(sys.argv[2], os.O_RDWR)
    while True:
        data = os.read(fifo, 4096)
        os.write(1, data)
        log(b"I", data)
threading.Thread(target=keys, daemon=True).start()
while True:
    data = os.read(0, 65536)
    if not data:
        break
    log(b"O", data)
'''


def pct(xs, p):
    xs = sorted(xs)
    k = (len(xs) - 1) * p / 100.0
    lo, hi = int(k), min(int(k) + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


class Session:
    def __init__(self, tick, store, work, width, height):
        self.sock = os.path.join(work, "tmux.sock")
        self.log = os.path.join(work, "pane.log")
        self.fifo = os.path.join(work, "keys.fifo")
        os.mkfifo(self.fifo)
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": work, "TERM": "tmux-256color",
            "LANG": "C.UTF-8", "TICK_STORE": store, "NO_COLOR": "1", "TZ": "UTC",
            "XDG_STATE_HOME": os.path.join(work, "state"), "XDG_CACHE_HOME": os.path.join(work, "cache"),
            "XDG_DATA_HOME": os.path.join(work, "data"), "XDG_CONFIG_HOME": os.path.join(work, "config"),
        }
        for d in ("state", "cache", "data", "config"):
            os.makedirs(os.path.join(work, d), exist_ok=True)
        # Warm the index, as a user's would be.
        subprocess.run([tick, "today"], env=dict(self.env, TICK_PAGER="cat"), stdout=subprocess.DEVNULL, check=True)
        stamper = os.path.join(work, "stamp.py")
        with open(stamper, "w") as f:
            f.write(STAMPER)
        open(self.log, "wb").close()
        vars_ = " ".join(f"{k}={shlex.quote(v)}" for k, v in sorted(self.env.items()))
        cmd = f"tmux -S {shlex.quote(self.sock)} wait-for go; exec env -i {vars_} {shlex.quote(tick)} ui"
        self.tmux("-f", "/dev/null", "new-session", "-d", "-s", "b", "-x", str(width), "-y", str(height), cmd)
        # -I and -O: the stamper reads what the UI draws and types what send() gives it.
        self.tmux("pipe-pane", "-I", "-O", "-t", "b", f"python3 -u {shlex.quote(stamper)} {shlex.quote(self.log)} {shlex.quote(self.fifo)}")
        time.sleep(0.3)
        self.keys = os.open(self.fifo, os.O_WRONLY)
        self.read = 0

    def send(self, data):
        """Types `data`; returns when the key was handed to the terminal (its stamp)."""
        os.write(self.keys, data)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            for kind, t, payload in self.records():
                if kind == b"I":
                    return t
            time.sleep(0.0005)
        raise SystemExit("the key was never typed")

    def tmux(self, *args):
        return subprocess.run(["tmux", "-S", self.sock, *args], stdout=subprocess.PIPE, check=True, text=True).stdout

    def screen(self):
        return self.tmux("capture-pane", "-p", "-t", "b")

    def records(self):
        """(kind, time, bytes) records logged since the last call; kind b"O" is output, b"I" a key."""
        with open(self.log, "rb") as f:
            f.seek(self.read)
            data = f.read()
        out, i = [], 0
        while i + 13 <= len(data):
            kind, t, n = struct.unpack("<cdI", data[i:i + 13])
            if i + 13 + n > len(data):
                break
            out.append((kind, t, data[i + 13:i + 13 + n]))
            i += 13 + n
        self.read += i
        self.pending = getattr(self, "pending", []) + [r for r in out if r[0] == b"O"]
        return out

    def chunks(self):
        """(time, bytes) output chunks logged since the last call."""
        self.records()
        out, self.pending = [(t, d) for _, t, d in self.pending], []
        return out

    def burst_end(self, t0, quiet, timeout=10.0):
        """The time of the last chunk of the first burst after t0 (None on timeout)."""
        last = None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for t, _ in self.chunks():
                if t >= t0:
                    last = t
            if last is not None and time.monotonic() - last > quiet:
                return last
            time.sleep(0.001)
        return last

    def close(self):
        subprocess.run(["tmux", "-S", self.sock, "kill-server"], stderr=subprocess.DEVNULL)


def wait_screen(s, pred, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = s.screen()
        if pred(text):
            return text
        time.sleep(0.01)
    raise SystemExit("screen never became right:\n" + s.screen())


def prepare_title_edit(store, old, new):
    """Finds the file with the title `old` and writes, beside it, a temp file
    with `new` instead; returns (temp, path). Renaming one over the other is
    the change, as an editor saves; only the rename is timed."""
    needle = json.dumps(old, ensure_ascii=False)
    for root, _, files in os.walk(store):
        for name in files:
            if not name.endswith(".json") or ".uiprobe." in name:
                continue
            path = os.path.join(root, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            if needle in text:
                tmp = os.path.join(root, "." + name + ".uiprobe.tmp")
                with open(tmp, "w", encoding="utf-8") as f:
                    f.write(text.replace(needle, json.dumps(new, ensure_ascii=False), 1))
                return tmp, path
    raise SystemExit(f"no file has the title {old!r}")


def measure(s, store, runs, quiet, keys, external):
    """Key -> repaint and external change -> screen samples on a started session."""
    s.tmux("wait-for", "-S", "go")
    wait_screen(s, lambda t: "add ›" in t and "Today ·" in t)
    s.send(b"\t")
    time.sleep(0.3)
    s.chunks()
    # Key -> repaint: j and k move the selection.
    for i in range(runs):
        key = b"j" if i % 2 == 0 else b"k"
        s.chunks()
        t0 = s.send(key)
        end = s.burst_end(t0, quiet)
        if end is None:
            raise SystemExit("no repaint after a key")
        keys.append((end - t0) * 1000)
    # External change -> screen: the same task's title, changed again and again.
    row = re.compile(r"^[! ]\s*\d+ \[[ >xb]\] (.+?)  ")
    text = s.screen()
    titles = [m.group(1) for m in (row.match(l) for l in text.splitlines()[2:]) if m and "…" not in m.group(1)]
    if not titles:
        raise SystemExit("no whole title on screen:\n" + text)
    old = titles[0]
    for i in range(runs):
        # Short, so it is never cut on screen; unique per run.
        new = f"uiprobe {os.getpid()} {i}"
        tmp, path = prepare_title_edit(store, old, new)
        s.chunks()
        t0 = time.monotonic()
        os.rename(tmp, path)
        end = s.burst_end(t0, quiet)
        wait_screen(s, lambda t: new in t)
        external.append((end - t0) * 1000)
        old = new


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tick", required=True)
    ap.add_argument("--store", required=True)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--quiet-ms", type=float, default=30)
    ap.add_argument("--out")
    args = ap.parse_args()
    if not shutil.which("tmux"):
        raise SystemExit("tmux is not installed")
    tick = os.path.abspath(args.tick)
    quiet = args.quiet_ms / 1000
    first, keys, external = [], [], []
    with tempfile.TemporaryDirectory(prefix="tick-ui-bench-") as work:
        # First screen: a fresh process per run.
        for i in range(max(args.runs // 3, 5)):
            os.makedirs(os.path.join(work, f"first{i}"))
            s = Session(tick, args.store, os.path.join(work, f"first{i}"), 100, 30)
            try:
                t0 = time.monotonic()
                s.tmux("wait-for", "-S", "go")
                end = s.burst_end(t0, 0.15)
                wait_screen(s, lambda t: "add ›" in t and "Today ·" in t)
                first.append((end - t0) * 1000)
            finally:
                s.close()
        os.makedirs(os.path.join(work, "main"))
        s = Session(tick, args.store, os.path.join(work, "main"), 100, 30)
        try:
            measure(s, args.store, args.runs, quiet, keys, external)
        finally:
            s.close()
    result = {}
    for name, xs in (("first_screen_ms", first), ("key_to_repaint_ms", keys), ("external_change_to_screen_ms", external)):
        result[name] = {"n": len(xs), "median": round(statistics.median(xs), 1), "p95": round(pct(xs, 95), 1),
                        "max": round(max(xs), 1)}
    text = json.dumps(result, indent=2)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
