#!/bin/sh
# `tick dav sync` against vdirsyncer alone on the same items (issue 34, Speed),
# with a local Radicale on 127.0.0.1 (no authentication), at each size.
#
#   Benchmarks/dav_speed.sh TICK [SIZES] [RUNS]
#
# SIZES defaults to "1000 20000", RUNS (no-op syncs measured) to 3. Sizes of
# SEED_FROM (default 5000) items or more start from a server that already holds
# the items (copied into Radicale's storage): Radicale takes each PUT in time
# that grows with the calendar (20,000 uploads take hours), and the goal at
# such sizes is the no-op sync; the first sync then joins both sides. For each
# size, prints one line per case: the first `tick dav sync` (uploads every
# task), a no-op `tick dav sync`, tick's own share of a no-op (vdirsyncer
# replaced by /bin/true: the pass over the store and the vdir), and the same
# two syncs by `vdirsyncer` alone on a copy of tick's vdir (a second
# collection, uploaded from scratch, then a no-op); wall-clock medians in
# seconds and peak RSS in MB (GNU time). Needs radicale, vdirsyncer, python3,
# /usr/bin/time, curl. Works in a temporary directory, removed at the end.
set -eu
TICK=$(realpath "$1"); SIZES=${2:-"1000 20000"}; RUNS=${3:-3}; SEED_FROM=${SEED_FROM:-5000}
D=$(mktemp -d); trap 'kill $RAD 2>/dev/null; rm -rf "$D"' EXIT
RAD=
export HOME="$D/home" XDG_CONFIG_HOME="$D/config" XDG_STATE_HOME="$D/state" XDG_CACHE_HOME="$D/cache" \
  XDG_DATA_HOME="$D/data" NO_COLOR=1 TZ=UTC
mkdir -p "$HOME"

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat >"$D/radicale.conf" <<EOF
[server]
hosts = 127.0.0.1:$PORT
[auth]
type = none
[storage]
filesystem_folder = $D/radicale
[logging]
level = warning
EOF
radicale --config "$D/radicale.conf" >"$D/radicale.log" 2>&1 &
RAD=$!
for _ in $(seq 50); do
  curl -s --noproxy '*' -o /dev/null -X PROPFIND -H 'Depth: 0' "http://127.0.0.1:$PORT/" && break
  sleep 0.2
done

# Runs "$@" under GNU time; prints "seconds MB".
timed() {
  /usr/bin/time -f '%e %M' -o "$D/time" "$@" >"$D/out" 2>"$D/err" || { cat "$D/err" >&2; exit 1; }
  awk '{ printf "%.2f %.0f\n", $1, $2 / 1024 }' "$D/time"
}
# Runs "$@" RUNS times; prints the median seconds and the largest MB.
median() {
  for _ in $(seq "$RUNS"); do timed "$@"; done | python3 -c '
import sys, statistics
rows = [tuple(map(float, l.split())) for l in sys.stdin if l.strip()]
print("%.2f %.0f" % (statistics.median(r[0] for r in rows), max(r[1] for r in rows)))'
}

# Copies the .ics items of directory $3 into user $1's calendar $2 on the server.
seed() {
  find "$3" -maxdepth 1 -name '*.ics' -exec cp -t "$D/radicale/collection-root/$1/$2/" {} +
}

printf '| tasks | case | seconds (median) | peak MB |\n|---|---|---|---|\n'
for N in $SIZES; do
  U="u$N"
  S="$D/store-$N"; T="$TICK --store $S"
  python3 -c "
import sys
for i in range(1, $N + 1):
    print('Task number %d due:2026-12-%02d' % (i, i % 28 + 1))" >"$D/tasks-$N.txt"
  export XDG_CONFIG_HOME="$D/config-$N" XDG_DATA_HOME="$D/data-$N"
  $T init "$S" >/dev/null 2>&1 || $TICK init "$S" >/dev/null
  $T import "$D/tasks-$N.txt" >/dev/null
  $T dav setup "http://127.0.0.1:$PORT/$U/" --user "$U" --password-command "echo x" >/dev/null
  mkdir -p "$D/config-$N/tick"
  cp "$D/config-$N/tick/config.toml" "$D/config.toml.$N" 2>/dev/null || : >"$D/config.toml.$N"
  FIRST="first"
  if [ "$N" -ge "$SEED_FROM" ]; then
    # tick's pass writes the vdir; the server gets the same items by copy.
    printf '[dav]\nvdirsyncer = "/bin/true"\n' >>"$D/config-$N/tick/config.toml"
    $T dav sync >/dev/null
    cp "$D/config.toml.$N" "$D/config-$N/tick/config.toml"
    seed "$U" inbox "$XDG_DATA_HOME/tick-dav/vdir/inbox"
    FIRST="first, the server already holding the items"
  fi
  set -- $(timed $T dav sync); printf '| %s | tick dav sync, %s | %s | %s |\n' "$N" "$FIRST" "$1" "$2"
  set -- $(median $T dav sync); printf '| %s | tick dav sync, nothing changed | %s | %s |\n' "$N" "$1" "$2"
  printf '[dav]\nvdirsyncer = "/bin/true"\n' >>"$D/config-$N/tick/config.toml"
  set -- $(median $T dav sync); printf '| %s | its pass alone (vdirsyncer = /bin/true) | %s | %s |\n' "$N" "$1" "$2"
  cp "$D/config.toml.$N" "$D/config-$N/tick/config.toml"

  # vdirsyncer alone: the same items (tick's vdir) into another user's calendar.
  V="$D/vd-$N"; mkdir -p "$V/vdir"; cp -r "$XDG_DATA_HOME/tick-dav/vdir/inbox" "$V/vdir/inbox"
  cat >"$V/conf" <<EOF
[general]
status_path = "$V/status/"
[pair p]
a = "l"
b = "r"
collections = ["from a"]
conflict_resolution = "b wins"
[storage l]
type = "filesystem"
path = "$V/vdir/"
fileext = ".ics"
[storage r]
type = "caldav"
url = "http://127.0.0.1:$PORT/v$N/"
username = "v$N"
password = "x"
item_types = ["VTODO"]
EOF
  yes | vdirsyncer -c "$V/conf" discover p >/dev/null 2>&1
  [ "$N" -ge "$SEED_FROM" ] && seed "v$N" inbox "$V/vdir/inbox"
  set -- $(timed vdirsyncer -c "$V/conf" sync p); printf '| %s | vdirsyncer sync alone, %s | %s | %s |\n' "$N" "$FIRST" "$1" "$2"
  set -- $(median vdirsyncer -c "$V/conf" sync p); printf '| %s | vdirsyncer sync alone, nothing changed | %s | %s |\n' "$N" "$1" "$2"
done
