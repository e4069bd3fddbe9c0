import Foundation
import Testing
@testable import TickKit

/// `tick review`'s decisions, in process (issue 28): what an answer means,
/// what each action writes, and the tally the summary is made of.
@Suite struct ReviewSessionTests {
    let setup = TaskAddingTests()

    func review(_ f: (store: Store, session: IndexSession, dir: String, warnings: WarningLog)) -> ReviewSession {
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
        // Back to the inbox: no dates, gone from Work with a tombstone.
        let sent = try #require(try task(f.store, .inbox, "rethink"))
        #expect(sent.due == nil)
        let work = try #require(try f.store.read(.list(slug: "work"))?.file)
        #expect(work.tasks.isEmpty)
        #expect(work.deleted.map(\.id) == [added[2].task.id])
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
