#!/bin/sh
# How many processes `tick sync` starts and how long it takes, in a fresh
# bare remote with two clones (a, b) of a small store (1 list, 10 tasks).
#
#   Benchmarks/sync.sh TICK [RUNS]
#
# Needs git, strace and hyperfine. Prints, for three cases (nothing to do; one
# local change to commit and push; one incoming change to pull), the git
# commands tick ran, all processes (git's own children included) and the
# hyperfine median. Works in a temporary directory, removed at the end.
set -eu
TICK=$(realpath "$1"); RUNS=${2:-10}
D=$(mktemp -d); trap 'rm -rf "$D"' EXIT
export HOME="$D/home" XDG_STATE_HOME="$D/state" XDG_CACHE_HOME="$D/cache" \
  GIT_CONFIG_NOSYSTEM=1 TICK_NOW=2026-11-21T09:00:00Z NO_COLOR=1
mkdir -p "$HOME"
git config --global user.name Bench; git config --global user.email bench@example.invalid
git config --global init.defaultBranch main
git init -q --bare "$D/remote.git"
git clone -q "$D/remote.git" "$D/a" 2>/dev/null
A="$TICK --store $D/a"; B="$TICK --store $D/b"
$A git setup >/dev/null
$A lists add Work >/dev/null
for i in 1 2 3 4 5 6 7 8 9 10; do $A add "Task $i" list:Work >/dev/null; done
(cd "$D/a" && $A sync >/dev/null)
git clone -q "$D/remote.git" "$D/b"
$B git setup >/dev/null
cd "$D/a"

count() { # CASE: one traced run of `tick sync` in a
  strace -f -qq -e trace=execve,clone,clone3,fork,vfork -o "$D/trace" $A sync >"$D/out" 2>&1
  printf '%s: %s git commands run by tick, %s processes in all\n' "$1" \
    "$(grep -c 'execve("/usr/bin/env", \["/usr/bin/env", "git"' "$D/trace")" \
    "$(cut -d' ' -f1 "$D/trace" | sort -u | wc -l)"
}
median() { # CASE JSON
  python3 -c "import json,sys; r=json.load(open(sys.argv[2]))['results'][0]; print('%s: median %.1f ms (%d runs)' % (sys.argv[1], r['median']*1000, len(r['times'])))" "$1" "$2"
}
count "nothing to do"
$A add "One more" list:Work >/dev/null
count "one local change"
$B sync >/dev/null 2>&1; $B add "From B" >/dev/null; $B sync >/dev/null 2>&1
count "one incoming change"

hyperfine -N --warmup 2 --runs "$RUNS" --export-json "$D/noop.json" "$A sync" >/dev/null 2>&1
median "nothing to do" "$D/noop.json"
hyperfine -N --warmup 1 --runs "$RUNS" --prepare "$A add Bench list:Work" --export-json "$D/commit.json" "$A sync" >/dev/null 2>&1
median "one local change" "$D/commit.json"
hyperfine -N --warmup 1 --runs "$RUNS" --prepare "sh -c '$B add FromB >/dev/null && $B sync >/dev/null 2>&1'" \
  --export-json "$D/pull.json" "$A sync" >/dev/null 2>&1
median "one incoming change" "$D/pull.json"
