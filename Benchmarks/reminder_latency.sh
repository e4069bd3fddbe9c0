#!/bin/sh
# How late `tick watch` fires a reminder: the time from a task's `remind`
# instant to the notifier being started (a fake notify-send that records the
# time). Usage: Benchmarks/reminder_latency.sh [path/to/tick] [samples]
set -eu
TICK=${1:-.build/release/tick}
N=${2:-10}
case $TICK in /*) ;; *) TICK=$PWD/$TICK ;; esac
W=$(mktemp -d)
trap 'kill $WATCH 2>/dev/null || true; rm -rf "$W"' EXIT
mkdir -p "$W/bin" "$W/store"   # a store named by TICK_STORE must exist
printf '#!/bin/sh\ndate +%%s.%%N >> "%s/fired"\n' "$W" > "$W/bin/notify-send"
chmod +x "$W/bin/notify-send"
export HOME="$W" TICK_STORE="$W/store" XDG_STATE_HOME="$W/state" XDG_CACHE_HOME="$W/cache" XDG_CONFIG_HOME="$W/config" TZ=UTC
export PATH="$W/bin:$PATH" DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent
unset TICK_NOW
"$TICK" add seed >/dev/null
"$TICK" watch 2>/dev/null & WATCH=$!
sleep 1
i=0
: > "$W/latencies"
while [ $i -lt "$N" ]; do
    i=$((i + 1))
    at=$(( $(date +%s) + 2 ))
    "$TICK" add "reminder $i" "remind:$(date -u -d "@$at" +%Y-%m-%dT%H:%M:%S)" >/dev/null
    sleep 3
    fired=$(tail -n 1 "$W/fired")
    python3 -c "print(round(($fired - $at) * 1000, 1))" >> "$W/latencies"
done
python3 - "$W/latencies" <<'PY'
import statistics, sys
v = sorted(float(x) for x in open(sys.argv[1]))
print(f"reminder latency over {len(v)} samples: median {statistics.median(v):.1f} ms, max {v[-1]:.1f} ms")
PY
