#!/bin/sh
# What each of tick's dependencies costs in the installed binary (issue 25,
# item 3): one small program per dependency, each built the way `make
# release` builds tick (static executable, release) and stripped as `make
# install` strips it, so the difference from the plain Swift program is what
# linking that dependency alone costs. Prints a Markdown table.
#
#   Benchmarks/binary_sizes.sh [TICK_BINARY]
#
# With TICK_BINARY (default .build/release/tick), its stripped size is the
# last row. Needs the package mirror (the same URLs as Package.swift) and
# libncurses-dev / libsqlite3-dev (scripts/ensure-deps.sh).
set -eu
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TICK="${1:-$ROOT/.build/release/tick}"
WORK="${TICK_SIZES_DIR:-$(mktemp -d /tmp/tick-sizes.XXXXXX)}"
mkdir -p "$WORK/Sources"
cd "$WORK"

target() { # name, body of main.swift
    mkdir -p "Sources/$1"
    printf '%s\n' "$2" > "Sources/$1/main.swift"
}

target stdlib 'print("hello \(CommandLine.arguments.count)")'
target essentials 'import FoundationEssentials
let data = try JSONEncoder().encode(["at": Date(timeIntervalSince1970: Double(CommandLine.arguments.count))])
print(String(decoding: data, as: UTF8.self))'
target foundation 'import Foundation
let f = DateFormatter(); f.timeZone = TimeZone(identifier: "Europe/Berlin"); f.dateFormat = "yyyy-MM-dd HH:mm"
print(f.string(from: Date()), "hello".range(of: "L", options: .caseInsensitive) != nil)'
target grdb 'import GRDB
let db = try DatabaseQueue()
print(try db.read { try Int.fetchOne($0, sql: "SELECT 1") } ?? 0)'
target toml 'import TOMLKit
let t = try TOMLTable(string: "a = \(CommandLine.arguments.count)")
print(t["a"]?.int ?? 0)'
target argparser 'import ArgumentParser
struct Hello: ParsableCommand { @Option var name = "x"; func run() { print("hello", name) } }
Hello.main()'
mkdir -p Sources/CCurses Sources/CSQLite
cat > Sources/CCurses/module.modulemap <<'EOF'
module CCurses [system] { header "shim.h" link "ncursesw" link "tinfo" export * }
EOF
echo '#include <ncurses.h>' > Sources/CCurses/shim.h
cat > Sources/CSQLite/module.modulemap <<'EOF'
module CSQLite [system] { header "shim.h" link "sqlite3" export * }
EOF
echo '#include <sqlite3.h>' > Sources/CSQLite/shim.h
target ncurses 'import CCurses
if CommandLine.arguments.count > 5 { initscr(); endwin() }
print(String(cString: curses_version()))'
target sqlite 'import CSQLite
var db: OpaquePointer?
sqlite3_open(":memory:", &db)
sqlite3_exec(db, "CREATE VIRTUAL TABLE t USING fts5(x)", nil, nil, nil)
print(String(cString: sqlite3_libversion()))'

cat > Package.swift <<'EOF'
// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "sizes",
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        .systemLibrary(name: "CCurses"),
        .systemLibrary(name: "CSQLite"),
        .executableTarget(name: "stdlib"),
        .executableTarget(name: "essentials"),
        .executableTarget(name: "foundation"),
        .executableTarget(name: "grdb", dependencies: [.product(name: "GRDB", package: "GRDB.swift")]),
        .executableTarget(name: "toml", dependencies: [.product(name: "TOMLKit", package: "TOMLKit")]),
        .executableTarget(name: "argparser", dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .executableTarget(name: "ncurses", dependencies: ["CCurses"]),
        .executableTarget(name: "sqlite", dependencies: ["CSQLite"]),
    ]
)
EOF
swift build -c release --static-swift-stdlib -Xswiftc -static-executable >build.log 2>&1 || { tail -20 build.log >&2; exit 1; }

mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
stripped() { strip -o "$WORK/stripped" "$1" && stat -c %s "$WORK/stripped"; }
base=$(stripped .build/release/stdlib)
echo "| program (static, release, stripped) | size | above plain Swift |"
echo "|---|---:|---:|"
for p in stdlib essentials foundation grdb toml argparser ncurses sqlite; do
    s=$(stripped ".build/release/$p")
    echo "| $p | $(mb "$s") MB | $(mb $((s - base))) MB |"
done
if [ -x "$TICK" ]; then
    s=$(stripped "$TICK")
    echo "| tick ($TICK) | $(mb "$s") MB | $(mb $((s - base))) MB |"
fi
