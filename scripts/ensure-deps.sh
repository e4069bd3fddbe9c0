#!/bin/sh
# Installs what tick needs, when it is missing. Uses sudo when not root.
# Safe to run repeatedly.
#   scripts/ensure-deps.sh          build dependencies
#   scripts/ensure-deps.sh --test   also the real tools the tests run against
#                                   (git, sqlite3, Taskwarrior, todo.txt-cli,
#                                   Python 3 with icalendar, script(1),
#                                   setpriv(1), man, groff, zsh, fish,
#                                   timewarrior), and, if it
#                                   can, Chromium for the SVG render check,
#                                   the notification test's programs and
#                                   Syncthing (with curl) for the real-Syncthing
#                                   test, and Radicale, vdirsyncer and todoman
#                                   for the CalDAV bridge tests
# Benchmark-only tools (hyperfine, topydo) are not installed here:
# Benchmarks/run.sh and Benchmarks/scaling.sh install what they need.
set -eu
missing=""
dpkg -s libinotifytools0-dev >/dev/null 2>&1 || missing="$missing libinotifytools0-dev"
dpkg -s libsqlite3-dev >/dev/null 2>&1 || missing="$missing libsqlite3-dev"
dpkg -s libncurses-dev >/dev/null 2>&1 || missing="$missing libncurses-dev"
# Local time comes from the zone files (tick reads TZif itself; no ICU).
dpkg -s tzdata >/dev/null 2>&1 || missing="$missing tzdata"
if [ "${1:-}" = "--test" ]; then
    command -v git >/dev/null 2>&1 || missing="$missing git"
    command -v sqlite3 >/dev/null 2>&1 || missing="$missing sqlite3"
    command -v task >/dev/null 2>&1 || missing="$missing taskwarrior"
    dpkg -s todotxt-cli >/dev/null 2>&1 || missing="$missing todotxt-cli"
    command -v script >/dev/null 2>&1 || missing="$missing bsdutils"
    # The racing editor, hostile imports and the ICS checks run Python; the
    # permission tests run tick as another user with setpriv (util-linux).
    command -v python3 >/dev/null 2>&1 || missing="$missing python3 python3-pip"
    command -v setpriv >/dev/null 2>&1 || missing="$missing util-linux"
    # Interactive prompts are tested on a real terminal.
    command -v tmux >/dev/null 2>&1 || missing="$missing tmux"
    # `tick edit` is tested with a real vim in tmux.
    command -v vim >/dev/null 2>&1 || missing="$missing vim-nox"
    # Install tests: man pages rendered by man and groff; completions driven
    # in real bash, zsh and fish.
    command -v man >/dev/null 2>&1 || missing="$missing man-db"
    command -v groff >/dev/null 2>&1 || missing="$missing groff-base"
    command -v zsh >/dev/null 2>&1 || missing="$missing zsh"
    command -v fish >/dev/null 2>&1 || missing="$missing fish"
    # Hooks: timewarrior's own on-modify hook runs as a tick hook.
    command -v timew >/dev/null 2>&1 || missing="$missing timewarrior"
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
if [ -n "$missing" ]; then
    echo "installing:$missing" >&2
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
fi
if [ "${1:-}" = "--test" ] && ! python3 -c 'import icalendar' >/dev/null 2>&1; then
    echo "installing: icalendar (PyPI)" >&2
    if [ "$(id -u)" -eq 0 ]; then
        python3 -m pip install --quiet icalendar
    else
        python3 -m pip install --quiet --user icalendar
    fi
fi
# Chromium renders `tick stats --svg` in one test; that test skips itself when
# Chromium is missing, so a failed install is only a warning.
if [ "${1:-}" = "--test" ] && ! command -v chromium >/dev/null 2>&1; then
    echo "installing: chromium (for the SVG render test)" >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null 2>&1 \
        || echo "warning: chromium not installed; the SVG render test will be skipped" >&2
fi
# The real-notification test (notify-send against dunst on a virtual display in
# a private D-Bus session) skips itself when these are missing.
if [ "${1:-}" = "--test" ] && ! { command -v notify-send && command -v dunst && command -v Xvfb && command -v dbus-run-session; } >/dev/null 2>&1; then
    echo "installing: libnotify-bin dunst xvfb dbus-daemon (for the real-notification test)" >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libnotify-bin dunst xvfb dbus-daemon >/dev/null 2>&1 \
        || echo "warning: could not install them; the real-notification test will be skipped" >&2
fi
# The real-Syncthing test (two syncthing instances on 127.0.0.1, driven through
# their REST API with curl) skips itself when syncthing or curl is missing.
if [ "${1:-}" = "--test" ] && ! { command -v syncthing && command -v curl; } >/dev/null 2>&1; then
    echo "installing: syncthing curl (for the real-Syncthing test)" >&2
    # The package lists may not have been fetched above (nothing else missing).
    { DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq syncthing curl >/dev/null 2>&1 \
        || { $SUDO apt-get update -qq >/dev/null 2>&1 \
             && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq syncthing curl >/dev/null 2>&1; }; } \
        || echo "warning: could not install them; the real-Syncthing test will be skipped" >&2
fi
# The CalDAV bridge tests (a real Radicale on 127.0.0.1, vdirsyncer, todoman
# reading the server through its own vdir) skip themselves when one is missing.
if [ "${1:-}" = "--test" ] && ! { command -v radicale && command -v vdirsyncer && command -v todoman && command -v curl; } >/dev/null 2>&1; then
    echo "installing: radicale vdirsyncer todoman curl (for the CalDAV bridge tests)" >&2
    { DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq radicale vdirsyncer todoman curl >/dev/null 2>&1 \
        || { $SUDO apt-get update -qq >/dev/null 2>&1 \
             && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq radicale vdirsyncer todoman curl >/dev/null 2>&1; }; } \
        || echo "warning: could not install them; the CalDAV bridge tests will be skipped" >&2
fi
