#!/bin/sh
# The long run of the store-history oracle (issue 33): random three-machine
# histories with every operation (undo, archive, repeats, hand edits, list
# renames…), synced Syncthing-style and git-style, in process.
# CI runs 1,000 per mode (StoreHistoryTests); this one runs for MINUTES
# (default 30), in ranges of 500 new seeds per mode, and stops at the first
# range with a failure. Replay one failing history with
#   TICK_STORE_SEED=SEED swift test --filter StoreHistoryTests
# and add TICK_STORE_TRACE=N (the #N a failure names) to follow that task.
set -eu
cd "$(dirname "$0")/.."
MINUTES="${1:-30}"
swift build --build-tests >/dev/null
end=$(( $(date +%s) + MINUTES * 60 ))
low=100000
ran=0
while [ "$(date +%s)" -lt "$end" ]; do
    high=$((low + 499))
    if ! TICK_STORE_SEED="$low-$high" swift test --skip-build --filter StoreHistoryTests > /tmp/store-histories.$$ 2>&1; then
        grep -E "↳ (git|syncthing) seed" /tmp/store-histories.$$ | head -20
        echo "store-histories: failures among seeds $low-$high (both modes); $ran histories passed before them"
        exit 1
    fi
    ran=$((ran + 1000))
    echo "store-histories: seeds $low-$high passed (both modes), $ran histories so far"
    low=$((high + 1))
done
rm -f /tmp/store-histories.$$
echo "store-histories: $ran histories passed ($((ran / 2)) per mode, seeds 100000-$((low - 1))) in $MINUTES minutes"
