import Foundation
import Testing

/// The Python that runs scripts/hostile-imports.py, if any.
let hostilePython: String? = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }

/// Issue 12, "Tests": hostile imports. Runs scripts/hostile-imports.py (the
/// generator and checker; `--seconds S` is the long version) for a bounded
/// number of generated CSV, iCalendar, todo.txt and Taskwarrior files:
/// control sequences, huge fields, invalid UTF-8, NUL, years 0 and 10000,
/// `DUE:99991231T230000` in western zones, deeply nested JSON. Every import
/// must exit 0 or 4 with one error line (one per skipped line for todo.txt
/// and CSV without --strict), show no raw control byte, and leave a store
/// every later command can read.
@Suite("hostile imports", .enabled(if: hostilePython != nil, "python3 is not installed: the hostile-import harness is skipped"))
struct HostileImportTests {

    static var script: String {
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while dir.path != "/", !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
            dir = dir.deletingLastPathComponent()
        }
        return dir.appendingPathComponent("scripts/hostile-imports.py").path
    }

    @Test("generated hostile files: exit 0 or 4, one error line, no raw control bytes, the store stays readable", arguments: [1, 2, 3])
    func harness(seed: Int) throws {
        let s = try Sandbox()
        let r = try s.run(try #require(hostilePython), [Self.script, "--cases", "15", "--seed", String(seed), "--tick", TickBinary.path])
        #expect(r.status == 0, "\(r.stdout.prefix(4000))\n\(r.stderr.prefix(2000))")
        #expect(r.stdout.contains("15 hostile imports"), "\(r.stdout.prefix(2000))")
        #expect(r.stdout.contains("0 problem(s)"), "\(r.stdout.prefix(4000))")
    }
}
