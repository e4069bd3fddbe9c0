import Foundation
import Testing
@testable import TickKit

/// Syncthing conflict copies between three machines (issue 44): a copy
/// travels to every device, so on all but one it holds another machine's
/// version. Only this machine's own replaced version is stamped as a hand
/// edit (Docs/MERGE.md §18); a copy from another machine merges by its stamps
/// alone, so every machine that resolves the same versions writes the same
/// bytes; and the store-level join stamps each file's hand edits before it
/// plans.
@Suite struct SyncthingCopiesTests {
    typealias Machine = HandEditSyncTests.Machine
    static let t0 = HandEditSyncTests.t0
    static let wrote = HandEditSyncTests.wrote
    static let edited = HandEditSyncTests.edited
    static let stale = HandEditSyncTests.stale
    static let kind = HandEditSyncTests.kind
    static let a = HandEditSyncTests.a
    static let b = HandEditSyncTests.b
    /// A copy made on machine Z, which reaches X and Y.
    static let copyName = "lists/work.sync-conflict-20261124-121000-ZZZZZZZ.json"

    static func list(_ title: String, extra: [JSONMember] = []) -> TaskFile {
        HandEditSyncTests.list(title, extra: extra)
    }

    /// `file` with b's notes set by tick at `at` (a stamped change).
    static func notingB(_ file: TaskFile, at: Date) -> TaskFile {
        var file = file
        let old = file.tasks[1]
        file.tasks[1].notes = "from Z"
        file.tasks[1].stampChanges(since: old, at: at)
        return file
    }

    /// What merging the two versions by their stamps alone gives.
    static func merged(_ file: TaskFile, _ copy: TaskFile) -> [UInt8] {
        var out = MergeEngine.merge(base: nil, ours: file, theirs: copy).file
        out.kind = kind
        return TaskFileEncoder.encode(out)
    }

    @Test("a conflict copy from another machine is not stamped as a hand edit: an old value nobody edited does not beat the real edit, and every machine writes the same bytes")
    func copyFromAnotherMachineIsNotStamped() throws {
        let x = try Machine(), y = try Machine()
        defer { x.remove(); y.remove() }
        // Machine 1 renamed a by hand to "New report" (no change time yet). X
        // saw that version and took note of it without a stamp (it arrived
        // older than X's last write); Y never saw it.
        x.remember(Self.list("New report"))
        y.remember(Self.list("Write report"))
        // The version that won the conflict (from machine 1, with b renamed by tick there).
        let winner = HandEditSyncTests.renamingB(Self.list("New report"), to: "Other, renamed", at: Self.stale)
        // The copy made on machine Z: a's old title, and Z's own stamped change of b.
        let copy = Self.notingB(Self.list("Write report"), at: Self.stale.addingTimeInterval(60))
        for m in [x, y] {
            try m.put(winner, at: Self.stale)
            try m.put(copy, at: Self.edited, as: Self.copyName)
            _ = try m.resolve()
            #expect(!FileManager.default.fileExists(atPath: m.store.location.path(Self.copyName)))
        }
        #expect(try x.bytes() == y.bytes(), "the same versions merge to the same bytes whatever the written copies")
        #expect(try x.bytes() == Self.merged(winner, copy))
        let task = try #require(HandEditSyncTests.task(try x.file(), Self.a))
        #expect((task.changed["title"] ?? Self.t0) == Self.t0, "a value nobody edited got no new change time")
        // Machine 1's tick then stamps its hand edit at the time it was made: it wins everywhere.
        var stamped = Self.list("New report")
        stamped.tasks[0].stampChanges(since: Self.list("Write report").tasks[0], at: Self.stale.addingTimeInterval(-3600))
        let after = MergeEngine.merge(base: nil, ours: try x.file(), theirs: stamped).file
        #expect(HandEditSyncTests.task(after, Self.a)?.title == "New report")
    }

    @Test("this machine's own replaced version (the stamps tick last wrote here) is still stamped; the same values with other stamps are not")
    func ownVersionIsStampedForeignIsNot() throws {
        let m = try Machine()
        defer { m.remove() }
        let base = Self.list("Write report")
        m.remember(base)
        let winner = HandEditSyncTests.renamingB(base, to: "Other, renamed", at: Self.edited.addingTimeInterval(60))
        try m.put(winner, at: Self.edited.addingTimeInterval(60))
        // Own: what tick wrote here, a renamed in an editor.
        try m.put(Self.list("Draft report"), at: Self.edited, as: Self.copyName)
        _ = try m.resolve()
        #expect(HandEditSyncTests.task(try m.file(), Self.a)?.changed["title"] == Self.edited)

        // Foreign: the same rename in a version that carries another machine's stamps.
        let n = try Machine()
        defer { n.remove() }
        n.remember(base)
        try n.put(winner, at: Self.edited.addingTimeInterval(60))
        let foreign = Self.notingB(Self.list("Draft report"), at: Self.stale)
        try n.put(foreign, at: Self.edited, as: Self.copyName)
        _ = try n.resolve()
        #expect((HandEditSyncTests.task(try n.file(), Self.a)?.changed["title"] ?? Self.t0) == Self.t0)
        #expect(try n.bytes() == Self.merged(winner, foreign))
    }

    @Test("an unknown key removed by hand on one side and kept on the other is decided the same way on every machine")
    func unknownKeyRemovalIsDeterministic() throws {
        let x = try Machine(), y = try Machine()
        defer { x.remove(); y.remove() }
        let key = [JSONMember("x-sim", JSONNode(.string("k1")))]
        // X last wrote the task with the key, Y without it (it saw the removal unstamped).
        x.remember(Self.list("Write report", extra: key))
        y.remember(Self.list("Write report"))
        let winner = HandEditSyncTests.renamingB(Self.list("Write report", extra: key), to: "Other, renamed", at: Self.stale)
        // Z removed the key by hand and changed b with tick.
        let copy = Self.notingB(Self.list("Write report"), at: Self.stale.addingTimeInterval(60))
        for m in [x, y] {
            try m.put(winner, at: Self.stale)
            try m.put(copy, at: Self.edited, as: Self.copyName)
            _ = try m.resolve()
        }
        #expect(try x.bytes() == y.bytes())
        #expect(try x.bytes() == Self.merged(winner, copy))
    }

    @Test("a version from another machine in place of the file is not stamped against a value held here with no stamp of its own: every machine writes the same bytes")
    func deliveredVersionIsNotStampedAgainstAnUnstampedValue() throws {
        let x = try Machine(), y = try Machine(), w = try Machine()
        defer { x.remove(); y.remove(); w.remove() }
        let key = [JSONMember("x-sim", JSONNode(.string("k3")))]
        // X (and W) merged a copy holding an unknown key added by hand (unstamped)
        // into a version without it: kept by value order, with no stamp of its own
        // (its change time is the task's creation). Y never had the key.
        let noted = Self.notingB(Self.list("Write report"), at: Self.stale)
        let kept = MergeEngine.merge(base: nil, ours: noted, theirs: Self.list("Write report", extra: key)).file
        // The version that won the conflict is Y's, with b renamed by tick there,
        // saved after X's last write; the copy is Z's, with the key stamped there.
        let winner = HandEditSyncTests.renamingB(noted, to: "Other, renamed", at: Self.edited)
        var copy = Self.notingB(Self.list("Write report", extra: key), at: Self.stale)
        copy.tasks[0].changed["x-sim"] = Self.stale.addingTimeInterval(30)
        copy.tasks[0].modifiedAt = Self.stale.addingTimeInterval(30)
        // Delivered in place of the file, Y's version is not taken for a hand edit
        // on W: the key's absence is not a removal made at its mtime.
        w.remember(kept)
        try w.put(winner, at: Self.edited)
        #expect(try w.store.withLock { writer in try writer.stampHandEdits(Self.kind) } == 0)
        #expect(w.store.written.bytes(of: Self.kind) == (try w.bytes()), "recorded as seen, as it is")
        for (m, written) in [(x, kept), (y, noted)] {
            m.remember(written)
            try m.put(winner, at: Self.edited)
            try m.put(copy, at: Self.stale.addingTimeInterval(30), as: Self.copyName)
            _ = try m.resolve()
        }
        #expect(try x.bytes() == y.bytes(), "the same versions merge to the same bytes whatever the written copies")
        #expect(try x.bytes() == Self.merged(winner, copy))
        #expect(HandEditSyncTests.task(try x.file(), Self.a)?.extra == key, "Z's stamped key stays: nobody removed it")
    }

    @Test("a conflict copy that is what tick last wrote here is not stamped against an earlier written copy with the same stamps: a later edit still wins")
    func copyOfOwnWriteIsNotStamped() throws {
        let m = try Machine()
        defer { m.remove() }
        // Seen here (delivered, nothing to stamp): a renamed by hand elsewhere, unstamped.
        Store(location: m.store.location, clock: { Self.wrote }).written.save(TaskFileEncoder.encode(Self.list("New report")), for: Self.kind)
        // Then tick wrote the merge of that with a copy holding "Write report", at
        // the same change time: kept by value order, no stamp changed.
        let ownWrite = Self.list("Write report")
        Store(location: m.store.location, clock: { Self.edited }).written.save(TaskFileEncoder.encode(ownWrite), for: Self.kind)
        // The hand edit's machine stamped it ("New report") before `edited`; that
        // version wins a conflict here, and tick's own write becomes the copy,
        // with the mtime tick wrote it at.
        var stamped = Self.list("New report")
        stamped.tasks[0].stampChanges(since: ownWrite.tasks[0], at: Self.stale)
        try m.put(stamped, at: Self.stale)
        try m.put(ownWrite, at: Self.edited, as: Self.copyName)
        _ = try m.resolve()
        let task = try #require(HandEditSyncTests.task(try m.file(), Self.a))
        #expect(task.title == "New report", "tick's own write is not a hand edit made at its mtime")
        #expect(try m.bytes() == Self.merged(stamped, ownWrite))
    }

    static let archivedID = UUID(uuidString: "cccccccc-0000-4000-8000-000000000003")!

    /// Task X, done in a list, archived; its title then edited by hand in the
    /// archive file after tick's last write ("Draft report"), and an older
    /// `lists/work.json` still holding X arrives. Returns how many tasks the archive run moved.
    static func archivedHandEditAndAStaleList(_ m: Machine) throws -> Int {
        var list = Self.list("Other")
        var done = TaskItem(id: archivedID, title: "Write report", createdAt: Self.t0, modifiedAt: Self.t0)
        done.state = .done
        done.completedAt = Self.t0
        list.tasks.append(done)
        try m.store.withLock { writer in try writer.create(list) }
        let archived = try ArchiveRun(store: m.store, before: Self.wrote, timeZone: Zone(named: "UTC") ?? .utc, now: Self.wrote).run()
        var archive = try #require(try m.store.read(.archive(year: 2026))).file
        let i = try #require(archive.index(of: archivedID))
        archive.tasks[i].title = "Draft report"
        try m.put(archive, at: Self.edited)
        try m.put(list, at: Self.stale)
        return archived.moves.count
    }

    @Test("the join stamps an archived task's hand edit before it plans: an older list file holding the task does not undo it")
    func joinStampsArchivedHandEditFirst() throws {
        let m = try Machine(clock: Self.wrote)
        defer { m.remove() }
        let x = Self.archivedID
        #expect(try Self.archivedHandEditAndAStaleList(m) == 1)
        let archiveKind = FileKind.archive(year: 2026)

        let steps = try m.resolve()
        let joined = steps.contains { if case .reconciled(let r) = $0 { return r.merged == [x] } else { return false } }
        #expect(joined)
        #expect(try m.file().index(of: x) == nil, "X stays archived")
        let task = try #require(try m.store.read(archiveKind)?.file.tasks.first { $0.id == x })
        #expect(task.title == "Draft report", "the hand edit survives the join")
        #expect(task.changed["title"] == Self.edited)
    }

    @Test("a dry run of the join sees the archived task's hand edit stamped too")
    func dryRunJoinStampsFirst() throws {
        let m = try Machine(clock: Self.wrote)
        defer { m.remove() }
        let x = Self.archivedID
        _ = try Self.archivedHandEditAndAStaleList(m)
        let before = try m.bytes()
        var resolver = ConflictResolver(store: m.store, dryRun: true)
        let steps = try resolver.run()
        #expect(steps.contains { if case .reconciled(let r) = $0 { return r.merged == [x] && r.files == [.list(slug: "work")] } else { return false } },
                "only the list loses its copy: the archived copy, stamped, already has the merged values")
        #expect(try m.bytes() == before, "a dry run writes nothing")
    }
}
