import Foundation
import Testing
@testable import TickKit

/// `tick archive`'s plan and the store merge of archived tasks (Docs/MERGE.md §14a).
@Suite struct ArchiveTests {
    typealias F = MergeFixture

    static func file(_ kind: FileKind, _ tasks: [TaskItem]) -> TaskFile {
        TaskFile(kind: kind, id: F.id(kind.idSeed), name: kind == .inbox ? nil : kind.idSeed,
                 createdAt: F.at("08:00"), modifiedAt: F.at("08:00"), tasks: tasks)
    }

    static let utc = Zone(named: "UTC") ?? .utc
    static let berlin = Zone(named: "Europe/Berlin") ?? .utc

    /// Applies edits in memory, as MultiFileWrite applies them to what it reads.
    static func apply(_ edits: [FileEdit], to files: [TaskFile]) throws -> [FileKind: TaskFile] {
        var out: [FileKind: TaskFile] = [:]
        for f in files { out[f.kind] = f }
        for edit in edits {
            var f = out[edit.kind] ?? (edit.create?() ?? TaskFile.empty(edit.kind, name: "x", now: F.day))
            try edit.change(&f)
            out[edit.kind] = f
        }
        return out
    }

    @Test func onlyDoneTasksCompletedBeforeTheCutoffAreMoved() {
        let work = Self.file(.list(slug: "work"), [
            F.task("a", "open"),
            F.task("b", "done early", state: .done, completed: "09:00"),
            F.task("c", "done late", state: .done, completed: "11:00"),
            F.task("d", "done without a time", state: .done),
        ])
        let inbox = Self.file(.inbox, [F.task("e", "inbox done", state: .done, completed: "07:00")])
        let archive = Self.file(.archive(year: 2026), [F.task("z", "already archived", state: .done, completed: "06:00")])
        let plan = ArchivePlan.make(files: [inbox, work, archive], before: F.at("10:00"), timeZone: Self.utc, now: F.at("12:00"))
        #expect(plan.moves.map(\.task.id) == [F.id("e"), F.id("b")])
        #expect(plan.sources == [.inbox, .list(slug: "work")])
        #expect(plan.targets == [.archive(year: 2026)])
        // The cutoff is exclusive: a task completed exactly then stays.
        let exact = ArchivePlan.make(files: [work], before: F.at("09:00"), timeZone: Self.utc, now: F.at("12:00"))
        #expect(exact.isEmpty)
    }

    @Test func theYearIsTheLocalYearOfTheCompletion() {
        // 2025-12-31T23:30Z is 2026-01-01 00:30 in Berlin.
        let instant = Date(timeIntervalSince1970: 1_767_223_800)
        var task = F.task("a", "New year's eve", state: .done)
        task.completedAt = instant
        let files = [Self.file(.list(slug: "home"), [task])]
        let later = instant.addingTimeInterval(86_400)
        #expect(ArchivePlan.make(files: files, before: later, timeZone: Self.utc, now: later).moves.map(\.year) == [2025])
        #expect(ArchivePlan.make(files: files, before: later, timeZone: Self.berlin, now: later).moves.map(\.year) == [2026])
    }

    @Test func anArchivedTaskNamesItsFileAndRecordsTheMove() throws {
        let task = F.task("b", "B", "09:00", state: .done, completed: "09:00", changed: ["order": "08:30", "state": "09:00"])
        let archived = ArchivePlan.archived(task, from: .list(slug: "work"), now: F.at("12:00"))
        #expect(ArchivePlan.origin(of: archived) == .list(slug: "work"))
        #expect(archived.changed["list"] == F.at("12:00"))
        #expect(archived.changed["order"] == nil)
        #expect(archived.changed["state"] == F.at("09:00"))
        #expect(archived.modifiedAt == F.at("12:00"))
        // Archived twice (after an undo and a redo): one key.
        let again = ArchivePlan.archived(archived, from: .inbox, now: F.at("13:00"))
        #expect(again.extra.filter { $0.key == ArchivePlan.fromKey }.count == 1)
        #expect(ArchivePlan.origin(of: again) == .inbox)
        #expect(ArchivePlan.unarchived(again).extra.isEmpty)
    }

    @Test func theEditsMoveTasksWithoutTombstones() throws {
        let work = Self.file(.list(slug: "work"), [
            F.task("a", "open"), F.task("b", "B", state: .done, completed: "09:00"),
        ])
        let old = Self.file(.archive(year: 2026), [F.task("z", "Z", state: .done, completed: "06:00")])
        let plan = ArchivePlan.make(files: [work, old], before: F.at("10:00"), timeZone: Self.utc, now: F.at("12:00"))
        let edits = plan.edits(now: F.at("12:00"))
        // The archive file is written first: an interruption leaves a copy, never a loss.
        #expect(edits.map(\.kind) == [.archive(year: 2026), .list(slug: "work")])
        let out = try Self.apply(edits, to: [work, old])
        #expect(out[.list(slug: "work")]?.tasks.map(\.id) == [F.id("a")])
        #expect(out[.list(slug: "work")]?.deleted.isEmpty == true)
        #expect(out[.archive(year: 2026)]?.tasks.map(\.id) == [F.id("z"), F.id("b")])
        // A new archive file gets the same id on every machine.
        let fresh = try Self.apply(edits, to: [work])
        #expect(fresh[.archive(year: 2026)]?.id == ArchivePlan.newArchiveFile(year: 2026, now: F.at("13:00")).id)
        #expect(fresh[.archive(year: 2026)]?.name == "Archive 2026")
    }

    @Test func aTaskChangedSinceThePlanStopsTheWrite() throws {
        let work = Self.file(.list(slug: "work"), [F.task("b", "B", state: .done, completed: "09:00")])
        let plan = ArchivePlan.make(files: [work], before: F.at("10:00"), timeZone: Self.utc, now: F.at("12:00"))
        var edited = work
        edited.tasks[0].notes = "added in an editor meanwhile"
        #expect(throws: ArchiveError.changedMeanwhile(path: "lists/work.json")) {
            _ = try Self.apply(plan.edits(now: F.at("12:00")), to: [edited])
        }
    }

    @Test func archiveFileNamesAndKinds() {
        #expect(Store.year(ofArchiveFileNamed: "2026.json") == 2026)
        for name in ["26.json", "2026.json~", ".2026.json", "2026.sync-conflict-20261120-101010-ABCDEFG.json", "abcd.json", "２０２６.json"] {
            #expect(Store.year(ofArchiveFileNamed: name) == nil, "\(name)")
        }
        #expect(FileKind(relativePath: "archive/2026.json") == .archive(year: 2026))
        #expect(FileKind.archive(year: 2026).relativePath == "archive/2026.json")
        #expect([FileKind.archive(year: 2025), .list(slug: "a"), .inbox, .archive(year: 2024)].sorted()
                == [.inbox, .list(slug: "a"), .archive(year: 2024), .archive(year: 2025)])
    }

    // MARK: The store merge

    /// Machine A archived b at 12:00 (from work); B's edit came back in a copy in work.
    static func archivedAndListCopy(_ listCopy: TaskItem) -> [TaskFile] {
        let original = F.task("b", "B", "09:00", state: .done, completed: "09:00")
        let archived = ArchivePlan.archived(original, from: .list(slug: "work"), now: F.at("12:00"))
        return [Self.file(.list(slug: "work"), [F.task("a", "A"), listCopy]), Self.file(.archive(year: 2026), [archived])]
    }

    @Test func aNoteEditedOnAnotherMachineJoinsTheArchivedTask() {
        let edited = F.task("b", "B", "12:30", state: .done, completed: "09:00", notes: "receipt in the drawer", changed: ["notes": "12:30"])
        let (files, report) = StoreReconciler.reconcile(Self.archivedAndListCopy(edited))
        #expect(files[0].tasks.map(\.id) == [F.id("a")])
        #expect(files[1].tasks.map(\.id) == [F.id("b")])
        #expect(files[1].tasks.first?.notes == "receipt in the drawer")
        #expect(files[1].tasks.first.flatMap(ArchivePlan.origin(of:)) == .list(slug: "work"))
        #expect(report.merged == [F.id("b")])
        #expect(files[0].deleted.isEmpty && files[1].deleted.isEmpty)
    }

    @Test func aTaskReopenedOnAnotherMachineGoesBackToItsList() {
        // Reopened at 11:00, before the archive at 12:00 was seen: still not done, so not archived.
        let reopened = F.task("b", "B", "11:00", state: .open, changed: ["state": "11:00"])
        let (files, _) = StoreReconciler.reconcile(Self.archivedAndListCopy(reopened))
        #expect(files[1].tasks.isEmpty)
        let back = files[0].tasks.first { $0.id == F.id("b") }
        #expect(back?.state == .open)
        #expect(back.flatMap(ArchivePlan.origin(of:)) == nil)
        // Idempotent: a second pass changes nothing.
        #expect(StoreReconciler.reconcile(files).report.isEmpty)
    }

    @Test func aLaterMoveOnAnotherMachineWinsOverTheArchive() {
        let moved = F.task("b", "B", "13:00", state: .done, completed: "09:00", changed: ["list": "13:00"])
        var files = Self.archivedAndListCopy(moved)
        files[0] = Self.file(.list(slug: "home"), [moved])
        let (out, _) = StoreReconciler.reconcile(files)
        #expect(out[0].tasks.map(\.id) == [F.id("b")])
        #expect(out[0].tasks.first.flatMap(ArchivePlan.origin(of:)) == nil)
        #expect(out[1].tasks.isEmpty)
    }

    @Test func archivedSearchAndCompletions() throws {
        var t = F.task("b", "Renew passport", state: .done, completed: "09:00", notes: "photo booth")
        t = ArchivePlan.archived(t, from: .list(slug: "admin"), now: F.at("12:00"))
        let other = ArchivePlan.archived(F.task("c", "Buy milk", state: .done, completed: "10:00"), from: .inbox, now: F.at("12:00"))
        let tasks = ArchivedTasks(files: [Self.file(.archive(year: 2026), [t, other])])
        let all = TaskFilter(states: Set(TaskState.allCases), tags: [])
        #expect(tasks.search(try SearchQuery("booth"), filter: all).map(\.task.id) == [F.id("b")])
        #expect(tasks.search(try SearchQuery("passport"), filter: all, origin: .inbox).isEmpty)
        let completions = tasks.completions(timeZone: Self.utc)
        #expect(completions.map(\.path) == ["lists/admin.json", "inbox.json"])
        let day = LocalDate(date: F.day, timeZone: Self.utc)
        #expect(completions.perDay(first: day, end: day.adding(days: 1)) == [day: 2])
        #expect(tasks.completions(timeZone: Self.utc, path: "inbox.json").count == 1)
    }

    @Test func archiveConflictCopiesAreSeenByTheWatcherAndResolve() throws {
        #expect(StoreWatcher.isConflictCopy("archive/2026.sync-conflict-20261121-093512-ABCDEF7.json"))
        #expect(!StoreWatcher.isConflictCopy("other/2026.sync-conflict-20261121-093512-ABCDEF7.json"))
        let root = (NSTemporaryDirectory() as NSString).appendingPathComponent("tick-archive-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/archive", withIntermediateDirectories: true)
        for name in ["2026.json", "2026.sync-conflict-20261121-093512-ABCDEF7.json", "notes.json", ".2025.json"] {
            try Data("{}".utf8).write(to: URL(fileURLWithPath: root + "/archive/" + name))
        }
        let store = Store(location: StoreLocation(root: root, stateDirectory: root + "/state", cacheDirectory: root + "/cache"))
        #expect(try store.archiveKinds() == [.archive(year: 2026)])
        #expect(store.conflictCopies().map(\.kind) == [.archive(year: 2026)])
        #expect(store.conflictCopies().map(\.relativePath) == ["archive/2026.sync-conflict-20261121-093512-ABCDEF7.json"])
        // Not part of the snapshot the views read.
        #expect(try store.kinds().allSatisfy { !$0.isArchive })
    }
}
