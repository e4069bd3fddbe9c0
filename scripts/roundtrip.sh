#!/bin/sh
# The long run of the round-trip property test (issue 45): random tasks with
# every built-in field and one declared field of each type through each interchange format and its real tool
# (Taskwarrior, todo.txt-cli, Python's icalendar and csv) and back.
# CI runs 1,000 tasks per format (RoundTripPropertyTests); this one runs for
# MINUTES (default 30), 1,000 new tasks per format at a time (batches of 250,
# each its own seed), and stops at the first failure. Replay a failing batch
# with the line the failure prints, e.g.
#   TICK_ROUNDTRIP_SEED=1000004 TICK_ROUNDTRIP_BATCH=250 swift test --filter RoundTripPropertyTests
set -eu
cd "$(dirname "$0")/.."
MINUTES="${1:-30}"
swift build --build-tests >/dev/null
end=$(( $(date +%s) + MINUTES * 60 ))
first=1000
ran=0
log=/tmp/roundtrip.$$
while [ "$(date +%s)" -lt "$end" ]; do
    if ! TICK_ROUNDTRIP_FIRST_SEED=$first swift test --skip-build --filter RoundTripPropertyTests > "$log" 2>&1; then
        grep -E "replay: TICK_ROUNDTRIP_SEED" "$log" | head -20
        echo "roundtrip: a failure among first seed $first; $ran tasks per format passed before it; the output: $log"
        exit 1
    fi
    ran=$((ran + 1000))
    first=$((first + 4))
    echo "roundtrip: $ran tasks per format so far"
done
rm -f "$log"
echo "roundtrip: $ran tasks per format passed in $MINUTES minutes"
