import Foundation
import Testing

/// Fuzzed hand edits (hardening issue, "fuzzed hand edits"): store files
/// damaged the way editors, merges and people damage them (flipped bytes,
/// truncation, junk, wrong types, missing keys, duplicate ids, deep nesting,
/// control sequences, huge values). Whatever the damage, tick never crashes,
/// exits with a documented status, never rewrites a file it cannot parse,
/// keeps unknown keys of the files it can, and never writes a raw escape
/// sequence to the terminal.
///
/// CI runs `TICK_TORTURE_ROUNDS` rounds (default 60); `scripts/torture.sh fuzz
/// SECONDS` runs for as long as asked; `TICK_TORTURE_SEED` replays a run.
@Suite("fuzzed hand edits")
struct FuzzEditTests {
    static let documentedStatuses: Set<Int32> = [0, 1, 2, 3, 4]

    @Test("damaged store files: no crash, documented exit codes, broken files never rewritten, unknown keys kept, no raw escapes")
    func fuzz() throws {
        let budget = TortureBudget(defaultSeed: 4_242, defaultRounds: 60)
        let seed = budget.seed
        var rng = SplitMix(seed: seed)
        let s = try Sandbox()
        try s.ok("lists", "add", "Alpha")
        try s.ok("lists", "add", "Beta")
        let files = ["inbox.json": "inbox", "lists/alpha.json": "Alpha", "lists/beta.json": "Beta"]
        for (rel, list) in files.sorted(by: { $0.key < $1.key }) {
            for i in 0..<3 { try s.ok("add", "\(list) task \(i)", "list:\(list)", "+t\(i)", "due:tomorrow") }
            // An unknown key at file level that every write must keep.
            var doc = try s.file(rel)
            doc["x-keep"] = "survives"
            try s.write(rel, String(decoding: try JSONSerialization.data(withJSONObject: doc, options: [.prettyPrinted]), as: UTF8.self))
        }
        var good: [String: Data] = [:]
        for rel in files.keys { good[rel] = try s.bytes(rel) }
        var round = 0, broken = 0
        while budget.allows(after: round) {
            round += 1
            let rel = files.keys.sorted()[rng.int(files.count)]
            let before = try s.bytes(rel)
            let (mutated, how) = Self.mutate(before, &rng)
            try mutated.write(to: URL(fileURLWithPath: s.path(rel)))
            let label = "round \(round) (seed \(seed), \(how) in \(rel))"

            let status = try s.tick("status", "--json")
            #expect(status.status == 0, "\(label): status: \(status)")
            let unreadable = ((try? JSONSerialization.jsonObject(with: status.stdoutData)) as? [String: Any])?["unreadable"] as? [String] ?? []
            let isBroken = unreadable.contains { $0.contains(rel + ":") }
            if isBroken { broken += 1 }

            var results: [([String], RunResult)] = []
            for args in [["list", "--all", "--json"], ["today"], ["list", "--all"], ["lists"]] {
                results.append((args, try s.tick(args)))
            }
            let list = files[rel] ?? "inbox"
            for args in [["add", "fuzz \(round)", "list:\(list)"], ["done", "\(1 + rng.int(12))"], ["edit", "\(1 + rng.int(12))", "+fz"]] {
                results.append((args, try s.tick(args)))
            }
            for (args, r) in results {
                #expect(Self.documentedStatuses.contains(r.status), "\(label): tick \(args.joined(separator: " ")) exited \(r.status): \(r)")
                #expect(!r.stdout.utf8.contains(0x1B) && !r.stderr.utf8.contains(0x1B), "\(label): raw ESC on the terminal from tick \(args.joined(separator: " "))")
                if !args.contains("--json") {
                    #expect(!r.stdout.unicodeScalars.contains { (0x80...0x9F).contains($0.value) }, "\(label): raw C1 control from tick \(args.joined(separator: " "))")
                }
                #expect(!r.stderr.contains("Fatal error") && !r.stderr.contains("SQLite error"), "\(label): \(r.stderr)")
            }
            let after = try s.bytes(rel)
            if isBroken {
                #expect(after == mutated, "\(label): tick rewrote a file it cannot parse")
            } else if after != mutated, let doc = try? s.file(rel),
                      ((try? JSONSerialization.jsonObject(with: mutated)) as? [String: Any])?["x-keep"] as? String == "survives" {
                #expect(doc["x-keep"] as? String == "survives", "\(label): a write dropped the unknown key x-keep")
            }
            // Half the time the damage is repaired (as a user would), else it stays for later rounds.
            if isBroken || rng.int(2) == 0, let original = good[rel] {
                try original.write(to: URL(fileURLWithPath: s.path(rel)))
            } else if !isBroken, (try? s.file(rel))?["x-keep"] as? String == "survives" {
                good[rel] = after
            }
        }
        #expect(broken > 0 && broken < round, "the fuzzer should make some files unreadable and leave others readable (\(broken) of \(round))")
        print("fuzzed hand edits (seed \(seed)): \(round) rounds, \(broken) left a file unreadable")
    }

    /// One damage, and its name.
    static func mutate(_ data: Data, _ rng: inout SplitMix) -> (Data, String) {
        var bytes = [UInt8](data)
        let at = bytes.isEmpty ? 0 : rng.int(bytes.count)
        switch rng.int(6) {
        case 0:
            if !bytes.isEmpty { bytes[at] = UInt8(truncatingIfNeeded: rng.next()) }
            return (Data(bytes), "flipped byte \(at)")
        case 1:
            return (Data(bytes.prefix(at)), "truncated at \(at)")
        case 2:
            let junk: [[UInt8]] = [
                Array("{".utf8), Array("}".utf8), Array("\"".utf8), Array(",".utf8), [0], [0xFF, 0xFE],
                Array("\u{1B}[2J".utf8), Array("\u{1B}]52;c;aGk=\u{07}".utf8), [0xC2, 0x9B], Array("\\ud800".utf8),
                Array("1e999".utf8), Array("null".utf8),
            ]
            let piece = junk[rng.int(junk.count)]
            bytes.insert(contentsOf: piece, at: at)
            return (Data(bytes), "inserted \(piece) at \(at)")
        default:
            guard var doc = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
                  var tasks = doc["tasks"] as? [[String: Any]], !tasks.isEmpty else {
                return (Data(bytes.prefix(at)), "truncated at \(at)")
            }
            let i = rng.int(tasks.count)
            var how: String
            let values: [(String, Any)] = [
                ("title", 42), ("title", ""), ("title", String(repeating: "x", count: 100_000)),
                ("title", "evil \u{1B}]52;c;aGk=\u{07} \u{1B}[2J \u{9B}31m end"), ("title", "two\nlines"),
                ("state", "bogus"), ("state", NSNull()), ("due", "2026-13-45"), ("due", "10000-01-01"), ("due", 17),
                ("tags", "x"), ("tags", [1, 2]), ("tags", ["a b", "\u{1B}[1m"]), ("id", "not-a-uuid"),
                ("createdAt", "yesterday"), ("remind", "-0001-12-30T09:00:00Z"), ("notes", "\u{1B}[31mred"),
                ("x-fuzz", ["nested": [1, [2, [3]]]]), ("order", -1), ("order", 1e300),
            ]
            switch rng.int(6) {
            case 0:
                let key = ["id", "title", "state", "createdAt"][rng.int(4)]
                tasks[i][key] = nil
                how = "removed \(key)"
            case 1:
                tasks.append(tasks[i])
                how = "duplicated a task id"
            case 2:
                doc["x-keep"] = nil
                how = "removed x-keep"
            case 3:
                doc["tasks"] = ["not": "an array"]
                return (Self.encode(doc), "tasks is an object")
            case 4:
                let deep = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
                var text = String(decoding: Self.encode(doc), as: UTF8.self)
                if let r = text.range(of: "\"x-keep\"") { text.replaceSubrange(r, with: "\"x-deep\": \(deep), \"x-keep\"") }
                return (Data(text.utf8), "5000 nested arrays")
            default:
                let (key, value) = values[rng.int(values.count)]
                tasks[i][key] = value
                how = "set \(key)"
            }
            doc["tasks"] = tasks
            return (Self.encode(doc), how)
        }
    }

    static func encode(_ doc: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: doc, options: [.prettyPrinted])) ?? Data()
    }
}
