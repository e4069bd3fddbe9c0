import Foundation
import Testing
@testable import TickKit

/// `tick resolve` for blocks.json, in process (issue 28): git conflict
/// markers and Syncthing conflict copies, merged block by block.
@Suite struct CommitmentConflictsTests {
    let setup = TaskAddingTests()

    func block(_ name: String) -> Commitment {
        Commitment(id: UUID(name: name), title: name, recurrence: .once(LocalDate(iso: "2026-11-24")!),
                   start: ClockTime(parsing: "10:00")!, end: ClockTime(parsing: "10:30")!,
                   createdAt: setup.now, modifiedAt: setup.now)
    }

    func bytes(_ names: [String]) -> [UInt8] {
        CommitmentFileCodec.encode(CommitmentFile(blocks: names.map(block)))
    }

    func write(_ bytes: [UInt8], _ path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    func titles(_ store: Store) throws -> [String] {
        try store.commitments().blocks.map(\.title)
    }

    @Test func conflictCopiesAreMergedOldestFirstThenRemoved() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        try write(bytes(["Standup"]), f.store.commitmentsPath)
        let first = f.store.location.path("blocks.sync-conflict-20261123-101010-ABCDEFG.json")
        let second = f.store.location.path("blocks.sync-conflict-20261122-080000-ABCDEFG.json")
        try write(bytes(["Standup", "Lunch"]), first)
        try write(bytes(["Gym"]), second)
        #expect(CommitmentConflicts(store: f.store, dryRun: true).copies.map(\.path) == [second, first])
        #expect(CommitmentConflicts(store: f.store, dryRun: true).pending)

        let dry = try #require(try CommitmentConflicts(store: f.store, dryRun: true).resolveCopies())
        #expect(dry.merged == 2)
        #expect(dry.report.added == 2)
        #expect(try titles(f.store) == ["Standup"], "a dry run writes nothing")
        #expect(FileManager.default.fileExists(atPath: first))

        let done = try #require(try CommitmentConflicts(store: f.store, dryRun: false).resolveCopies())
        #expect(done.merged == 2)
        #expect(done.report.added == 2)
        #expect(done.unreadable.isEmpty)
        #expect(try Set(titles(f.store)) == ["Standup", "Lunch", "Gym"])
        #expect(!FileManager.default.fileExists(atPath: first) && !FileManager.default.fileExists(atPath: second))
        #expect(!CommitmentConflicts(store: f.store, dryRun: false).pending)
        #expect(try CommitmentConflicts(store: f.store, dryRun: false).resolveCopies() == nil)
    }

    @Test func anUnreadableCopyIsReportedAndLeftAlone() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        try write(bytes(["Standup"]), f.store.commitmentsPath)
        let broken = f.store.location.path("blocks.sync-conflict-20261123-101010-ABCDEFG.json")
        try write(Array("{ not json".utf8), broken)
        let outcome = try #require(try CommitmentConflicts(store: f.store, dryRun: false).resolveCopies())
        #expect(outcome.unreadable.count == 1)
        #expect(outcome.unreadable.first?.path == broken)
        #expect(outcome.merged == 0)
        #expect(FileManager.default.fileExists(atPath: broken))
        #expect(try titles(f.store) == ["Standup"])
    }

    @Test func gitConflictMarkersAreMergedTwoWayAndWrittenBack() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let conflicted = Array("<<<<<<< HEAD\n".utf8) + bytes(["Standup"]) + Array("=======\n".utf8) + bytes(["Standup", "Lunch"])
            + Array(">>>>>>> other\n".utf8)
        try write(conflicted, f.store.commitmentsPath)
        let conflicts = CommitmentConflicts(store: f.store, dryRun: false)
        #expect(conflicts.hasMarkers)
        let outcome = try #require(try conflicts.resolveMarkers())
        guard case let .merged(threeWay, report) = outcome else {
            Issue.record("not merged: \(outcome)")
            return
        }
        #expect(!threeWay)
        #expect(report.added == 1)
        #expect(!outcome.failed)
        #expect(!conflicts.hasMarkers)
        #expect(try titles(f.store) == ["Standup", "Lunch"])
        #expect(try conflicts.resolveMarkers() == nil, "nothing left to do")
    }

    @Test func aSideThatDoesNotParseLeavesTheFileAlone() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let conflicted = Array("<<<<<<< HEAD\n".utf8) + bytes(["Standup"]) + Array("=======\n{ broken\n>>>>>>> other\n".utf8)
        try write(conflicted, f.store.commitmentsPath)
        let outcome = try #require(try CommitmentConflicts(store: f.store, dryRun: false).resolveMarkers())
        guard case .unreadable(let error) = outcome else {
            Issue.record("a broken side was merged: \(outcome)")
            return
        }
        #expect(error.path.hasSuffix("(theirs)"))
        #expect(outcome.failed)
        #expect(try Data(contentsOf: URL(fileURLWithPath: f.store.commitmentsPath)) == Data(conflicted))
    }
}
