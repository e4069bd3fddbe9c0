#!/usr/bin/env python3
"""CalDAV latency of `tick watch` with the default [dav] settings (issue 34).

tick -> server: `tick add` while `tick watch` runs, until the item is in the
server's storage. phone -> store: an item PUT on the server (as a phone
would), until the task is in the store. A local Radicale on 127.0.0.1 and
the real vdirsyncer; 20 samples each by default; medians and maxima.
Goals: tick -> server <= 5 s, phone -> store <= 60 s (the 45 s interval).

Usage: python3 Benchmarks/dav_latency.py [--tick .build/release/tick] [--samples 20]
Prints one line per direction (and JSON with --json FILE). Never prints titles
other than the benchmark's own ("dav bench N").
"""
import argparse, json, os, random, shutil, signal, socket, statistics, subprocess, sys, tempfile, time, urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait(cond, ceiling, step=0.05):
    """Polls `cond` until true; returns the seconds it took, or None past the ceiling."""
    start = time.monotonic()
    while time.monotonic() - start < ceiling:
        if cond():
            return time.monotonic() - start
        time.sleep(step)
    return None


def grep_dir(path, needle):
    for root, _, files in os.walk(path):
        for name in files:
            try:
                with open(os.path.join(root, name), "rb") as f:
                    if needle in f.read():
                        return True
            except OSError:
                pass
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tick", default=".build/release/tick")
    ap.add_argument("--samples", type=int, default=20)
    ap.add_argument("--json")
    ap.add_argument("--ceiling", type=float, default=180)
    a = ap.parse_args()
    tick = os.path.abspath(a.tick)
    w = tempfile.mkdtemp(prefix="tick-dav-bench-")
    procs = []
    try:
        store, storage = f"{w}/store", f"{w}/radicale"
        os.makedirs(store)
        port = free_port()
        with open(f"{w}/radicale.conf", "w") as f:
            f.write(f"[server]\nhosts = 127.0.0.1:{port}\n[auth]\ntype = none\n[storage]\nfilesystem_folder = {storage}\n[logging]\nlevel = warning\n")
        procs.append(subprocess.Popen(["radicale", "--config", f"{w}/radicale.conf"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        url = f"http://127.0.0.1:{port}/me/"
        env = dict(os.environ, HOME=w, TICK_STORE=store, XDG_STATE_HOME=f"{w}/state", XDG_CACHE_HOME=f"{w}/cache",
                   XDG_DATA_HOME=f"{w}/data", XDG_CONFIG_HOME=f"{w}/config", TZ="UTC", NO_PROXY="*", no_proxy="*")
        env.pop("TICK_NOW", None)
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

        def up():
            try:
                opener.open(urllib.request.Request(url, method="PROPFIND", headers={"Depth": "0"}), timeout=2)
                return True
            except urllib.error.HTTPError:
                return True
            except OSError:
                return False
        if wait(up, 30) is None:
            sys.exit("radicale did not start")

        def run(*args):
            subprocess.run([tick, *args], env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        run("add", "dav bench seed")
        run("dav", "setup", url, "--user", "me", "--password-command", "echo x")
        run("dav", "sync")
        log = open(f"{w}/watch.log", "w")
        procs.append(subprocess.Popen([tick, "watch", "--no-reminders"], env=env, stdout=subprocess.DEVNULL, stderr=log))
        time.sleep(3)

        to_server = []
        for i in range(a.samples):
            needle = f"dav bench out {i}".encode()
            t0 = time.monotonic()
            run("add", needle.decode())
            took = wait(lambda: grep_dir(f"{storage}/collection-root/me/inbox", needle), a.ceiling)
            to_server.append(a.ceiling if took is None else time.monotonic() - t0)
            time.sleep(random.uniform(0.5, 2))
        rng = random.Random(1)
        to_store = []
        for i in range(a.samples):
            uid = f"dav-bench-in-{i}"
            body = "\r\n".join(["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//bench//EN", "BEGIN:VTODO", f"UID:{uid}",
                                "DTSTAMP:20261121T090000Z", f"SUMMARY:dav bench in {i}", "END:VTODO", "END:VCALENDAR", ""])
            time.sleep(rng.uniform(0, 5))
            t0 = time.monotonic()
            opener.open(urllib.request.Request(f"{url}inbox/{uid}.ics", data=body.encode(), method="PUT",
                                               headers={"Content-Type": "text/calendar"}), timeout=10)
            took = wait(lambda: grep_dir(store, f"dav bench in {i}".encode()), a.ceiling, step=0.2)
            to_store.append(a.ceiling if took is None else time.monotonic() - t0)
        result = {}
        for name, v, goal in (("tick->server", to_server, 5), ("phone->store", to_store, 60)):
            result[name] = {"samples": len(v), "median_s": round(statistics.median(v), 2), "max_s": round(max(v), 2), "goal_s": goal}
            print(f"{name}: {len(v)} samples, median {statistics.median(v):.2f} s, max {max(v):.2f} s (goal <= {goal} s)")
        if a.json:
            with open(a.json, "w") as f:
                json.dump(result, f, indent=2)
    finally:
        for p in reversed(procs):
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(w, ignore_errors=True)


if __name__ == "__main__":
    main()
