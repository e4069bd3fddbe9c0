#!/bin/sh
# Writes DEBIAN/control for the staged tree ROOT (from `make deb`).
#   scripts/deb-control.sh ROOT VERSION ARCH
# Depends is computed, not hand-kept: every shared library the staged
# binary loads (ldd) is mapped to the Debian package that ships it (dpkg -S).
# Packages tick needs at run time without linking them are added from
# REQUIRED; a library no package owns (the Swift runtime of a debug build,
# which a release build links statically) is reported and left out.
set -eu
root=$1 version=$2 arch=$3
bin=$root/usr/bin/tick
[ -x "$bin" ] || { echo "deb-control: error: $bin is missing; stage with make install PREFIX=/usr first" >&2; exit 1; }
# The terminal UI (tick ui) loads ncursesw; listed even before it links.
# Local time is read from the zone files (/usr/share/zoneinfo, tzdata).
REQUIRED="libinotifytools0 libsqlite3-0 libncursesw6 tzdata"
# A fully static executable (`make release`) loads no shared library at all;
# it still reads the terminfo database for tick ui and the zone files.
if ! ldd "$bin" >/dev/null 2>&1; then
    REQUIRED="ncurses-base tzdata"
fi

owner() {
    # dpkg -S knows the path a package shipped; with merged /usr that may be
    # /lib/... or /usr/lib/... for the same file.
    for p in "$1" "$(readlink -f "$1")" "/usr$1" "${1#/usr}"; do
        pkg=$(dpkg -S "$p" 2>/dev/null | sed -n '1s/:.*//p') || true
        [ -n "$pkg" ] && { echo "$pkg"; return 0; }
    done
    return 1
}

deps=""
for lib in $(ldd "$bin" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
    if pkg=$(owner "$lib"); then
        deps="$deps $pkg"
    else
        echo "deb-control: warning: $lib belongs to no Debian package; not in Depends (a debug build's Swift runtime? make release links it statically)" >&2
    fi
done
for pkg in $REQUIRED; do
    case " $deps " in *" $pkg "*) ;; *)
        echo "deb-control: note: $pkg is not linked by this binary; depending on it anyway" >&2
        deps="$deps $pkg" ;;
    esac
done
depends=$(printf '%s\n' $deps | sort -u | paste -sd, - | sed 's/,/, /g')
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
mkdir -p "$root/DEBIAN"
cat > "$root/DEBIAN/control" <<CONTROL
Package: tick
Version: $version
Architecture: $arch
Maintainer: tick developers <dev@tick.invalid>
Installed-Size: $size
Depends: $depends
Recommends: libnotify-bin, git, bash-completion, vdirsyncer
Section: utils
Priority: optional
Homepage: https://tick.invalid/
Description: task manager for plain JSON files you can edit, sync and grep
 tick keeps tasks as small, human-editable JSON files (inbox.json and one
 file per list) that any editor, git or Syncthing can handle, and writes
 them atomically and diff-minimally. It has views for today, upcoming and
 overdue tasks, reminders as desktop notifications (tick watch, with a
 systemd user unit), a git merge driver, and bash, zsh and fish completions
 that know your lists, tags and tasks.
CONTROL
echo "Depends: $depends"
