#!/bin/sh
# The long run of the sync oracle (issue 11): 10,000 random two-machine
# histories through real git and through Syncthing-style conflict copies.
# CI runs 1,000 (SyncHistoryTests); this runs N (default 10000).
# Replay one failing history with: TICK_SYNC_SEED=SEED swift test --filter SyncHistoryTests
set -eu
cd "$(dirname "$0")/.."
N="${1:-10000}"
TICK_SYNC_HISTORIES="$N" swift test --filter SyncHistoryTests
