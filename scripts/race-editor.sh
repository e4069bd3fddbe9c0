#!/bin/sh
# The long run of the editor race (hardening issue, item 2): an editor saves
# lists/work.json (temp file + rename, every 50 ms, each save adding a unique
# key or task) while four `tick add` loops write the same list; every save and
# every add must be in the file at the end, in sessions of 320 saves on fresh
# stores (the list grows with every save). CI runs one session
# (RaceEditorTests); this runs N saves (default 3200, about 4 minutes).
set -eu
cd "$(dirname "$0")/.."
N="${1:-3200}"
TICK_RACE_ROUNDS="$N" swift test --filter RaceEditorTests
