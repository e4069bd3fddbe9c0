#!/usr/bin/env bash
# How tick and Taskwarrior 2.6 grow with the number of tasks. See Benchmarks/README.md.
#
#   Benchmarks/scaling.sh [--sizes 1000,10000,100000,1000000] [--runs 5]
#                         [--tick PATH] [--profile history|uniform|heavy]
#                         [--lists 200] [--seed 1] [--tw-max 60] [--keep]
#
# For each size: generate a store (Benchmarks/gen_store.py), import the same
# tasks into Taskwarrior, then time reindex (cold), today, list LIST, search
# WORD and add with hyperfine (-N, medians). Taskwarrior is skipped at a size
# (and every larger one) once its import or a read takes over --tw-max seconds.
# Results: Benchmarks/out/scaling.XXXXXX/ (results.tsv, scaling.md,
# scaling.svg), copied to Benchmarks/out/scaling.md and scaling.svg.
set -euo pipefail

SIZES=1000,10000,100000,1000000
RUNS=5
TICK=""
PROFILE=history
LISTS=200
SEED=1
TW_MAX=60
KEEP=0
usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --sizes) SIZES=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --tick) TICK=$2; shift 2 ;;
    --profile) PROFILE=$2; shift 2 ;;
    --lists) LISTS=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --tw-max) TW_MAX=$2; shift 2 ;;
    --keep) KEEP=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "scaling.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
  esac
done
case "$PROFILE" in history|uniform|heavy) ;; *) echo "scaling.sh: unknown profile: $PROFILE" >&2; exit 2 ;; esac
for v in RUNS LISTS SEED TW_MAX; do
  case "${!v}" in ''|*[!0-9]*) echo "scaling.sh: --$(echo "$v" | tr 'A-Z_' 'a-z-') needs a whole number" >&2; exit 2 ;; esac
done
IFS=, read -r -a SIZE_LIST <<<"$SIZES"
for n in "${SIZE_LIST[@]}"; do
  case "$n" in ''|*[!0-9]*) echo "scaling.sh: --sizes: not a whole number: '$n'" >&2; exit 2 ;; esac
  [ "$n" -ge 600 ] || { echo "scaling.sh: --sizes: $n is too small (at least 600: the generator puts 500 tasks in 'Bench 500')" >&2; exit 2; }
done
CMDLINE="Benchmarks/scaling.sh --sizes $SIZES --runs $RUNS --profile $PROFILE --lists $LISTS --seed $SEED --tw-max $TW_MAX${TICK:+ --tick $TICK}"

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=Benchmarks/taskrc.sh
. "$HERE/taskrc.sh"
ROOT=$(dirname "$HERE")
OUT=$HERE/out
mkdir -p "$OUT"
RUN=$(mktemp -d "$OUT/scaling.XXXXXX")
LOG=$RUN/log.txt
TSV=$RUN/results.tsv
printf 'tasks\top\ttool\tmedian_ms\tlines\tnote\n' >"$TSV"
T_START=$(date +%s)

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >>"$LOG"; }
die() { log "ERROR: $*"; exit 1; }
trap 'log "interrupted"; exit 130' INT TERM

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi
apt_install() {
  log "installing $* with apt-get"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >>"$LOG" 2>&1 ||
    { $SUDO apt-get update -qq >>"$LOG" 2>&1 && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >>"$LOG" 2>&1; } ||
    die "could not install $*"
}
command -v python3 >/dev/null || apt_install python3
command -v hyperfine >/dev/null || apt_install hyperfine
command -v task >/dev/null || apt_install taskwarrior

if [ -z "$TICK" ]; then
  log "building tick (make release: the static binary make install ships)"
  (cd "$ROOT" && make release) >>"$LOG" 2>&1 ||
    { tail -n 30 "$LOG" >&2; die "make release failed (see $LOG); retry, or pass --tick PATH"; }
  TICK=$ROOT/.build/release/tick
fi
[ -x "$TICK" ] || die "tick binary not found: $TICK"
TICK=$(realpath "$TICK")

export TZ=UTC LC_ALL=C.UTF-8 NO_COLOR=1
export TICK_NOW=2026-11-21T12:00:00Z
TW_TOMORROW=2026-11-22
export HOME=$RUN/home
mkdir -p "$HOME"
unset TICK_STORE TASKDATA

sq() { local s=${1//\'/\'\\\'\'}; printf "'%s'" "$s"; }
secs_since() { python3 -c "import sys,time; print('%.3f' % (time.time() - float(sys.argv[1])))" "$1"; }
over() { python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) > float(sys.argv[2]) else 1)" "$1" "$2"; }

# record N OP TOOL MEDIAN_MS LINES NOTE
record() { printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$TSV"; }

# hf N OP TOOL [hyperfine options...] -- COMMAND : median into results.tsv.
hf() {
  local n=$1 op=$2 tool=$3; shift 3
  local opts=()
  while [ "$1" != "--" ]; do opts+=("$1"); shift; done
  shift
  local json=$RUN/n$n/hf-$op-$tool.json
  printf '\n$ hyperfine %s %s\n' "${opts[*]-}" "$1" >>"$LOG"
  if ! hyperfine -N --style basic --warmup 1 --runs "$RUNS" ${opts[@]+"${opts[@]}"} \
      --export-json "$json" "$1" >>"$LOG" 2>&1; then
    log "  $op $tool: hyperfine failed (see log.txt)"
    record "$n" "$op" "$tool" "" "" "hyperfine failed"
    return 0
  fi
  local m
  m=$(python3 -c 'import json,sys; print("%.3f" % (json.load(open(sys.argv[1]))["results"][0]["median"]*1000))' "$json")
  log "  $op $tool: median $m ms"
  record "$n" "$op" "$tool" "$m" "${LINES_OUT:-}" "${HF_NOTE:-}"
}

# count_lines COMMAND-STRING : lines the command prints (output discarded).
count_lines() {
  local -a argv; eval "argv=($1)"
  "${argv[@]}" 2>>"$LOG" | wc -l || true
}

# tw_trial COMMAND-STRING : run once; fail if over TW_MAX seconds or on error.
tw_trial() {
  local -a argv; eval "argv=($1)"
  timeout "$TW_MAX" "${argv[@]}" >/dev/null 2>>"$LOG"
}

TW_ON=1
TW_OFF_REASON=""
log "run directory: $RUN"
for N in "${SIZE_LIST[@]}"; do
  D=$RUN/n$N
  mkdir -p "$D"
  # Lists: $LISTS, fewer when the store is too small for them (>= 5 tasks each).
  L=$(python3 -c "import sys; n=int(sys.argv[1]); print(max(2, min(int(sys.argv[2]), (n - max(1, round(n*0.01)) - 500) // 5 + 1)))" "$N" "$LISTS")
  log "== $N tasks in $L lists"
  export XDG_STATE_HOME=$D/xdg/state XDG_CACHE_HOME=$D/xdg/cache XDG_DATA_HOME=$D/xdg/data XDG_CONFIG_HOME=$D/xdg/config
  mkdir -p "$XDG_STATE_HOME" "$XDG_CACHE_HOME" "$XDG_DATA_HOME" "$XDG_CONFIG_HOME"
  STORE=$D/store
  t0=$(date +%s.%N)
  nice -n 10 python3 "$HERE/gen_store.py" --tasks "$N" --lists "$L" --seed "$SEED" --profile "$PROFILE" \
    --out "$STORE" --taskwarrior "$D/tw.json" --meta "$D/meta.json" >>"$LOG" 2>&1 || die "gen_store.py failed for $N tasks"
  log "  generated in $(python3 -c "import sys,time; print('%.1f' % (time.time() - float(sys.argv[1])))" "$t0")s ($(du -sh "$STORE" | cut -f1))"
  meta() { python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."): v = v[k]
print(v)' "$D/meta.json" "$1"; }
  LIST_NAME=$(meta list_target.name)
  LIST_PROJECT=$(meta list_target.project)
  BENCH_NAME=$(meta bench_list.name)
  BENCH_PROJECT=$(meta bench_list.project)
  WORD=$(meta search_word)
  TK="$(sq "$TICK") --store $(sq "$STORE")"

  # --- tick ----------------------------------------------------------------------
  "$TICK" --store "$STORE" list --all --json >/dev/null 2>"$D/tick-all.err" || die "tick cannot read the $N-task store: $(head -c 300 "$D/tick-all.err")"
  HF_NOTE="" LINES_OUT=""
  hf "$N" reindex tick --prepare "rm -rf $(sq "$XDG_CACHE_HOME/tick")" -- "$TK reindex"
  "$TICK" --store "$STORE" reindex >/dev/null 2>>"$LOG" || true
  LINES_OUT=$(count_lines "$TK today"); hf "$N" today tick -- "$TK today"
  LINES_OUT=$(count_lines "$TK list $(sq "list:$LIST_NAME")"); hf "$N" list tick -- "$TK list $(sq "list:$LIST_NAME")"
  LINES_OUT=$(count_lines "$TK search $(sq "$WORD")"); hf "$N" search tick -- "$TK search $(sq "$WORD")"
  LINES_OUT=""; hf "$N" add tick -- "$TK add bench task $(sq "list:$BENCH_NAME")"

  # --- Taskwarrior ------------------------------------------------------------------
  if [ "$TW_ON" -eq 1 ]; then
    TWDATA=$D/taskdata
    export TASKRC=$D/taskrc
    write_taskrc "$TASKRC" "$TWDATA"
    t0=$(date +%s.%N)
    # stdout (one line per task, with its description) is dropped: logs never hold titles.
    if timeout "$TW_MAX" task import "$D/tw.json" >/dev/null 2>>"$D/task-import.log"; then
      IMPORT_S=$(secs_since "$t0")
      log "  Taskwarrior import: ${IMPORT_S}s"
    else
      TW_ON=0
      TW_OFF_REASON="Taskwarrior's import of $N tasks failed or took over ${TW_MAX}s"
      log "  $TW_OFF_REASON: Taskwarrior skipped from here on"
    fi
  fi
  if [ "$TW_ON" -eq 1 ]; then
    if over "$IMPORT_S" 15; then
      record "$N" reindex tw "$(python3 -c "import sys; print('%.3f' % (float(sys.argv[1])*1000))" "$IMPORT_S")" "" "single run"
    else
      HF_NOTE="" LINES_OUT=""
      hf "$N" reindex tw --prepare "rm -rf $(sq "$D/taskdata-cold")" -- \
        "task rc.data.location=$(sq "$D/taskdata-cold") import $(sq "$D/tw.json")"
      rm -rf "$D/taskdata-cold"
    fi
    for spec in \
      "today|task status:pending '(' due.before:$TW_TOMORROW or scheduled.before:$TW_TOMORROW or +ACTIVE or '(' remind.after:2026-11-20T23:59:59 and remind.before:$TW_TOMORROW ')' ')' export" \
      "list|task project:$(sq "$LIST_PROJECT") status:pending export" \
      "search|task /$WORD/ export" \
      "add|task add bench task project:$(sq "$BENCH_PROJECT")"; do
      op=${spec%%|*}; cmd=${spec#*|}
      [ "$TW_ON" -eq 1 ] || break
      if [ "$op" != add ] && ! tw_trial "$cmd"; then
        TW_ON=0
        TW_OFF_REASON="Taskwarrior's $op on $N tasks failed or took over ${TW_MAX}s"
        log "  $TW_OFF_REASON: Taskwarrior skipped from here on"
        break
      fi
      LINES_OUT=""
      if [ "$op" != add ]; then
        LINES_OUT=$(count_lines "$cmd")
        LINES_OUT=$((LINES_OUT > 2 ? LINES_OUT - 2 : 0))  # the JSON array's [ and ]
      fi
      hf "$N" "$op" tw -- "$cmd"  # hyperfine -N splits it with shell quoting rules too
    done
  fi
  if [ "$TW_ON" -eq 0 ]; then
    for op in reindex today list search add; do
      grep -q "^$N	$op	tw	" "$TSV" || record "$N" "$op" tw "" "" "skipped: $TW_OFF_REASON"
    done
  fi
  if [ "$KEEP" -eq 0 ]; then
    rm -rf "$STORE" "$D/tw.json" "$D/taskdata" "$D/xdg"
  fi
done

T_END=$(date +%s)
MODEL=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -n 1)
{
  echo "- command: \`$CMDLINE\`"
  echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); wall time $((T_END - T_START)) s"
  echo "- machine: $(nproc) CPUs, ${MODEL:-unknown CPU}, $(awk '/^MemTotal:/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo) RAM"
  echo "- tick: \`$TICK\` ($("$TICK" --version 2>/dev/null || echo '?'), $(stat -c %s "$TICK") bytes; repo HEAD $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')); Taskwarrior $(task --version); $(hyperfine --version)"
  echo "- data: profile $PROFILE, seed $SEED, up to $LISTS lists; hyperfine \`-N --warmup 1 --runs $RUNS\`, medians; run directory \`${RUN#"$ROOT"/}\`"
} >"$RUN/info.md"
python3 "$HERE/scaling_chart.py" --tsv "$TSV" --info "$RUN/info.md" --md "$RUN/scaling.md" --svg "$RUN/scaling.svg"
python3 -c "import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])" "$RUN/scaling.svg" || die "scaling.svg is not well-formed XML"
cp "$RUN/scaling.md" "$OUT/scaling.md"
cp "$RUN/scaling.svg" "$OUT/scaling.svg"
cat "$RUN/scaling.md"
log "report: $OUT/scaling.md, chart: $OUT/scaling.svg (run directory $RUN)"
