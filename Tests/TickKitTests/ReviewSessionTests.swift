import Foundation
import Testing
@testable import TickKit

/// `tick review`'s decisions, in process (issue 28): what an answer means,
/// what each action writes, and the tally the summary is made of.
@Suite struct ReviewSessionTests {
    let setup = TaskAddingTests()

    func review(_ f: (store: Store, session: IndexSession, dir: String)) -> ReviewSession {
        ReviewSession(store: f.store, session: f.session, now: setup.now.addingTimeInterval(60), timeZone: setup.utc)
    }

    func task(_ store: Store, _ kind: FileKind, _ title: String) throws -> TaskItem? {
        try store.read(kind)?.file.tasks.first { $0.title == title }
    }

    @Test func answersMeanWhatTheQuestionSays() {
        #expect(ReviewSession.answer("d") == .done)
        #expect(ReviewSession.answer("DONE") == .done)
        #expect(ReviewSession.answer("t") == .tomorrow)
        #expect(ReviewSession.answer("pick a date") == .pick)
        #expect(ReviewSession.answer("I") == .inbox)
        #expect(ReviewSession.answer("skip") == .skip)
        #expect(ReviewSession.answer("q") == .quit)
        #expect(ReviewSession.answer("") == nil, "an empty line asks again")
        #expect(ReviewSession.answer("x") == nil)
    }

    @Test func eachDecisionIsWrittenAndCounted() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let added = try setup.adding(f).add([
            (nil, ["finish", "due:2026-11-23"]), (nil, ["later", "due:2026-11-22"]),
            (nil, ["rethink", "due:2026-11-23", "list:Work"]), (nil, ["leave", "due:2026-11-23"]),
        ]).added
        let tomorrow = LocalDate(iso: "2026-11-24")!
        let decisions: [ReviewSession.Decision] = [.done, .moveTo(.day(tomorrow)), .inbox, .skip]
        var reported: [String] = []
        let summary = review(f).run(added, decide: { n, item in
            #expect(item.task.id == added[n].task.id)
            return decisions[n]
        }, report: { item, outcome in
            switch outcome {
            case let .completed(now, result, _): reported.append("done \(now.task.title) \(result.changed)")
            case let .moved(target, changed): reported.append("moved \(item.task.title) \(target == .day(tomorrow)) \(changed)")
            case .sentToInbox: reported.append("inbox \(item.task.title)")
            case .skipped: reported.append("skip \(item.task.title)")
            case .failed(let error): reported.append("failed \(error)")
            }
        })
        #expect(reported == ["done finish true", "moved later true true", "inbox rethink", "skip leave"])
        #expect(summary.tally == { var t = ReviewSession.Tally(); t.done = 1; t.moved = 1; t.inbox = 1; t.skipped = 1; return t }())
        #expect(summary.stoppedBy == nil)
        #expect(summary.left == 0)
        #expect(try task(f.store, .inbox, "finish")?.state == .done)
        #expect(try task(f.store, .inbox, "later")?.due == .day(tomorrow))
        #expect(try task(f.store, .inbox, "leave")?.due == .day(LocalDate(iso: "2026-11-23")!))
        // Back to the inbox: no dates, gone from Work without a tombstone (a move).
        let sent = try #require(try task(f.store, .inbox, "rethink"))
        #expect(sent.due == nil)
        let work = try #require(try f.store.read(.list(slug: "work"))?.file)
        #expect(work.tasks.isEmpty)
        #expect(work.deleted.isEmpty)
    }

    @Test func sendingToTheInboxIsTheMoveTickMvMakesWithTheDatesCleared() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let added = try setup.adding(f).add([
            (nil, ["reviewed", "due:2026-11-23", "list:Work"]), (nil, ["moved", "due:2026-11-23", "list:Work"]),
        ]).added
        let later = setup.now.addingTimeInterval(60)
        try review(f).sendToInbox(added[0])
        _ = try TaskMutation(store: f.store, session: f.session, now: later).move([.id(added[1].task.id)], to: "inbox")
        let work = try #require(try f.store.read(.list(slug: "work"))?.file)
        #expect(work.tasks.isEmpty)
        #expect(work.deleted.isEmpty, "a move is not a deletion, from review as from tick mv")
        let reviewed = try #require(try task(f.store, .inbox, "reviewed"))
        let moved = try #require(try task(f.store, .inbox, "moved"))
        #expect(reviewed.changed["list"] == later)
        #expect(reviewed.changed["list"] == moved.changed["list"])
        #expect(reviewed.changed["order"] == nil && moved.changed["order"] == nil)
        #expect(reviewed.modifiedAt == moved.modifiedAt)
        // What review changes on the way is stamped too, so a merge does not bring the dates back.
        #expect(reviewed.due == nil && moved.due != nil)
        #expect(reviewed.changed["due"] == later)
        #expect(moved.changed["due"] == nil)
    }

    @Test func aTaskAlreadyInTheInboxOnlyLosesItsDates() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let added = try setup.adding(f).add([(nil, ["here", "due:2026-11-23"])]).added
        try review(f).sendToInbox(added[0])
        let inbox = try #require(try f.store.read(.inbox)?.file)
        #expect(inbox.tasks.map(\.title) == ["here"])
        #expect(inbox.tasks[0].due == nil)
        #expect(inbox.tasks[0].changed["list"] == nil, "not moved")
        #expect(inbox.tasks[0].changed["due"] != nil)
        #expect(inbox.deleted.isEmpty)
    }

    /// What the other machine does to its copy of the store meanwhile.
    enum OtherChange: CaseIterable {
        /// Renames the task in Work, before the review.
        case renameEarlier
        /// Moves the task to Home (`tick mv`), before the review.
        case moveEarlier
        /// Renames the task in Work, after the review.
        case renameLater
    }

    /// Machine A sends a Work task to the inbox in review while machine B,
    /// with its own copy of the store, changes the task; then the stores
    /// meet as a git sync does (each file merged three-way, then the store
    /// merged, Docs/MERGE.md §14). The review's move wins over B's earlier
    /// move, keeps B's rename, and its cleared dates stay cleared.
    @Test(arguments: OtherChange.allCases)
    func theMoveSurvivesASyncWithAnotherCopyOfTheStore(_ other: OtherChange) throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let home = FileKind.list(slug: "home")
        try AtomicFile.write(TaskFileEncoder.encode(TaskFile.empty(home, name: "Home", now: setup.now)),
                             to: f.store.location.path(of: home), mode: nil)
        let added = try setup.adding(f).add([(nil, ["rethink", "due:2026-11-23", "list:Work"])]).added
        let ref = TaskReference.id(added[0].task.id)
        // Edited once before, as most tasks are (its `changed` is not empty).
        _ = try TaskMutation(store: f.store, session: f.session, now: setup.now).apply([ref]) { task, _ in
            task.tags.append("plan")
            return true
        }
        let kinds: [FileKind] = [.inbox, .list(slug: "work"), home]
        let base = try kinds.map { try f.store.read($0)?.file }

        // Machine B: a copy of the store, its own clock and index.
        let bNow = setup.now.addingTimeInterval(other == .renameLater ? 90 : 30)
        let bDir = f.dir + "/b"
        try FileManager.default.createDirectory(atPath: bDir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: f.store.location.root, toPath: bDir + "/store")
        let bStore = Store(location: StoreLocation(root: bDir + "/store", stateDirectory: bDir + "/state", cacheDirectory: bDir + "/cache"),
                           clock: { bNow })
        let bSession = IndexSession(try TaskIndex.open(store: bStore, now: { bNow }))
        let bMutation = TaskMutation(store: bStore, session: bSession, now: bNow)
        switch other {
        case .renameEarlier, .renameLater:
            _ = try bMutation.apply([ref]) { task, _ in
                task.title = "rethink the plan"
                return true
            }
        case .moveEarlier:
            _ = try bMutation.move([ref], to: "home")
        }

        // Machine A reviews at +60 s: back to the inbox.
        try review(f).sendToInbox(added[0])

        // The sync: every file merged three-way, then the store.
        for (i, kind) in kinds.enumerated() {
            // A file only one side has (A's new inbox.json) is taken as it is.
            let (ours, theirs) = (try f.store.read(kind)?.file, try bStore.read(kind)?.file)
            guard let merged = ours.flatMap({ o in theirs.map { MergeEngine.merge(base: base[i], ours: o, theirs: $0).file } }) ?? ours ?? theirs
            else { continue }
            try AtomicFile.write(TaskFileEncoder.encode(merged), to: f.store.location.path(of: kind), mode: nil)
        }
        _ = try f.store.withLock { writer in try StoreReconciler.run(writer: writer) }

        let copies = try kinds.map { kind in try f.store.read(kind)?.file.tasks.filter { $0.id == added[0].task.id } ?? [] }
        #expect(copies.map(\.count) == [1, 0, 0], "one copy, in the inbox: \(copies)")
        let result = try #require(copies[0].first)
        #expect(result.due == nil, "the review cleared the dates")
        #expect(result.tags == ["plan"])
        #expect(result.title == (other == .moveEarlier ? "rethink" : "rethink the plan"), "B's rename is kept")
        for kind in kinds {
            #expect(try f.store.read(kind)?.file.deleted.isEmpty == true, "no tombstone in \(kind)")
        }
    }

    @Test func quitAndEndOfInputStopTheWalkAndLeaveTheRest() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let added = try setup.adding(f).add([(nil, ["a", "due:2026-11-23"]), (nil, ["b", "due:2026-11-23"]), (nil, ["c", "due:2026-11-23"])]).added
        let reports = Counter()
        let quit = review(f).run(added, decide: { n, _ in n == 0 ? .skip : .quit }, report: { _, _ in _ = reports.next() })
        #expect(quit.stoppedBy == .quit)
        #expect(quit.tally.reviewed == 1)
        #expect(quit.left == 2)
        #expect(reports.value == 1, "quit is not an action")
        let ended = review(f).run(added, decide: { _, _ in nil }, report: { _, _ in _ = reports.next() })
        #expect(ended.stoppedBy == .endOfInput)
        #expect(ended.left == 3)
        #expect(reports.value == 1)
        #expect(try setup.titles(f.store, .inbox) == ["a", "b", "c"])
        #expect(try task(f.store, .inbox, "a")?.due == .day(LocalDate(iso: "2026-11-23")!), "a skip changes nothing")
    }

    @Test func aTaskThatVanishedIsCountedAsFailedAndTheWalkGoesOn() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let added = try setup.adding(f).add([(nil, ["gone", "due:2026-11-23"]), (nil, ["here", "due:2026-11-23"])]).added
        try f.store.withLock { writer in
            try writer.update(.inbox) { file in file.tasks.removeAll { $0.title == "gone" } }
        }
        var failures = 0
        let summary = review(f).run(added, decide: { _, _ in .done }, report: { _, outcome in
            if case .failed = outcome { failures += 1 }
        })
        #expect(failures == 1)
        #expect(summary.tally.failed == 1)
        #expect(summary.tally.done == 1)
        #expect(try task(f.store, .inbox, "here")?.state == .done)
    }

    @Test func completingARepeatingTaskCreatesItsNextOccurrence() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let added = try setup.adding(f).add([(nil, ["water", "plants", "due:2026-11-23", "repeat:daily"])]).added
        let (item, outcome) = try review(f).complete(added[0])
        #expect(item.task.state == .done)
        #expect(outcome.nextCreated)
        let next = try #require(outcome.next)
        #expect(next.due == .day(LocalDate(iso: "2026-11-24")!))
        #expect(try f.store.read(.inbox)?.file.tasks.count == 2)
    }
}
