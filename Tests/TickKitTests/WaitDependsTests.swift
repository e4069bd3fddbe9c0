import Foundation
import Testing
@testable import TickKit

/// `wait` and `depends`: format, change keys, merge, input, meaning, index, interchange.
@Suite struct WaitDependsTests {
    typealias F = MergeFixture
    let berlin = Zone(named: "Europe/Berlin")!
    let now = Timestamp.parse("2026-11-21T09:00:00Z")!  // Saturday, 10:00 in Berlin

    func decode(_ text: String) throws -> TaskFile {
        try TaskFileDecoder(bytes: Array(text.utf8), path: "inbox.json", kind: .inbox, fallbackDate: now).decode()
    }

    // MARK: Format

    @Test func waitAndDependsRoundTripInCanonicalOrder() throws {
        let text = """
        {"version": 1, "id": "00000000-0000-4000-8000-0000000000ff", "createdAt": "2026-11-20T08:00:00Z", "modifiedAt": "2026-11-20T08:00:00Z",
         "tasks": [{"id": "00000000-0000-4000-8000-000000000001", "title": "Paint", "state": "open",
                    "depends": ["00000000-0000-4000-8000-00000000000A", "00000000-0000-4000-8000-00000000000b"],
                    "wait": "2026-11-25", "x-later": 1,
                    "createdAt": "2026-11-20T08:00:00Z", "modifiedAt": "2026-11-20T08:00:00Z"},
                   {"id": "00000000-0000-4000-8000-000000000002", "title": "Call", "state": "open", "wait": "2026-11-25T16:00:00Z",
                    "createdAt": "2026-11-20T08:00:00Z", "modifiedAt": "2026-11-20T08:00:00Z"}]}
        """
        let file = try decode(text)
        let paint = file.tasks[0]
        #expect(paint.wait == .day(LocalDate(iso: "2026-11-25")!))
        #expect(paint.depends.map(\.lowercased) == ["00000000-0000-4000-8000-00000000000a", "00000000-0000-4000-8000-00000000000b"])
        #expect(paint.extra.map(\.key) == ["x-later"], "unknown keys survive")
        #expect(file.tasks[1].wait == .time(Timestamp.parse("2026-11-25T16:00:00Z")!))
        let whole = String(decoding: TaskFileEncoder.encode(file), as: UTF8.self)
        let written = String(whole[(whole.range(of: "000000000001")?.lowerBound ?? whole.startIndex)...])
        // wait after the other dates, depends after tags; lowercase ids.
        let order = ["\"state\"", "\"wait\": \"2026-11-25\"", "\"depends\": [\"00000000-0000-4000-8000-00000000000a\"", "\"createdAt\"", "\"x-later\""]
        let positions = order.map { written.range(of: $0)?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil }, "\(written)")
        #expect(positions.compactMap { $0 }.map { written.distance(from: written.startIndex, to: $0) } == positions.compactMap { $0 }.map { written.distance(from: written.startIndex, to: $0) }.sorted())
        #expect(try decode(whole) == file)
    }

    @Test func filesWithoutThemReadAndWriteUnchanged() throws {
        let text = """
        {"version": 1, "id": "00000000-0000-4000-8000-0000000000ff", "createdAt": "2026-11-20T08:00:00Z", "modifiedAt": "2026-11-20T08:00:00Z",
         "tasks": [{"id": "00000000-0000-4000-8000-000000000001", "title": "Old", "state": "open",
                    "createdAt": "2026-11-20T08:00:00Z", "modifiedAt": "2026-11-20T08:00:00Z"}]}
        """
        let file = try decode(text)
        #expect(file.tasks[0].wait == nil && file.tasks[0].depends.isEmpty)
        let written = String(decoding: TaskFileEncoder.encode(file), as: UTF8.self)
        #expect(!written.contains("wait") && !written.contains("depends"))
    }

    @Test func badValuesAreRefusedWithTheirPlace() {
        let bad = """
        {"tasks": [{"title": "X", "depends": ["not-a-uuid"]}]}
        """
        #expect(throws: FormatError.self) { try decode(bad) }
        do {
            _ = try decode(bad)
        } catch let error as FormatError {
            #expect(error.message.contains("\"depends\" must be a UUID"), "\(error.message)")
            #expect(error.location?.line == 1)
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(throws: FormatError.self) { try decode(#"{"tasks": [{"title": "X", "wait": "soon"}]}"#) }
        #expect(throws: FormatError.self) { try decode(#"{"tasks": [{"title": "X", "depends": "00000000-0000-4000-8000-000000000001"}]}"#) }
    }

    // MARK: Change keys

    @Test func changesStampWaitAndEachDependency() {
        let old = F.task("a", "Paint")
        var new = old
        new.wait = .day(LocalDate(iso: "2026-11-25")!)
        new.depends = [F.id("b")]
        let keys = new.changedKeys(comparedTo: old)
        #expect(Set(keys) == ["wait", "depends:" + F.id("b").lowercased])
        #expect(TaskChange.sortedKeys(["x-unknown", "depends:1", "+tag", "wait", "title"]) == ["title", "wait", "+tag", "depends:1", "x-unknown"])
    }

    // MARK: Merge

    @Test func waitMergesLikeDueLastWriterWins() {
        let base = F.list([F.task("a", "Paint")])
        var o = F.task("a", "Paint", "09:10", changed: ["wait": "09:10"])
        o.wait = .day(LocalDate(iso: "2026-11-25")!)
        var t = F.task("a", "Paint", "09:20", changed: ["wait": "09:20"])
        t.wait = .day(LocalDate(iso: "2026-11-30")!)
        for b in [base, nil] {
            let out = F.merge(b, F.list([o]), F.list([t]))
            #expect(out.file.tasks.first?.wait == .day(LocalDate(iso: "2026-11-30")!))
            #expect(out.file.tasks.first?.changed["wait"] == F.at("09:20"))
        }
        // Set on one side only: taken, whatever the other side's later edits of other fields.
        let other = F.task("a", "Paint it", "09:30", changed: ["title": "09:30"])
        let out = F.merge(base, F.list([o]), F.list([other]))
        #expect(out.file.tasks.first?.wait == .day(LocalDate(iso: "2026-11-25")!))
        #expect(out.file.tasks.first?.title == "Paint it")
    }

    @Test func dependenciesMergePerElement() {
        let (b, c, d) = (F.id("b"), F.id("c"), F.id("d"))
        var baseTask = F.task("a", "Paint")
        baseTask.depends = [b]
        let base = F.list([baseTask])
        var o = baseTask
        o.depends = [b, c]
        o.modifiedAt = F.at("09:10")
        o.changed = ["depends:" + c.lowercased: F.at("09:10")]
        var t = baseTask
        t.depends = [d]
        t.modifiedAt = F.at("09:20")
        t.changed = ["depends:" + b.lowercased: F.at("09:20"), "depends:" + d.lowercased: F.at("09:20")]
        for bf in [base, nil] {
            let out = F.merge(bf, F.list([o]), F.list([t]))
            // c added on one side, d on the other, b removed later than anyone re-added it.
            #expect(out.file.tasks.first?.depends == [c, d], "base: \(bf != nil)")
        }
        // Re-adding b after the removal wins.
        var readd = o
        readd.changed["depends:" + b.lowercased] = F.at("09:30")
        readd.modifiedAt = F.at("09:30")
        #expect(Set(F.merge(nil, F.list([readd]), F.list([t])).file.tasks.first?.depends ?? []) == [b, c, d])
        // Tags are untouched by dependency keys and vice versa.
        var tagged = t
        tagged.tags = ["home"]
        tagged.changed["+home"] = F.at("09:20")
        let mixed = F.merge(base, F.list([o]), F.list([tagged])).file.tasks.first
        #expect(mixed?.tags == ["home"])
        #expect(mixed?.depends == [c, d])
    }

    // MARK: Input

    var parser: QuickAddParser { QuickAddParser(fields: FieldParser(now: now, timeZone: berlin)) }

    @Test func waitAndDependsTokens() throws {
        let (title, edit) = try parser.parse(["Paint", "wall", "wait:tomorrow", "depends:3,a1b2c3"])
        #expect(title == "Paint wall")
        #expect(edit[\.wait] == .set(.day(LocalDate(iso: "2026-11-22")!)))
        #expect(edit.dependsAdded == ["3", "a1b2c3"])
        let (_, joined) = try parser.parse(["X", "wait:next", "monday"])
        #expect(joined[\.wait] == .set(.day(LocalDate(iso: "2026-11-23")!)))
        let (_, removal) = try parser.parse(["depends:-3,4", "wait:"], allowRemoval: true)
        #expect(removal.dependsRemoved == ["3"] && removal.dependsAdded == ["4"])
        #expect(removal[\.wait] == .clear)
        let (_, none) = try parser.parse(["depends:none", "wait:none"], allowRemoval: true)
        #expect(none.dependsCleared && none[\.wait] == .clear)
        #expect(throws: InputError.self) { try parser.parse(["X", "depends:-3"]) }
        #expect(throws: InputError.self) { try parser.parse(["X", "depends:three"]) }
        #expect(throws: InputError.self) { try parser.parse(["X", "wait:someday-maybe"]) }
    }

    @Test func applyingDependenciesSkipsTheTaskItself() {
        var task = F.task("a", "Paint")
        task.depends = [F.id("b")]
        var edit = TaskEdit()
        edit.addDepends = [F.id("a"), F.id("c"), F.id("c")]
        edit.removeDepends = [F.id("b")]
        #expect(edit.apply(to: &task, now: F.at("10:00")))
        #expect(task.depends == [F.id("c")])
        var clear = TaskEdit()
        clear.dependsCleared = true
        #expect(clear.apply(to: &task, now: F.at("10:00")))
        #expect(task.depends.isEmpty)
        #expect(!clear.apply(to: &task, now: F.at("10:00")), "nothing left to clear")
    }

    @Test func cyclesAreFoundWithTheirPath() {
        let (a, b, c) = (F.id("a"), F.id("b"), F.id("c"))
        let graph = DependencyGraph(edges: [b: [a], c: [b]])
        #expect(graph.cycle(adding: c, to: a) == [c, b, a])
        #expect(graph.cycle(adding: a, to: a) == [a])
        #expect(graph.cycle(adding: a, to: c) == nil)
        #expect(graph.cycle(adding: F.id("d"), to: a) == nil)
    }

    // MARK: Meaning

    func task(_ title: String, due: String? = nil, wait: String? = nil, state: TaskState = .open, depends: [UUID] = [], id: UUID = UUID()) -> TaskItem {
        TaskItem(id: id, title: title, state: state, due: due.flatMap(TaskDate.init(fileString:)),
                 wait: wait.flatMap(TaskDate.init(fileString:)), depends: depends, createdAt: now, modifiedAt: now)
    }

    @Test func waitingIsUntilTheStartOfTheDayOrTheInstant() {
        let q = TaskQuery(now: now, timeZone: berlin)
        #expect(q.isWaiting(task("x", wait: "2026-11-22")))
        #expect(!q.isWaiting(task("x", wait: "2026-11-21")), "today's start has passed")
        #expect(q.isWaiting(task("x", wait: "2026-11-21T09:00:01Z")))
        #expect(!q.isWaiting(task("x", wait: "2026-11-21T09:00:00Z")))
        #expect(!q.isWaiting(task("x")))
    }

    @Test func viewsHideWaitingAndPutBlockedLast() {
        let dep = UUID(), doneDep = UUID()
        let snapshot = StoreSnapshot(files: [
            TaskFile(kind: .inbox, id: UUID(), createdAt: now, modifiedAt: now, tasks: [
                task("blocked", due: "2026-11-21", depends: [dep]),
                task("waiting", due: "2026-11-21", wait: "2026-11-22"),
                task("dependency", due: "2026-11-21", id: dep),
                task("free", due: "2026-11-21", depends: [doneDep, UUID()]),
                task("done one", state: .done, id: doneDep),
            ]),
        ])
        let q = TaskQuery(now: now, timeZone: berlin)
        for view in [TaskView.list(nil), .today] {
            let items = q.run(view, filter: TaskFilter(), snapshot: snapshot, ids: ShortIDTable())
            #expect(items.map(\.task.title) == ["dependency", "free", "blocked"], "\(view)")
            #expect(items.map(\.blocked) == [false, false, true])
        }
        let all = q.run(.list(nil), filter: TaskFilter(showWaiting: true), snapshot: snapshot, ids: ShortIDTable())
        #expect(all.map(\.task.title) == ["waiting", "dependency", "free", "blocked"])
    }

    @Test func theNextOccurrenceKeepsItsWaitDistanceAndDependencies() throws {
        let dep = UUID()
        var t = task("Pay rent", due: "2026-12-01", wait: "2026-11-28", depends: [dep])
        t.repeatRule = "monthly"
        let next = try #require(try t.nextOccurrence(completedAt: now, now: now, timeZone: berlin))
        #expect(next.due == .day(LocalDate(iso: "2027-01-01")!))
        #expect(next.wait == .day(LocalDate(iso: "2026-12-29")!), "three days before, as before")
        #expect(next.depends == [dep])
    }

    // MARK: Index

    @Test func theIndexAgreesWithTheFiles() throws {
        let dir = NSTemporaryDirectory() + "tick-wait-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/store", withIntermediateDirectories: true)
        let store = Store(location: StoreLocation(root: dir + "/store", stateDirectory: dir + "/state", cacheDirectory: dir + "/cache"))
        let dep = UUID()
        let file = TaskFile(kind: .inbox, id: UUID(), createdAt: now, modifiedAt: now, tasks: [
            task("blocked", due: "2026-11-21", depends: [dep]),
            task("waiting day", due: "2026-11-20", wait: "2026-11-22"),
            task("waiting instant", due: "2026-11-21", wait: "2026-11-21T12:00:00Z"),
            task("waited", due: "2026-11-21", wait: "2026-11-21"),
            task("dependency", due: "2026-11-21", id: dep),
        ])
        try store.withLock { writer in try writer.create(file) }
        let clock = now.addingTimeInterval(3600)
        let index = try TaskIndex.open(store: store, now: { clock })
        try index.refresh()
        let snapshot = try store.snapshot()
        let q = TaskQuery(now: now, timeZone: berlin)
        for view in [TaskView.list(nil), .today, .overdue, .upcoming(days: 7)] {
            for filter in [TaskFilter(), TaskFilter(showWaiting: true)] {
                let a = try index.run(view, filter: filter, query: q)
                let b = q.run(view, filter: filter, snapshot: snapshot, ids: ShortIDTable())
                #expect(a.map(\.task) == b.map(\.task), "\(view)")
                #expect(a.map(\.blocked) == b.map(\.blocked), "\(view)")
            }
        }
        #expect(try index.run(.today, filter: TaskFilter(), query: q).map(\.task.title) == ["waited", "dependency", "blocked"])
        let summary = try index.todaySummary(query: q, limit: 10)
        #expect(summary.overdue == 0, "the overdue task is waiting")
        #expect(summary.dueToday == 3)
        #expect(summary.first.map(\.task.title) == ["waited", "dependency", "blocked"])
        let found = try index.search(SearchQuery("waiting"), filter: TaskFilter(states: Set(TaskState.allCases)), list: nil, query: q)
        #expect(found.isEmpty)
        let foundAll = try index.search(SearchQuery("waiting"), filter: TaskFilter(states: Set(TaskState.allCases), showWaiting: true), list: nil, query: q)
        #expect(foundAll.count == 2)
        // Ranking never sees blocked tasks; with a query, nor waiting ones.
        #expect(Set(try index.pendingForRanking().map(\.id)).count == 4)
        #expect(try index.pendingForRanking(query: q).count == 2)
        let graph = try index.dependencyGraph()
        #expect(graph.edges.count == 1 && graph.edges.values.first == [dep])
        #expect(try index.missingTasks([dep, UUID()]).count == 1)
        #expect(try index.dependents(of: [dep]).map(\.task.title) == ["blocked"])
    }

    @Test func theStatusLinesFirstTasksAreTodaysFirstWhenTheEarliestAreBlocked() throws {
        let dir = NSTemporaryDirectory() + "tick-wait-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/store", withIntermediateDirectories: true)
        let store = Store(location: StoreLocation(root: dir + "/store", stateDirectory: dir + "/state", cacheDirectory: dir + "/cache"))
        let dep = UUID()
        // The three earliest due tasks are blocked; two later ones are not.
        let file = TaskFile(kind: .inbox, id: UUID(), createdAt: now, modifiedAt: now, tasks: [
            task("blocked 1", due: "2026-11-15", depends: [dep]),
            task("blocked 2", due: "2026-11-16", depends: [dep]),
            task("blocked 3", due: "2026-11-17", depends: [dep]),
            task("free 1", due: "2026-11-19"),
            task("dependency", due: "2026-11-20", id: dep),
        ])
        try store.withLock { writer in try writer.create(file) }
        let clock = now.addingTimeInterval(3600)
        let index = try TaskIndex.open(store: store, now: { clock })
        try index.refresh()
        let q = TaskQuery(now: now, timeZone: berlin)
        let today = try index.run(.today, filter: TaskFilter(), query: q).map(\.task.title)
        #expect(today == ["free 1", "dependency", "blocked 1", "blocked 2", "blocked 3"])
        for limit in 1...5 {
            #expect(try index.todaySummary(query: q, limit: limit).first.map(\.task.title) == Array(today.prefix(limit)), "limit \(limit)")
        }
    }

    // MARK: Interchange

    @Test func taskwarriorReadsDependsAsAStringOrAnArray() throws {
        let ctx = InterchangeContext(path: "tw.json", now: now, timeZone: berlin)
        let text = """
        [{"uuid":"00000000-0000-4000-8000-000000000001","description":"A","status":"waiting","wait":"20261124T230000Z","entry":"20261120T080000Z","depends":"00000000-0000-4000-8000-000000000002,00000000-0000-4000-8000-000000000003"},
         {"uuid":"00000000-0000-4000-8000-000000000002","description":"B","status":"pending","entry":"20261120T080000Z","depends":["00000000-0000-4000-8000-000000000003"]},
         {"uuid":"00000000-0000-4000-8000-000000000003","description":"C","status":"pending","entry":"20261120T080000Z"}]
        """
        let tasks = try TaskwarriorCodec.decode(Array(text.utf8), context: ctx).flatMap(\.tasks)
        #expect(tasks[0].wait == .day(LocalDate(iso: "2026-11-25")!), "local midnight in Berlin is a day")
        #expect(tasks[0].depends.count == 2)
        #expect(tasks[1].depends == [tasks[2].id])
        #expect(!tasks[0].extra.contains { $0.key.contains("wait") || $0.key.contains("depends") || $0.key.contains("status") })
        let back = String(decoding: TaskwarriorCodec.encode([TaskFile(kind: .inbox, id: UUID(), createdAt: now, modifiedAt: now, tasks: tasks)], context: ctx), as: UTF8.self)
        #expect(back.contains(#""status":"waiting""#), "\(back)")
        #expect(back.contains(#""wait":"20261124T230000Z""#), "\(back)")
        #expect(back.contains(#""depends":"00000000-0000-4000-8000-000000000002,00000000-0000-4000-8000-000000000003""#), "\(back)")
    }

    @Test func iCalendarWritesAndReadsRelatedToAndWait() throws {
        let ctx = InterchangeContext(path: "x.ics", now: now, timeZone: berlin)
        let dep = UUID()
        let t = task("Paint", wait: "2026-11-25T16:00:00Z", depends: [dep])
        let ics = String(decoding: ICalendarCodec.encode([TaskFile(kind: .inbox, id: UUID(), createdAt: now, modifiedAt: now, tasks: [t])], context: ctx), as: UTF8.self)
        #expect(ics.contains("RELATED-TO;RELTYPE=DEPENDS-ON:\(dep.lowercased)\r\n"), "\(ics)")
        #expect(ics.contains("X-TICK-WAIT:2026-11-25T16:00:00Z\r\n"), "\(ics)")
        let back = try ICalendarCodec.decode(Array(ics.utf8), context: ctx).flatMap(\.tasks)
        #expect(back.first?.depends == [dep])
        #expect(back.first?.wait == t.wait)
        // A RELATED-TO of another kind (a parent) is not a dependency.
        let parent = ics.replacingOccurrences(of: "RELTYPE=DEPENDS-ON", with: "RELTYPE=PARENT")
        #expect(try ICalendarCodec.decode(Array(parent.utf8), context: ctx).flatMap(\.tasks).first?.depends == [])
    }
}
