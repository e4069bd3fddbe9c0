#!/bin/sh
# The long runs of the hardening harnesses (CI runs a bounded version of each):
#   scripts/torture.sh kill    SECONDS [SEED]  write commands killed with SIGKILL at random points
#   scripts/torture.sh fuzz    SECONDS [SEED]  fuzzed hand edits of store files
#   scripts/torture.sh writers SECONDS [SEED]  6 writers + the watcher + an editor, in sessions
#   scripts/torture.sh all     SECONDS [SEED]  each of the three for SECONDS
# The editor race has its own script (scripts/race-editor.sh). A failure prints
# the seed; run again with that SEED to replay it.
set -eu
cd "$(dirname "$0")/.."
mode="${1:?usage: scripts/torture.sh kill|fuzz|writers|all SECONDS [SEED]}"
seconds="${2:-1800}"
seed="${3:-$(date +%s)}"
swift build --build-tests >/dev/null
run() {
    echo "== $1 for ${seconds}s, seed $seed"
    TICK_TORTURE_SECONDS="$seconds" TICK_TORTURE_SEED="$seed" swift test --skip-build --filter "$1" 2>&1 \
        | grep -E "^(✔|✘) (Test|Suite)|Test run with|kill -9|fuzzed|mixed writers|seed" | cut -c1-2000
}
case "$mode" in
    kill) run KillNineTests ;;
    fuzz) run FuzzEditTests ;;
    writers) run MixedWritersTests ;;
    all) run KillNineTests; run FuzzEditTests; run MixedWritersTests ;;
    *) echo "unknown mode $mode" >&2; exit 2 ;;
esac
