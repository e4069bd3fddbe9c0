#!/usr/bin/env python3
"""Markdown table and SVG chart (log-log) from Benchmarks/scaling.sh results.

    python3 Benchmarks/scaling_chart.py --tsv results.tsv --info info.md \
        --md scaling.md --svg scaling.svg

results.tsv columns: tasks, op, tool, median_ms, lines, note (header line
first). Standard library only.
"""

import argparse
import math
from xml.sax.saxutils import escape

from report import fmt_ms  # the same duration format as run.sh's report

OPS = [("reindex", "reindex (cold)", "#2563eb"),
       ("today", "today", "#dc2626"),
       ("list", "list LIST", "#059669"),
       ("search", "search WORD", "#d97706"),
       ("add", "add", "#7c3aed")]
TOOLS = [("tick", "tick"), ("tw", "Taskwarrior")]


def fmt_n(n):
    if n >= 1000000 and n % 1000000 == 0:
        return "%dM" % (n // 1000000)
    if n >= 1000 and n % 1000 == 0:
        return "%dk" % (n // 1000)
    return "{:,}".format(n)


def load(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        next(f)
        for line in f:
            parts = line.rstrip("\n").split("\t")
            parts += [""] * (6 - len(parts))
            n, op, tool, med, lines, note = parts[:6]
            rows.append({"n": int(n), "op": op, "tool": tool,
                         "ms": float(med) if med else None,
                         "lines": int(lines) if lines else None,
                         "note": note})
    return rows


def growth(points):
    """Log-log slope between the smallest and largest measured sizes."""
    pts = [(n, ms) for n, ms in points if ms]
    if len(pts) < 2:
        return "n/a"
    (n0, m0), (n1, m1) = pts[0], pts[-1]
    k = math.log(m1 / m0) / math.log(n1 / n0)
    if k < 0.15:
        word = "flat"
    elif k < 0.8:
        word = "sub-linear"
    elif k <= 1.2:
        word = "linear"
    else:
        word = "super-linear"
    return "%s (slope %.2f; ×%.1f per 10× tasks)" % (word, k, 10 ** k)


def markdown(rows, sizes, info):
    get = {(r["n"], r["op"], r["tool"]): r for r in rows}
    out = ["# tick and Taskwarrior by store size", "", info.rstrip("\n"), "",
           "Medians. Growth is the log-log slope from the smallest to the "
           "largest size measured: about 0 is flat, 1 is linear.", "",
           "| operation | tool | " + " | ".join(fmt_n(n) for n in sizes) + " | growth |",
           "|---|---|" + "---:|" * len(sizes) + "---|"]
    for op, label, _ in OPS:
        for tool, tname in TOOLS:
            cells, pts = [], []
            for n in sizes:
                r = get.get((n, op, tool))
                if r is None:
                    cells.append("—")
                elif r["ms"] is None:
                    cells.append("skipped" if r["note"].startswith("skipped") else "n/a")
                else:
                    c = fmt_ms(r["ms"])
                    if r["note"] == "single run":
                        c += " (1 run)"
                    cells.append(c)
                    pts.append((n, r["ms"]))
            out.append("| %s | %s | %s | %s |" % (label, tname, " | ".join(cells), growth(pts)))
    out += ["", "Lines printed by the read (tick: its listing; Taskwarrior: tasks in its JSON export):", "",
            "| read | tool | " + " | ".join(fmt_n(n) for n in sizes) + " |",
            "|---|---|" + "---:|" * len(sizes)]
    for op, label, _ in OPS:
        if op in ("reindex", "add"):
            continue
        for tool, tname in TOOLS:
            cells = []
            for n in sizes:
                r = get.get((n, op, tool))
                cells.append("—" if r is None or r["lines"] is None else "{:,}".format(r["lines"]))
            out.append("| %s | %s | %s |" % (label, tname, " | ".join(cells)))
    notes = sorted({r["note"] for r in rows if r["note"] and r["note"] != "single run"})
    single = sorted({(r["n"], r["op"], r["tool"]) for r in rows if r["note"] == "single run"})
    if notes or single:
        out += ["", "Notes:", ""]
        for n in notes:
            out.append("- " + n)
        for n, op, tool in single:
            out.append("- %s %s at %s tasks: a single timed run (one takes over 15 s)." % (
                dict(TOOLS)[tool], op, fmt_n(n)))
    return "\n".join(out) + "\n"


def svg(rows, sizes):
    W, H = 800, 500
    L, R, T, B = 84, 540, 50, 430   # plot area
    pts = [r for r in rows if r["ms"]]
    if not pts:
        lo, hi = 1.0, 1000.0
    else:
        lo = min(r["ms"] for r in pts)
        hi = max(r["ms"] for r in pts)
    ylo = math.floor(math.log10(lo))
    yhi = math.ceil(math.log10(hi))
    if yhi <= ylo:
        yhi = ylo + 1
    xlo = math.floor(math.log10(min(sizes)))
    xhi = math.ceil(math.log10(max(sizes)))
    if xhi <= xlo:
        xhi = xlo + 1

    def X(n):
        return L + (math.log10(n) - xlo) / (xhi - xlo) * (R - L)

    def Y(ms):
        return B - (math.log10(ms) - ylo) / (yhi - ylo) * (B - T)

    e = []
    e.append('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
             'viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">' % (W, H, W, H))
    e.append('<title>tick and Taskwarrior: median time by number of tasks (log-log)</title>')
    e.append('<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>' % (W, H))
    e.append('<text x="%d" y="28" font-size="16" font-weight="bold" fill="#111827">'
             'Median time by number of tasks (log-log)</text>' % L)
    # Grid and ticks.
    for d in range(ylo, yhi + 1):
        y = Y(10 ** d)
        e.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#d1d5db" stroke-width="1"/>' % (L, y, R, y))
        ms = 10 ** d
        label = ("%g ms" % ms) if ms < 1000 else ("%g s" % (ms / 1000))
        e.append('<text x="%d" y="%.1f" text-anchor="end" fill="#374151">%s</text>' % (L - 8, y + 4, escape(label)))
    for d in range(xlo, xhi + 1):
        x = X(10 ** d)
        e.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#d1d5db" stroke-width="1"/>' % (x, T, x, B))
        e.append('<text x="%.1f" y="%d" text-anchor="middle" fill="#374151">%s</text>' % (x, B + 18, escape(fmt_n(10 ** d))))
    e.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#111827" stroke-width="1"/>' % (L, T, R - L, B - T))
    e.append('<text x="%d" y="%d" text-anchor="middle" fill="#111827">tasks in the store</text>' % ((L + R) // 2, B + 40))
    e.append('<text x="16" y="%d" text-anchor="middle" fill="#111827" transform="rotate(-90 16 %d)">median time</text>' % ((T + B) // 2, (T + B) // 2))
    # Series.
    ly = T + 4
    for op, label, colour in OPS:
        for tool, tname in TOOLS:
            s = sorted((r["n"], r["ms"]) for r in rows if r["op"] == op and r["tool"] == tool and r["ms"])
            dash = ' stroke-dasharray="6 4"' if tool == "tw" else ""
            if len(s) > 1:
                d = " ".join("%s%.1f %.1f" % ("M" if i == 0 else "L", X(n), Y(ms)) for i, (n, ms) in enumerate(s))
                e.append('<path d="%s" fill="none" stroke="%s" stroke-width="2"%s/>' % (d, colour, dash))
            for n, ms in s:
                if tool == "tw":
                    e.append('<rect x="%.1f" y="%.1f" width="7" height="7" fill="#ffffff" stroke="%s" stroke-width="2"/>' % (X(n) - 3.5, Y(ms) - 3.5, colour))
                else:
                    e.append('<circle cx="%.1f" cy="%.1f" r="3.5" fill="%s"/>' % (X(n), Y(ms), colour))
            # Legend entry.
            e.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"%s/>' % (R + 14, ly, R + 40, ly, colour, dash))
            e.append('<text x="%d" y="%d" fill="#111827">%s</text>' % (R + 46, ly + 4, escape("%s, %s" % (label, tname))))
            ly += 20
    e.append('<text x="%d" y="%d" fill="#4b5563" font-size="11">solid: tick; dashed: Taskwarrior 2.6</text>' % (R + 14, ly + 10))
    e.append('<text x="%d" y="%d" fill="#4b5563" font-size="11">missing points: not measured</text>' % (R + 14, ly + 26))
    e.append('</svg>')
    return "\n".join(e) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tsv", required=True)
    ap.add_argument("--info", required=True)
    ap.add_argument("--md", required=True)
    ap.add_argument("--svg", required=True)
    a = ap.parse_args()
    rows = load(a.tsv)
    sizes = sorted({r["n"] for r in rows})
    if not sizes:
        raise SystemExit("scaling_chart.py: no results in " + a.tsv)
    info = open(a.info, encoding="utf-8").read()
    with open(a.md, "w", encoding="utf-8") as f:
        f.write(markdown(rows, sizes, info))
    with open(a.svg, "w", encoding="utf-8") as f:
        f.write(svg(rows, sizes))


if __name__ == "__main__":
    main()
