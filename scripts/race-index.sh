#!/bin/sh
# The long run of the index race (hardening issue, item 6): in every round the
# cache directory is deleted, then 8 processes at once each run `tick add`,
# `tick list`, `tick done <the id add printed>`; with --mid-delete, a ninth
# process deletes the cache again while they run. Every command must exit 0,
# stderr must never show SQLite's words, and at the end every added task must
# be in the store exactly once, done. CI runs 8 rounds (IndexRaceTests); this
# runs for DURATION seconds (default 300) on a fresh store, then prints the
# counts and exits 1 if any is not 0.
#
#   scripts/race-index.sh [DURATION] [--mid-delete]
#   TICK=/path/to/tick scripts/race-index.sh 1800
set -eu
cd "$(dirname "$0")/.."
DURATION="${1:-300}"
MID_DELETE=0
[ "${2:-}" = "--mid-delete" ] && MID_DELETE=1
TICK="${TICK:-$PWD/.build/debug/tick}"
[ -x "$TICK" ] || { echo "race-index: no tick binary at $TICK (swift build first, or set TICK)" >&2; exit 2; }
PROCS=8

WORLD=$(mktemp -d "${TMPDIR:-/tmp}/tick-race-index-XXXXXX")
trap 'rm -rf "$WORLD"' EXIT
export TICK_STORE="$WORLD/store" XDG_CACHE_HOME="$WORLD/cache" XDG_STATE_HOME="$WORLD/state" \
       HOME="$WORLD/home" NO_COLOR=1 TZ=UTC
IO="$WORLD/io"
mkdir -p "$IO" "$HOME" "$TICK_STORE"   # a store named by TICK_STORE must exist
: > "$IO/failures"
: > "$IO/stderr"

end=$(( $(date +%s) + DURATION ))
rounds=0
while [ "$(date +%s)" -lt "$end" ]; do
  rounds=$((rounds + 1))
  r=$rounds
  rm -rf "$XDG_CACHE_HOME/tick"
  for p in $(seq $PROCS); do
    (
      err="$IO/err-$r-$p"
      id=$("$TICK" add "race-$r-$p" 2>>"$err") || echo "add race-$r-$p: exit $?" >> "$IO/failures"
      "$TICK" list >/dev/null 2>>"$err" || echo "list $r-$p: exit $?" >> "$IO/failures"
      "$TICK" done "$id" >/dev/null 2>>"$err" || echo "done race-$r-$p ($id): exit $?" >> "$IO/failures"
    ) &
  done
  if [ $MID_DELETE = 1 ]; then
    ( sleep 0.05; rm -rf "$XDG_CACHE_HOME/tick" ) &
  fi
  wait
  for f in "$IO"/err-$r-*; do
    [ -s "$f" ] && { sed "s/^/round $r: /" "$f" >> "$IO/stderr"; }
    rm -f "$f"
  done
done

commands=$((rounds * PROCS * 3))
failed=$(wc -l < "$IO/failures")
sqlite_lines=$(grep -c -E 'SQLite|sqlite|journal_mode|database disk image|readonly database|disk I/O error' "$IO/stderr" || true)
warnings=$(grep -c 'tick: warning:' "$IO/stderr" || true)
# Every add exactly once, and done: count titles and states with the tool itself.
"$TICK" list --all --json > "$IO/all.json"
expected=$((rounds * PROCS))
present=$(grep -o '"title" *: *"race-[0-9]*-[0-9]*"' "$IO/all.json" | sort | uniq | wc -l)
total=$(grep -o '"title" *: *"race-[0-9]*-[0-9]*"' "$IO/all.json" | wc -l)
open=$("$TICK" list --json | grep -c '"title" *: *"race-' || true)
missing=$((expected - present))
duplicated=$((total - present))

echo "rounds=$rounds commands=$commands failed=$failed sqlite_text=$sqlite_lines warnings=$warnings adds=$expected missing=$missing duplicated=$duplicated not_done=$open"
if [ "$failed" -gt 0 ]; then sed 's/^/  /' "$IO/failures" | head -20; fi
if [ "$sqlite_lines" -gt 0 ] || [ "$warnings" -gt 0 ]; then sed 's/^/  /' "$IO/stderr" | head -20; fi
[ "$failed" -eq 0 ] && [ "$sqlite_lines" -eq 0 ] && [ "$missing" -eq 0 ] && [ "$duplicated" -eq 0 ] && [ "$open" -eq 0 ]
