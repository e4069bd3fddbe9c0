import Foundation
import Testing
@testable import TickKit

/// The index answers exactly what reading the files answers.
@Suite struct IndexTests {
    let berlin = Zone(named: "Europe/Berlin")!
    let now = Timestamp.parse("2026-11-21T09:00:00Z")!

    /// A copy of SampleData in a temp dir, with its own cache.
    func sampleStore() throws -> (Store, String) {
        let dir = NSTemporaryDirectory() + "tick-index-\(UUID().uuidString)"
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: root.appendingPathComponent("SampleData").path, toPath: dir + "/store")
        let location = StoreLocation(root: dir + "/store", stateDirectory: dir + "/state", cacheDirectory: dir + "/cache")
        return (Store(location: location), dir)
    }

    func index(_ store: Store) throws -> TaskIndex {
        let clock = now.addingTimeInterval(3600)  // files are not "racy" for this clock
        return try TaskIndex.open(store: store, now: { clock })
    }

    @Test func viewsMatchTheFilesExactly() throws {
        let (store, dir) = try sampleStore()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let index = try index(store)
        try index.refresh()
        let snapshot = try store.snapshot()
        let query = TaskQuery(now: now, timeZone: berlin)
        let views: [TaskView] = [.list(nil), .list(.inbox), .list(.list(slug: "work")), .today, .upcoming(days: 7), .upcoming(days: 60), .overdue]
        let filters = [TaskFilter(), TaskFilter(states: Set(TaskState.allCases)), TaskFilter(states: [.done]), TaskFilter(tags: ["admin"])]
        for view in views {
            for filter in filters {
                let fromIndex = try index.run(view, filter: filter, query: query)
                let fromFiles = query.run(view, filter: filter, snapshot: snapshot, ids: ShortIDTable())
                #expect(fromIndex.map(\.task) == fromFiles.map(\.task), "\(view) \(filter)")
                #expect(fromIndex.map(\.listName) == fromFiles.map(\.listName))
            }
        }
        #expect(try index.run(.list(nil), filter: TaskFilter(states: Set(TaskState.allCases)), query: query).count == 43)
    }

    @Test func todaySummaryAgreesWithTheTodayView() throws {
        let (store, dir) = try sampleStore()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let index = try index(store)
        try index.refresh()
        for hour in [0, 9, 17, 23] {
            let at = LocalDate(iso: "2026-11-21")!.at(hour: hour, minute: 30, timeZone: berlin)
            let query = TaskQuery(now: at, timeZone: berlin)
            let view = try index.run(.today, filter: TaskFilter(), query: query)
            let overdue = view.filter { query.isOverdue($0.task) }.count
            let due = view.filter { !query.isOverdue($0.task) && $0.task.due?.localDay(in: berlin) == query.today }.count
            for limit in [1, 2, 3, 10] {
                let summary = try index.todaySummary(query: query, limit: limit)
                #expect(summary.overdue == overdue, "\(hour)h")
                #expect(summary.dueToday == due, "\(hour)h")
                #expect(summary.first.map(\.task.id) == Array(view.prefix(limit)).map(\.task.id), "\(hour)h limit \(limit)")
            }
        }
    }

    @Test func searchMatchesABruteForceSubstringScan() throws {
        let (store, dir) = try sampleStore()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let index = try index(store)
        try index.refresh()
        let all = try store.snapshot().allTasks.map(\.task)
        for word in ["the", "dentist", "CAFÉ", "März", "re", "x", "tax", "report", "week", "bills", "q1", "lisbon trip", "ai"] {
            let q = try SearchQuery(word)
            let expected = Set(all.filter { t in
                [t.title, t.notes ?? "", t.tags.joined(separator: " ")].contains { $0.lowercased().contains(word.lowercased()) }
            }.map(\.id))
            let found = try index.search(q, filter: TaskFilter(states: Set(TaskState.allCases)), list: nil)
            #expect(Set(found.map(\.task.id)) == expected, "\(word)")
        }
        let ranked = try index.search(try SearchQuery("dentist"), filter: TaskFilter(states: Set(TaskState.allCases)), list: nil)
        #expect(ranked.first?.task.title.lowercased().contains("dentist") == true)
        let prefix = try index.search(try SearchQuery("rep*"), filter: TaskFilter(states: Set(TaskState.allCases)), list: nil)
        #expect(!prefix.isEmpty)
        #expect(prefix.allSatisfy { q in try! SearchQuery("rep*").matches(q.task) })
    }

    @Test func aLimitedSearchRanksInsideSQLiteAndIsThePrefixOfTheFullRanking() throws {
        let (store, dir) = try sampleStore()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let index = try index(store)
        try index.refresh()
        let every = TaskFilter(states: Set(TaskState.allCases))
        for text in ["the", "dentist", "CAFÉ", "re", "e", "rep*", "tax report", "\"lisbon trip\"", "nothing-like-this"] {
            let q = try SearchQuery(text)
            let full = try index.search(q, filter: every, list: nil)
            for limit in [1, 3, 10, 1000] {
                let limited = try index.search(q, filter: every, list: nil, limit: limit)
                #expect(limited.map(\.task.id) == Array(full.prefix(limit)).map(\.task.id), "\(text) limit \(limit)")
            }
        }
        // Pending only, in one list, with a tag: the same conditions as without a limit.
        let work = FileKind.list(slug: "work")
        let q = try SearchQuery("e")
        let full = try index.search(q, filter: TaskFilter(), list: work)
        #expect(try index.search(q, filter: TaskFilter(), list: work, limit: 2).map(\.task.id) == Array(full.prefix(2)).map(\.task.id))
    }

    @Test func changedFilesAreReparsedAndBrokenOnesKeepTheirLastGoodTasks() throws {
        let (store, dir) = try sampleStore()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let index = try index(store)
        try index.refresh()
        let query = TaskQuery(now: now, timeZone: berlin)
        let work = FileKind.list(slug: "work")
        let before = try index.run(.list(work), filter: TaskFilter(states: Set(TaskState.allCases)), query: query)
        // Nothing changed: nothing reparsed.
        let quiet = try index.refresh()
        #expect(!quiet.changed)
        #expect(quiet.unchanged == 5)
        // Break the file: the index keeps the old tasks and records the error.
        let path = store.location.path(of: work)
        let good = try Data(contentsOf: URL(fileURLWithPath: path))
        try Data("{\"name\": \"Work\", \"tasks\": [\n  {\"title\": }\n]}\n".utf8).write(to: URL(fileURLWithPath: path))
        let broken = try index.refresh()
        #expect(broken.files.first?.error?.location?.line == 2)
        #expect(try index.currentProblems()[work]?.location?.column == 13)
        #expect(try index.run(.list(work), filter: TaskFilter(states: Set(TaskState.allCases)), query: query).map(\.task) == before.map(\.task))
        // Fixed again: the error goes, the new content is indexed.
        var text = String(decoding: good, as: UTF8.self)
        text = text.replacingOccurrences(of: "Draft Q1 roadmap", with: "Draft Q2 roadmap")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try index.refresh()
        #expect(try index.currentProblems().isEmpty)
        let titles = try index.run(.list(work), filter: TaskFilter(), query: query).map(\.task.title)
        #expect(titles.contains("Draft Q2 roadmap"))
        // A deleted file leaves the index.
        try FileManager.default.removeItem(atPath: path)
        let gone = try index.refresh()
        #expect(gone.files.contains { $0.kind == work && $0.removed })
        #expect(try index.run(.list(work), filter: TaskFilter(), query: query).isEmpty)
    }

    /// The statements of each schema version, by fingerprint: a change of
    /// the statements (a field's column added to the table) fails here
    /// until `IndexSchema.version` is bumped (else an old index, taken as
    /// current, lacks the column) and the new pair recorded.
    static let recordedSchema = (version: 15, fingerprint: UInt64(0x6439_2d00_b7b9_7f94))

    /// FNV-1a 64 of the statements, one per line.
    static func fingerprint(_ statements: [String]) -> UInt64 {
        FNV1a.hash64(statements.joined(separator: "\n").utf8)
    }

    @Test func aChangeOfTheStatementsBumpsTheSchemaVersion() throws {
        let now = Self.fingerprint(IndexSchema.statements)
        let hex = "0x" + String(now, radix: 16)
        #expect(IndexSchema.version == Self.recordedSchema.version && now == Self.recordedSchema.fingerprint,
                "the index's statements changed: bump IndexSchema.version, then record (\(IndexSchema.version), \(hex)) here")
        var added = IndexSchema.statements
        let tasks = try #require(added.firstIndex(of: IndexSchema.tasksTable))
        added[tasks] = IndexSchema.tasksTable.replacingOccurrences(of: "\n)", with: ",\n    location TEXT\n)")
        #expect(Self.fingerprint(added) != now, "a column added is a change of the statements")
    }

    @Test func outdatedOrCorruptIndexesAreRebuiltSilently() throws {
        let (store, dir) = try sampleStore()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let first = try index(store)
        try first.refresh()
        let path = try #require(first.path)
        // Another schema version.
        try first.db.execute("PRAGMA user_version = 99")
        // Only a file nobody has open is migrated or replaced (see IndexLock).
        first.close()
        let second = try index(store)
        try second.refresh()
        #expect(try second.totals().tasks == 43)
        // Garbage bytes.
        second.close()
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: path))
        TaskIndex.removeFiles(at: path + "-nonexistent")
        let third = try index(store)
        try third.refresh()
        #expect(try third.totals().tasks == 43)
        #expect(third.path == path)
    }

    /// The inode of a file, or nil.
    private func inode(_ path: String) -> UInt64? {
        var st = stat()
        return stat(path, &st) == 0 ? UInt64(st.st_ino) : nil
    }

    @Test func theIndexFileIsNeverReplacedWhileAnotherIndexHasItOpen() throws {
        let (store, dir) = try sampleStore()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let first = try index(store)
        try first.refresh()
        let path = try #require(first.path)
        let second = try index(store)
        #expect(second.path == path, "both use the same file")
        let before = try #require(inode(path))
        // With `second` open, a rebuild happens in place: same file, same answers.
        try first.rebuild()
        #expect(inode(path) == before)
        #expect(try first.totals().tasks == 43)
        #expect(try second.totals().tasks == 43)
        // Once nobody else has it open, a rebuild builds a new file and renames it in.
        second.close()
        try first.rebuild()
        #expect(inode(path) != before)
        #expect(try first.totals().tasks == 43)
        // Machine-local: 0600.
        var st = stat()
        #expect(stat(path, &st) == 0 && st.st_mode & 0o777 == 0o600)
    }

    @Test func aColdReindexBuildsTheIndexOnce() throws {
        let (store, dir) = try sampleStore()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // No index yet: opening builds it, and that build is the reindex.
        let cold = try index(store)
        #expect(cold.builds == 1)
        let report = try cold.reindexFromScratch()
        #expect(cold.builds == 1, "a cold reindex builds the index once, not twice")
        #expect(report.files.count == 5)
        #expect(report.files.allSatisfy { $0.error == nil && !$0.removed })
        #expect(report.files.map(\.taskCount).reduce(0, +) == 43)
        #expect(try cold.totals().tasks == 43)
        // Asked again, it rebuilds.
        let again = try cold.reindexFromScratch()
        #expect(cold.builds == 2)
        #expect(again.files.count == 5)
        cold.close()
        // A usable index is opened as it is; reindexing it rebuilds once.
        let warm = try index(store)
        #expect(warm.builds == 0)
        #expect(try warm.reindexFromScratch().files.count == 5)
        #expect(warm.builds == 1)
        #expect(try warm.totals().tasks == 43)
    }

    @Test func aRowsContentHashChangesWithEveryValueTheIndexStores() throws {
        let day = try #require(LocalDate(iso: "2026-11-24"))
        let start = try #require(ClockTime(minutes: 600))
        let base = TaskItem(
            id: UUID(), title: "Draft the plan", due: .day(day), scheduled: day, remind: now, repeatRule: "every week",
            priority: .must, energy: .low, estimate: 30, slot: TaskSlot(day: day, start: start, minutes: 45),
            tags: ["a", "b"], wait: .day(day), depends: [UUID()], notes: "n", createdAt: now, modifiedAt: now,
            completedAt: nil, extra: [JSONMember("x-mine", .string("1"))])
        func hash(_ t: TaskItem) -> Int64 { RowWriter.contentHash(t, id: t.id.lowercased) }
        // The same values always hash alike; `changed` is not stored, so it does not count.
        var same = base
        same.changed = ["title": now]
        #expect(hash(same) == hash(base))
        let later = now.addingTimeInterval(1)
        let changes: [(String, (inout TaskItem) -> Void)] = [
            ("id", { $0.id = UUID() }), ("title", { $0.title += "!" }), ("state", { $0.state = .done }),
            ("due", { $0.due = .time(later) }), ("due absent", { $0.due = nil }), ("scheduled", { $0.scheduled = nil }),
            ("remind", { $0.remind = later }), ("repeat", { $0.repeatRule = "every day" }), ("priority", { $0.priority = .flexible }),
            ("energy", { $0.energy = nil }), ("estimate", { $0.estimate = 31 }),
            ("slot", { $0.slot?.minutes = 46 }), ("slot extra", { $0.slot?.extra = [JSONMember("k", .string("v"))] }),
            ("tags", { $0.tags = ["a b"] }), ("tag order", { $0.tags = ["b", "a"] }), ("wait", { $0.wait = .time(later) }),
            ("depends", { $0.depends = [] }), ("notes", { $0.notes = "m" }), ("notes to title", { $0.notes = nil; $0.title += "n" }),
            ("created", { $0.createdAt = later }), ("modified", { $0.modifiedAt = later }), ("completed", { $0.completedAt = later }),
            ("extra", { $0.extra = [JSONMember("x-mine", .string("2"))] }),
        ]
        for (what, change) in changes {
            var t = base
            change(&t)
            #expect(hash(t) != hash(base), "\(what)")
        }
    }

    @Test func shortIDsStayPutAcrossIncrementalChanges() throws {
        let (store, dir) = try sampleStore()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let index = try index(store)
        try index.refresh()
        let query = TaskQuery(now: now, timeZone: berlin)
        let pending = try index.run(.list(nil), filter: TaskFilter(), query: query)
        #expect(pending.compactMap(\.shortID) == Array(1...pending.count))
        // Complete the first work task by rewriting the file; others keep their ids.
        let work = FileKind.list(slug: "work")
        let victim = try #require(pending.first { $0.kind == work })
        _ = try store.withLock { writer in
            try writer.update(work) { file in
                try file.updateTask(victim.task.id) { task in task.setState(.done, at: now) }
            }
        }
        try index.refresh()
        let after = try index.run(.list(nil), filter: TaskFilter(), query: query)
        #expect(after.count == pending.count - 1)
        for item in after {
            #expect(item.shortID == pending.first { $0.task.id == item.task.id }?.shortID)
        }
        #expect(try index.task(shortID: victim.shortID ?? 0) == nil)
    }
}

/// The ranking projection ranks exactly as the full tasks do.
@Suite struct RankingProjectionTests {
    @Test func projectionRanksLikeFullTasks() throws {
        let base = IndexTests()
        let (store, dir) = try base.sampleStore()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let index = try base.index(store)
        try index.refresh()
        let query = TaskQuery(now: base.now, timeZone: base.berlin)
        let full = try index.run(.list(nil), filter: TaskFilter(), query: query).map(\.task)
        let light = try index.pendingForRanking()
        #expect(light.map(\.id) == full.map(\.id), "same tasks in the same display order")
        #expect(light.allSatisfy { $0.title.isEmpty })
        for energy in [nil, Energy.high, .low] {
            for minutes in [nil, 15, 60] {
                let ranker = TaskRanker(today: query.today, timeZone: base.berlin, minutes: minutes, energy: energy)
                #expect(ranker.rank(light).map(\.task.id) == ranker.rank(full).map(\.task.id), "\(String(describing: energy)) \(String(describing: minutes))")
            }
        }
        let some = Array(full.prefix(3).map(\.id).reversed())
        #expect(try index.tasks(ids: some).map(\.task) == full.prefix(3).map { $0 })
    }
}
