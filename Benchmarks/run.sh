#!/usr/bin/env bash
# tick vs Taskwarrior 2.6, todoman and topydo (and grep). See Benchmarks/README.md.
#
#   Benchmarks/run.sh [--tasks 100000] [--lists 200] [--runs 10] [--tick PATH]
#                     [--seed 1] [--profile history|uniform|heavy] [--watch-n 50]
#                     [--peer-max 60] [--no-peers] [--keep]
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
PEER_MAX=60
PEERS=1

usage() { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; }
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
    --peer-max) PEER_MAX=$2; shift 2 ;;
    --no-peers) PEERS=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "run.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
  esac
done
# The exact command line, re-quoted (for the report).
CMDLINE="Benchmarks/run.sh --tasks $TASKS --lists $LISTS --runs $RUNS --seed $SEED --profile $PROFILE --watch-n $WATCH_N${TICK:+ --tick $TICK}$([ "$PEERS" -eq 1 ] || echo ' --no-peers')$([ "$PEER_MAX" = 60 ] || echo " --peer-max $PEER_MAX")"
case "$PROFILE" in history|uniform|heavy) ;; *) echo "run.sh: unknown profile: $PROFILE" >&2; exit 2 ;; esac
for v in TASKS LISTS RUNS SEED WATCH_N PEER_MAX; do
  case "${!v}" in ''|*[!0-9]*) echo "run.sh: --$(echo "$v" | tr 'A-Z_' 'a-z-') needs a whole number" >&2; exit 2 ;; esac
done

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=Benchmarks/taskrc.sh
. "$HERE/taskrc.sh"
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
: >"$RES/lines.tsv"
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
apt_try() {
  log "installing $* with apt-get"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >>"$LOG" 2>&1 ||
    { $SUDO apt-get update -qq >>"$LOG" 2>&1 && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >>"$LOG" 2>&1; }
}
apt_install() { apt_try "$@" || die "could not install $*"; }
command -v python3 >/dev/null || apt_install python3
command -v hyperfine >/dev/null || apt_install hyperfine
command -v task >/dev/null || apt_install taskwarrior
[ -x /usr/bin/time ] || apt_install time
# The peers are optional: a peer that cannot be installed is a note in the
# report, not a failed run. They are benchmark-only (scripts/ensure-deps.sh
# does not install them).
HAVE_TDM=0 HAVE_TPD=0
if [ "$PEERS" -eq 1 ]; then
  command -v todoman >/dev/null || apt_try todoman || log "warning: could not install todoman"
  command -v topydo >/dev/null || apt_try topydo || log "warning: could not install topydo"
  command -v todoman >/dev/null && HAVE_TDM=1
  command -v topydo >/dev/null && HAVE_TPD=1
fi
case "$(task --version 2>/dev/null)" in
  2.6.*) ;;
  *) log "warning: Taskwarrior $(task --version 2>/dev/null || echo '?') is not 2.6.x" ;;
esac

# --- tick binary ----------------------------------------------------------------
if [ -z "$TICK" ]; then
  log "building tick (make release: the static binary make install ships)"
  (cd "$ROOT" && make release) >>"$LOG" 2>&1 ||
    { tail -n 30 "$LOG" >&2; die "make release failed (see $LOG); retry, or pass --tick PATH"; }
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
# tick's today as a Taskwarrior filter (words, for hyperfine -N and for "${TW_TODAY[@]}"):
# overdue, due or scheduled by the end of the day, started (+ACTIVE), or
# reminding that day. Checked: the same tasks as `tick today --json`.
TW_TODAY=(status:pending '(' "due.before:$TW_TOMORROW" or "scheduled.before:$TW_TOMORROW" or +ACTIVE
          or '(' remind.after:2026-11-20T23:59:59 and "remind.before:$TW_TOMORROW" ')' ')')
export TASKRC=$RUN/taskrc
# A private HOME too: topydo reads ~/.topydo and ~/.config/topydo/config.
export HOME=$RUN/home
mkdir -p "$XDG_STATE_HOME" "$XDG_CACHE_HOME" "$XDG_DATA_HOME" "$XDG_CONFIG_HOME" "$HOME"

# Single-quote a word for hyperfine -N (shell-words rules).
sq() { local s=${1//\'/\'\\\'\'}; printf "'%s'" "$s"; }
TK="$(sq "$TICK") --store $(sq "$STORE")"

# hf NAME [hyperfine options...] -- COMMAND
# Runs one benchmark, exports $RES/hf-NAME.json, logs the median.
# With HF_SOFT=1 a failure is returned (status 1) instead of ending the run.
HF_SOFT=0
hf() {
  local name=$1; shift
  local opts=()
  while [ "$1" != "--" ]; do opts+=("$1"); shift; done
  shift
  printf '\n$ hyperfine %s %s\n' "${opts[*]-}" "$1" >>"$LOG"
  if ! hyperfine -N --style basic --warmup 2 --runs "$RUNS" ${opts[@]+"${opts[@]}"} \
    --export-json "$RES/hf-$name.json" "$1" >>"$LOG" 2>&1; then
    rm -f "$RES/hf-$name.json"
    if [ "$HF_SOFT" -eq 1 ]; then log "  $name: FAILED (see log.txt)"; return 1; fi
    tail -n 20 "$LOG" >&2; die "benchmark $name failed: $1"
  fi
  log "  $name: median $(python3 -c 'import json,sys; print("%.2f ms" % (json.load(open(sys.argv[1]))["results"][0]["median"]*1000))' "$RES/hf-$name.json")"
}

# lines KEY [--json] CMD... : run CMD once, count what it prints (lines, or
# the length of its JSON array) into lines.tsv. Output goes to a temp file
# that is deleted at once (it holds titles) and is never logged.
lines() {
  local key=$1; shift
  local js=()
  if [ "$1" = "--json" ]; then js=(--json); shift; fi
  if "$@" >"$RUN/lines.tmp" 2>>"$LOG"; then
    printf '%s\t%s\n' "$key" "$(python3 "$HERE/peers.py" count ${js[@]+"${js[@]}"} "$RUN/lines.tmp")" >>"$RES/lines.tsv"
  else
    printf '%s\tn/a\n' "$key" >>"$RES/lines.tsv"
  fi
  rm -f "$RUN/lines.tmp"
}

# trial LIMIT CMD... : run CMD once with a time limit (seconds), output
# discarded; prints the seconds it took, fails on error or timeout.
trial() {
  local limit=$1; shift
  local t0 t1
  t0=$(date +%s.%N)
  timeout "$limit" "$@" >/dev/null 2>>"$LOG" || return 1
  t1=$(date +%s.%N)
  python3 -c "import sys; print('%.3f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$t0" "$t1"
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

write_taskrc "$TASKRC" "$TWDATA"

log "importing into Taskwarrior (single timed run)"
t0=$(date +%s.%N)
# stdout (one line per task, with its description) is dropped: logs never hold titles.
task import "$RUN/tw.json" >/dev/null 2>>"$RUN/task-import.log" || die "task import failed (see $RUN/task-import.log)"
IMPORT_S=$(python3 -c "import sys; print('%.3f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$t0" "$(date +%s.%N)")
echo "$IMPORT_S" >"$RES/cold-tw-single.txt"
TW_COUNT=$(task count 2>/dev/null)
log "  imported $TW_COUNT tasks in ${IMPORT_S}s"
[ "$TW_COUNT" -eq "$TASKS" ] || die "Taskwarrior has $TW_COUNT tasks, expected $TASKS"

# Sanity: tick reads the whole store without warnings.
"$TICK" --store "$STORE" list --all --json >"$RUN/tick-all.json" 2>"$RUN/tick-all.err" ||
  die "tick list --all failed: $(head -c 500 "$RUN/tick-all.err")"
[ ! -s "$RUN/tick-all.err" ] || die "tick printed warnings: $(head -c 500 "$RUN/tick-all.err")"

# --- peers: the same tasks for todoman (vdir of .ics) and topydo (todo.txt) -----
# Both are made from tick's own exports, so they hold exactly the tasks of the
# store (as far as each format can say them; see Benchmarks/README.md).
TDM_CONF=$RUN/todoman.conf.py
TDM_CACHE=$RUN/todoman-cache/cache.sqlite3
TPD_CONF=$RUN/topydo.conf
TPD_TODO=$RUN/todo.txt
TDM="todoman --config $(sq "$TDM_CONF") --color never"
TPD="topydo -c $(sq "$TPD_CONF") -C 0 -a -t $(sq "$TPD_TODO") -d $(sq "$RUN/done.txt")"
# todoman's --due takes hours from the real clock: aim at 21:30-22:30 UTC of the
# base day (after every timed due that day, before the next day's all-day
# dues at midnight), so a drift of up to ~1.5 h during the run is harmless.
TDM_DUE_H=$(python3 -c 'import time,math; print(math.ceil((1795296600 - time.time()) / 3600))')
TDM_COLD_S=""
if [ "$PEERS" -eq 0 ]; then
  note peers "todoman and topydo not measured (--no-peers)."
fi
if [ "$HAVE_TDM" -eq 1 ]; then
  log "todoman: exporting iCalendar and writing a vdir"
  if "$TICK" --store "$STORE" export --format ics -o "$RUN/tasks.ics" >>"$LOG" 2>&1 &&
     python3 "$HERE/peers.py" vdir --ics "$RUN/tasks.ics" --out "$RUN/vdir" >>"$LOG" 2>&1; then
    rm -f "$RUN/tasks.ics"
    mkdir -p "$(dirname "$TDM_CACHE")"
    cat >"$TDM_CONF" <<TDMCONF
# todoman settings for the benchmark (see Benchmarks/README.md).
path = "$RUN/vdir/*"
cache_path = "$TDM_CACHE"
date_format = "%Y-%m-%d"
time_format = "%H:%M"
default_list = "Inbox"
humanize = False
TDMCONF
    log "  $(find "$RUN/vdir" -mindepth 1 -maxdepth 1 -type d | wc -l) lists, $(find "$RUN/vdir" -name '*.ics' | wc -l) .ics files; building todoman's cache (limit $((PEER_MAX * 10))s)"
    if TDM_COLD_S=$(trial $((PEER_MAX * 10)) todoman --config "$TDM_CONF" --color never list); then
      echo "$TDM_COLD_S" >"$RES/cold-tdm-single.txt"
      log "  todoman's first run (cache built from the .ics files): ${TDM_COLD_S}s"
    else
      HAVE_TDM=0
      note todoman "the first \`todoman list\` (building its cache from $TASKS .ics files) failed or took over $((PEER_MAX * 10))s: todoman not measured at this size."
    fi
  else
    HAVE_TDM=0
    note todoman "could not export iCalendar or write the vdir (see log.txt): todoman not measured."
  fi
elif [ "$PEERS" -eq 1 ]; then
  note todoman "todoman is not installed (apt-get install todoman failed): not measured."
fi
if [ "$HAVE_TPD" -eq 1 ]; then
  log "topydo: exporting todo.txt"
  cat >"$TPD_CONF" <<TPDCONF
# topydo settings for the benchmark (see Benchmarks/README.md).
[topydo]
colors = 0
identifiers = linenumber
# topydo hashes every line into a text id even when ids are line numbers;
# with its default 36-character alphabet that fails above ~16,800 lines
# (_TableSizeException). 31 characters allow ~286,000.
identifier_alphabet = 0123456789abcdefghijklmnopqrstu
backup_count = 0
[ls]
list_limit = -1
TPDCONF
  if "$TICK" --store "$STORE" export --format todotxt -o "$TPD_TODO" >>"$LOG" 2>&1; then
    : >"$RUN/done.txt"
    log "  $(wc -l <"$TPD_TODO") lines"
  else
    HAVE_TPD=0
    note topydo "could not export todo.txt (see log.txt): topydo not measured."
  fi
elif [ "$PEERS" -eq 1 ]; then
  note topydo "topydo is not installed (apt-get install topydo failed): not measured."
fi

# peer TOOLKEY OP COMMAND : benchmark a peer's read (hf-OP-TOOLKEY) if one
# untimed trial finishes under PEER_MAX seconds; otherwise a note.
peer() {
  local tool=$1 op=$2 cmd=$3 secs rc=0 name why
  case "$tool" in tdm) name=todoman ;; tpd) name=topydo ;; *) name=$tool ;; esac
  local -a argv
  eval "argv=($cmd)"
  : >"$RUN/trial.err"
  secs=$(LOG=$RUN/trial.err trial "$PEER_MAX" "${argv[@]}") || rc=$?
  cat "$RUN/trial.err" >>"$LOG"
  if [ "$rc" -ne 0 ]; then
    if grep -q . "$RUN/trial.err"; then
      # Only the exception's class (the last line's text before ':'), never
      # the rest of a message, which could quote a task.
      why="it failed ($(tail -n 1 "$RUN/trial.err" | cut -d: -f1 | tr -cd 'A-Za-z0-9_. ' | cut -c1-80); see log.txt)"
    else
      why="it failed or took over ${PEER_MAX}s"
    fi
    note "$op" "$name: \`${cmd//$RUN/\$RUN}\`: $why in a trial run: not measured at $TASKS tasks."
    log "  $op-$tool: not measured ($why)"
    return 0
  fi
  HF_SOFT=1
  hf "$op-$tool" -- "$cmd" || note "$op" "$name: hyperfine failed (see log.txt)."
  HF_SOFT=0
}

# --- start-up floor ---------------------------------------------------------------
log "start-up floor"
EMPTY=$RUN/empty-store
"$TICK" init "$EMPTY" >>"$LOG" 2>&1 || mkdir -p "$EMPTY"
hf floor-true -- "/bin/true"
hf version-tick -- "$(sq "$TICK") --version"
HF_SOFT=1
hf empty-tick -- "$(sq "$TICK") --store $(sq "$EMPTY") today" ||
  note floor "\`tick today\` on an empty store failed (see log.txt)."
HF_SOFT=0
note floor "/bin/true is the cost of starting a C program (fork+exec+exit under hyperfine -N). The empty store is made with \`tick init\`; its index is built by hyperfine's warmup runs."

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
# Issue 47's yardstick for the rebuild: Python parsing the same files, nothing else.
cat >"$RUN/jsonload.py" <<'PY'
import glob, json, sys
for path in glob.glob(sys.argv[1] + "/*.json") + glob.glob(sys.argv[1] + "/lists/*.json"):
    with open(path, "rb") as f:
        json.load(f)
PY
hf cold-jsonload -- "python3 $(sq "$RUN/jsonload.py") $(sq "$STORE")"
note cold "$(python3 - "$RES" <<'PY'
import json, sys
m = lambda n: json.load(open(sys.argv[1] + "/hf-" + n + ".json"))["results"][0]["median"]
print("Python's `json.load` of the same files (inbox.json and lists/*.json, parsed and dropped): %.0f ms; "
      "tick's cold rebuild is %.1f× of it (issue 47: ≤ 3×)." % (m("cold-jsonload") * 1000, m("cold-tick") / m("cold-jsonload")))
PY
)"
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

if [ "$HAVE_TDM" -eq 1 ]; then
  if python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) else 1)" "$TDM_COLD_S" "$PEER_MAX"; then
    HF_SOFT=1
    hf cold-tdm --prepare "rm -f $(sq "$TDM_CACHE")" -- "$TDM list" || true
    HF_SOFT=0
    note cold "todoman: \`todoman list\` with its SQLite cache deleted (hyperfine --prepare): it parses every .ics file into the cache."
  else
    note cold "todoman: a single first \`todoman list\` (${TDM_COLD_S}s) building its cache; too slow for repeated runs."
  fi
fi
[ "$HAVE_TPD" -eq 1 ] && note cold "topydo: no index or cache to build (every command parses todo.txt): n/a."

# --- 3. reads --------------------------------------------------------------------
log "today"
hf today-tick -- "$TK today"
hf today-tw -- "task ${TW_TODAY[*]} export"

# The peers cannot say tick's today (todoman has no OR over due and start
# dates, todo.txt no scheduled date or start): they are measured on "due",
# the same tasks in all four tools.
log "due by the end of the day (overdue and due today)"
hf due-tick -- "$TK list due.before:$TW_TOMORROW --sort due"
hf due-tw -- "task status:pending due.before:$TW_TOMORROW export"
[ "$HAVE_TDM" -eq 1 ] && peer tdm due "$TDM list --due=$TDM_DUE_H"
[ "$HAVE_TPD" -eq 1 ] && peer tpd due "$TPD ls $(sq "due:<$TW_TOMORROW")"
note due "Pending tasks due by the end of the base day (overdue or due today): \`tick list due.before:$TW_TOMORROW --sort due\` (one flat list, as the peers print), \`task status:pending due.before:$TW_TOMORROW export\`, \`todoman list --due=H\` (due before 21:30-22:30 UTC of the base day: H hours from the real clock, $TDM_DUE_H at the start), \`topydo ls due:<$TW_TOMORROW\`. The peers' closest read to tick's today."

log "list \"$LIST_NAME\""
hf list-tick -- "$TK list $(sq "list:$LIST_NAME")"
hf list-tw -- "task project:$(sq "$LIST_PROJECT") status:pending export"
[ "$HAVE_TDM" -eq 1 ] && peer tdm list "$TDM list $(sq "$LIST_PROJECT")"
[ "$HAVE_TPD" -eq 1 ] && peer tpd list "$TPD ls $(sq "+${LIST_NAME// /_}")"
note list "todoman: \`todoman list $LIST_PROJECT\` (the vdir's directory for the list). topydo: \`topydo ls +${LIST_NAME// /_}\` (tick exports a list as a todo.txt project, spaces as _)."

log "list (all pending)"
hf listall-tick -- "$TK list"
hf listall-tw -- "task status:pending export"
[ "$HAVE_TDM" -eq 1 ] && peer tdm listall "$TDM list"
[ "$HAVE_TPD" -eq 1 ] && peer tpd listall "$TPD ls"
note listall "Every pending task: \`tick list\`, \`task status:pending export\`, \`todoman list\`, \`topydo ls\`."

log "search $WORD"
HAS_LIMIT=0
if has_cmd search; then
  hf search-tick -- "$TK search $(sq "$WORD")"
  if "$TICK" search --help 2>&1 | grep -q -- '--limit'; then
    HAS_LIMIT=1
    hf searchlimit-tick -- "$TK search $(sq "$WORD") --limit 10"
  else
    note searchlimit "tick search has no --limit: n/a."
  fi
else
  note search "tick has no \`search\` command yet: n/a."
fi
hf search-tw -- "task /$WORD/ export"
hf search-grep -- "grep -ril $(sq "$WORD") $(sq "$STORE")"
hf search-grepfull -- "grep -ri $(sq "$WORD") $(sq "$STORE")"
[ "$HAVE_TDM" -eq 1 ] && peer tdm search "$TDM list --status ANY --grep $(sq "$WORD")"
[ "$HAVE_TPD" -eq 1 ] && peer tpd search "$TPD ls -x $(sq "$WORD")"
note search "todoman: \`todoman list --status ANY --grep $WORD\` (SQL LIKE on the summary only: notes are not searched). topydo: \`topydo ls -x $WORD\` (substring of the whole todo.txt line, every task; todo.txt has no notes)."
note search "Taskwarrior: \`task /$WORD/ export\` (description and annotations, every status, case-insensitive). grep column: \`grep -ril\` (may stop reading a file at its first match: a floor); \`grep -ri\` (full scan) median: $(python3 -c 'import json,sys; print("%.2f ms" % (json.load(open(sys.argv[1]))["results"][0]["median"]*1000))' "$RES/hf-search-grepfull.json")."

log "stats"
if has_cmd stats; then
  hf stats-tick -- "$TK stats"
  note stats "tick only: \`tick stats\` (12 ISO weeks, trend, streak, per-list breakdown) from the warm index; Taskwarrior has no equivalent report."
else
  note stats "tick has no \`stats\` command yet: n/a."
fi

# --- 3b. what each read prints -------------------------------------------------------
# Lines printed by the benchmarked command itself (for µs per printed line and
# to show how far the peers' answers are equivalent). Counted once, before the
# writes below change the stores; the output itself is never kept or logged.
# lines_cmd KEY [--json] COMMAND-STRING (as given to hyperfine)
lines_cmd() {
  local key=$1 js=(); shift
  if [ "$1" = "--json" ]; then js=(--json); shift; fi
  local -a argv; eval "argv=($1)"; lines "$key" ${js[@]+"${js[@]}"} "${argv[@]}"
}
log "lines printed"
lines_cmd today-tick "$TK today"
lines today-tw task "${TW_TODAY[@]}" export
lines_cmd due-tick "$TK list due.before:$TW_TOMORROW --sort due"
lines_cmd due-tw "task status:pending due.before:$TW_TOMORROW export"
lines_cmd list-tick "$TK list $(sq "list:$LIST_NAME")"
lines_cmd list-tw "task project:$(sq "$LIST_PROJECT") status:pending export"
lines_cmd listall-tick "$TK list"
lines_cmd listall-tw "task status:pending export"
if has_cmd search; then
  lines_cmd search-tick "$TK search $(sq "$WORD")"
  [ "$HAS_LIMIT" -eq 0 ] || lines_cmd searchlimit-tick "$TK search $(sq "$WORD") --limit 10"
fi
lines_cmd search-tw "task /$WORD/ export"
lines_cmd search-grep "grep -ril $(sq "$WORD") $(sq "$STORE")"
lines_cmd search-grepfull "grep -ri $(sq "$WORD") $(sq "$STORE")"
# Tasks (not lines) for tick and Taskwarrior, from their JSON.
if "$TICK" today --help 2>&1 | grep -q -- '--json'; then
  lines tasks-today-tick --json "$TICK" --store "$STORE" today --json
  lines tasks-list-tick --json "$TICK" --store "$STORE" list "list:$LIST_NAME" --json
  lines tasks-due-tick --json "$TICK" --store "$STORE" list "due.before:$TW_TOMORROW" --json
  lines tasks-listall-tick --json "$TICK" --store "$STORE" list --json
  if has_cmd search; then lines tasks-search-tick --json "$TICK" --store "$STORE" search "$WORD" --json; fi
fi
lines tasks-today-tw --json task "${TW_TODAY[@]}" export
lines tasks-list-tw --json task "project:$LIST_PROJECT" status:pending export
lines tasks-due-tw --json task status:pending "due.before:$TW_TOMORROW" export
lines tasks-listall-tw --json task status:pending export
lines tasks-search-tw --json task "/$WORD/" export
for op in due list listall search; do
  if [ -f "$RES/hf-$op-tdm.json" ]; then
    cmd=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["command"])' "$RES/hf-$op-tdm.json")
    lines_cmd "$op-tdm" "$cmd"
    lines_cmd "tasks-$op-tdm" --json "${cmd/todoman /todoman --porcelain }"
  fi
  if [ -f "$RES/hf-$op-tpd.json" ]; then
    cmd=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["command"])' "$RES/hf-$op-tpd.json")
    lines_cmd "$op-tpd" "$cmd"
  fi
done

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
rss tw-today task "${TW_TODAY[@]}" export
rss tick-list "$TICK" --store "$STORE" list "list:$LIST_NAME"
rss tw-list task "project:$LIST_PROJECT" status:pending export
if has_cmd search; then rss tick-search "$TICK" --store "$STORE" search "$WORD"; fi
rss tw-search task "/$WORD/" export
rss tick-listall "$TICK" --store "$STORE" list
rss tw-listall task status:pending export
rss tick-due "$TICK" --store "$STORE" list "due.before:$TW_TOMORROW" --sort due
rss tw-due task status:pending "due.before:$TW_TOMORROW" export
rss tick-empty "$TICK" --store "$EMPTY" today
rss tick-version "$TICK" --version
rss true-floor /bin/true
# The peers: the very commands hyperfine timed.
rss_cmd() { local -a argv; eval "argv=($2)"; rss "$1" "${argv[@]}"; }
for op in due list listall search; do
  for tool in tdm tpd; do
    if [ -f "$RES/hf-$op-$tool.json" ]; then
      rss_cmd "$tool-$op" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["command"])' "$RES/hf-$op-$tool.json")"
    fi
  done
done

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
    # tick watch's log names tasks (late reminders with their titles): keep
    # its first line and a count only.
    { head -n 1 "$RUN/watch.log"; echo "($(wc -l <"$RUN/watch.log") lines in all; the rest dropped because they can name tasks)"; } >"$RUN/watch.log.tmp"
    mv "$RUN/watch.log.tmp" "$RUN/watch.log"
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
  echo "- tick binary: $(stat -c %s "$TICK") bytes ($(awk -v b="$(stat -c %s "$TICK")" 'BEGIN {printf "%.1f MiB", b/1048576}')); shared libraries it loads (ldd): $(ldd "$TICK" 2>&1 | awk '{print $1}' | grep -v '^linux-vdso' | tr '\n' ' ' | sed 's/ $//')"
  echo "- data: seed $SEED; store $(du -sh "$STORE" | cut -f1); \`list LIST\` = \"$LIST_NAME\" ($(meta list_target.pending) pending of $(meta list_target.tasks)); search word \"$WORD\"; \`done\`/\`add\` on \"$BENCH_NAME\""
  echo "- hyperfine: \`-N --warmup 2 --runs $RUNS\`, medians; run directory \`${RUN#"$ROOT"/}\`"
} >"$RUN/info.md"
python3 "$HERE/report.py" --run "$RUN" --tick "$TICK" --targets "$HERE/targets.tsv" --info "$RUN/info.md" >"$RUN/results.md"
cp "$RUN/results.md" "$OUT/results.md"
cat "$RUN/results.md"
log "report: $OUT/results.md (run directory $RUN)"

if [ "$KEEP" -eq 0 ]; then
  # Keep results, logs and metadata; drop the bulky data.
  rm -rf "$STORE" "$TWDATA" "$RUN/tw.json" "$RUN/tick-all.json" "$RUN/xdg" \
    "$RUN/vdir" "$RUN/todoman-cache" "$RUN/todo.txt" "$RUN/done.txt" "$RUN/empty-store" "$RUN/home"
fi
