import Foundation
import Testing

/// The filter language end to end: `tick list FILTER --json` against a plain
/// scan of the store files of a generated store, and the CLI's handling of
/// `-tag`, errors with a caret, `--sort` and `--limit`.
@Suite("filters")
struct FilterTests {
    /// One task of the generated store, as the scan sees it in the files.
    struct Row {
        var id: String
        var list: String
        var title: String
        var notes: String
        var tags: [String]
        var state: String
        var pri: String?
        var energy: String?
        var due: String?
        var sched: String?
        var completed: String?
        var created: String
    }

    static let lists = [("inbox.json", "Inbox"), ("lists/work.json", "Work"), ("lists/workshop.json", "Workshop"), ("lists/home.json", "Home")]
    static let tagWords = ["work", "home", "errand", "later", "q4"]
    static let titleWords = ["report", "milk", "invoice", "garden", "deploy", "call", "review", "plan", "Report", "MILK"]

    /// 360 tasks with every kind of field, deterministic (a 64-bit LCG).
    static func generate() -> [[String: Any]] {
        var state: UInt64 = 20261123
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        var files: [[String: Any]] = []
        var tasksByFile: [[[String: Any]]] = Array(repeating: [], count: lists.count)
        for i in 0..<360 {
            var t: [String: Any] = [
                "id": String(format: "%08x-0000-4000-8000-%012x", i + 1, i + 1),
                "title": (0..<(2 + next(2))).map { _ in titleWords[next(titleWords.count)] }.joined(separator: " "),
                "createdAt": String(format: "2026-11-%02dT%02d:00:00Z", 1 + next(20), next(24)),
                "modifiedAt": "2026-11-21T08:00:00Z",
            ]
            let s = ["open", "open", "open", "active", "done"][next(5)]
            t["state"] = s
            if s == "done" { t["completedAt"] = String(format: "2026-11-%02dT%02d:30:00Z", 14 + next(8), next(24)) }
            if next(3) == 0 { t["notes"] = "notes about the " + titleWords[next(titleWords.count)] }
            var tags: [String] = []
            for _ in 0..<next(3) { let w = tagWords[next(tagWords.count)]; if !tags.contains(w) { tags.append(w) } }
            if !tags.isEmpty { t["tags"] = tags }
            if next(3) == 0 { t["priority"] = ["must", "flexible"][next(2)] }
            if next(4) == 0 { t["energy"] = ["high", "low", "any"][next(3)] }
            switch next(4) {
            case 0: t["due"] = String(format: "2026-11-%02d", 17 + next(12))
            // Timed, some late in the UTC evening: the next day in Berlin.
            case 1: t["due"] = String(format: "2026-11-%02dT%02d:%02d:00Z", 17 + next(12), [8, 22, 23][next(3)], next(2) * 30)
            default: break
            }
            if next(4) == 0 { t["scheduled"] = String(format: "2026-11-%02d", 18 + next(10)) }
            tasksByFile[next(lists.count)].append(t)
        }
        for (n, (path, name)) in lists.enumerated() {
            var content: [String: Any] = ["version": 1, "id": String(format: "%08x-1111-4000-8000-000000000000", n + 1),
                                          "createdAt": "2026-11-01T08:00:00Z", "modifiedAt": "2026-11-01T08:00:00Z", "tasks": tasksByFile[n]]
            if path != "inbox.json" { content["name"] = name }
            files.append(["path": path, "content": content])
        }
        return files
    }

    static func generatedStore() throws -> Sandbox {
        let s = try Sandbox()
        let doc: [String: Any] = ["tickExport": 1, "exportedAt": "2026-11-21T08:00:00Z", "files": generate()]
        let path = s.root + "/export.json"
        try JSONSerialization.data(withJSONObject: doc).write(to: URL(fileURLWithPath: path))
        try s.ok("import", path)
        return s
    }

    /// Every task, read from the store files as they are on disk.
    static func scan(_ s: Sandbox) throws -> [Row] {
        var rows: [Row] = []
        for (path, name) in lists {
            for t in try s.tasks(path) {
                rows.append(Row(id: t["id"] as? String ?? "", list: name, title: t["title"] as? String ?? "", notes: t["notes"] as? String ?? "",
                                tags: t["tags"] as? [String] ?? [], state: t["state"] as? String ?? "", pri: t["priority"] as? String,
                                energy: t["energy"] as? String, due: t["due"] as? String, sched: t["scheduled"] as? String,
                                completed: t["completedAt"] as? String, created: t["createdAt"] as? String ?? ""))
            }
        }
        return rows
    }

    /// The Berlin day (YYYY-MM-DD) of a file date: a day as it is, a UTC time converted.
    static func day(_ value: String) -> String {
        guard value.count > 10 else { return value }
        let f = ISO8601DateFormatter()
        guard let date = f.date(from: value) else { return value }
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: pinnedZone)!
        let c = cal.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }

    func ids(_ s: Sandbox, _ args: [String]) throws -> [String] {
        let r = try s.tick(["list"] + args + ["--json"])
        #expect(r.status == 0, "tick list \(args): \(r)")
        let array = try JSONSerialization.jsonObject(with: r.stdoutData) as? [[String: Any]] ?? []
        return array.compactMap { $0["id"] as? String }
    }

    @Test("filters answer exactly what a scan of the store files finds, for 24 filters over 360 generated tasks")
    func filtersMatchAScanOfTheFiles() throws {
        let s = try Self.generatedStore()
        let rows = try Self.scan(s)
        #expect(rows.count == 360)
        let pending: (Row) -> Bool = { $0.state != "done" }
        // TICK_NOW is Saturday 2026-11-21, 10:00 in Berlin; eow is Sunday the 22nd.
        let cases: [([String], (Row) -> Bool)] = [
            (["+work"], { pending($0) && $0.tags.contains("work") }),
            (["-work"], { pending($0) && !$0.tags.contains("work") }),
            (["+work", "or", "+home"], { pending($0) && ($0.tags.contains("work") || $0.tags.contains("home")) }),
            (["(+work or +home)", "-errand"], { pending($0) && ($0.tags.contains("work") || $0.tags.contains("home")) && !$0.tags.contains("errand") }),
            (["list:Wo"], { pending($0) && ($0.list == "Work" || $0.list == "Workshop") }),
            (["list:work"], { pending($0) && ($0.list == "Work" || $0.list == "Workshop") }),
            (["list:inbox", "or", "list:Home"], { pending($0) && ($0.list == "Inbox" || $0.list == "Home") }),
            (["state:done"], { $0.state == "done" }),
            (["state:active"], { $0.state == "active" }),
            (["pri:must"], { pending($0) && $0.pri == "must" }),
            (["pri:none", "energy:low"], { pending($0) && $0.pri == nil && $0.energy == "low" }),
            (["due:today"], { pending($0) && $0.due.map(Self.day) == "2026-11-21" }),
            (["due.before:today"], { pending($0) && ($0.due.map(Self.day) ?? "9999") < "2026-11-21" }),
            (["due.after:eow"], { pending($0) && ($0.due.map(Self.day) ?? "0000") > "2026-11-22" }),
            (["due.by:2026-11-25"], { pending($0) && ($0.due.map(Self.day) ?? "9999") <= "2026-11-25" }),
            (["due:none"], { pending($0) && $0.due == nil }),
            (["due.any", "sched.any"], { pending($0) && $0.due != nil && $0.sched != nil }),
            (["sched.before:2026-11-24", "or", "pri:flexible"], { pending($0) && (($0.sched ?? "9999") < "2026-11-24" || $0.pri == "flexible") }),
            (["completed.after:2026-11-19"], { $0.completed.map(Self.day).map { $0 > "2026-11-19" } ?? false }),
            (["created.before:2026-11-05"], { pending($0) && Self.day($0.created) < "2026-11-05" }),
            (["\"milk\""], { pending($0) && ($0.title + "\n" + $0.notes + "\n" + $0.tags.joined(separator: " ")).lowercased().contains("milk") }),
            (["not", "milk"], { pending($0) && !($0.title + "\n" + $0.notes + "\n" + $0.tags.joined(separator: " ")).lowercased().contains("milk") }),
            (["/rep.rt/"], { pending($0) && ($0.title + "\n" + $0.notes).lowercased().contains("report") }),
            (["not", "(due.any", "or", "+later)", "list:Home"], { pending($0) && !($0.due != nil || $0.tags.contains("later")) && $0.list == "Home" }),
        ]
        for (filter, predicate) in cases {
            let expected = rows.filter(predicate).map(\.id)
            let got = try ids(s, filter)
            #expect(Set(got) == Set(expected), "\(filter.joined(separator: " ")): \(got.count) listed, \(expected.count) expected")
            #expect(got.count == expected.count, "\(filter.joined(separator: " ")): each task once")
            #expect(!expected.isEmpty || filter == ["due:today"], "\(filter.joined(separator: " ")) selects something in the generated store")
        }
    }

    @Test("views take filters too: today +tag is today's view narrowed; --sort orders and --limit cuts")
    func viewsSortAndLimit() throws {
        let s = try Self.generatedStore()
        let today = try s.json("today")
        let todayWork = try s.json("today", "+work")
        let expected = today.filter { ($0["tags"] as? [String] ?? []).contains("work") }.compactMap { $0["id"] as? String }
        #expect(todayWork.compactMap { $0["id"] as? String } == expected)
        #expect(!expected.isEmpty)
        // --sort due-: timed and all-day dues in descending order of their moment, tasks without a due last.
        let sorted = try s.json("list", "pri:must", "--sort", "due-")
        let dues = sorted.map { ($0["due"] as? String).map(Self.day) }
        let dated = dues.compactMap { $0 }
        #expect(dated == dated.sorted(by: >))
        if let firstNil = dues.firstIndex(where: { $0 == nil }) { #expect(dues[firstNil...].allSatisfy { $0 == nil }) }
        let limited = try s.json("list", "pri:must", "--sort", "due-", "--limit", "3")
        #expect(limited.compactMap { $0["id"] as? String } == Array(sorted.prefix(3)).compactMap { $0["id"] as? String })
        let bad = try s.tick("list", "--sort", "titel")
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("did you mean title?"))
    }

    @Test("a bad term is one error naming it, with a caret under it, exit 2; a list: that names no list is an error, not an empty answer")
    func errorsPointAtTheTerm() throws {
        let s = try Sandbox()
        try s.add("Something", "+work")
        let r = try s.tick("list", "+work", "shced:today")
        #expect(r.status == 2)
        #expect(r.stdout == "")
        #expect(r.stderr == """
            tick: error: filter: unknown filter key "shced" in shced:today (did you mean sched:?); to match the text, quote it: "shced:today"
              +work shced:today
                    ^^^^^^^^^^^

            """)
        let none = try s.tick("list", "list:Nope")
        #expect(none.status == 2)
        #expect(none.stderr.hasPrefix("tick: error: filter: no list is named or starts with \"Nope\""))
        // `-work` reaches the filter, not the option parser.
        try s.add("Other")
        let minus = try s.tick("list", "-work")
        #expect(minus.status == 0, "\(minus)")
        #expect(minus.stdout.contains("Other") && !minus.stdout.contains("Something"))
    }

    @Test("one bare word is a list, as before filters; a word that names no list matches the text (said on stderr), or is exit 3 when nothing matches; a phrase matches text")
    func oneWordIsAList() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Errands")
        try s.add("Buy stamps", "--list", "Errands")
        try s.add("Read about errands and stamps")
        let list = try s.json("list", "Errands")
        #expect(list.compactMap { $0["title"] as? String } == ["Buy stamps"])
        let word = try s.tick("list", "stamps", "--json")
        #expect(word.status == 0, "\(word)")
        #expect(word.stderr == "tick: warning: no list named \"stamps\"; showing tasks whose text matches \"stamps\" (tick lists shows the lists)\n")
        #expect(word.stdout.contains("Buy stamps") && word.stdout.contains("Read about errands and stamps"))
        let none = try s.tick("list", "zeppelin")
        #expect(none.status == 3)
        #expect(none.stderr == "tick: error: no list named \"zeppelin\"; known lists: Errands\n")
        let phrase = try s.json("list", "\"stamps\"")
        #expect(Set(phrase.compactMap { $0["title"] as? String }) == ["Buy stamps", "Read about errands and stamps"])
    }

    @Test("is:waiting and wait… show the waiting tasks listings hide; is:blocked selects tasks whose dependency is not done")
    func waitingAndBlocked() throws {
        let s = try Sandbox()
        try s.add("Renew visa", "wait:2026-11-25")
        try s.add("Pack bags")
        let pack = try #require(try s.json("list", "\"Pack\"").first?["shortId"] as? Int)
        try s.add("Go to airport", "depends:\(pack)")
        #expect(try s.json("list").compactMap { $0["title"] as? String } == ["Pack bags", "Go to airport"])
        #expect(try s.json("list", "is:waiting").compactMap { $0["title"] as? String } == ["Renew visa"])
        #expect(try s.json("list", "wait.after:tomorrow").compactMap { $0["title"] as? String } == ["Renew visa"])
        #expect(try s.json("list", "wait:none").compactMap { $0["title"] as? String } == ["Pack bags", "Go to airport"])
        #expect(try s.json("list", "is:blocked").compactMap { $0["title"] as? String } == ["Go to airport"])
        #expect(try s.json("list", "not", "is:blocked").compactMap { $0["title"] as? String } == ["Pack bags"])
        try s.ok("done", "\(pack)")
        #expect(try s.json("list", "is:blocked").isEmpty)
        // When the wait is over, the task is back and no longer waiting.
        #expect(try s.json("list", "is:waiting", now: "2026-11-25T09:00:00Z").isEmpty)
    }
}
