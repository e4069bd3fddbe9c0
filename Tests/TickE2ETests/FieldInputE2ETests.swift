import Foundation
import Testing
import TickKit

/// Issue 45: the flags of `tick add` and `tick edit` read each field as its
/// `key:value` word does (one parser per field, from the field table): a
/// field given an input key and no flag, or a flag that reads its value
/// another way, fails here.
@Suite("field input: flags and words")
struct FieldInputE2ETests {
    static let now = "2026-11-28T08:00:00Z"
    /// A value for each input key (a failing lookup names a key to add).
    static let samples = [
        "due": "2026-12-24T17:00", "remind": "fri", "wait": "2026-12-02", "sched": "mon",
        "at": "2026-12-03@10:00", "pri": "H", "energy": "hi", "estimate": "1h30m", "repeat": "every 2w",
        "depends": "1",
    ]

    @Test("every input key of the table is a flag of add and edit, and sets what the word sets")
    func everyInputKeyIsAFlag() throws {
        let s = try Sandbox()
        try s.add("Dependency", now: Self.now)
        for field in TaskField.all {
            guard let key = field.inputKey else { continue }
            let value = try #require(Self.samples[key], "no sample for the input key \(key): add one")
            let word = value.contains(" ") ? [key + ":" + value.split(separator: " ")[0]] + value.split(separator: " ").dropFirst().map(String.init) : [key + ":" + value]
            let added = try s.tick(["add", "Word \(key)"] + word, now: Self.now)
            #expect(added.status == 0, "\(added)")
            try s.ok("add", "Flag \(key)", "--" + key, value, now: Self.now)
            try s.ok("add", "Edited \(key)", now: Self.now)
            try s.ok("edit", try s.uuidPrefix("Edited \(key)"), "--" + key, value, now: Self.now)
            let tasks = try s.tasks("inbox.json")
            let byWord = try #require(tasks.task("Word \(key)"))
            let byFlag = try #require(tasks.task("Flag \(key)"))
            let edited = try #require(tasks.task("Edited \(key)"))
            let stored = try #require(byWord[field.name], "\(key):\(value) set no \(field.name): \(byWord)")
            #expect(try Self.canonical(byFlag[field.name]) == Self.canonical(stored), "--\(key) \(value) on add: \(byFlag)")
            #expect(try Self.canonical(edited[field.name]) == Self.canonical(stored), "--\(key) \(value) on edit: \(edited)")
        }
    }

    /// `tick edit 2 --depends -1` was refused ("-1 is not a task id"): the
    /// list of flags that take a value was kept by hand and lacked
    /// `--depends` and `--wait`. It is the table's input keys now.
    @Test("a field flag's value that starts with - is its value: --depends -1 removes the dependency, --wait -1d is a day ago")
    func flagValuesStartingWithADash() throws {
        let s = try Sandbox()
        try s.add("First", now: Self.now)
        try s.add("Second", "depends:1", now: Self.now)
        let removed = try s.tick(["edit", "2", "--depends", "-1"], now: Self.now)
        #expect(removed.status == 0, "\(removed)")
        #expect(try s.tasks("inbox.json").task("Second")?["depends"] == nil, "the dependency is removed")
        let waited = try s.tick(["edit", "2", "--wait", "-1d"], now: Self.now)
        #expect(waited.status == 0, "\(waited)")
        #expect(try s.tasks("inbox.json").task("Second")?["wait"] as? String == "2026-11-27", "a day before \(Self.now)")
        for key in TaskField.all.compactMap(\.inputKey) {
            // A value that starts with - never reads as an id or an option.
            let r = try s.tick(["edit", "2", "--" + key, "-x"], now: Self.now)
            #expect(r.status != 0 && !r.stderr.contains("is not a task id") && !r.stderr.contains("Unknown option"), "--\(key) -x: \(r)")
        }
    }

    @Test("estimate filters as a declared duration field does: estimate.over:, .under:, :N, :none, est; a bad value is one error line, exit 2")
    func estimateFilters() throws {
        let s = try Sandbox()
        try s.add("Short", "estimate:15m", now: Self.now)
        try s.add("Half", "estimate:30m", now: Self.now)
        try s.add("Long", "est:2h", now: Self.now)
        try s.add("Unknown", now: Self.now)
        func titles(_ filter: String) throws -> [String] {
            try s.json("list", filter, "--sort", "title", now: Self.now).compactMap { $0["title"] as? String }
        }
        #expect(try titles("estimate.over:30m") == ["Long"])
        #expect(try titles("est.under:1h") == ["Half", "Short"])
        #expect(try titles("estimate:90") == [])
        #expect(try titles("estimate:30m") == ["Half"])
        #expect(try titles("estimate:none") == ["Unknown"])
        #expect(try titles("estimate.any:") == ["Half", "Long", "Short"])
        let bad = try s.tick(["list", "estimate.over:soon"], now: Self.now)
        #expect(bad.status == 2 && bad.stderr.hasPrefix("tick: error: filter: estimate.over:soon: estimate: \"soon\" is not a duration"), "\(bad)")
        let modifier = try s.tick(["list", "estimate.before:fri"], now: Self.now)
        #expect(modifier.status == 2 && modifier.stderr.contains("unknown modifier .before in estimate.before:fri for a duration field"), "\(modifier)")
    }

    /// A JSON value's bytes with sorted keys, for comparing objects.
    static func canonical(_ value: Any?) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: ["v": value ?? NSNull()], options: .sortedKeys), as: UTF8.self)
    }
}
