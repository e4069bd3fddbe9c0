#!/usr/bin/env bash
# tick vs Taskwarrior 2.6 benchmark. See Benchmarks/README.md.
#
#   Benchmarks/run.sh [--tasks 100000] [--lists 200] [--runs 10] [--tick PATH]
#                     [--seed 1] [--profile history|uniform] [--watch-n 50] [--keep]
#
# Everything (store, Taskwarrior data, hyperfine JSON, logs) goes to a fresh
# directory Benchmarks/out/run.XXXXXX; the report is printed to stdout and
# written to Benchmarks/out/results.md (and a copy in the run directory).
set -euo pipefail

TASKS=100000
LISTS=200
RUNS=10
SEED=1
PROFILE=history
WATCH_N=50
TICK=""
KEEP=0

usage() { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --tasks) TASKS=$2; shift 2 ;;
    --lists) LISTS=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --profile) PROFILE=$2; shift 2 ;;
    --watch-n) WATCH_N=$2; shift 2 ;;
    --tick) TICK=$2; shift 2 ;;
    --keep) KEEP=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "run.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
  esac
done
# The exact command line, re-quoted (for the report).
CMDLINE="Benchmarks/run.sh --tasks $TASKS --lists $LISTS --runs $RUNS --seed $SEED --profile $PROFILE --watch-n $WATCH_N${TICK:+ --tick $TICK}"

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
OUT=$HERE/out
mkdir -p "$OUT"
RUN=$(mktemp -d "$OUT/run.XXXXXX")
RES=$RUN/results
LOG=$RUN/log.txt
STORE=$RUN/store
TWDATA=$RUN/taskdata
mkdir -p "$RES"
: >"$RES/notes.tsv"
: >"$RES/rss.tsv"
T_START=$(date +%s)

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >>"$LOG"; }
die() { log "ERROR: $*"; exit 1; }
note() { printf '%s\t%s\n' "$1" "$2" >>"$RES/notes.tsv"; }

# --- cleanup of background processes ---------------------------------------
BGPIDS=()
cleanup() {
  local p
  for p in ${BGPIDS[@]+"${BGPIDS[@]}"}; do
    if kill -0 "$p" 2>/dev/null; then
      kill "$p" 2>/dev/null || true
      for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$p" 2>/dev/null || break; sleep 0.2; done
      kill -9 "$p" 2>/dev/null || true
    fi
  done
}
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT TERM

# --- dependencies ------------------------------------------------------------
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi
apt_install() {
  log "installing $* with apt-get"
  $SUDO apt-get install -y -qq "$@" >>"$LOG" 2>&1 ||
    { $SUDO apt-get update -qq >>"$LOG" 2>&1 && $SUDO apt-get install -y -qq "$@" >>"$LOG" 2>&1; } ||
    die "could not install $*"
}
command -v python3 >/dev/null || apt_install python3
command -v hyperfine >/dev/null || apt_install hyperfine
command -v task >/dev/null || apt_install taskwarrior
[ -x /usr/bin/time ] || apt_install time
case "$(task --version 2>/dev/null)" in
  2.6.*) ;;
  *) log "warning: Taskwarrior $(task --version 2>/dev/null || echo '?') is not 2.6.x" ;;
esac

# --- tick binary ----------------------------------------------------------------
if [ -z "$TICK" ]; then
  log "building tick (swift build -c release --static-swift-stdlib)"
  (cd "$ROOT" && swift build -c release --static-swift-stdlib) >>"$LOG" 2>&1 ||
    { tail -n 30 "$LOG" >&2; die "swift build failed (see $LOG); retry, or pass --tick PATH"; }
  TICK=$ROOT/.build/release/tick
  TICK_ORIGIN="built by this run from the working tree"
else
  TICK_ORIGIN="given with --tick, not necessarily built from the repo HEAD"
fi
[ -x "$TICK" ] || die "tick binary not found: $TICK"
TICK=$(realpath "$TICK")
TICK_HELP=$("$TICK" --help 2>&1 || true)
has_cmd() { printf '%s\n' "$TICK_HELP" | grep -Eq "^  $1([ ,]|\$)"; }

# --- isolated environment -------------------------------------------------------
export TZ=UTC LC_ALL=C.UTF-8 NO_COLOR=1
export XDG_STATE_HOME=$RUN/xdg/state XDG_CACHE_HOME=$RUN/xdg/cache
export XDG_DATA_HOME=$RUN/xdg/data XDG_CONFIG_HOME=$RUN/xdg/config
unset TICK_STORE TASKDATA
# Pin "now" to the generator's base date so `today` selects the same tasks
# whatever day the benchmark runs; Taskwarrior gets the same day explicitly.
export TICK_NOW=2026-11-21T12:00:00Z
TW_TOMORROW=2026-11-22
export TASKRC=$RUN/taskrc
mkdir -p "$XDG_STATE_HOME" "$XDG_CACHE_HOME" "$XDG_DATA_HOME" "$XDG_CONFIG_HOME"

# Single-quote a word for hyperfine -N (shell-words rules).
sq() { local s=${1//\'/\'\\\'\'}; printf "'%s'" "$s"; }
TK="$(sq "$TICK") --store $(sq "$STORE")"

# hf NAME [hyperfine options...] -- COMMAND
# Runs one benchmark, exports $RES/hf-NAME.json, logs the median.
hf() {
  local name=$1; shift
  local opts=()
  while [ "$1" != "--" ]; do opts+=("$1"); shift; done
  shift
  printf '\n$ hyperfine %s %s\n' "${opts[*]-}" "$1" >>"$LOG"
  hyperfine -N --style basic --warmup 2 --runs "$RUNS" ${opts[@]+"${opts[@]}"} \
    --export-json "$RES/hf-$name.json" "$1" >>"$LOG" 2>&1 ||
    { tail -n 20 "$LOG" >&2; die "benchmark $name failed: $1"; }
  log "  $name: median $(python3 -c 'import json,sys; print("%.2f ms" % (json.load(open(sys.argv[1]))["results"][0]["median"]*1000))' "$RES/hf-$name.json")"
}

meta() {
  python3 - "$RUN/meta.json" "$1" <<'EOF'
import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    v = v[int(k)] if isinstance(v, list) else v[k]
print(v)
EOF
}

# --- 1. data ---------------------------------------------------------------------
log "run directory: $RUN"
log "generating $TASKS tasks in $LISTS lists (seed $SEED)"
t0=$(date +%s.%N)
python3 "$HERE/gen_store.py" --tasks "$TASKS" --lists "$LISTS" --seed "$SEED" --profile "$PROFILE" \
  --out "$STORE" --taskwarrior "$RUN/tw.json" --meta "$RUN/meta.json"
GEN_S=$(python3 -c "import sys; print('%.1f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$t0" "$(date +%s.%N)")
log "  generated in ${GEN_S}s ($(du -sh "$STORE" | cut -f1) store, $(du -sh "$RUN/tw.json" | cut -f1) Taskwarrior JSON)"

LIST_NAME=$(meta list_target.name)
LIST_PROJECT=$(meta list_target.project)
LIST_FILE=$(meta list_target.file)
BENCH_NAME=$(meta bench_list.name)
BENCH_PROJECT=$(meta bench_list.project)
WORD=$(meta search_word)
DONE_ID=$(meta bench_pending_ids.0)

cat >"$TASKRC" <<EOF
# Taskwarrior settings for the benchmark (see Benchmarks/README.md).
data.location=$TWDATA
confirmation=off
verbose=nothing
color=off
hooks=off
recurrence=off
gc=on
search.case.sensitive=no
regex=on
json.array=on
news.version=2.6.0
uda.remind.type=date
uda.remind.label=Remind
uda.energy.type=string
uda.energy.label=Energy
uda.energy.values=high,low,any
uda.estimate.type=numeric
uda.estimate.label=Estimate
EOF

log "importing into Taskwarrior (single timed run)"
t0=$(date +%s.%N)
task import "$RUN/tw.json" >>"$RUN/task-import.log" 2>&1 || die "task import failed (see $RUN/task-import.log)"
IMPORT_S=$(python3 -c "import sys; print('%.3f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$t0" "$(date +%s.%N)")
echo "$IMPORT_S" >"$RES/cold-tw-single.txt"
TW_COUNT=$(task count 2>/dev/null)
log "  imported $TW_COUNT tasks in ${IMPORT_S}s"
[ "$TW_COUNT" -eq "$TASKS" ] || die "Taskwarrior has $TW_COUNT tasks, expected $TASKS"

# Sanity: tick reads the whole store without warnings.
"$TICK" --store "$STORE" list --all --json >"$RUN/tick-all.json" 2>"$RUN/tick-all.err" ||
  die "tick list --all failed: $(head -c 500 "$RUN/tick-all.err")"
[ ! -s "$RUN/tick-all.err" ] || die "tick printed warnings: $(head -c 500 "$RUN/tick-all.err")"

# --- 2. cold full index -----------------------------------------------------------
log "cold full index"
if has_cmd reindex; then
  COLD_CMD="$TK reindex"
  note cold "tick: \`tick reindex\` after deleting \$XDG_CACHE_HOME/tick (hyperfine --prepare)."
else
  COLD_CMD="$TK list"
  note cold "tick has no \`reindex\` yet: measured \`tick list\` (all pending tasks) after deleting \$XDG_CACHE_HOME/tick (hyperfine --prepare)."
fi
hf cold-tick --prepare "rm -rf $(sq "$XDG_CACHE_HOME/tick")" -- "$COLD_CMD"
# Taskwarrior: import into a fresh data directory each run, if one import is
# cheap enough; otherwise keep the single run above.
if python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < 60 else 1)" "$IMPORT_S"; then
  hf cold-tw --prepare "rm -rf $(sq "$RUN/taskdata-cold")" -- \
    "task rc.data.location=$(sq "$RUN/taskdata-cold") import $(sq "$RUN/tw.json")"
  rm -rf "$RUN/taskdata-cold"
  note cold "Taskwarrior: \`task import\` of the whole JSON into a fresh data directory (hyperfine --prepare deletes it)."
else
  note cold "Taskwarrior: a single \`task import\` (${IMPORT_S}s) into a fresh data directory; too slow for repeated runs."
fi

# --- 3. reads --------------------------------------------------------------------
log "today"
hf today-tick -- "$TK today"
hf today-tw -- "task status:pending ( due.before:$TW_TOMORROW or scheduled.before:$TW_TOMORROW ) export"
note today "Taskwarrior filter: \`status:pending ( due.before:$TW_TOMORROW or scheduled.before:$TW_TOMORROW )\` = tick's today (overdue, due today, scheduled today or earlier); \"now\" pinned to $TICK_NOW for tick via TICK_NOW."

log "list \"$LIST_NAME\""
hf list-tick -- "$TK list $(sq "$LIST_NAME")"
hf list-tw -- "task project:$(sq "$LIST_PROJECT") status:pending export"

log "search $WORD"
if has_cmd search; then
  hf search-tick -- "$TK search $(sq "$WORD")"
else
  note search "tick has no \`search\` command yet: n/a."
fi
hf search-tw -- "task /$WORD/ export"
hf search-grep -- "grep -ril $(sq "$WORD") $(sq "$STORE")"
hf search-grepfull -- "grep -ri $(sq "$WORD") $(sq "$STORE")"
note search "Taskwarrior: \`task /$WORD/ export\` (description and annotations, every status, case-insensitive). grep column: \`grep -ril\` (may stop reading a file at its first match: a floor); \`grep -ri\` (full scan) median: $(python3 -c 'import json,sys; print("%.2f ms" % (json.load(open(sys.argv[1]))["results"][0]["median"]*1000))' "$RES/hf-search-grepfull.json")."

log "stats"
if has_cmd stats; then
  hf stats-tick -- "$TK stats"
  note stats "tick only: \`tick stats\` (12 ISO weeks, trend, streak, per-list breakdown) from the warm index; Taskwarrior has no equivalent report."
else
  note stats "tick has no \`stats\` command yet: n/a."
fi

# --- 4. writes --------------------------------------------------------------------
log "add to $BENCH_NAME"
hf add-tick -- "$TK add bench task $(sq "list:$BENCH_NAME")"
hf add-tw -- "task add bench task project:$(sq "$BENCH_PROJECT")"
note add "Both stores grow by one task per run (warmup + runs = $((RUNS + 2)) tasks each)."

log "done $DONE_ID"
# Complete the task once so that every --prepare has something to reopen.
"$TICK" --store "$STORE" done "$DONE_ID" >>"$LOG" 2>&1
task "$DONE_ID" done >>"$LOG" 2>&1
hf done-tick --prepare "$TK reopen $DONE_ID" -- "$TK done $DONE_ID"
hf done-tw --prepare "task $DONE_ID modify status:pending" -- "task $DONE_ID done"
note done "The same pending task of $BENCH_NAME is reopened by --prepare (\`tick reopen\` / \`task UUID modify status:pending\`, not timed) and completed by the timed command; both tools address it by full UUID."

# --- 5. peak RSS --------------------------------------------------------------------
# rss KEY CMD... : median of 3 runs of /usr/bin/time -f %M (KiB)
rss() {
  local key=$1; shift
  local vals=() i
  for i in 1 2 3; do
    /usr/bin/time -f %M -o "$RUN/rss.tmp" "$@" >/dev/null 2>>"$LOG" || { echo "$key	n/a" >>"$RES/rss.tsv"; return 0; }
    vals+=("$(tail -n 1 "$RUN/rss.tmp")")
  done
  printf '%s\t%s\n' "$key" "$(printf '%s\n' "${vals[@]}" | sort -n | sed -n 2p)" >>"$RES/rss.tsv"
}
log "peak RSS"
rss tick-today "$TICK" --store "$STORE" today
rss tw-today task status:pending '(' "due.before:$TW_TOMORROW" or "scheduled.before:$TW_TOMORROW" ')' export
rss tick-list "$TICK" --store "$STORE" list "$LIST_NAME"
rss tw-list task "project:$LIST_PROJECT" status:pending export
if has_cmd search; then rss tick-search "$TICK" --store "$STORE" search "$WORD"; fi
rss tw-search task "/$WORD/" export

# --- 6. watcher latency ------------------------------------------------------------
if has_cmd watch; then
  log "watcher latency ($WATCH_N probes)"
  "$TICK" --store "$STORE" watch >"$RUN/watch.log" 2>&1 &
  WPID=$!
  BGPIDS+=("$WPID")
  sleep 1
  if kill -0 "$WPID" 2>/dev/null; then
    SEARCH_FLAG=()
    if has_cmd search; then SEARCH_FLAG=(--use-search); fi
    timeout 900 python3 "$HERE/watch_latency.py" --tick "$TICK" --store "$STORE" \
      --list-file "$LIST_FILE" --list-name "$LIST_NAME" --n "$WATCH_N" \
      --watch-pid "$WPID" ${SEARCH_FLAG[@]+"${SEARCH_FLAG[@]}"} \
      --out "$RES/watch.json" >>"$LOG" 2>&1 || note watch "the latency probe failed or timed out; see log.txt"
    HWM=$(awk '/^VmHWM:/ {print $2}' "/proc/$WPID/status" 2>/dev/null || true)
    printf 'tick-watch\t%s\n' "${HWM:-n/a}" >>"$RES/rss.tsv"
    kill "$WPID" 2>/dev/null || true
    wait "$WPID" 2>/dev/null || true
  else
    wait "$WPID" 2>/dev/null || true
    note watch "\`tick watch\` exited at once: $(head -c 300 "$RUN/watch.log" | tr '\n' ' ')"
  fi
else
  note watch "tick has no \`watch\` command yet: n/a."
fi

# --- 7. report -----------------------------------------------------------------------
T_END=$(date +%s)
MODEL=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -n 1)
MEM=$(awk '/^MemTotal:/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)
GITREV=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')
GITDIRTY=$(git -C "$ROOT" status --porcelain --untracked-files=no -- Sources 2>/dev/null | wc -l)
{
  echo "# tick benchmark: $TASKS tasks, $LISTS lists"
  echo
  echo "- command: \`$CMDLINE\`"
  echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); wall time of the whole run: $((T_END - T_START)) s (generation ${GEN_S} s)"
  echo "- machine: $(nproc) CPUs, ${MODEL:-unknown CPU}, $MEM RAM, Linux $(uname -r)"
  echo "- tick: \`$TICK\` ($("$TICK" --version 2>/dev/null || echo '?'); $TICK_ORIGIN; repo HEAD $GITREV, $GITDIRTY modified tracked file(s) under Sources/); Taskwarrior $(task --version); $(hyperfine --version)"
  echo "- data: seed $SEED; store $(du -sh "$STORE" | cut -f1); \`list LIST\` = \"$LIST_NAME\" ($(meta list_target.pending) pending of $(meta list_target.tasks)); search word \"$WORD\"; \`done\`/\`add\` on \"$BENCH_NAME\""
  echo "- hyperfine: \`-N --warmup 2 --runs $RUNS\`, medians; run directory \`${RUN#"$ROOT"/}\`"
} >"$RUN/info.md"
python3 "$HERE/report.py" --run "$RUN" --tick "$TICK" --targets "$HERE/targets.tsv" --info "$RUN/info.md" >"$RUN/results.md"
cp "$RUN/results.md" "$OUT/results.md"
cat "$RUN/results.md"
log "report: $OUT/results.md (run directory $RUN)"

if [ "$KEEP" -eq 0 ]; then
  # Keep results, logs and metadata; drop the bulky data.
  rm -rf "$STORE" "$TWDATA" "$RUN/tw.json" "$RUN/tick-all.json" "$RUN/xdg"
fi
