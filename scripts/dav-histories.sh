#!/bin/sh
# The long run of the CalDAV oracles (issues 34 and 44): random histories of
# one machine and a phone (DavHistoryTests), and of two machines and a phone
# with moves, list removals, late deletes, wipes and restores, renames
# (DavTwoMachineHistoryTests), in process, no server.
# CI runs 1,000 of each; this runs both with N histories each (default 20000)
# for at most MINUTES (default 30), and says how many ran.
# Replay one failing two-machine history with
#   TICK_DAV_SEED=SEED swift test --filter DavTwoMachineHistoryTests
#   TICK_DAV_FIRST_SEED=S starts the two-machine seeds at S (past an earlier run).
set -eu
cd "$(dirname "$0")/.."
MINUTES="${1:-30}"
N="${2:-20000}"
# TICK_XCTEST=PATH runs a copy of the test binary (cp .build/debug/tickPackageTests.xctest
# PATH; a path without spaces) instead of building here, so the checkout can be rebuilt during the run.
if [ -n "${TICK_XCTEST:-}" ]; then
    run_tests="$TICK_XCTEST --testing-library swift-testing"
else
    swift build --build-tests >/dev/null
    run_tests="swift test --skip-build"
fi
log=/tmp/dav-histories.$$
status=0
TICK_DAV_HISTORIES="$N" TICK_DAV_ONE_HISTORIES="$N" timeout "$((MINUTES * 60))" \
    $run_tests --filter "DavTwoMachineHistoryTests|DavHistoryTests/aThousandHistories" > "$log" 2>&1 || status=$?
if grep -E "recorded an issue|✘" "$log" | head -20 | grep -q .; then
    grep -E "recorded an issue|seed" "$log" | head -20
    echo "dav-histories: failures (log: $log)"
    exit 1
fi
if [ "$status" = 124 ]; then
    reached=$(grep -o "seeds [0-9]*\.\.\.[0-9]* done" "$log" | tail -1)
    echo "dav-histories: no failure in $MINUTES minutes (stopped by the time limit; N=$N each; two-machine ${reached:-seeds: none reached 500})"
elif [ "$status" = 0 ]; then
    echo "dav-histories: $N histories of each passed"
else
    echo "dav-histories: swift test exited $status (log: $log)"
    exit 1
fi
rm -f "$log"
