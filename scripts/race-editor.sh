#!/bin/sh
# The long run of the editor race (hardening issue, item 2): an editor saves
# lists/work.json (temp file + rename, every 30 ms, each save adding a unique
# key or task) while four `tick add` loops write the same list; every save and
# every add must be in the file at the end. CI runs 320 saves
# (RaceEditorTests); this runs N (default 3000, about 2 minutes).
set -eu
cd "$(dirname "$0")/.."
N="${1:-3000}"
TICK_RACE_ROUNDS="$N" swift test --filter RaceEditorTests
