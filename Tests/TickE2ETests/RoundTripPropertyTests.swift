import Foundation
import Testing
import TickKit

/// Issue 45, "Round trips that keep everything": random tasks with every
/// built-in field go tick → format → the real tool → tick (an empty store),
/// and every value comes back equal or as INTERCHANGE.md's table says
/// (``RoundTripContract``, one per format). The tools: Taskwarrior 2.6
/// (`task import`, `task export`), todo.txt-cli (`ls`, `do`), Python's
/// `icalendar` and `csv`. The same file imported again into the store it
/// came from adds nothing and updates only what the tool changed.
///
/// `TICK_ROUNDTRIP_TASKS` sets the tasks per format (default 1,000, in
/// batches of `TICK_ROUNDTRIP_BATCH`, default 250); `TICK_ROUNDTRIP_SEED=N`
/// replays the batch with seed N (a failure prints it); the long run is
/// `scripts/roundtrip.sh`, which moves `TICK_ROUNDTRIP_FIRST_SEED` on.
/// `TICK_ROUNDTRIP_DUMP=DIR` keeps both sandboxes of each batch (the stores,
/// the export, the tool's file) in DIR to look at.
@Suite("Round-trip property (issue 45)")
struct RoundTripPropertyTests {
    static let environment = ProcessInfo.processInfo.environment
    static let total = Int(environment["TICK_ROUNDTRIP_TASKS"] ?? "") ?? 1_000
    static let batch = max(1, Int(environment["TICK_ROUNDTRIP_BATCH"] ?? "") ?? 250)
    /// The first seed of a run (the long run moves it on).
    static let firstSeed = UInt64(environment["TICK_ROUNDTRIP_FIRST_SEED"] ?? "") ?? 0
    /// tick's clock for the stores (the generated dates are in 2030–2035).
    static let createdNow = "2029-12-01T09:00:00Z"
    static let importNow = "2029-12-03T09:00:00Z"

    /// The batches of this run for a format (a seed and a number of tasks each), or the replayed one.
    static func batches(offset: UInt64) -> [(seed: UInt64, count: Int)] {
        if let replay = environment["TICK_ROUNDTRIP_SEED"].flatMap(UInt64.init) { return [(replay, batch)] }
        return stride(from: 0, to: total, by: batch).enumerated().map { n, done in
            (offset &+ firstSeed &+ UInt64(n), min(batch, total - done))
        }
    }

    @Test("every field of TaskField.all and every declared field has a rule in every format's contract")
    func contractsCoverEveryField() {
        let fields = Set(TaskField.all.map(\.name) + ["id", "list"] + RoundTripContract.declaredNames)
        #expect(Set(RoundTripContract.declaredNames).isDisjoint(with: TaskField.all.map(\.name)))
        for contract in [RoundTripContract.json, .taskwarrior, .todoTxt, .icalendar, .csv] {
            #expect(Set(contract.rules.keys) == fields, "\(contract.format): rules for \(contract.rules.keys.sorted()), fields \(fields.sorted())")
        }
    }

    @Test("Taskwarrior: tick export → task import → task export → tick import keeps every field as INTERCHANGE.md says",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/task"), "Taskwarrior is not installed"))
    func taskwarrior() throws {
        for (seed, count) in Self.batches(offset: 1_000_000) { try Self.roundTrip(.taskwarrior, seed: seed, count: count) }
    }

    @Test("todo.txt: tick export → todo.sh ls and do → tick import keeps every field as INTERCHANGE.md says",
          .enabled(if: todoTxtCLI != nil, "todo.txt-cli is not installed (Debian package todotxt-cli)"))
    func todoTxt() throws {
        for (seed, count) in Self.batches(offset: 2_000_000) { try Self.roundTrip(.todoTxt, seed: seed, count: count) }
    }

    @Test("iCalendar: tick export → Python icalendar → tick import keeps every field as INTERCHANGE.md says",
          .enabled(if: pythonICalendarAvailable, "Python package icalendar is not installed"))
    func icalendar() throws {
        for (seed, count) in Self.batches(offset: 3_000_000) { try Self.roundTrip(.icalendar, seed: seed, count: count) }
    }

    @Test("CSV: tick export → Python csv → tick import keeps every field as INTERCHANGE.md says",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "python3 is not installed"))
    func csv() throws {
        for (seed, count) in Self.batches(offset: 4_000_000) { try Self.roundTrip(.csv, seed: seed, count: count) }
    }

    // MARK: The round trip

    /// A task as a store holds it, with its list's name (nil: the inbox).
    typealias Stored = (task: [String: Any], list: String?)

    static func roundTrip(_ contract: RoundTripContract, seed: UInt64, count: Int) throws {
        let replay = "seed \(seed) (replay: TICK_ROUNDTRIP_SEED=\(seed) TICK_ROUNDTRIP_BATCH=\(count) swift test --skip-build --filter RoundTripPropertyTests)"
        let generated = RoundTripTaskGenerator(seed: seed, count: count)
        let a = try sandbox()
        let document = a.root + "/io/generated.json"
        try generated.exportDocument().write(to: URL(fileURLWithPath: document))
        let loaded = try a.tick(["import", document, "--format", "json"], now: createdNow)
        try #require(loaded.status == 0, "\(replay): the generated store imports: \(loaded)")

        // tick's own JSON keeps everything: the store holds what was generated.
        let before = try storeTasks(a)
        try #require(before.count == count, "\(replay): \(before.count) of \(count) generated tasks are in the store")
        var generatedByID: [String: Stored] = [:]
        for t in generated.tasks { generatedByID[t.id] = (t.object, t.list) }
        report(compare(RoundTripContract.json, before: generatedByID, after: before, completed: [:]), "json", replay)

        let exported = a.root + "/io/export." + contract.fileExtension
        let out = try a.tick(["export", "--format", contract.format, "-o", exported], now: importNow)
        try #require(out.status == 0, "\(replay): export: \(out)")
        let (file, completed) = try passThroughTool(contract.tool, a, exported, seed: seed)

        let b = try sandbox()
        let imported = try b.tick(["import", file, "--format", contract.format], now: importNow)
        #expect(imported.status == 0 && imported.stderr.isEmpty, "\(replay): import into an empty store: \(imported)")
        #expect(imported.stdout.hasPrefix("Imported: \(count) added, 0 updated"), "\(replay): \(imported)")
        let after = try storeTasks(b)
        if let dump = environment["TICK_ROUNDTRIP_DUMP"] {
            try? FileManager.default.copyItem(atPath: a.root, toPath: dump + "/a-\(seed)")
            try? FileManager.default.copyItem(atPath: b.root, toPath: dump + "/b-\(seed)")
        }
        report(compare(contract, before: before, after: after, completed: completed), contract.format, replay)

        // The same file into the store it came from: nothing added, only the tool's changes updated.
        let blocksBefore = try taskBlocks(a)
        let again = try a.tick(["import", file, "--format", contract.format], now: importNow)
        let expected = "Imported: 0 added, \(completed.count) updated, \(count - completed.count) unchanged"
        #expect(again.status == 0 && again.stdout.hasPrefix(expected), "\(replay): re-import into the exporting store: expected \(expected): \(again)")
        let reimported = try storeTasks(a), blocksAfter = try taskBlocks(a)
        var changed: [String] = []
        for (id, old) in before.sorted(by: { $0.key < $1.key }) where completed[id] == nil && blocksBefore[id] != blocksAfter[id] {
            guard let new = reimported[id] else { changed.append("  \(id): gone"); continue }
            let keys = Set(old.task.keys).union(new.task.keys).filter { canonical(old.task[$0]) != canonical(new.task[$0]) }
            changed.append("  \(id) \"\(old.task.string("title") ?? "")\": " + (keys.isEmpty ? "key order:\n\(blocksBefore[id] ?? "")\n→\n\(blocksAfter[id] ?? "")"
                : keys.sorted().map { "\($0) \(canonical(old.task[$0])) → \(canonical(new.task[$0]))" }.joined(separator: "; ")))
        }
        report(changed.isEmpty ? [] : ["re-import changed \(changed.count) tasks the tool did not change:"] + changed.prefix(6), contract.format, replay)
    }

    /// A sandbox whose config.toml declares the generator's fields.
    static func sandbox() throws -> Sandbox {
        let s = try Sandbox()
        try FileManager.default.createDirectory(atPath: s.home + "/.config/tick", withIntermediateDirectories: true)
        try RoundTripTaskGenerator.declaredConfig.write(toFile: s.home + "/.config/tick/config.toml", atomically: true, encoding: .utf8)
        return s
    }

    static func report(_ failures: [String], _ format: String, _ replay: String) {
        guard !failures.isEmpty else { return }
        let text = "\(format) round trip, \(replay):\n" + failures.joined(separator: "\n")
        Issue.record("\(text)")
    }

    /// Every task of a store, by id, from `tick export --format json`.
    static func storeTasks(_ s: Sandbox) throws -> [String: Stored] {
        let r = try s.tick(["export", "--format", "json"], now: importNow)
        try #require(r.status == 0, "\(r)")
        let doc = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any])
        var out: [String: Stored] = [:]
        for file in doc["files"] as? [[String: Any]] ?? [] {
            guard let content = file["content"] as? [String: Any] else { continue }
            let list = file["path"] as? String == "inbox.json" ? nil : content["name"] as? String
            for task in content["tasks"] as? [[String: Any]] ?? [] {
                out[task.string("id") ?? ""] = (task, list)
            }
        }
        return out
    }

    /// The text of every task in a store's files, by id (FORMAT.md §6: a task is the
    /// lines from `    {` to `    }` in `tasks`), to see that a task's bytes did not change.
    static func taskBlocks(_ s: Sandbox) throws -> [String: String] {
        var out: [String: String] = [:]
        for file in s.storeFiles() where file.hasSuffix(".json") {
            var block: [String] = []
            for line in lines(try String(contentsOfFile: s.path(file), encoding: .utf8)) {
                if line == "    {" { block = [] }
                block.append(line)
                if line == "    }" || line == "    },", let idLine = block.first(where: { $0.hasPrefix("      \"id\": \"") }) {
                    out[String(idLine.dropFirst(13).prefix(36))] = block.joined(separator: "\n")
                }
            }
        }
        return out
    }

    // MARK: The tools

    /// Runs the real tool over an export; returns the file to import and the
    /// tasks the tool completed (id → the day).
    static func passThroughTool(_ tool: RoundTripContract.Tool, _ s: Sandbox, _ exported: String, seed: UInt64) throws
        -> (String, [String: String])
    {
        let result = s.root + "/io/back"
        switch tool {
        case .none:
            return (exported, [:])
        case .taskwarrior:
            let tw = try TaskwarriorInterchangeTests.TW(s, "tw")
            let rc = try FileHandle(forWritingTo: URL(fileURLWithPath: tw.dir + "/rc"))
            try rc.seekToEnd()
            try rc.write(contentsOf: Data(("\n" + RoundTripTaskGenerator.declaredTaskrc).utf8))
            try rc.close()
            let imported = try TaskwarriorInterchangeTests.taskImport(tw, try String(contentsOfFile: exported, encoding: .utf8))
            try #require(imported.status == 0, "task import: \(imported)")
            let back = try tw.task("export")
            try back.stdoutData.write(to: URL(fileURLWithPath: result))
            return (result, [:])
        case .todoTxt:
            return try todoSh(s, exported, seed: seed)
        case .icalendar:
            try python(s, """
                import sys, icalendar
                cal = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
                open(sys.argv[2], 'wb').write(cal.to_ical())
                """, exported, result)
            return (result, [:])
        case .csv:
            try python(s, """
                import sys, csv
                with open(sys.argv[1], newline='', encoding='utf-8') as f:
                    rows = list(csv.reader(f))
                with open(sys.argv[2], 'w', newline='', encoding='utf-8') as f:
                    csv.writer(f).writerows(rows)
                """, exported, result)
            return (result, [:])
        }
    }

    static func python(_ s: Sandbox, _ script: String, _ args: String...) throws {
        let path = s.root + "/tool.py"
        try Data(script.utf8).write(to: URL(fileURLWithPath: path))
        let r = try s.run("/usr/bin/env", ["python3", path] + args, env: ["PYTHONIOENCODING": "utf-8"])
        try #require(r.status == 0, "python: \(r)")
    }

    /// `todo.sh -p ls` lists every line; `todo.sh -a do` completes about a tenth of the open ones.
    static func todoSh(_ s: Sandbox, _ exported: String, seed: UInt64) throws -> (String, [String: String]) {
        let cli = try #require(todoTxtCLI)
        let (dir, config) = try TodoTxtInterchangeTests.todoDir(s)
        let file = dir + "/todo.txt"
        try FileManager.default.copyItem(atPath: exported, toPath: file)
        let exportedLines = lines(try String(contentsOfFile: file, encoding: .utf8))
        let listed = try s.run(cli, ["-d", config, "-p", "ls"])
        #expect(listed.status == 0 && listed.lines.last == "TODO: \(exportedLines.count) of \(exportedLines.count) tasks shown",
                "todo.sh ls lists every line: \(listed.lines.suffix(2))")
        var rng = RoundTripTaskGenerator.Random(seed: seed &+ 77)
        let open = exportedLines.indices.filter { !exportedLines[$0].hasPrefix("x ") }
        let chosen = open.filter { _ in rng.chance(0.1) }.map { $0 + 1 }
        var completed: [String: String] = [:]
        if !chosen.isEmpty {
            let done = try s.run(cli, ["-d", config, "-a", "do"] + chosen.map(String.init))
            try #require(done.status == 0, "todo.sh do: \(done)")
            let after = lines(try String(contentsOfFile: file, encoding: .utf8))
            for n in chosen {
                let words = after[n - 1].split(separator: " ")
                let id = words.last { $0.hasPrefix("tick:") }.map { String($0.dropFirst(5)) }
                #expect(words.first == "x" && id != nil, "todo.sh do \(n): \(after[n - 1])")
                if let id, words.count > 1 { completed[id] = String(words[1]) }
            }
        }
        return (file, completed)
    }

    // MARK: Comparing

    /// One line per field some tasks break, with a few of them.
    static func compare(_ contract: RoundTripContract, before: [String: Stored], after: [String: Stored],
                        completed: [String: String]) -> [String] {
        var failures: [String] = []
        let missing = before.keys.filter { after[$0] == nil }, added = after.keys.filter { before[$0] == nil }
        if !missing.isEmpty || !added.isEmpty {
            failures.append("tasks: \(missing.count) missing (\(missing.prefix(3).joined(separator: ", "))), \(added.count) not generated (\(added.prefix(3).joined(separator: ", ")))")
        }
        for field in contract.rules.keys.sorted() {
            guard let rule = contract.rules[field] else { continue }
            var broken: [String] = []
            for id in before.keys.sorted() {
                guard let old = before[id], let new = after[id] else { continue }
                let context = RoundTripContract.Before(task: old.task, list: old.list, completedByTool: completed[id],
                                                       importedAt: importNow)
                let expected = canonical(rule.expected(context, field))
                let actual = canonical(field == "list" ? new.list : field == "extra" ? RoundTripContract.extra(new.task) : new.task[field])
                if expected != actual {
                    broken.append("  \(id) \"\(old.task.string("title") ?? "")\": expected \(expected), got \(actual)")
                }
            }
            if !broken.isEmpty {
                failures.append("\(field) (\(rule.doc)): \(broken.count) of \(before.count) tasks differ, e.g.\n" + broken.prefix(4).joined(separator: "\n"))
            }
        }
        return failures
    }

    /// One-line JSON of a value (sorted keys); absent is `null`, an empty object of unknown keys too.
    static func canonical(_ value: Any?) -> String {
        var v: Any = value ?? NSNull()
        if let d = v as? [String: Any], d.isEmpty { v = NSNull() }
        guard let data = try? JSONSerialization.data(withJSONObject: [v], options: [.sortedKeys, .fragmentsAllowed]) else {
            return "\(v)"
        }
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }
}
