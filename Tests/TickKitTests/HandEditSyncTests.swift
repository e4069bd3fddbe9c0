import Foundation
import Testing
@testable import TickKit

/// Hand edits and sync (issue 33, classes 5 and 6): a hand edit is stamped
/// the first time tick sees it, before the file travels; merges consult no
/// written copy, so the same versions merge to the same bytes everywhere.
@Suite struct HandEditSyncTests {
    static let t0 = Timestamp.parse("2026-11-20T09:00:00Z")!
    /// When tick last wrote the file on a machine (its store clock).
    static let wrote = Timestamp.parse("2026-11-24T12:00:00Z")!
    /// A hand edit made after that.
    static let edited = Timestamp.parse("2026-11-24T12:10:00Z")!
    /// A version saved somewhere before that write (delivered late by a sync tool).
    static let stale = Timestamp.parse("2026-11-24T11:00:00Z")!
    static let later = Timestamp.parse("2026-11-24T13:00:00Z")!

    static let kind = FileKind.list(slug: "work")
    static let listID = UUID(uuidString: "0b0b0b0b-0000-4000-8000-000000000000")!
    static let a = UUID(uuidString: "aaaaaaaa-0000-4000-8000-000000000001")!
    static let b = UUID(uuidString: "bbbbbbbb-0000-4000-8000-000000000002")!
    static let copyName = "lists/work.sync-conflict-20261124-121000-ABCDEF7.json"

    /// One machine: a store in a temp directory whose clock is `clock`.
    struct Machine {
        let dir: String
        let store: Store

        init(clock: Date = HandEditSyncTests.wrote) throws {
            dir = NSTemporaryDirectory() + "tick-handedit-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: dir + "/store/lists", withIntermediateDirectories: true)
            let location = StoreLocation(root: dir + "/store", stateDirectory: dir + "/state", cacheDirectory: dir + "/cache")
            store = Store(location: location, clock: { clock })
        }

        /// Puts `file` in the store (as a sync tool or an editor does) with this mtime.
        func put(_ file: TaskFile, at mtime: Date, as relativePath: String? = nil) throws {
            let path = relativePath.map { store.location.path($0) } ?? store.location.path(of: file.kind)
            try Data(TaskFileEncoder.encode(file)).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes([.modificationDate: mtime], ofItemAtPath: path)
        }

        /// Records `file` as what tick last wrote here (at the store clock's time).
        func remember(_ file: TaskFile) {
            store.written.save(TaskFileEncoder.encode(file), for: file.kind)
        }

        func bytes() throws -> [UInt8] {
            try #require(try AtomicFile.read(path: store.location.path(of: HandEditSyncTests.kind))).bytes
        }

        func file() throws -> TaskFile {
            try #require(try store.read(HandEditSyncTests.kind)).file
        }

        func resolve() throws -> [ResolveStep] {
            var resolver = ConflictResolver(store: store, dryRun: false)
            return try resolver.run()
        }

        func remove() { try? FileManager.default.removeItem(atPath: dir) }
    }

    /// The list with task a titled `title` (no change times: every key at t0), and b.
    static func list(_ title: String, extra: [JSONMember] = [], b bTitle: String = "Other") -> TaskFile {
        var file = TaskFile(kind: kind, id: listID, name: "Work", createdAt: t0, modifiedAt: t0)
        var first = TaskItem(id: a, title: title, createdAt: t0, modifiedAt: t0)
        first.extra = extra
        file.tasks = [first, TaskItem(id: b, title: bTitle, createdAt: t0, modifiedAt: t0)]
        return file
    }

    /// `file` with b renamed by tick at `at` (a stamped change).
    static func renamingB(_ file: TaskFile, to title: String, at: Date) -> TaskFile {
        var file = file
        let old = file.tasks[1]
        file.tasks[1].title = title
        file.tasks[1].stampChanges(since: old, at: at)
        return file
    }

    static func task(_ file: TaskFile, _ id: UUID) -> TaskItem? {
        file.tasks.first { $0.id == id }
    }

    // MARK: Convergence (class 5)

    @Test("the same two versions merged on two machines with different written copies give the same bytes")
    func sameVersionsMergeToTheSameBytes() throws {
        let one = try Machine(), two = try Machine()
        defer { one.remove(); two.remove() }
        // The file both machines hold: a version saved before machine one's last write of it.
        let file = Self.list("Write report")
        // The conflict copy both hold: b renamed elsewhere (stamped), saved before either write.
        let copy = Self.renamingB(file, to: "Other, renamed", at: Self.stale)
        for m in [one, two] {
            try m.put(file, at: Self.stale)
            try m.put(copy, at: Self.stale, as: Self.copyName)
        }
        // Machine one last wrote a version where a had another title without a
        // change time (merged in from a hand edit no tick stamped); machine two
        // last wrote exactly the file.
        one.remember(Self.list("Draft report"))
        two.remember(file)

        _ = try one.resolve()
        _ = try two.resolve()
        #expect(try one.bytes() == two.bytes())
        #expect(try Self.task(one.file(), Self.b)?.title == "Other, renamed")
    }

    // MARK: Hand edits (class 6)

    @Test("(a) a hand edit from another machine, made after this one last wrote the file, wins when it arrives as the conflict copy")
    func handEditFromAnotherMachineWins() throws {
        let b = try Machine()
        defer { b.remove() }
        let base = Self.list("Write report")
        b.remember(base)
        // The version that won the conflict: b renamed by tick on a third machine (stamped).
        try b.put(Self.renamingB(base, to: "Other, renamed", at: Self.stale), at: Self.stale)
        // A's file: a renamed in an editor, with an unknown key added, no change times.
        let theirs = Self.list("Draft report", extra: [JSONMember("x-color", JSONNode(.string("red")))])
        try b.put(theirs, at: Self.edited, as: Self.copyName)

        _ = try b.resolve()
        let merged = try b.file()
        let task = try #require(Self.task(merged, Self.a))
        #expect(task.title == "Draft report", "the edit, not the older value chosen by value order")
        #expect(task.extra.map(\.key) == ["x-color"])
        #expect(task.changed["title"] == Self.edited)
        #expect(task.changed["x-color"] == Self.edited)
        #expect(Self.task(merged, Self.b)?.title == "Other, renamed")
        #expect(!FileManager.default.fileExists(atPath: b.store.location.path(Self.copyName)))
    }

    @Test("(b) a hand-edited file that became the Syncthing conflict copy keeps its edit, stamped at the copy's mtime")
    func handEditedConflictCopyKeepsItsEdit() throws {
        let m = try Machine()
        defer { m.remove() }
        let base = Self.list("Write report")
        m.remember(base)
        // The hand edit here was renamed to the conflict copy; the other machine's version took its place.
        try m.put(Self.list("Draft report"), at: Self.edited, as: Self.copyName)
        try m.put(Self.renamingB(base, to: "Other, renamed", at: Self.edited.addingTimeInterval(60)), at: Self.edited.addingTimeInterval(60))

        let steps = try m.resolve()
        #expect(steps.contains { if case .copiesMerged = $0 { return true } else { return false } })
        let task = try #require(Self.task(try m.file(), Self.a))
        #expect(task.title == "Draft report")
        #expect(task.changed["title"] == Self.edited)
    }

    @Test("(d) a stale version delivered after tick's last write is not a hand edit: no later stamp lands on its old value")
    func staleVersionIsNotStamped() throws {
        let m = try Machine(clock: Self.later)
        defer { m.remove() }
        // tick here last wrote a with the title "Draft report" (from an unstamped edit).
        try m.store.withLock { writer in try writer.create(Self.list("Draft report")) }
        // A sync tool delivers a version saved before that write, with the old title.
        try m.put(Self.list("Write report"), at: Self.stale)
        // The next command here writes the file.
        try m.store.withLock { writer in
            try writer.update(Self.kind) { file in file.tasks[1].title = "Other, edited" }
        }
        let task = try #require(Self.task(try m.file(), Self.a))
        #expect(task.changed["title"] == nil, "the old title was not stamped as a new change")
        #expect(task.modifiedAt == Self.t0)
    }

    @Test("a hand edit made after tick's last write is stamped by the separate step and written back; a second look does nothing")
    func stampStepWritesBackOnce() throws {
        let m = try Machine()
        defer { m.remove() }
        m.remember(Self.list("Write report"))
        try m.put(Self.list("Draft report"), at: Self.edited)
        let stamped = try m.store.withLock { writer in try writer.stampHandEdits(Self.kind) }
        #expect(stamped == 1)
        let task = try #require(Self.task(try m.file(), Self.a))
        #expect(task.changed == ["title": Self.edited])
        #expect(task.modifiedAt == Self.edited)
        #expect(m.store.written.bytes(of: Self.kind) == (try m.bytes()))
        let before = try m.bytes()
        #expect(try m.store.withLock { writer in try writer.stampHandEdits(Self.kind) } == 0)
        #expect(try m.bytes() == before)
    }

    @Test("two hand edits in a file that tick first sees together are both stamped at the file's mtime: the later save's time, not the first edit's")
    func unseenEditsStampedAtTheLaterSave() throws {
        let m = try Machine()
        defer { m.remove() }
        m.remember(Self.list("Write report"))
        // a edited by hand and not seen, then b in the same file: the file has one mtime, the second save's.
        try m.put(Self.list("Draft report", b: "Other, by hand"), at: Self.edited)
        #expect(try m.store.withLock { writer in try writer.stampHandEdits(Self.kind) } == 2)
        let file = try m.file()
        #expect(Self.task(file, Self.a)?.changed == ["title": Self.edited])
        #expect(Self.task(file, Self.b)?.changed == ["title": Self.edited])
    }

    @Test("a file tick cannot parse is never rewritten by the stamp step")
    func unparsableFileIsNotStamped() throws {
        let m = try Machine()
        defer { m.remove() }
        m.remember(Self.list("Write report"))
        let path = m.store.location.path(of: Self.kind)
        let broken = Array("{\"name\": \"Work\", \"tasks\": [\n".utf8)
        try Data(broken).write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreError.self) { try m.store.withLock { writer in try writer.stampHandEdits(Self.kind) } }
        #expect(try #require(try AtomicFile.read(path: path)).bytes == broken)
    }

    @Test("(c) tick sync stamps hand edits before it commits them")
    func syncStampsBeforeCommit() throws {
        let m = try Machine()
        defer { m.remove() }
        let environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": m.dir, "LANG": "C.UTF-8", "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com",
            "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com",
        ]
        let root = m.store.location.root
        #expect(try GitRepository.run(["init", "-q", "-b", "main"], in: root, environment: environment).succeeded)
        try m.store.withLock { writer in try writer.create(Self.list("Write report")) }
        let repo = try SyncRun.repository(for: m.store, environment: environment)
        _ = try SyncRun(store: m.store, repo: repo, now: Self.wrote).run()
        // An editor renames a; the next sync commits it.
        try m.put(Self.list("Draft report"), at: Self.edited)
        _ = try SyncRun(store: m.store, repo: repo, now: Self.later).run()
        let committed = try GitRepository.run(["show", "HEAD:lists/work.json"], in: root, environment: environment)
        #expect(committed.succeeded)
        let file = try TaskFileDecoder(bytes: Array(committed.output.utf8), path: "work.json", kind: Self.kind, fallbackDate: Self.t0).decode()
        let task = try #require(Self.task(file, Self.a))
        #expect(task.title == "Draft report")
        #expect(task.changed["title"] == Self.edited)
        let status = try GitRepository.run(["status", "--porcelain"], in: root, environment: environment)
        #expect(status.output.isEmpty, "the stamped file is what was committed")
    }
}
