#!/bin/sh
# The long run of the store-history oracle (issue 33): random three-machine
# histories with every operation (undo, archive, repeats, hand edits, list
# renames…), synced Syncthing-style and git-style, in process.
# CI runs 1,000 per mode (StoreHistoryTests); this one runs for MINUTES
# (default 30), in ranges of 500 new seeds per mode, and stops at the first
# range with a failure. Replay one failing history with
#   TICK_STORE_SEED=SEED swift test --filter StoreHistoryTests
# and add TICK_STORE_TRACE=N (the #N a failure names) to follow that task.
#
# `scripts/store-histories.sh MINUTES fan-out` runs Syncthing's fan-out
# instead (issue 44: conflict copies reaching the third machine, hand edits
# in every file kind, each conflict's pair resolved on every machine;
# SyncthingFanOutHistoryTests, 1,000 in CI), in ranges of 500 new seeds.
# Replay one with
#   TICK_FANOUT_SEED=N swift test --filter SyncthingFanOutHistoryTests
# (N as the failure's "replay:" names it).
set -eu
cd "$(dirname "$0")/.."
MINUTES="${1:-30}"
MODE="${2:-store}"
case "$MODE" in
    store) variable=TICK_STORE_SEED suite=StoreHistoryTests per=2 what="both modes" ;;
    fan-out) variable=TICK_FANOUT_SEED suite=SyncthingFanOutHistoryTests per=1 what="fan-out" ;;
    *) echo "usage: $0 [MINUTES] [store|fan-out]" >&2; exit 2 ;;
esac
# TICK_XCTEST=PATH runs a copy of the test binary (cp .build/debug/tickPackageTests.xctest
# PATH; a path without spaces) instead of building here, so the checkout can be rebuilt during the run.
if [ -n "${TICK_XCTEST:-}" ]; then
    run_tests="$TICK_XCTEST --testing-library swift-testing"
else
    swift build --build-tests >/dev/null
    run_tests="swift test --skip-build"
fi
end=$(( $(date +%s) + MINUTES * 60 ))
low=100000
ran=0
while [ "$(date +%s)" -lt "$end" ]; do
    high=$((low + 499))
    if ! env "$variable=$low-$high" $run_tests --filter "$suite" > /tmp/store-histories.$$ 2>&1; then
        grep -E "↳ (git|syncthing)( fan-out)? seed" /tmp/store-histories.$$ | head -20
        echo "store-histories: failures among seeds $low-$high ($what); $ran histories passed before them; the output: /tmp/store-histories.$$"
        exit 1
    fi
    ran=$((ran + 500 * per))
    echo "store-histories: seeds $low-$high passed ($what), $ran histories so far"
    low=$((high + 1))
done
rm -f /tmp/store-histories.$$
if [ "$MODE" = store ]; then
    echo "store-histories: $ran histories passed ($((ran / 2)) per mode, seeds 100000-$((low - 1))) in $MINUTES minutes"
else
    echo "store-histories: $ran fan-out histories passed (seeds 100000-$((low - 1))) in $MINUTES minutes"
fi
