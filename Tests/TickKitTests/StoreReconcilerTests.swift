import Foundation
import Testing
@testable import TickKit

/// The store-level merge (Docs/MERGE.md §14): one task id, one file.
@Suite struct StoreReconcilerTests {
    typealias F = MergeFixture

    static func file(_ slug: String?, _ tasks: [TaskItem], deleted: [Tombstone] = []) -> TaskFile {
        TaskFile(kind: slug.map { .list(slug: $0) } ?? .inbox, id: F.id(slug ?? "i"), name: slug,
                 createdAt: F.at("08:00"), modifiedAt: F.at("08:00"), tasks: tasks, deleted: deleted)
    }

    @Test func aMoveOnOneMachineAndAnEditOnTheOtherEndInTheTargetWithTheEdit() {
        // Machine 1 moved b from work to home at 09:10; machine 2 renamed it at 09:05 in work.
        let work = Self.file("work", [F.task("a", "A"), F.task("b", "Call dad", "09:05", changed: ["title": "09:05"])])
        let home = Self.file("home", [F.task("b", "Call mom", "09:10", changed: ["list": "09:10"])])
        let (files, report) = StoreReconciler.reconcile([work, home])
        #expect(files[0].tasks.map(\.title) == ["A"])
        #expect(files[1].tasks == [F.task("b", "Call dad", "09:10", changed: ["title": "09:05", "list": "09:10"])])
        #expect(report.merged == [F.id("b")])
        #expect(report.files == [.list(slug: "home"), .list(slug: "work")])
        // The same whatever the order the files come in.
        #expect(StoreReconciler.reconcile([home, work]).files.sorted { $0.kind < $1.kind } == files.sorted { $0.kind < $1.kind })
    }

    @Test func twoMovesToDifferentListsEndInTheLaterOne() {
        let errands = Self.file("errands", [F.task("b", "B", "09:20", changed: ["list": "09:20"])])
        let home = Self.file("home", [F.task("b", "B", "09:10", changed: ["list": "09:10"])])
        let (files, _) = StoreReconciler.reconcile([errands, home])
        #expect(files.map { $0.tasks.count } == [1, 0])
    }

    @Test func aCopyOfATaskDeletedLaterElsewhereIsRemoved() {
        // b was moved to home and deleted there at 09:30; an old copy came back into work.
        let work = Self.file("work", [F.task("b", "B", "09:00")])
        let home = Self.file("home", [], deleted: [F.tomb("b", "09:30")])
        let (files, report) = StoreReconciler.reconcile([work, home])
        #expect(files[0].tasks.isEmpty)
        #expect(report.removed == [F.id("b")])
        // Edited after that deletion: kept.
        let edited = Self.file("work", [F.task("b", "B", "09:40", changed: ["notes": "09:40"])])
        #expect(StoreReconciler.reconcile([edited, home]).report.isEmpty)
    }

    @Test func aMoveRecordedByAnOlderTickIsNotADeletion() {
        // tick 0.1 moved b out of work at 09:10 with a tombstone there, and bumped modifiedAt.
        let work = Self.file("work", [], deleted: [F.tomb("b", "09:10")])
        let home = Self.file("home", [F.task("b", "B", "09:10")])
        #expect(StoreReconciler.reconcile([work, home]).report.isEmpty)
    }

    @Test func reconcilingIsIdempotent() {
        let work = Self.file("work", [F.task("b", "Call dad", "09:05", changed: ["title": "09:05"])])
        let home = Self.file("home", [F.task("b", "Call mom", "09:10", changed: ["list": "09:10"])])
        let once = StoreReconciler.reconcile([work, home]).files
        let twice = StoreReconciler.reconcile(once)
        #expect(twice.files == once)
        #expect(twice.report.isEmpty)
    }

    @Test func twoMovesInOneSecondEndInTheLaterOneNotInAStaleCopyOfTheFirst() {
        // Added at 09:00, moved to errands and then to home within that same
        // second (or under a pinned TICK_NOW); an editor then saved errands
        // from a buffer read before the second move, bringing the copy back.
        let now = F.at("09:00")
        var task = F.task("b", "B", "09:00")
        task.stamp("list", at: now)
        let stale = task
        task.stamp("list", at: now)
        #expect(MergeClock.isLater(task.listTime, than: stale.listTime))
        let errands = Self.file("errands", [stale])
        let home = Self.file("home", [task])
        for files in [[errands, home], [home, errands]] {
            let merged = StoreReconciler.reconcile(files).files.sorted { $0.kind < $1.kind }
            #expect(merged.map { $0.tasks.count } == [0, 1], "the task stays where it was moved last")
        }
    }

    @Test func aChangeInTheSameSecondAsTheLastIsStampedAfterIt() {
        let now = F.at("09:00")
        let old = F.task("b", "B", "09:00", changed: ["title": "09:00"])
        var edited = old
        edited.title = "C"
        edited.stampChanges(since: old, at: now)
        #expect(edited.changed["title"] == now.addingTimeInterval(1))
        #expect(edited.modifiedAt == now.addingTimeInterval(1))
        // A clock that moved on is used as it is.
        var later = old
        later.title = "D"
        later.stampChanges(since: old, at: F.at("09:05"))
        #expect(later.changed["title"] == F.at("09:05"))
    }
}
