import Foundation
import Testing

/// `tick search`: words match anywhere (like `grep -i`), "phrases", prefix*
/// terms, filters, ranking; checked against a generated store and against grep.
@Suite("search")
struct SearchTests {
    // MARK: A generated store

    /// One generated task.
    struct Gen {
        var id: String
        var file: String
        var title: String
        var notes: String?
        var tags: [String]
        var state: String

        /// True when the title, the notes or a tag contains `word`, ignoring case.
        func contains(_ word: String) -> Bool {
            let w = word.lowercased()
            return ([title, notes ?? ""] + tags).contains { $0.lowercased().contains(w) }
        }
    }

    /// A small deterministic generator (a 64-bit LCG), so the store is the same on every run.
    struct LCG {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        mutating func pick<T>(_ a: [T]) -> T { a[next(a.count)] }
    }

    static let vocabulary = [
        "milk", "Milk", "MILK", "oat-milk", "buttermilk", "café", "Café", "CAFÉ", "cafés", "über", "Über", "ÜBER",
        "naïve", "NAÏVE", "barn", "yarn", "Learn", "learning", "pump", "Jump", "jumper", "box", "Fox", "oxen",
        "deploy", "Deployment", "redeploy", "invoice", "Invoices", "report", "Reporting", "garden", "Gardener",
        "plumber", "Q4", "budget", "Zürich", "zurich", "crème", "brûlée", "résumé", "resume", "kiwi", "alpha",
        "beta", "gamma", "o'clock", "O'Clock", "e-mail", "email", "back", "lock", "Clock", "duck", "call", "buy",
        "fix", "plan", "draft", "review", "send", "book", "car", "tyres", "dentist", "meeting", "river", "window",
    ]
    static let tagVocabulary = ["urgent", "home", "work", "Café", "ÜBER", "errand", "q4", "kiwi-farm", "barnyard"]
    static let files = [("inbox.json", nil), ("lists/work.json", "Work"), ("lists/home.json", "Home"),
                        ("lists/errands.json", "Errands"), ("lists/reading.json", "Reading")] as [(String, String?)]

    /// 300 tasks over the inbox and four lists: 2-4 word titles, notes on about
    /// half (some on several lines), tags on a third, some done or active.
    static func generate(count: Int = 300) -> [Gen] {
        var rng = LCG(state: 20261121)
        var out: [Gen] = []
        for i in 0..<count {
            let words = { (n: Int) in (0..<n).map { _ in rng.pick(vocabulary) } }
            let title = words(2 + rng.next(3)).joined(separator: " ")
            var notes: String?
            if rng.next(2) == 0 {
                let n = 3 + rng.next(6)
                notes = words(n).joined(separator: rng.next(4) == 0 ? "\n" : " ")
            }
            var tags: [String] = []
            if rng.next(3) == 0 {
                for _ in 0..<(1 + rng.next(2)) {
                    let t = rng.pick(tagVocabulary)
                    if !tags.contains(t) { tags.append(t) }
                }
            }
            let state = i % 6 == 0 ? "done" : (i % 9 == 0 ? "active" : "open")
            out.append(Gen(id: String(format: "%08x-0000-4000-8000-%012x", i + 1, i + 1),
                           file: files[i % files.count].0, title: title, notes: notes, tags: tags, state: state))
        }
        return out
    }

    /// A `tick export` document holding the tasks (ids, dates and all), to import in one go.
    static func exportDocument(_ tasks: [Gen]) throws -> Data {
        let stamp = "2026-11-20T08:00:00Z"
        var docs: [[String: Any]] = []
        for (n, (path, name)) in files.enumerated() {
            var content: [String: Any] = ["version": 1, "id": String(format: "%08x-1111-4000-8000-000000000000", n + 1),
                                          "createdAt": stamp, "modifiedAt": stamp]
            if let name { content["name"] = name }
            content["tasks"] = tasks.filter { $0.file == path }.map { t -> [String: Any] in
                var o: [String: Any] = ["id": t.id, "title": t.title, "state": t.state, "createdAt": stamp, "modifiedAt": stamp]
                if let notes = t.notes { o["notes"] = notes }
                if !t.tags.isEmpty { o["tags"] = t.tags }
                if t.state == "done" { o["completedAt"] = stamp }
                return o
            }
            docs.append(["path": path, "content": content])
        }
        return try JSONSerialization.data(withJSONObject: ["tickExport": 1, "exportedAt": stamp, "files": docs])
    }

    /// A store with the generated tasks, written by `tick import` (so the files are canonical).
    static func generatedStore() throws -> (Sandbox, [Gen]) {
        let s = try Sandbox()
        let tasks = generate()
        let exportPath = s.root + "/generated-export.json"
        try exportDocument(tasks).write(to: URL(fileURLWithPath: exportPath))
        let r = try s.tick("import", exportPath)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "Imported: \(tasks.count) added, 0 updated, 0 unchanged, 0 kept (newer here)\n")
        return (s, tasks)
    }

    /// The ids of the tasks whose title, notes or tags lines match `grep -i -n -F WORD`
    /// in the store files. Canonical files have one field per line; each task's
    /// line range is found from its `{` ... `}` block and checked against
    /// JSONSerialization's view of the file.
    static func grepIDs(_ s: Sandbox, _ word: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Set<String> {
        let dataFiles = s.storeFiles().filter { $0 == "inbox.json" || $0.hasPrefix("lists/") }
        // Which task and which field each line of each file belongs to.
        var owner: [String: [Int: (id: String, field: String)]] = [:]
        for rel in dataFiles {
            let text = lines(try s.text(rel))
            var map: [Int: (id: String, field: String)] = [:]
            var ids: [String] = []
            var i = 0
            while i < text.count {
                guard text[i] == "    {" else { i += 1; continue }
                var j = i + 1
                var id = ""
                var field = ""
                while j < text.count, text[j] != "    }", text[j] != "    }," {
                    let line = text[j]
                    // A field starts a line at the task's indentation: `      "key": value`.
                    if line.hasPrefix("      \""), !line.hasPrefix("       "), let end = line.dropFirst(7).firstIndex(of: "\"") {
                        field = String(line[line.index(line.startIndex, offsetBy: 7)..<end])
                        if field == "id" {
                            id = String(line.split(separator: "\"")[3])
                        }
                    }
                    map[j + 1] = (id, field)   // grep numbers lines from 1
                    j += 1
                }
                ids.append(id)
                i = j + 1
            }
            let parsed = try s.tasks(rel).compactMap { $0.string("id") }
            #expect(ids == parsed, "\(rel): the task blocks found by line are the file's tasks", sourceLocation: sourceLocation)
            owner[rel] = map
        }
        let r = try s.run("/usr/bin/env", ["grep", "-i", "-n", "-H", "-F", "-e", word, "--"] + dataFiles, cwd: s.store)
        #expect(r.status == 0 || r.status == 1, "grep: \(r)", sourceLocation: sourceLocation)
        var out = Set<String>()
        for line in r.lines {
            // file:line:text
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, let n = Int(parts[1]) else {
                Issue.record("unexpected grep output: \(line)", sourceLocation: sourceLocation)
                continue
            }
            guard let (id, field) = owner[String(parts[0])]?[n], ["title", "notes", "tags"].contains(field) else { continue }
            out.insert(id)
        }
        return out
    }

    static let words = [
        "milk",      // plain, in many cases (MILK, Milk) and inside oat-milk, buttermilk
        "café",      // non-ASCII, also CAFÉ and cafés, and a tag
        "über",      // non-ASCII first letter, ÜBER in titles and tags
        "naïve",
        "zürich",    // but not "zurich"
        "résumé",    // but not "resume"
        "crème",
        "arn",       // only inside other words: barn, yarn, Learn, learning, barnyard
        "ump",       // only inside: pump, Jump, jumper
        "ck",        // 2 letters, only inside: back, lock, Clock, duck, o'clock
        "ox",        // 2 letters: box, Fox, oxen
        "ju",        // 2 letters: Jump, jumper
        "q4",        // 2 characters, a title word and a tag
        "ée",        // 2 non-ASCII-ending characters inside brûlée
        "deploy",    // deploy, Deployment, redeploy
        "invoice",
        "report",
        "garden",
        "mail",      // inside e-mail and email
        "o'clock",   // punctuation inside
        "urgent",    // only ever a tag
        "kiwi",      // a word and inside the tag kiwi-farm
        "xylophone", // nowhere
    ]

    @Test("for 23 plain words, search --json finds exactly the tasks whose title, notes or tags contain the word (ignoring case), as grep -i does")
    func generatedStoreMatchesGrep() throws {
        let (s, tasks) = try Self.generatedStore()
        // Only words that cannot match the keys of the lines they are looked for in.
        for w in Self.words {
            #expect(!["      \"title\": \"", "      \"notes\": \"", "      \"tags\": [\""].contains { $0.lowercased().contains(w) })
        }
        var doneSeen = false
        for word in Self.words {
            let expected = Set(tasks.filter { $0.contains(word) }.map(\.id))
            if word == "xylophone" { #expect(expected.isEmpty) } else { #expect(!expected.isEmpty, "\(word) occurs in the generated store") }
            let r = try s.tick("search", word, "--json")
            // As grep: exit 1 when nothing matches.
            #expect(r.status == (expected.isEmpty ? 1 : 0), "\(word): \(r)")
            #expect(r.stderr == "")
            let found = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [[String: Any]])
            let ids = found.compactMap { $0.string("id") }
            #expect(ids.count == Set(ids).count, "\(word): no task twice")
            #expect(Set(ids) == expected, "search \(word): missing \(expected.subtracting(ids).sorted()), extra \(Set(ids).subtracting(expected).sorted())")
            let grepped = try Self.grepIDs(s, word)
            #expect(grepped == expected, "grep \(word): missing \(expected.subtracting(grepped).sorted()), extra \(grepped.subtracting(expected).sorted())")
            if found.contains(where: { $0.string("state") == "done" }) { doneSeen = true }
        }
        #expect(doneSeen, "done tasks are found by default")
        // A word that appears only inside other words is still found, and the uppercase query is the same query.
        #expect(!tasks.contains { t in ([t.title, t.notes ?? ""] + t.tags).joined(separator: " ").lowercased()
            .split(whereSeparator: { !$0.isLetter }).contains("arn") })
        #expect(Set(try s.json("search", "CAFÉ").compactMap { $0.string("id") }) == Set(tasks.filter { $0.contains("café") }.map(\.id)))
    }

    @Test("several terms must all match; --list, --state, --tag and --limit narrow the generated store")
    func generatedStoreFilters() throws {
        let (s, tasks) = try Self.generatedStore()
        func ids(_ args: String...) throws -> Set<String> {
            let r = try s.tick(args + ["--json"])
            #expect(r.status == 0, "\(args): \(r)")
            let found = try JSONSerialization.jsonObject(with: r.stdoutData) as? [[String: Any]] ?? []
            return Set(found.compactMap { $0.string("id") })
        }
        func expected(_ pred: (Gen) -> Bool) -> Set<String> { Set(tasks.filter(pred).map(\.id)) }

        let both = expected { $0.contains("milk") && $0.contains("café") }
        #expect(!both.isEmpty)
        #expect(try ids("search", "milk café") == both)
        #expect(try ids("search", "milk", "café") == both, "several arguments are several terms")
        #expect(try ids("search", "milk", "--list", "Work") == expected { $0.contains("milk") && $0.file == "lists/work.json" })
        #expect(try ids("search", "milk", "--list", "inbox") == expected { $0.contains("milk") && $0.file == "inbox.json" })
        #expect(try ids("search", "milk", "--state", "done") == expected { $0.contains("milk") && $0.state == "done" })
        #expect(try ids("search", "milk", "--state", "open,active") == expected { $0.contains("milk") && $0.state != "done" })
        #expect(try ids("search", "arn", "--tag", "urgent") == expected { $0.contains("arn") && $0.tags.contains("urgent") })
        #expect(try ids("search", "arn", "--tag", "+urgent") == expected { $0.contains("arn") && $0.tags.contains("urgent") })
        let all = try s.json("search", "milk").compactMap { $0.string("id") }
        #expect(try s.json("search", "milk", "--limit", "5").compactMap { $0.string("id") } == Array(all.prefix(5)))
        // --limit 0 is a usage error (it used to list nothing and exit 0).
        let zero = try s.tick("search", "milk", "--limit", "0")
        #expect(zero.status == 2 && zero.stderr == "tick: error: --limit must be 1 or more; see `tick help search`\n", "\(zero)")
    }

    // MARK: A small hand-made store

    /// Work: four tasks that mention "invoice" in different places, in this file order.
    static func invoiceStore() throws -> Sandbox {
        let s = try Sandbox()
        try s.write("lists/work.json", """
        {"name": "Work", "tasks": [
          {"id": "a0000001-0000-4000-8000-000000000000", "title": "Call the plumber", "notes": "ask about the invoice"},
          {"id": "a0000002-0000-4000-8000-000000000000", "title": "Lunch", "notes": "Invoice"},
          {"id": "a0000003-0000-4000-8000-000000000000", "title": "Pay invoice for the garden shed repairs and the fence"},
          {"id": "a0000004-0000-4000-8000-000000000000", "title": "INVOICE Q3", "state": "done", "completedAt": "2026-11-20T10:00:00Z"},
          {"id": "a0000005-0000-4000-8000-000000000000", "title": "Misc", "tags": ["invoices"]},
          {"id": "a0000006-0000-4000-8000-000000000000", "title": "Unrelated", "notes": "nothing here"}
        ]}
        """)
        try s.write("inbox.json", #"{"tasks": [{"id": "b0000001-0000-4000-8000-000000000000", "title": "Scan invoice"}]}"#)
        return s
    }

    @Test("results are ranked: title matches come before tag- and notes-only matches")
    func rankedTitleFirst() throws {
        let s = try Self.invoiceStore()
        let found = try s.json("search", "invoice")
        #expect(Set(found.titles) == ["Call the plumber", "Lunch", "Pay invoice for the garden shed repairs and the fence", "INVOICE Q3", "Misc", "Scan invoice"])
        let titleMatches: Set<String> = ["Pay invoice for the garden shed repairs and the fence", "INVOICE Q3", "Scan invoice"]
        let firstOther = try #require(found.firstIndex { !titleMatches.contains($0.string("title") ?? "") })
        #expect(found.prefix(firstOther).count == titleMatches.count, "titles first: \(found.titles)")
        #expect(found.titles.last == "Call the plumber" || found.titles.last == "Lunch", "notes-only matches last: \(found.titles)")
    }

    @Test("ranking holds for a 2-letter query too (no trigram candidates)")
    func rankedShortQuery() throws {
        let s = try Sandbox()
        try s.write("lists/farm.json", """
        {"name": "Farm", "tasks": [
          {"title": "Water plants", "notes": "and the ox"},
          {"title": "Feed cat", "notes": "ox later"},
          {"title": "Ox cart"}
        ]}
        """)
        let found = try s.json("search", "ox").titles
        #expect(Set(found) == ["Ox cart", "Water plants", "Feed cat"])
        #expect(found.first == "Ox cart", "the title match first: \(found)")
    }

    @Test("ranking: a title match comes before a notes-only match even when the notes repeat the word")
    func rankedTitleBeforeRepeatedNotes() throws {
        let s = try Sandbox()
        try s.write("lists/zoo.json", """
        {"name": "Zoo", "tasks": [
          {"title": "Plan lunch", "notes": "zebra zebra zebra zebra zebra zebra zebra"},
          {"title": "The long title about a zebra that is quite long indeed and has many other words in it"}
        ]}
        """)
        #expect(try s.json("search", "zebra").titles == ["The long title about a zebra that is quite long indeed and has many other words in it", "Plan lunch"])
    }

    /// `tick search ARGS --json` found nothing: `[]` and exit 1, as grep.
    static func noMatch(_ s: Sandbox, _ args: String...) throws -> Bool {
        let r = try s.tick(["search"] + args + ["--json"])
        return r.status == 1 && r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]" && r.stderr.isEmpty
    }

    @Test("\"a phrase\" matches those words together; prefix* matches the start of a word; both ignore case")
    func phrasesAndPrefixes() throws {
        let s = try Self.invoiceStore()
        #expect(try s.json("search", #""the garden""#).titles == ["Pay invoice for the garden shed repairs and the fence"])
        #expect(try s.json("search", #""THE GARDEN shed""#).titles == ["Pay invoice for the garden shed repairs and the fence"])
        #expect(try Self.noMatch(s, #""garden the""#))
        #expect(try s.json("search", #""about the invoice""#).titles == ["Call the plumber"])
        #expect(try s.json("search", "pay fence").titles == ["Pay invoice for the garden shed repairs and the fence"])
        #expect(try Self.noMatch(s, "pay lunch"), "every term must match")
        // inv* matches words starting with "inv"; voic* does not match inside "invoice".
        #expect(Set(try s.json("search", "INV*").titles) == ["Call the plumber", "Lunch", "Pay invoice for the garden shed repairs and the fence", "INVOICE Q3", "Misc", "Scan invoice"])
        #expect(try Self.noMatch(s, "voic*"))
        #expect(try s.json("search", "voic").count == 6, "a plain word matches inside words")
        #expect(try Self.noMatch(s, "plumb*", "fen*"))
        #expect(try s.json("search", "plumb*", "ask").titles == ["Call the plumber"])
        #expect(try s.json("search", "sh*").titles == ["Pay invoice for the garden shed repairs and the fence"])
    }

    @Test("text output: one line per match with the list, done tasks by UUID prefix; no match is \"No matches.\" and exit 1")
    func textOutput() throws {
        let s = try Self.invoiceStore()
        let r = try s.tick("search", "q3")
        #expect(r.status == 0)
        #expect(r.stdout == "  a0000004 [x] INVOICE Q3  @Work  done yesterday 11:00\n", "\(r.stdout)")
        let scan = try s.tick("search", "scan")
        #expect(scan.stdout == "  1 [ ] Scan invoice  @Inbox\n", "\(scan.stdout)")
        let none = try s.tick("search", "xylophone")
        #expect(none.status == 1)
        #expect(none.stdout == "No matches.\n")
        #expect(none.stderr == "")
        #expect(try s.tick("search", "xylophone", "--json").stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    @Test("--json carries each task with shortId, list and file")
    func jsonShape() throws {
        let s = try Self.invoiceStore()
        let found = try s.json("search", "scan")
        #expect(found.count == 1)
        let t = try #require(found.first)
        #expect(t.string("id") == "b0000001-0000-4000-8000-000000000000")
        #expect(t.int("shortId") == 1)
        #expect(t.isNull("list"))
        #expect(t.string("file") == "inbox.json")
        let done = try #require(try s.json("search", "q3").first)
        #expect(done.isNull("shortId"))
        #expect(done.string("list") == "Work")
        #expect(done.string("file") == "lists/work.json")
        #expect(done.string("completedAt") == "2026-11-20T10:00:00Z")
    }

    @Test("an empty query is a usage error (exit 2), and so is an unclosed quote", arguments: [
        [""], ["   "], ["*"], [#""""#], [#""   ""#], [], [#""unclosed"#],
    ])
    func emptyQuery(args: [String]) throws {
        let s = try Self.invoiceStore()
        let r = try s.tick(["search"] + args)
        #expect(r.status == 2, "\(args): \(r)")
        #expect(r.stdout == "")
        #expect(!r.stderr.isEmpty)
    }

    @Test("bad filters: an unknown list exits 3, an unknown state exits 2")
    func badFilters() throws {
        let s = try Self.invoiceStore()
        let list = try s.tick("search", "invoice", "--list", "Nowhere")
        #expect(list.status == 3)
        #expect(list.stderr.hasPrefix("tick: error: no list named \"Nowhere\""))
        let state = try s.tick("search", "invoice", "--state", "finished")
        #expect(state.status == 2)
        #expect(state.stderr == "tick: error: --state: \"finished\" is not one of open, active, done\n")
    }

    @Test("a broken file: search warns once and still searches the rest")
    func brokenFileWarns() throws {
        let s = try Self.invoiceStore()
        try s.write("lists/broken.json", "{\n  \"name\": \"Broken\",\n  \"tasks\": [\n    {\"title\": \"invoice\" \"state\": \"open\"}\n  ]\n}\n")
        let r = try s.tick("search", "scan", "--json")
        #expect(r.status == 0)
        #expect(lines(r.stderr).count == 1)
        #expect(r.stderr.hasPrefix("tick: warning: store/lists/broken.json:4:25: "), "\(r.stderr)")
        let found = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [[String: Any]])
        #expect(found.titles == ["Scan invoice"])
    }
}
