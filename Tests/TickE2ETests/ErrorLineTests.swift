import Foundation
import Testing

/// Every error is one line on stderr, `tick: error: …`, with nothing on stdout,
/// including the argument parser's (unknown options, missing values, bad values).
@Suite("error lines")
struct ErrorLineTests {
    /// One bad invocation: its arguments, its exit status and, optionally, text the line must contain.
    struct Bad: CustomStringConvertible {
        var args: [String]
        var status: Int32 = 2
        var contains: String?
        /// A filter error: the one error line, then the filter and a caret under the bad term.
        var caret = false
        var description: String { "tick " + args.map { $0.isEmpty ? "\"\"" : $0 }.joined(separator: " ") }
    }

    static let catalogue: [Bad] = [
        // Unknown subcommand and root options.
        Bad(args: ["frobnicate"], contains: "unknown command \"frobnicate\"; see `tick help`"),
        Bad(args: ["--bogus"], contains: "see `tick help`"),
        Bad(args: ["help", "nosuchcommand"], contains: "unknown command \"nosuchcommand\"; see `tick help`"),
        Bad(args: ["help", "lists", "nosuch"], contains: "unknown command \"lists nosuch\""),
        Bad(args: ["tody"], contains: "unknown command \"tody\" (did you mean \"today\"?); see `tick help`"),
        Bad(args: ["lists", "bogus"]),
        // Unknown options.
        Bad(args: ["add", "X", "--bogus"], contains: "unknown option '--bogus'; see `tick help add`"),
        Bad(args: ["add", "X", "-foo"]),
        Bad(args: ["list", "--bogus"], contains: "see `tick help list`"),
        Bad(args: ["edit", "1", "-x"], contains: "unknown option '-x'"),
        Bad(args: ["blocks", "--day", "someday"]),
        Bad(args: ["plan", "--day", "someday"]),
        Bad(args: ["ls", "--bogus"], contains: "see `tick help list`"),
        Bad(args: ["lists", "add", "X", "--bogus"], contains: "see `tick help lists add`"),
        // Missing arguments and values.
        Bad(args: ["add"]),
        Bad(args: ["add", "--pri"], contains: "missing value for '--pri <pri>'"),
        Bad(args: ["add", "--list"]),
        Bad(args: ["show"]),
        Bad(args: ["done"], contains: "give at least one task ID or a filter; see `tick help done`"),
        Bad(args: ["start"]),
        Bad(args: ["reopen"]),
        Bad(args: ["rm"]),
        Bad(args: ["edit"]),
        Bad(args: ["edit", "1", "--due"]),
        Bad(args: ["mv"]),
        Bad(args: ["mv", "1"]),
        Bad(args: ["reorder"]),
        Bad(args: ["reorder", "1", "--before"]),
        Bad(args: ["search"]),
        Bad(args: ["lists", "add"]),
        Bad(args: ["lists", "rename", "A"]),
        Bad(args: ["lists", "rm"]),
        Bad(args: ["import"]),
        Bad(args: ["block", "add"]),
        Bad(args: ["overdue", "--tag"]),
        Bad(args: ["upcoming", "--days"]),
        // Extra arguments.
        // Listings take a filter now: a bad term is the error.
        Bad(args: ["list", "a", "dew:b"], contains: "unknown filter key \"dew\"", caret: true),
        Bad(args: ["today", "(extra"], contains: "is not closed", caret: true),
        Bad(args: ["show", "1", "2"]),
        // Bad values of typed options.
        Bad(args: ["add", "X", "--pri", "urgent"]),
        Bad(args: ["add", "X", "--energy", "medium"]),
        Bad(args: ["add", "X", "--due", "someday"]),
        Bad(args: ["add", "X", "--remind", "someday"]),
        Bad(args: ["add", "X", "--sched", "fri@9am"]),
        Bad(args: ["add", "X", "--estimate", "forever"]),
        Bad(args: ["add", "X", "--repeat", "sometimes"]),
        Bad(args: ["add", "X", "--at", "noonish"]),   // `noon` is a start time since issue 13
        Bad(args: ["add", "X", "--for", "ages"]),
        Bad(args: ["add", "X", "--tag", "a b"]),
        Bad(args: ["edit", "1", "--no-due", "--due", "fri"]),
        Bad(args: ["list", "--state", ""], contains: "--state"),
        Bad(args: ["list", "--tag", ""], contains: "--tag"),
        Bad(args: ["list", "--state", "bogus"]),
        Bad(args: ["upcoming", "--days", "-1"], contains: "tick: error: --days must be 1 or more"),
        Bad(args: ["upcoming", "--days", "0"], contains: "--days must be 1 or more"),
        Bad(args: ["upcoming", "--days", "x"], contains: "the value 'x' is invalid for '--days <days>'"),
        Bad(args: ["show", "-1"], contains: "tick: error: -1 is not a task id; ids are numbers from 1 or a UUID prefix (8 hex digits, or 4 with a digit and a letter)"),
        Bad(args: ["done", "-3"], contains: "-3 is not a task id"),
        Bad(args: ["search", "x", "--limit", "0"], contains: "--limit must be 1 or more"),
        Bad(args: ["search", "x", "--limit", "-3"], contains: "--limit must be 1 or more"),
        Bad(args: ["search", "x", "--limit", "abc"]),
        Bad(args: ["search", "x", "--state", "nope"]),
        Bad(args: ["search", "x", "--tag", ""]),
        Bad(args: ["export", "--format", "nope"], contains: "the value 'nope' is invalid for '--format <format>'; use one of json, markdown, taskwarrior, todotxt, ics, csv; see `tick help export`"),
        Bad(args: ["import", "x.json", "--format", "nope"]),
        Bad(args: ["undo", "0"]),
        Bad(args: ["undo", "x"]),
        Bad(args: ["suggest", "--limit", "0"]),
        Bad(args: ["suggest", "--energy", "high", "--mood", "tired"]),
        Bad(args: ["stats", "--period", "fortnight"]),
        Bad(args: ["status-line", "--format", "nope"]),
        Bad(args: ["status-line", "--size", "huge"]),
        Bad(args: ["capture", "--prompt", "nope"]),
        Bad(args: ["lists", "add", "X", "--color", "red"]),
        // Not found (exit 3), also one line.
        Bad(args: ["show", "99"], status: 3),
        Bad(args: ["list", "Nowhere"], status: 3),
    ]

    @Test("every bad invocation prints exactly one `tick: error:` line, nothing on stdout, and exits as documented")
    func catalogue() throws {
        #expect(Self.catalogue.count >= 40)
        let s = try Sandbox()
        try s.add("Keep")
        let before = try s.fingerprint()
        for bad in Self.catalogue {
            let r = try s.tick(bad.args)
            #expect(r.status == bad.status, "\(bad): \(r)")
            #expect(r.stdout.isEmpty, "\(bad): \(r)")
            #expect(r.stderr.hasPrefix("tick: error: "), "\(bad): \(r)")
            if bad.caret {
                let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false)
                #expect(lines.count == 4 && lines[3].isEmpty && lines[2].trimmingCharacters(in: .whitespaces).allSatisfy { $0 == "^" }, "\(bad): \(r)")
            } else {
                #expect(r.stderr.hasSuffix("\n") && r.stderr.filter { $0 == "\n" }.count == 1, "\(bad): \(r)")
            }
            if let text = bad.contains {
                #expect(r.stderr.contains(text), "\(bad): \(r)")
            }
        }
        #expect(try s.fingerprint() == before, "a bad invocation wrote to the store")
    }

    /// A bare `tick` runs `tick today` (ViewsThatMatterTests.bareTickShowsToday).
    @Test("--help, help and --version still print normally and exit 0", arguments: [
        ["--help"], ["help"], ["help", "add"], ["help", "lists", "add"], ["add", "--help"], ["lists", "rm", "--help"],
        ["--version"], ["-h"], ["edit", "-h"],
    ])
    func helpStillWorks(_ args: [String]) throws {
        let s = try Sandbox()
        let r = try s.tick(args)
        #expect(r.status == 0, "\(r)")
        #expect(!r.stdout.isEmpty, "\(r)")
        #expect(r.stderr.isEmpty, "\(r)")
    }

    @Test("`-tag` in edit still removes a tag of two or more characters")
    func untagStillWorks() throws {
        let s = try Sandbox()
        try s.add("Keep", "+ab", "+cd")
        try s.ok("edit", "1", "-ab")
        #expect(try s.showJSON("1")["tags"] as? [String] == ["cd"])
    }

    @Test("a bad TICK_NOW is refused the same way by every command, the merge driver and init included")
    func badPinnedClockEverywhere() throws {
        let s = try Sandbox()
        try s.add("Keep")
        let before = try s.fingerprint()
        let ours = s.store + "/inbox.json"
        for args in [["today"], ["add", "X"], ["merge-driver", ours, ours, ours, "inbox.json"], ["init", s.store]] {
            let r = try s.tick(args, env: ["TICK_NOW": "yesterday-ish"])
            #expect(r.status == 2, "\(args): \(r)")
            #expect(r.stderr == "tick: error: TICK_NOW=yesterday-ish is not an ISO 8601 timestamp like 2026-11-21T09:00:00Z\n", "\(args): \(r)")
        }
        #expect(try s.fingerprint() == before)
    }

    @Test("an error inside a file starts with path:line:column (config and store files), exit 4")
    func locatedErrors() throws {
        let s = try Sandbox()
        try s.add("Keep")
        let config = s.home + "/.config/tick/config.toml"
        try FileManager.default.createDirectory(atPath: (config as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "[sync]\nauto-resolve = = true\n".write(toFile: config, atomically: true, encoding: .utf8)
        let r = try s.tick(["plan"])
        #expect(r.status == 4, "\(r)")
        #expect(r.stderr.hasPrefix(config + ":2:"), "\(r)")
        #expect(r.stderr.contains(": error: "), "\(r)")
        try FileManager.default.removeItem(atPath: config)
        try "{\"tasks\": [ {oops ]}".write(toFile: s.store + "/inbox.json", atomically: true, encoding: .utf8)
        let bad = try s.tick(["done", "1"])
        #expect(bad.status == 4, "\(bad)")
        #expect(bad.stderr.contains("inbox.json:1:14: error: "), "\(bad)")
        #expect(bad.stderr.contains("\n    {\"tasks\": [ {oops ]}\n"), "the line with a caret under it: \(bad)")
    }
}
