#!/usr/bin/env python3
"""Helpers that turn tick's own exports into the benchmark peers' data.

    python3 Benchmarks/peers.py vdir --ics tasks.ics --out VDIR
        Split `tick export --format ics` (one VCALENDAR with every VTODO) into
        a vdir as todoman reads it: one directory per tick list (named like the
        Taskwarrior project: the list name without whitespace, '.' -> '_';
        the inbox is "Inbox") holding one UID.ics file per VTODO. Prints the
        number of files and directories (never a title).

    python3 Benchmarks/peers.py count FILE [--json]
        Print how many rows FILE holds: its lines, or with --json the length
        of the JSON array (or of the "tasks" array) in it.

Standard library only. The VTODO text is copied byte for byte (folded lines
included); only the list name and the UID are read to place the file.
"""

import argparse
import json
import os
import re
import sys


def unfold(lines):
    out = []
    for ln in lines:
        if ln[:1] in (" ", "\t") and out:
            out[-1] += ln[1:]
        else:
            out.append(ln)
    return out


def unescape(text):
    return re.sub(r"\\([\\;,nN])",
                  lambda m: "\n" if m.group(1) in "nN" else m.group(1), text)


def project(name):
    return re.sub(r"\s+", "", name).replace(".", "_")


def cmd_vdir(a):
    with open(a.ics, "rb") as f:
        data = f.read().decode("utf-8")
    nl = "\r\n" if "\r\n" in data else "\n"
    lines = data.split(nl)
    header = [l for l in lines[:10] if l.startswith(("VERSION:", "PRODID:", "CALSCALE:"))]
    os.makedirs(a.out, exist_ok=True)
    n_files, dirs = 0, set()
    block = None
    for ln in lines:
        if ln == "BEGIN:VTODO":
            block = [ln]
            continue
        if block is None:
            continue
        block.append(ln)
        if ln != "END:VTODO":
            continue
        uid, lst, depth = None, None, 0
        for u in unfold(block):
            # Only the VTODO's own properties, not those of its VALARM.
            if u.startswith("BEGIN:") and u != "BEGIN:VTODO":
                depth += 1
            elif u.startswith("END:") and u != "END:VTODO":
                depth -= 1
            elif depth == 0 and u.startswith("UID:"):
                uid = u[4:]
            elif depth == 0 and u.startswith("X-TICK-LIST:"):
                lst = unescape(u[len("X-TICK-LIST:"):])
        if not uid or not re.fullmatch(r"[A-Za-z0-9._@-]+", uid):
            sys.exit("peers.py: a VTODO without a usable UID (file-name safe)")
        d = project(lst) if lst else "Inbox"
        path = os.path.join(a.out, d)
        if d not in dirs:
            os.makedirs(path, exist_ok=True)
            dirs.add(d)
        body = ["BEGIN:VCALENDAR"] + header + block + ["END:VCALENDAR", ""]
        with open(os.path.join(path, uid + ".ics"), "w", encoding="utf-8",
                  newline="") as f:
            f.write(nl.join(body))
        n_files += 1
        block = None
    print("%d files in %d lists" % (n_files, len(dirs)))


def cmd_count(a):
    if a.json:
        with open(a.file, encoding="utf-8") as f:
            text = f.read().strip()
        if not text:
            print(0)
            return
        v = json.loads(text)
        if isinstance(v, dict):
            v = v.get("tasks", v.get("results", []))
        print(len(v))
    else:
        with open(a.file, "rb") as f:
            print(sum(1 for _ in f))


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    v = sub.add_parser("vdir")
    v.add_argument("--ics", required=True)
    v.add_argument("--out", required=True)
    c = sub.add_parser("count")
    c.add_argument("file")
    c.add_argument("--json", action="store_true")
    a = ap.parse_args()
    {"vdir": cmd_vdir, "count": cmd_count}[a.cmd](a)


if __name__ == "__main__":
    main()
