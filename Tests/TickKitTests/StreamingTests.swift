import Foundation
import Testing
@testable import TickKit

/// Streamed views and searches (which `run` and `search` also return, kept
/// whole) answer exactly what the array algorithm answers over the files:
/// the same tasks, in the same order, a task in two files once.
@Suite struct StreamingTests {
    let berlin = Zone(named: "Europe/Berlin")!
    let now = Timestamp.parse("2026-11-21T09:00:00Z")!

    /// SampleData in a temp dir, with one Work task copied into Home (an
    /// interrupted move) and the copy edited later, so it is the one kept.
    func store() throws -> (Store, TaskIndex, String) {
        let dir = NSTemporaryDirectory() + "tick-stream-\(UUID().uuidString)"
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: root.appendingPathComponent("SampleData").path, toPath: dir + "/store")
        let work = dir + "/store/lists/work.json", home = dir + "/store/lists/home.json"
        var workJSON = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: work))) as? [String: Any])
        var homeJSON = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: home))) as? [String: Any])
        var workTasks = try #require(workJSON["tasks"] as? [[String: Any]])
        var copy = try #require(workTasks.first)
        copy["title"] = "Copied in two files"
        copy["modifiedAt"] = "2026-11-20T10:00:00Z"
        workTasks[0]["title"] = "Copied in two files"
        workTasks[0]["modifiedAt"] = "2026-11-01T10:00:00Z"
        // Estimates on most work tasks (the number filters' parity), none on the others (nor on the copy in two files).
        for i in workTasks.indices where i % 4 != 3 && i > 0 { let minutes: [Int] = [15, 30, 90]; workTasks[i]["estimate"] = NSNumber(value: minutes[i % 4]) }
        workJSON["tasks"] = workTasks
        homeJSON["tasks"] = (homeJSON["tasks"] as? [[String: Any]] ?? []) + [copy]
        try JSONSerialization.data(withJSONObject: workJSON).write(to: URL(fileURLWithPath: work))
        try JSONSerialization.data(withJSONObject: homeJSON).write(to: URL(fileURLWithPath: home))
        let location = StoreLocation(root: dir + "/store", stateDirectory: dir + "/state", cacheDirectory: dir + "/cache")
        let store = Store(location: location)
        let clock = now.addingTimeInterval(3600)
        let index = try TaskIndex.open(store: store, now: { clock })
        try index.refresh()
        return (store, index, dir)
    }

    func key(_ item: ListedTask) -> String { "\(item.task.id) \(item.kind.relativePath) \(item.blocked)" }

    /// Every task in the files (or in one file, as a view or search of one
    /// list reads only it) as a candidate, in display order, one copy each
    /// (``ListedTask/oneCopyEach(_:)``): the oracle's input.
    func candidates(_ store: Store, only kind: FileKind? = nil) throws -> [ListedTask] {
        let snapshot = try store.snapshot()
        let blocked = TaskQuery.blockedIDs(in: snapshot.files.lazy.flatMap(\.tasks))
        var out: [ListedTask] = []
        for file in snapshot.files where kind.map({ file.kind == $0 }) ?? true {
            for task in file.tasks {
                out.append(ListedTask(task: task, kind: file.kind, listName: file.displayName, shortID: nil, blocked: blocked.contains(task.id)))
            }
        }
        return ListedTask.oneCopyEach(out)
    }

    @Test func viewsStreamInTheOrderTheyRun() throws {
        let (store, index, dir) = try store()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let query = TaskQuery(now: now, timeZone: berlin)
        let all = try candidates(store)
        let parser = FilterParser(now: now, timeZone: berlin)
        let views: [TaskView] = [.list(nil), .list(.inbox), .list(.list(slug: "work")), .list(.list(slug: "home")), .today, .upcoming(days: 7),
                                 .upcoming(days: 60), .overdue]
        let filters = [TaskFilter(), TaskFilter(states: Set(TaskState.allCases)), TaskFilter(states: [.done]), TaskFilter(tags: ["admin"])]
        // Date ranges too: over pending tasks they read the pending-only indexes (FilterSQL.pendingOnly).
        let words: [[String]] = [[], ["+admin"], ["pri:must", "or", "state:done"], ["not", "list:work"], ["\"report\""],
                                 ["due.before:2026-11-22"], ["not", "due.after:2026-11-20"], ["sched.before:2026-11-25", "or", "remind.after:2026-11-01"],
                                 ["not", "(", "remind.before:2026-12-01", "or", "due:none", ")"], ["sched:any"]]
        var compared = 0, copies = 0
        for view in views {
            for filter in filters {
                for w in words {
                    let parsed = try parser.parse(w)
                    let matcher = FilterMatcher(expression: parsed.expression, bindings: try index.bind(parsed, query: query), query: query)
                    var from = all
                    if case .list(let kind?) = view { from = try candidates(store, only: kind) }
                    let ran = query.select(view, filter: filter, from: from).filter(matcher.matches)
                    let streamed = try index.stream(view, filter: filter, matching: parsed, query: query) { self.key($0) }
                    #expect(streamed.map(\.payload) == ran.map(key), "\(view) \(filter) \(w)")
                    #expect(try index.run(view, filter: filter, matching: parsed, query: query).map(key) == ran.map(key))
                    // Groups index the lists the rows are in.
                    for row in streamed where row.group < streamed.lists.count {
                        #expect(row.payload.contains(streamed.lists[row.group].kind.relativePath))
                    }
                    compared += ran.count
                    copies += ran.filter { $0.task.title == "Copied in two files" }.count
                }
            }
        }
        #expect(compared > 200)
        // The copied task was listed, once per listing that shows it, from Home (its later edit).
        #expect(copies > 0)
        let everything = try index.stream(.list(nil), filter: TaskFilter(states: Set(TaskState.allCases)), matching: .all, query: query) { $0 }
        let copied = everything.map(\.payload).filter { $0.task.title == "Copied in two files" }
        #expect(copied.count == 1)
        #expect(copied.first?.kind == .list(slug: "home"))
    }

    /// Issue 45: every date field of the table is a filter key, and the index's
    /// SQL for it (from its columns) selects what the matcher (from its value) does.
    @Test func everyDateFieldFiltersAlikeInTheIndexAndTheMatcher() throws {
        let (store, index, dir) = try store()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let query = TaskQuery(now: now, timeZone: berlin)
        let all = try candidates(store)
        let parser = FilterParser(now: now, timeZone: berlin)
        #expect(FilterTerm.DateField.keys == ["due", "remind", "wait", "sched", "created", "modified", "completed"])
        var matched = 0
        for field in FilterTerm.DateField.keys {
            #expect(FilterParser.keys.contains(field))
            for test in [".before:2026-11-22", ".after:2026-11-19", ":2026-11-20", ".by:2026-11-21T10:00", ":any", ":none", ".before:2026-11-21T09:30"] {
                let words = [field + test]
                let parsed = try parser.parse(words)
                let matcher = FilterMatcher(expression: parsed.expression, bindings: try index.bind(parsed, query: query), query: query)
                for filter in [TaskFilter(), TaskFilter(states: Set(TaskState.allCases))] {
                    let ran = query.select(.list(nil), filter: filter, from: all).filter(matcher.matches)
                    #expect(try index.run(.list(nil), filter: filter, matching: parsed, query: query).map(key) == ran.map(key), "\(words) \(filter)")
                    matched += ran.count
                }
            }
        }
        #expect(matched > 100)
        // And every word field, each word and none.
        for field in FilterTerm.WordField.keys {
            #expect(FilterParser.keys.contains(field))
            let words = try #require(TaskField.all.first { $0.wordFilter?.key == field }).index?.columns.isEmpty == false
            #expect(words, "\(field) has no index column")
            for word in ["must", "flexible", "high", "low", "any", "none"] {
                guard let parsed = try? parser.parse([field + ":" + word]) else { continue }
                let matcher = FilterMatcher(expression: parsed.expression, bindings: try index.bind(parsed, query: query), query: query)
                let filter = TaskFilter(states: Set(TaskState.allCases))
                let ran = query.select(.list(nil), filter: filter, from: all).filter(matcher.matches)
                #expect(try index.run(.list(nil), filter: filter, matching: parsed, query: query).map(key) == ran.map(key), "\(field):\(word)")
                matched += ran.count
            }
        }
    }

    /// Every number field of the table (`estimate`) with each test, through
    /// the index and through the matcher: the same tasks.
    @Test func everyNumberFieldFiltersAlikeInTheIndexAndTheMatcher() throws {
        let (_, index, dir) = try store()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let query = TaskQuery(now: now, timeZone: berlin)
        let all = try candidates(Store(location: StoreLocation(root: dir + "/store", stateDirectory: dir + "/state", cacheDirectory: dir + "/cache")))
        let parser = FilterParser(now: now, timeZone: berlin)
        #expect(FilterTerm.NumberField.keys == ["estimate"])
        var matched: [String: Int] = [:]
        for field in FilterTerm.NumberField.keys {
            #expect(FilterParser.keys.contains(field))
            for test in [".over:20m", ".over:30m", ".under:1h", ".under:30m", ":30m", ":90", ".any:", ".none:", ":none", ".over:2h"] {
                let parsed = try parser.parse([field + test])
                let matcher = FilterMatcher(expression: parsed.expression, bindings: try index.bind(parsed, query: query), query: query)
                let filter = TaskFilter(states: Set(TaskState.allCases))
                let ran = query.select(.list(nil), filter: filter, from: all).filter(matcher.matches)
                #expect(try index.run(.list(nil), filter: filter, matching: parsed, query: query).map(key) == ran.map(key), "\(field)\(test)")
                matched[test] = ran.count
            }
        }
        #expect(matched[".over:20m", default: 0] > 0 && matched[".under:1h", default: 0] > 0 && matched[":none", default: 0] > 0, "\(matched)")
        #expect(matched[".over:2h"] == 0 && matched[".any:", default: 0] + matched[".none:", default: 0] == all.count, "\(matched)")
    }

    /// `--sort` and `--limit` on the streamed path: the view's answer sorted
    /// stably by TaskSort (lists ranked in display order) and cut, as the
    /// array path does it.
    @Test func sortedAndLimitedViewsStreamAsTheArrayPathSortsThem() throws {
        let (_, index, dir) = try store()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let query = TaskQuery(now: now, timeZone: berlin)
        let ranks = Dictionary(try index.lists().enumerated().map { ($0.element.kind, $0.offset) }, uniquingKeysWith: { a, _ in a })
        var compared = 0
        for view: TaskView in [.list(nil), .list(.list(slug: "work")), .today, .upcoming(days: 60), .overdue] {
            for filter in [TaskFilter(), TaskFilter(states: Set(TaskState.allCases))] {
                for text in ["due", "pri-,title", "list,id-", "title-", "energy,estimate,created", "completed-,modified", "sched,remind-"] {
                    let sort = try TaskSort(text)
                    let ran = try index.run(view, filter: filter, matching: .all, query: query)
                    let sorted = sort.sorted(ran, query: query, listRank: ranks)
                    for limit in [nil, 1, 3, 1000] {
                        let streamed = try index.stream(view, filter: filter, matching: .all, query: query, sort: sort, limit: limit) { self.key($0) }
                        let expected = limit.map { Array(sorted.prefix($0)) } ?? sorted
                        #expect(streamed.map(\.payload) == expected.map(key), "\(view) \(text) \(String(describing: limit))")
                        compared += expected.count
                    }
                }
                // A limit alone keeps the view's own order.
                let ran = try index.run(view, filter: filter, matching: .all, query: query)
                let first = try index.stream(view, filter: filter, matching: .all, query: query, limit: 2) { self.key($0) }
                #expect(first.map(\.payload) == ran.prefix(2).map(key))
            }
        }
        #expect(compared > 500)
    }

    @Test func searchStreamsInRankOrder() throws {
        let (store, index, dir) = try store()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let query = TaskQuery(now: now, timeZone: berlin)
        var found = 0
        for word in ["the", "report", "tax", "re", "copied", "week bills", "zzz"] {
            for filter in [TaskFilter(states: Set(TaskState.allCases)), TaskFilter(), TaskFilter(states: Set(TaskState.allCases), tags: ["admin"])] {
                for list: FileKind? in [nil, .list(slug: "work")] {
                    let q = try SearchQuery(word)
                    // The ranking by hand: score first (stable, so ties keep display order).
                    let searched = try candidates(store, only: list).filter { item in
                        (filter.showWaiting || !query.isWaiting(item.task))
                            && q.score(item.task) > 0 && filter.matches(item.task)
                    }.enumerated().map { (score: q.score($0.element.task), offset: $0.offset, item: $0.element) }
                        .sorted { ($0.score, -$0.offset) > ($1.score, -$1.offset) }.map(\.item)
                    let streamed = try index.streamSearch(q, filter: filter, list: list, query: query) { self.key($0) }
                    #expect(streamed.map(\.payload) == searched.map(key), "\(word) \(filter) \(String(describing: list))")
                    #expect(try index.search(q, filter: filter, list: list, query: query).map(key) == searched.map(key))
                    found += searched.count
                }
            }
        }
        #expect(found > 20)
    }
}
