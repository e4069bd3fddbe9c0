#!/usr/bin/env python3
"""Hostile imports (issue 12, "Tests"): generated CSV, iCalendar, todo.txt and
Taskwarrior files full of terminal control sequences, huge fields, invalid
UTF-8, NUL, out-of-range dates (years 0 and 10000, DUE:99991231T230000 in a
western zone) and deeply nested JSON are imported into one store, and after
each import:

- the exit status is 0, or 4 (a malformed import record, Docs/CLI.md), and a
  failure prints exactly one line, `tick: error: ...` or `PATH:LINE: error: ...`;
  except that a todo.txt or CSV import without --strict skips bad lines and
  prints one such line for each (issue 45);
- no raw ESC, C1, NUL or other control byte (tab and newline aside) reaches
  stdout or stderr;
- the store stays readable: `tick list --all`, `tick lists` and `tick export`
  (whose JSON must parse) all exit 0.

    scripts/hostile-imports.py [--seconds S | --cases N] [--seed K] [--tick PATH] [--keep]

The suite runs a bounded number of cases (HostileImportTests); run it with
--seconds 1800 for the long version. Prints one line per problem and exits 1
if there was any; the failing input is kept under the work directory.
"""
import argparse, json, os, random, re, shutil, subprocess, sys, tempfile, time

ATOMS = [
    b"\x1b[2J", b"\x1b]52;c;cHduZWQ=\x07", b"\x1b]0;pwned\x07", "\u009b31m".encode(), "\u009d0;x\u009c".encode(),
    b"\x9b2J",                      # a raw C1 byte: invalid UTF-8
    b"\x00", b"\xff\xfe", b"\xc3", b"\xed\xa0\x80",   # NUL, invalid, truncated, a surrogate
    b"\r", b"\x7f", b"\x08", b"\x07", b"\t", b"\x1b", b"\xe2\x80\xae",  # RLO
    "caf\u00e9 \u6f22\u5b57 \U0001f600".encode(),
]
BAD_DATES = ["0000-01-01", "10000-01-01", "9999-12-31", "1969-12-31", "99999-01-01", "-0001-12-30", "2026-02-30", "2026-13-01"]
BAD_TIMES = ["0000-01-01T00:00:00Z", "10000-01-01T00:00:00Z", "-0001-12-30T09:00:00Z", "9999-12-31T23:59:59Z", "9999-12-31T23:00:00-08:00"]
TW_DATES = ["99991231T230000Z", "00000101T000000Z", "19691231T235959Z", "20261121T090000Z", "99999999T999999Z", "x"]
ICS_DATES = ["DUE:99991231T230000", "DUE;VALUE=DATE:00000101", "DUE:00000101T000000Z", "DTSTART:100000101T000000",
             "DUE;TZID=America/Los_Angeles:99991231T230000", "DUE:20261121T090000Z", "COMPLETED:99991231T235959Z"]


def text(rnd, huge=True, hostile=0.3):
    """A piece of text (bytes): hostile with probability `hostile`."""
    parts = [b"Task %d" % rnd.randint(0, 10**6)]
    if rnd.random() < hostile:
        for _ in range(rnd.randint(1, 3)):
            parts.append(rnd.choice(ATOMS))
    if huge and rnd.random() < 0.05:
        parts.append(b"A" * rnd.choice([300, 70_000, 200_000, (4 << 20) + 10]))
    return b" ".join(parts)


def notes(rnd):
    """Notes may hold control characters (tick shows them visibly)."""
    return text(rnd, hostile=0.8)


def maybe(rnd, bad, p=0.15):
    return rnd.choice(bad) if rnd.random() < p else ""


def csv_field(b):
    return b'"' + b.replace(b'"', b'""') + b'"'


def gen_csv(rnd):
    cols = ["title", "list", "due", "scheduled", "remind", "notes", "state", "createdAt", "x\x1b[2J"]
    out = [",".join(cols).encode()]
    for _ in range(rnd.randint(1, 6)):
        row = [csv_field(text(rnd)), csv_field(text(rnd, huge=False)) if rnd.random() < 0.5 else b"",
               maybe(rnd, BAD_DATES).encode(), maybe(rnd, BAD_DATES).encode(),
               maybe(rnd, BAD_TIMES).encode(), csv_field(notes(rnd) + b"\n" + notes(rnd)),
               rnd.choice([b"open", b"done", b"\x1b[2J" if rnd.random() < 0.1 else b""]), maybe(rnd, BAD_TIMES).encode(),
               notes(rnd).replace(b",", b"").replace(b'"', b"")]
        if rnd.random() < 0.05:
            row[0] = b'"unterminated'
        out.append(b",".join(r.replace(b"\n", b"") if i not in (0, 5) else r for i, r in enumerate(row)))
    return b"\r\n".join(out) + b"\r\n", "csv"


def gen_todo(rnd):
    lines = []
    for _ in range(rnd.randint(1, 6)):
        words = []
        if rnd.random() < 0.3:
            words += [b"x", rnd.choice(BAD_DATES).encode()]
        elif rnd.random() < 0.3:
            words += [b"(A)", rnd.choice(BAD_DATES).encode()]
        words.append(text(rnd).replace(b"\n", b" "))
        if rnd.random() < 0.5:
            words.append(b"+" + text(rnd, huge=False).replace(b" ", b"_").replace(b"\n", b""))
        if rnd.random() < 0.2:
            words.append(b"due:" + rnd.choice(BAD_DATES + BAD_TIMES).encode())
        words.append(rnd.choice([b"1:1", b"10:30", b"16:9", b"k:\x1b[2J", b"@ctx\x00", b"", b""]))
        lines.append(b" ".join(words))
    return b"\n".join(lines) + b"\n", "todotxt"


def gen_ics(rnd):
    out = [b"BEGIN:VCALENDAR", b"VERSION:2.0"]
    for i in range(rnd.randint(1, 4)):
        out += [b"BEGIN:VTODO", b"UID:u%d-%d" % (i, rnd.randint(0, 10**9)), b"SUMMARY:" + text(rnd).replace(b"\n", b"\\n"),
                rnd.choice(ICS_DATES).encode() if rnd.random() < 0.3 else b"DUE:20261201T100000Z", b"DESCRIPTION:" + notes(rnd).replace(b"\n", b"\\n"),
                b"CATEGORIES:" + text(rnd, huge=False).replace(b"\n", b""), b"END:VTODO"]
    if rnd.random() < 0.1:
        out += [b"BEGIN:VTODO"] * 5000      # nested components, never ended
    out.append(b"END:VCALENDAR")
    return b"\r\n".join(out) + b"\r\n", "ics"


def json_str(b):
    """A JSON string literal with the hostile bytes: controls escaped or raw, invalid UTF-8 raw."""
    out = bytearray(b'"')
    for c in b:
        if c == 0x22 or c == 0x5C:
            out += b"\\" + bytes([c])
        elif c < 0x20:
            out += (b"\\u%04x" % c) if c != 0 or len(out) % 2 else b"\x00"
        else:
            out.append(c)
    return bytes(out) + b'"'


def gen_taskwarrior(rnd):
    if rnd.random() < 0.1:
        depth = rnd.choice([1000, 100_000])
        return b"[" * depth + b"]" * depth + b"\n", "taskwarrior"
    recs = []
    for i in range(rnd.randint(1, 5)):
        fields = [b'"description":' + json_str(text(rnd)), b'"status":' + rnd.choice([b'"pending"', b'"completed"', b'"recurring"', b'"waiting"', b'"\\u001b[2J"']),
                  b'"uuid":"%08x-0000-4000-8000-%012x"' % (rnd.randint(0, 2**32 - 1), i),
                  b'"entry":"' + (rnd.choice(TW_DATES) if rnd.random() < 0.15 else "20261101T090000Z").encode() + b'"']
        if rnd.random() < 0.2:
            fields.append(b'"due":"' + rnd.choice(TW_DATES).encode() + b'"')
        if rnd.random() < 0.4:
            fields.append(b'"project":' + json_str(text(rnd, huge=False)))
        if rnd.random() < 0.3:
            fields.append(b'"recur":"' + rnd.choice([b"weekly", b"\x1b[2J", b"99999y", b"mon,thu"]) + b'"')
        if rnd.random() < 0.3:
            fields.append(b'"annotations":[{"entry":"20261121T090000Z","description":' + json_str(notes(rnd)) + b'}]')
        if rnd.random() < 0.2:
            fields.append(b'"tags":[' + json_str(text(rnd, huge=False)) + b']')
        recs.append(b"{" + b",".join(fields) + b"}")
    if rnd.random() < 0.5:
        return b"[" + b",".join(recs) + b"]\n", "taskwarrior"
    return b"\n".join(recs) + b"\n", "taskwarrior"


GENERATORS = [gen_csv, gen_todo, gen_ics, gen_taskwarrior]
CONTROL = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float)
    ap.add_argument("--cases", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tick", default=os.environ.get("TICK", ".build/debug/tick"))
    ap.add_argument("--keep", action="store_true")
    a = ap.parse_args()
    if a.seconds is None and a.cases is None:
        a.cases = 40
    tick = os.path.abspath(a.tick)
    rnd = random.Random(a.seed)
    work = tempfile.mkdtemp(prefix="tick-hostile-")
    # A store named by TICK_STORE must exist (tick init); make it, as tick init would.
    os.makedirs(work + "/store")
    env = dict(os.environ, TICK_STORE=work + "/store", XDG_STATE_HOME=work + "/state", XDG_CACHE_HOME=work + "/cache",
               XDG_DATA_HOME=work + "/data", HOME=work, NO_COLOR="1", TICK_NOW="2026-11-21T09:00:00Z", LANG="C.UTF-8")
    problems = []

    def run(args, zone):
        e = dict(env, TZ=zone)
        try:
            p = subprocess.run([tick] + args, env=e, stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
        except subprocess.TimeoutExpired:
            return None
        return p

    def problem(case, msg, keep_file=None):
        line = "case %d: %s" % (case, msg)
        if keep_file:
            line += " (input kept: %s)" % keep_file
        problems.append(line)
        print(line, flush=True)

    seed = run(["add", "Seed task", "due:tomorrow"], "UTC")
    if seed is None or seed.returncode != 0:
        print("cannot add a seed task: %r" % (seed and seed.stderr), file=sys.stderr)
        return 2
    started = time.monotonic()
    case = 0
    statuses = {}
    while True:
        if a.cases is not None and case >= a.cases:
            break
        if a.seconds is not None and time.monotonic() - started >= a.seconds:
            break
        case += 1
        body, fmt = rnd.choice(GENERATORS)(rnd)
        ext = {"csv": ".csv", "todotxt": ".txt", "ics": ".ics", "taskwarrior": ".json"}[fmt]
        path = "%s/case%d%s" % (work, case, ext)
        with open(path, "wb") as f:
            f.write(body)
        zone = rnd.choice(["America/Los_Angeles", "Pacific/Honolulu", "UTC", "Pacific/Kiritimati"])
        strict = fmt not in ("todotxt", "csv") or rnd.random() < 0.3
        args = (["import", path, "--format", fmt] + (["--dry-run"] if rnd.random() < 0.3 else [])
                + (["--strict"] if strict and fmt in ("todotxt", "csv") else []))
        p = run(args, zone)
        if p is None:
            problem(case, "tick %s hung (over 120 s)" % " ".join(args[2:]), path)
            continue
        statuses[p.returncode] = statuses.get(p.returncode, 0) + 1
        failed = False
        if p.returncode < 0:
            problem(case, "tick import %s died of signal %d" % (fmt, -p.returncode), path); failed = True
        elif p.returncode not in (0, 4):
            problem(case, "tick import %s exited %d (expected 0 or 4): %r" % (fmt, p.returncode, p.stderr[:300]), path); failed = True
        if p.returncode != 0:
            lines = p.stderr.rstrip(b"\n").split(b"\n")
            # `tick: error: ...`, or a file error that starts with its location (`path:line: error: ...`).
            def error_line(line):
                return line.startswith(b"tick: error: ") or re.match(rb"^[^\n]*?(:\d+){0,2}: error: ", line)
            # Skipped lines (todo.txt, CSV without --strict): one error line each.
            if (len(lines) != 1 if strict else not lines) or not all(error_line(l) for l in lines):
                problem(case, "tick import %s: expected %s, got %r" % (fmt, "one error line" if strict else "error lines", p.stderr[:400]), path); failed = True
        for name, out in (("stdout", p.stdout), ("stderr", p.stderr)):
            m = CONTROL.search(out)
            if m:
                problem(case, "tick import %s: raw control byte %r in %s: %r" % (fmt, m.group(0), name, out[max(0, m.start() - 40):m.end() + 40]), path); failed = True
        for check in (["list", "--all"], ["lists"], ["export"]):
            q = run(check, zone)
            if q is None or q.returncode != 0:
                problem(case, "after importing %s, tick %s fails: %r" % (fmt, " ".join(check), q and q.stderr[:300]), path); failed = True
                continue
            if check == ["export"]:
                try:
                    json.loads(q.stdout)
                except ValueError as e:
                    problem(case, "tick export is not JSON: %s" % e, path); failed = True
            elif CONTROL.search(q.stdout + q.stderr):
                problem(case, "tick %s shows a raw control byte" % " ".join(check), path); failed = True
        if failed:
            continue
        os.unlink(path)
        if problems and not a.keep and a.seconds is None and len(problems) > 20:
            break
    summary = ", ".join("exit %d: %d" % kv for kv in sorted(statuses.items()))
    print("%d hostile imports in %.0f s (%s); %d problem(s)" % (case, time.monotonic() - started, summary, len(problems)), flush=True)
    if not problems and not a.keep:
        shutil.rmtree(work, ignore_errors=True)
    else:
        print("work directory: %s" % work)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
