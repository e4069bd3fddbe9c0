import Foundation
import Testing
@testable import TickKit

/// Issue 33, classes 2–4: repeat occurrences, placement after the archive and
/// a move after a tombstone, through the file merge and the store merge, in
/// both merge orders (Docs/MERGE.md §14, §14a; Docs/RECURRENCE.md).
@Suite struct StoreReconcilerSyncTests {
    typealias F = MergeFixture
    static let utc = Zone(named: "UTC") ?? .utc

    static func file(_ kind: FileKind, _ tasks: [TaskItem], deleted: [Tombstone] = []) -> TaskFile {
        TaskFile(kind: kind, id: F.id(kind.relativePath), name: kind.relativePath,
                 createdAt: F.at("08:00"), modifiedAt: F.at("08:00"), tasks: tasks, deleted: deleted)
    }

    /// A change written as the CLI writes it: every field that changed stamped at `now`.
    @discardableResult
    static func write<R>(_ file: inout TaskFile, at now: String, _ body: (inout TaskFile) throws -> R) rethrows -> R {
        let old = file
        let r = try body(&file)
        StoreWriter.stampChanges(in: &file, since: old, at: F.at(now))
        return r
    }

    @discardableResult
    static func complete(_ file: inout TaskFile, _ id: UUID, at now: String) throws -> CompletionOutcome {
        try write(&file, at: now) { try $0.complete(taskID: id, at: F.at(now), timeZone: utc) }
    }

    @discardableResult
    static func reopen(_ file: inout TaskFile, _ id: UUID, at now: String) throws -> NextOccurrenceOnReopen {
        try write(&file, at: now) { try $0.reopen(taskID: id, at: F.at(now)).next }
    }

    static let work = FileKind.list(slug: "work")
    static let home = FileKind.list(slug: "home")
    static let archive = FileKind.archive(year: 2026)

    /// The two-way merge of `a` and `b` (checked symmetric, byte for byte).
    static func merge(_ a: TaskFile, _ b: TaskFile) -> TaskFile {
        F.merge(nil, a, b).file
    }

    /// Reconciles `files` in both orders, checks the bytes agree, and returns them by kind.
    static func reconcile(_ files: [TaskFile]) -> [FileKind: TaskFile] {
        let one = StoreReconciler.reconcile(files).files
        let other = StoreReconciler.reconcile(files.reversed()).files
        let a = Dictionary(uniqueKeysWithValues: one.map { ($0.kind, $0) })
        let b = Dictionary(uniqueKeysWithValues: other.map { ($0.kind, $0) })
        for (kind, file) in a {
            #expect(b[kind].map(F.canonical) == F.canonical(file), "reconciling is order-dependent for \(kind.relativePath)")
        }
        // Idempotent: a second pass changes nothing.
        #expect(StoreReconciler.reconcile(one).report.isEmpty)
        return a
    }

    /// Where `id` is in `files`.
    static func places(_ id: UUID, _ files: [FileKind: TaskFile]) -> [FileKind] {
        files.values.filter { $0.index(of: id) != nil }.map(\.kind).sorted()
    }

    static let series = TaskItem(id: F.id("r"), title: "Water plants", due: LocalDate(iso: "2026-11-20").map { .day($0) },
                                 repeatRule: "daily", createdAt: F.at("08:00"), modifiedAt: F.at("08:00"))
    static let nextID = TaskFile.nextOccurrenceID(after: series.id)

    // MARK: Class 2: a repeat's next occurrence

    @Test func aReCompletedSeriesDoesNotReopenTheArchivedOccurrence() throws {
        // A completes R at 09:00 (N created); both machines have that file.
        var a = Self.file(Self.work, [Self.series])
        try Self.complete(&a, Self.series.id, at: "09:00")
        var b = a
        // A reopens R (N, untouched, is removed) and completes it again at 09:40.
        let reopened = try Self.reopen(&a, Self.series.id, at: "09:10")
        guard case .removed = reopened else { Issue.record("N was not removed"); return }
        #expect(a.deleted.isEmpty, "a reopen leaves no tombstone")
        let again = try Self.complete(&a, Self.series.id, at: "09:40")
        #expect(again.nextCreated)
        // B completes N at 09:20 and archives it at 09:30.
        try Self.complete(&b, Self.nextID, at: "09:20")
        let plan = ArchivePlan.make(files: [b], before: F.at("09:30"), timeZone: Self.utc, now: F.at("09:30"))
        let done = plan.moves.filter { $0.task.id == Self.nextID }
        #expect(done.count == 1)
        b.tasks.removeAll { $0.id == Self.nextID }
        let archive = Self.file(Self.archive, done.map(\.archived))
        // Sync (a Syncthing conflict copy of work, merged two-way), then the store merge.
        let work = Self.merge(a, b)
        let out = Self.reconcile([work, archive])
        #expect(Self.places(Self.nextID, out) == [Self.archive], "one id, one file")
        let n = try #require(out[Self.archive]?.tasks.first { $0.id == Self.nextID })
        #expect(n.state == .done && n.completedAt == F.at("09:20"), "the completion is kept")
        #expect(out[Self.work]?.tasks.first { $0.id == Self.series.id }?.state == .done)
    }

    @Test func aDeletedOccurrenceDoesNotComeBackWhenTheSeriesIsCompletedAgain() throws {
        var a = Self.file(Self.work, [Self.series])
        try Self.complete(&a, Self.series.id, at: "09:00")
        var b = a
        try Self.reopen(&a, Self.series.id, at: "09:10")
        try Self.complete(&a, Self.series.id, at: "09:40")
        // B deleted N at 09:20.
        b.tasks.removeAll { $0.id == Self.nextID }
        b.recordDeletion(of: [Self.nextID], at: F.at("09:20"))
        let merged = Self.merge(a, b)
        #expect(merged.index(of: Self.nextID) == nil, "the deletion stands")
        // With the deletion seen, reopening and completing the series again does not bring N back.
        var c = merged
        try Self.reopen(&c, Self.series.id, at: "10:00")
        #expect(try Self.complete(&c, Self.series.id, at: "10:10").nextCreated == false)
        #expect(c.index(of: Self.nextID) == nil)
    }

    @Test func anUntouchedOccurrenceLeftOnAnotherMachineGoesWhenTheSeriesIsReopened() throws {
        var a = Self.file(Self.work, [Self.series])
        try Self.complete(&a, Self.series.id, at: "09:00")
        var b = a
        try Self.reopen(&a, Self.series.id, at: "09:10")
        // B changed something else meanwhile: a conflict copy, merged two-way keeps N (no tombstone).
        b.tasks.append(F.task("x", "Other", "09:05"))
        let out = Self.reconcile([Self.merge(a, b)])
        #expect(Self.places(Self.nextID, out) == [], "the reopen's removal reaches every copy")
        #expect(StoreReconciler.reconcile([Self.merge(a, b)]).report.withdrawn == [Self.nextID])
        #expect(out[Self.work]?.tasks.map(\.id) == [Self.series.id, F.id("x")])
        // Completing again makes the same occurrence, byte for byte.
        var c = try #require(out[Self.work])
        try Self.complete(&c, Self.series.id, at: "09:00")
        var first = Self.file(Self.work, [Self.series])
        try Self.complete(&first, Self.series.id, at: "09:00")
        #expect(c.tasks.first { $0.id == Self.nextID } == first.tasks.first { $0.id == Self.nextID })
        // A touched occurrence stays.
        var touched = b
        try touched.updateTask(Self.nextID) { $0.title = "Water the ficus"; $0.stamp("title", at: F.at("09:20")); $0.modifiedAt = F.at("09:20") }
        let kept = Self.reconcile([Self.merge(a, touched)])
        #expect(Self.places(Self.nextID, kept) == [Self.work])
    }

    @Test func theOccurrenceCarriesTheSeriesCreationTime() throws {
        var a = Self.file(Self.work, [Self.series])
        let o = try Self.complete(&a, Self.series.id, at: "09:00")
        let n = try #require(o.next)
        #expect(n.createdAt == Self.series.createdAt && n.modifiedAt == Self.series.createdAt)
        #expect(n.isUntouchedOccurrence)
    }

    // MARK: Class 3: placement after the archive

    @Test func aTaskMovedElsewhereThenArchivedGoesBackToTheListItWasMovedToWhenReopened() throws {
        let x = F.task("b", "Pay rent", "08:30", state: .done, completed: "08:30", changed: ["state": "08:30"])
        // C moved it from work to home at 09:00.
        var moved = x
        moved.stamp("list", at: F.at("09:00"))
        moved.modifiedAt = F.at("09:00")
        // A, which had not seen the move, archived it from work at 10:00.
        let archived = ArchivePlan.archived(x, from: Self.work, now: F.at("10:00"))
        // A and C sync: the archived copy was placed last and is done: archived,
        // but its list is now home (C's move is later than its place in work).
        let first = Self.reconcile([Self.file(Self.work, []), Self.file(Self.home, [moved]), Self.file(Self.archive, [archived])])
        #expect(Self.places(x.id, first) == [Self.archive])
        let a = try #require(first[Self.archive]?.tasks.first)
        #expect(ArchivePlan.origin(of: a) == Self.home)
        // B, which had seen neither, reopened it at 11:00 in work.
        var reopened = x
        reopened.setState(.open, at: F.at("11:00"))
        reopened.stamp("state", at: F.at("11:00"))
        reopened.modifiedAt = F.at("11:00")
        let files = [Self.file(Self.work, [reopened]), first[Self.home] ?? Self.file(Self.home, []), first[Self.archive] ?? Self.file(Self.archive, [])]
        let out = Self.reconcile(files)
        #expect(Self.places(x.id, out) == [Self.home], "the list it was placed in last, not its original list")
        let back = try #require(out[Self.home]?.tasks.first)
        #expect(back.state == .open && ArchivePlan.origin(of: back) == nil && back.changed[ArchivePlan.fromKey] == nil)
    }

    @Test func theArchivedOriginNeverBeatsALaterMove() throws {
        let x = F.task("b", "Pay rent", "08:30", state: .done, completed: "08:30", changed: ["state": "08:30"])
        let archived = ArchivePlan.archived(x, from: Self.work, now: F.at("10:00"))
        #expect(archived.changed[ArchivePlan.fromKey] == x.listTime)
        // Moved to home at 09:00 and reopened there at 11:00: home.
        var moved = x
        moved.stamp("list", at: F.at("09:00"))
        moved.setState(.open, at: F.at("11:00"))
        moved.stamp("state", at: F.at("11:00"))
        moved.modifiedAt = F.at("11:00")
        let out = Self.reconcile([Self.file(Self.work, []), Self.file(Self.home, [moved]), Self.file(Self.archive, [archived])])
        #expect(Self.places(x.id, out) == [Self.home])
        // A stale copy in work (placed before the archived origin's time) loses to the origin.
        var stale = x
        stale.setState(.open, at: F.at("11:00"))
        stale.stamp("state", at: F.at("11:00"))
        stale.modifiedAt = F.at("11:00")
        var hinted = archived
        hinted.extra = [JSONMember(ArchivePlan.fromKey, .string(Self.home.relativePath))]
        hinted.changed[ArchivePlan.fromKey] = F.at("09:00")
        let out2 = Self.reconcile([Self.file(Self.work, [stale]), Self.file(Self.home, []), Self.file(Self.archive, [hinted])])
        #expect(Self.places(x.id, out2) == [Self.home])
    }

    // MARK: Class 4: a move after a tombstone

    /// X was deleted in work at 10:03:00 on one machine; on the other it was
    /// moved away and back (the move stamped 10:03:07, modifiedAt 10:03:00).
    static func deletedAndMovedBack() -> (base: TaskFile, deleted: TaskFile, moved: TaskFile) {
        let t0 = F.at("10:03")
        let x = F.task("b", "Call mom", "10:00")
        var moved = x
        moved.changed["list"] = t0.addingTimeInterval(7)
        moved.modifiedAt = t0
        let base = Self.file(Self.work, [F.task("a", "A"), x])
        let deleted = Self.file(Self.work, [F.task("a", "A")], deleted: [Tombstone(id: x.id, at: t0)])
        let back = Self.file(Self.work, [F.task("a", "A"), moved])
        return (base, deleted, back)
    }

    @Test func aMoveStampedAfterTheDeletionKeepsTheTaskInEveryMerge() {
        let (base, deleted, moved) = Self.deletedAndMovedBack()
        let id = F.id("b")
        #expect(F.merge(nil, deleted, moved).file.index(of: id) != nil, "two-way (Syncthing, tick resolve)")
        #expect(F.merge(base, deleted, moved).file.index(of: id) != nil, "three-way (git merge driver)")
        // In the store merge, with the tombstone in another file.
        var there = moved
        there.kind = Self.home
        let out = Self.reconcile([deleted, there])
        #expect(Self.places(id, out) == [Self.home])
        // A move stamped before the deletion does not keep it.
        var early = moved
        if let i = early.index(of: id) { early.tasks[i].changed["list"] = F.at("10:02") }
        #expect(F.merge(nil, deleted, early).file.index(of: id) == nil)
    }
}
