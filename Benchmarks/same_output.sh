#!/usr/bin/env bash
# Do two tick builds print the same bytes? For a change meant to make reads
# faster without changing a byte of what they print (Docs/PERFORMANCE.md).
#
#   Benchmarks/same_output.sh OLD_TICK NEW_TICK [--tasks 100000] [--profile heavy]
#
# Generates a store (gen_store.py, seed 1), then runs ~60 reads with both
# binaries: views, filters with date ranges, not/or, --sort with one to three
# keys, --limit, --json, searches in several scripts; each piped, and on an
# 80- and a 200-column terminal (script(1), so colored and fitted). Prints
# one line per read and mode; exits 1 when any output differs. Time and zone
# are pinned (TICK_NOW, TZ=UTC); nothing outside a temporary directory is touched.
set -euo pipefail
[ $# -ge 2 ] || { sed -n 2,12p "$0"; exit 2; }
OLD=$(realpath "$1") NEW=$(realpath "$2"); shift 2
TASKS=100000 PROFILE=heavy
while [ $# -gt 0 ]; do
  case $1 in
    --tasks) TASKS=$2; shift 2 ;;
    --profile) PROFILE=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=$(mktemp -d "${TMPDIR:-/tmp}/tick-same.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
python3 "$HERE/gen_store.py" --tasks "$TASKS" --lists 200 --seed 1 --profile "$PROFILE" --out "$DIR/store" >/dev/null
export TZ=UTC LC_ALL=C.UTF-8 TICK_NOW=2026-11-21T12:00:00Z TICK_PAGER=cat HOME=$DIR/home
export XDG_STATE_HOME=$DIR/state XDG_CACHE_HOME=$DIR/cache XDG_DATA_HOME=$DIR/data XDG_CONFIG_HOME=$DIR/config
unset TICK_STORE NO_COLOR
mkdir -p "$HOME"
"$OLD" --store "$DIR/store" reindex >/dev/null
reads=(
  "today" "list" "list 'list:Reading Q3'" "upcoming" "overdue" "list --all" "list state:done"
  "today --json" "list --json" "list +urgent" "list due.before:2026-11-22 --sort due"
  "list due.after:2026-11-22" "list not due.before:2026-11-22 --limit 500"
  "list sched.before:2026-11-22 or remind.after:2026-11-01" "list due.before:2026-11-22 state:done --limit 100"
  "list due:none --limit 100" "list remind:any sched:none --limit 100" "overdue due.after:2026-11-01"
  "list --sort title --limit 50" "list --limit 30" "today --sort pri-,due" "list --sort list,id-"
  "upcoming --sort energy --limit 5" "list --sort estimate,remind --json --limit 100"
  "list 'list:Reading Q3' --sort created-" "list --sort due- --limit 2000" "today --limit 1"
  "overdue --sort sched,modified- --json" "list --sort completed,title state:done --limit 300"
  "search invoice" "search invoice --limit 10" "search invoice --json" "search 'Straße'" "search 日本"
  "search 'inv*' --limit 5"
)
big="list|list --all|list --json|list --sort list,id-"
differ=0
for r in "${reads[@]}"; do
  for mode in pipe tty80 tty200; do
    if [ "$mode" = pipe ]; then
      eval "NO_COLOR=1 \"\$OLD\" --store \"\$DIR/store\" $r" >"$DIR/old" 2>&1 || true
      eval "NO_COLOR=1 \"\$NEW\" --store \"\$DIR/store\" $r" >"$DIR/new" 2>&1 || true
    else
      # Long listings on a terminal take minutes through script(1); piped is their test.
      [[ "$r" =~ ^($big)$ ]] && continue
      w=${mode#tty}
      script -qec "stty cols $w rows 50; '$OLD' --store '$DIR/store' $r" /dev/null >"$DIR/old" 2>&1 || true
      script -qec "stty cols $w rows 50; '$NEW' --store '$DIR/store' $r" /dev/null >"$DIR/new" 2>&1 || true
    fi
    if cmp -s "$DIR/old" "$DIR/new"; then
      printf 'same    %-6s %s (%s lines)\n' "$mode" "$r" "$(wc -l <"$DIR/new")"
    else
      printf 'DIFFERS %-6s %s\n' "$mode" "$r"
      differ=1
    fi
  done
done
exit $differ
