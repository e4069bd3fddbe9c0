#!/bin/sh
# Installs the system packages tick needs to build, when they are missing.
# Uses sudo when not root. Safe to run repeatedly.
set -eu
missing=""
dpkg -s libinotifytools0-dev >/dev/null 2>&1 || missing="$missing libinotifytools0-dev"
dpkg -s libsqlite3-dev >/dev/null 2>&1 || missing="$missing libsqlite3-dev"
command -v sqlite3 >/dev/null 2>&1 || missing="$missing sqlite3"
command -v git >/dev/null 2>&1 || missing="$missing git"
[ -z "$missing" ] && exit 0
echo "installing:$missing" >&2
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
