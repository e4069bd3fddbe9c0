#!/bin/sh
# Peak memory (max RSS) of `tick import` of a large CSV, and the size of
# `tick import --dry-run`'s output (issue 12 item 13).
#
#   Benchmarks/import_memory.sh [--rows N] [--lists M] [--tick PATH] [--keep]
#
# Defaults: 1 000 000 rows over 100 lists, .build/debug/tick. Generates
# Benchmarks/out/import-mem.XXXXXX/tasks.csv (deterministic), then runs, each
# under `/usr/bin/time -v` with a fresh store and private XDG directories:
#   1. tick import tasks.csv --dry-run   (lines of output counted)
#   2. tick import tasks.csv
# and prints "Maximum resident set size" and the elapsed time of each.
set -eu
rows=1000000
lists=100
tick=.build/debug/tick
keep=0
while [ $# -gt 0 ]; do
    case "$1" in
        --rows) rows=$2; shift 2 ;;
        --lists) lists=$2; shift 2 ;;
        --tick) tick=$2; shift 2 ;;
        --keep) keep=1; shift ;;
        *) echo "usage: $0 [--rows N] [--lists M] [--tick PATH] [--keep]" >&2; exit 2 ;;
    esac
done
case "$tick" in /*) ;; *) tick=$(pwd)/$tick ;; esac
[ -x "$tick" ] || { echo "no tick binary at $tick (swift build first, or --tick PATH)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 1; }
mkdir -p Benchmarks/out
dir=$(mktemp -d "$(pwd)/Benchmarks/out/import-mem.XXXXXX")
[ "$keep" = 1 ] || trap 'rm -rf "$dir"' EXIT

python3 - "$dir/tasks.csv" "$rows" "$lists" <<'EOF'
import csv, random, sys
path, rows, lists = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rnd = random.Random(1)
words = "call email buy fix plan write read review book pay clean send check order update".split()
with open(path, "w", newline="", encoding="utf-8") as f:
    w = csv.writer(f)
    w.writerow(["list", "title", "state", "due", "priority", "tags", "notes"])
    for i in range(rows):
        state = rnd.choice(["open", "open", "open", "active", "done"])
        due = "2027-%02d-%02d" % (rnd.randint(1, 12), rnd.randint(1, 28)) if rnd.random() < 0.3 else ""
        w.writerow([
            "List %d" % (i % lists) if i % 10 else "",
            "%s %s %d" % (rnd.choice(words), rnd.choice(words), i),
            state, due,
            rnd.choice(["", "", "must", "flexible"]),
            rnd.choice(["", "home", "work errand"]),
            "note, with a comma" if rnd.random() < 0.05 else "",
        ])
EOF
echo "input: $rows rows, $(du -m "$dir/tasks.csv" | cut -f1) MiB ($dir/tasks.csv)"

measure() { # label, then the tick arguments
    label=$1; shift
    rm -rf "$dir/store" "$dir/state" "$dir/cache"
    env TICK_STORE="$dir/store" XDG_STATE_HOME="$dir/state" XDG_CACHE_HOME="$dir/cache" \
        XDG_DATA_HOME="$dir/data" HOME="$dir" NO_COLOR=1 \
        /usr/bin/time -v -o "$dir/time.txt" "$tick" "$@" >"$dir/out.txt" 2>"$dir/err.txt" || {
            echo "$label: tick exited non-zero: $(head -c 300 "$dir/err.txt")"; }
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$dir/time.txt")
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$dir/time.txt")
    printf '%-10s max RSS %6d MiB  elapsed %s  stdout %d lines\n' "$label" $((rss / 1024)) "$wall" "$(wc -l <"$dir/out.txt")"
}
measure dry-run import "$dir/tasks.csv" --dry-run
measure import import "$dir/tasks.csv"
