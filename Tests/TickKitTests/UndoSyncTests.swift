import Foundation
import Testing
@testable import TickKit

/// `tick undo` is a change (issue 33, Docs/MERGE.md "Undo under sync"): a
/// change made on machine A at 10:01 and copied to machine B, undone on A at
/// 10:02, stays undone after B's unrelated change at 10:03 and a two-way
/// sync, both ways round, through the merge engine with the store merge and
/// through Syncthing conflict copies resolved by ``ConflictResolver``.
@Suite struct UndoSyncTests {
    static func time(_ hm: String) -> Date { Timestamp.parse("2026-11-21T\(hm):00Z")! }
    let t0 = time("10:00"), t1 = time("10:01"), t2 = time("10:02"), t3 = time("10:03"), t4 = time("10:04")
    static let work = FileKind.list(slug: "work"), home = FileKind.list(slug: "home")
    static let x = UUID(name: "X"), y = UUID(name: "Y"), z = UUID(name: "Z")

    /// One machine: its own store, state (written copies, undo journal) and index.
    final class Machine: @unchecked Sendable {
        let dir: String
        let location: StoreLocation

        init(cloning other: Machine? = nil) throws {
            dir = NSTemporaryDirectory() + "tick-undosync-\(UUID().uuidString)"
            location = StoreLocation(root: dir + "/store", stateDirectory: dir + "/state", cacheDirectory: dir + "/cache")
            if let other {
                try FileManager.default.copyItem(atPath: other.dir, toPath: dir)
            } else {
                try FileManager.default.createDirectory(atPath: dir + "/store/lists", withIntermediateDirectories: true)
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: dir) }

        /// The store as one tick command at `now` sees it, recording into the journal.
        func store(_ command: String, at now: Date) -> Store {
            let session = JournalSession(journal: UndoJournal(location: location), command: command, now: now)
            return Store(location: location, journal: session, clock: { now })
        }

        func session(_ store: Store, at now: Date) throws -> IndexSession {
            IndexSession(try TaskIndex.open(store: store, now: { now }))
        }

        func mutation(_ command: String, at now: Date) throws -> TaskMutation {
            let store = store(command, at: now)
            return TaskMutation(store: store, session: try session(store, at: now), now: now)
        }

        /// `tick undo` at `now`; it must undo one entry.
        func undo(at now: Date) throws {
            let outcome = try UndoRun(store: store("undo", at: now), force: false).undo(count: 1)
            #expect(outcome.failure == nil, "\(String(describing: outcome.failure))")
            #expect(outcome.undone.count == 1)
        }

        func write(_ file: TaskFile) throws {
            try AtomicFile.write(TaskFileEncoder.encode(file), to: location.path(of: file.kind), mode: nil)
        }

        func read(_ kind: FileKind) throws -> TaskFile? { try Store(location: location).read(kind)?.file }

        /// The store's task files (relative path → bytes), conflict copies left out.
        func files() -> [String: [UInt8]] {
            var out: [String: [UInt8]] = [:]
            for sub in ["", "lists/", "archive/"] {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: location.root + "/" + sub)) ?? []
                for name in names where name.hasSuffix(".json") && !name.contains(".sync-conflict-") {
                    guard FileKind(relativePath: sub + name) != nil, let bytes = FileManager.default.contents(atPath: location.root + "/" + sub + name) else { continue }
                    out[sub + name] = [UInt8](bytes)
                }
            }
            return out
        }

        func put(_ bytes: [UInt8], at relative: String) throws {
            try AtomicFile.write(bytes, to: location.root + "/" + relative, mode: nil)
        }

        /// Syncthing's copy of the file: `bytes` from the machine whose file lost.
        func conflictCopy(_ bytes: [UInt8], of relative: String) throws {
            let stem = relative.hasSuffix(".json") ? String(relative.dropLast(5)) : relative
            try put(bytes, at: stem + ".sync-conflict-20261121-100400-ABCDEF7.json")
        }
    }

    func task(_ name: String) -> TaskItem {
        TaskItem(id: UUID(name: name), title: name, createdAt: t0, modifiedAt: t0)
    }

    /// Machines A and B with the same store: Work (X, Y, Z) and Home (H).
    func machines() throws -> (Machine, Machine) {
        let a = try Machine()
        var work = TaskFile(kind: Self.work, id: UUID(name: "work-file"), name: "Work", color: "#3b82f6", createdAt: t0, modifiedAt: t0)
        work.tasks = ["X", "Y", "Z"].map(task)
        var home = TaskFile(kind: Self.home, id: UUID(name: "home-file"), name: "Home", color: "#ef4444", createdAt: t0, modifiedAt: t0)
        home.tasks = [task("H")]
        try a.write(work)
        try a.write(home)
        return (a, try Machine(cloning: a))
    }

    /// Copies A's versions of these files to B (Syncthing before anything conflicts).
    func copy(_ paths: [String], from a: Machine, to b: Machine) throws {
        let files = a.files()
        for p in paths { try b.put(try #require(files[p]), at: p) }
    }

    /// B's unrelated change at 10:03: `tick edit Y +home`.
    func unrelatedChange(on b: Machine) throws {
        var edit = TaskEdit()
        edit.addTags = ["home"]
        _ = try b.mutation("edit", at: t3).edit(.id(Self.y), with: edit)
    }

    /// Two-way sync by the merge engine and the store merge: every file both
    /// have is merged (both argument orders give the same bytes), then the store.
    func merged(_ a: Machine, _ b: Machine) throws -> [String: [UInt8]] {
        let fa = a.files(), fb = b.files()
        var files: [TaskFile] = []
        for path in Set(fa.keys).union(fb.keys).sorted() {
            let kind = try #require(FileKind(relativePath: path))
            func decode(_ bytes: [UInt8]?) throws -> TaskFile? {
                try bytes.map { try TaskFileDecoder(bytes: $0, path: path, kind: kind, fallbackDate: t4).decode() }
            }
            switch (try decode(fa[path]), try decode(fb[path])) {
            case let (x?, y?):
                let ab = MergeEngine.merge(base: nil, ours: x, theirs: y).file
                let ba = MergeEngine.merge(base: nil, ours: y, theirs: x).file
                #expect(TaskFileEncoder.encode(ab) == TaskFileEncoder.encode(ba), "\(path): the merge depends on the order")
                files.append(ab)
            case let (x?, nil): files.append(x)
            case let (nil, y?): files.append(y)
            case (nil, nil): break
            }
        }
        let one = StoreReconciler.reconcile(files).files
        let other = StoreReconciler.reconcile(files.reversed()).files
        var out: [String: [UInt8]] = [:]
        for f in one { out[f.kind.relativePath] = TaskFileEncoder.encode(f) }
        var back: [String: [UInt8]] = [:]
        for f in other { back[f.kind.relativePath] = TaskFileEncoder.encode(f) }
        #expect(out == back, "the store merge depends on the order of the files")
        return out
    }

    /// Syncthing-style two-way copies: for each file that differs, `winner`'s
    /// version becomes the file on both machines and the other one its
    /// conflict copy; a file only one has is copied; then `tick resolve`
    /// (``ConflictResolver``) runs on both. Returns the files, the same on both.
    func syncthing(_ a: Machine, _ b: Machine, winner: Machine) throws -> [String: [UInt8]] {
        let fa = a.files(), fb = b.files()
        for path in Set(fa.keys).union(fb.keys) {
            switch (fa[path], fb[path]) {
            case let (x?, y?) where x != y:
                let (won, lost) = winner === a ? (x, y) : (y, x)
                for m in [a, b] {
                    try m.put(won, at: path)
                    try m.conflictCopy(lost, of: path)
                }
            case let (x?, nil): try b.put(x, at: path)
            case let (nil, y?): try a.put(y, at: path)
            default: break
            }
        }
        for m in [a, b] {
            var resolver = ConflictResolver(store: Store(location: m.location, clock: { [t4] in t4 }), dryRun: false)
            _ = try resolver.run()
        }
        #expect(a.files() == b.files(), "the two machines differ after resolving")
        return a.files()
    }

    /// The scenario: `change` on A at 10:01, the files it wrote copied to B,
    /// undone on A at 10:02, B's unrelated change at 10:03; then every sync,
    /// both ways round, ends with what `check` requires on both machines.
    func scenario(copying paths: [String], _ change: (Machine) throws -> Void, check: ([String: [UInt8]]) throws -> Void) throws {
        let (a, b) = try machines()
        try change(a)
        try copy(paths, from: a, to: b)
        try a.undo(at: t2)
        try unrelatedChange(on: b)

        let engine = try merged(a, b)
        try check(engine)
        // Syncthing, B's file the newer (as in issue 33), then A's.
        let (a2, b2) = (try Machine(cloning: a), try Machine(cloning: b))
        let bWins = try syncthing(a, b, winner: b)
        try check(bWins)
        let aWins = try syncthing(a2, b2, winner: a2)
        try check(aWins)
        #expect(bWins == aWins, "which machine's file Syncthing kept changes the result")
    }

    func file(_ files: [String: [UInt8]], _ kind: FileKind) throws -> TaskFile {
        let bytes = try #require(files[kind.relativePath], "\(kind.relativePath) is missing")
        return try TaskFileDecoder(bytes: bytes, path: kind.relativePath, kind: kind, fallbackDate: t4).decode()
    }

    /// B's change is there, with its tag.
    func keepsB(_ files: [String: [UInt8]]) throws {
        let y = try #require(try file(files, Self.work).tasks.first { $0.id == Self.y })
        #expect(y.tags == ["home"])
    }

    // MARK: Each kind of change

    @Test func anUndoneTitleEditStaysUndone() throws {
        try scenario(copying: ["lists/work.json"], { a in
            var edit = TaskEdit()
            edit.title = "Renamed"
            _ = try a.mutation("edit", at: t1).edit(.id(Self.x), with: edit)
        }, check: { files in
            let work = try file(files, Self.work)
            #expect(work.tasks.map(\.title) == ["X", "Y", "Z"])
            try keepsB(files)
        })
    }

    @Test func theUndoStampsWhatItPutsBackAndNothingElse() throws {
        let (a, _) = try machines()
        var edit = TaskEdit()
        edit.title = "Renamed"
        edit.addTags = ["urgent"]
        _ = try a.mutation("edit", at: t1).edit(.id(Self.x), with: edit)
        _ = try a.mutation("reorder", at: t1).reorder(.id(Self.z), to: .top)
        try a.undo(at: t1)   // the reorder, in the same second: stamped just after it
        try a.undo(at: t2)   // the edit
        let work = try #require(try a.read(Self.work))
        #expect(work.tasks.map(\.title) == ["X", "Y", "Z"])
        let x = work.tasks[0], z = work.tasks[2]
        #expect(x.tags.isEmpty)
        #expect(x.changed == ["title": t2, "+urgent": t2])
        #expect(x.modifiedAt == t2)
        #expect(z.changed == ["order": t1.addingTimeInterval(1)], "a reorder undone is stamped as a reorder, after the reorder")
        #expect(z.modifiedAt == t0, "a reorder is not an edit")
        #expect(work.tasks[1].sameContent(as: task("Y")), "a task the undo does not touch keeps its stamps")
        #expect(work.modifiedAt == t0)
    }

    @Test func anUndoneTagStaysUndone() throws {
        try scenario(copying: ["lists/work.json"], { a in
            var edit = TaskEdit()
            edit.addTags = ["urgent"]
            _ = try a.mutation("edit", at: t1).edit(.id(Self.x), with: edit)
        }, check: { files in
            let x = try #require(try file(files, Self.work).tasks.first { $0.id == Self.x })
            #expect(x.tags.isEmpty)
            try keepsB(files)
        })
    }

    @Test func anUndoneDeleteBeatsItsTombstone() throws {
        try scenario(copying: ["lists/work.json"], { a in
            _ = try a.mutation("rm", at: t1).remove([.id(Self.x)])
        }, check: { files in
            let work = try file(files, Self.work)
            #expect(work.tasks.map(\.title) == ["X", "Y", "Z"])
            #expect(work.deleted.isEmpty)
            try keepsB(files)
        })
    }

    @Test func theUndoOfADeleteDropsTheTombstoneAndIsLaterThanIt() throws {
        let (a, _) = try machines()
        _ = try a.mutation("rm", at: t1).remove([.id(Self.x)])
        try a.undo(at: t1)   // same second as the deletion
        let work = try #require(try a.read(Self.work))
        #expect(work.deleted.isEmpty)
        let x = try #require(work.tasks.first)
        #expect(x.id == Self.x)
        #expect(x.modifiedAt == t1.addingTimeInterval(1), "re-created after its tombstone")
    }

    @Test func anUndoneAddStaysUndone() throws {
        var added: UUID?
        try scenario(copying: ["lists/work.json"], { a in
            let store = a.store("add", at: t1)
            let adding = TaskAdding(store: store, session: try a.session(store, at: t1), now: t1,
                                    quickAdd: QuickAddParser(fields: FieldParser(now: t1, timeZone: Zone(named: "UTC")!)))
            added = try adding.add([(nil, ["New", "list:Work"])]).added.first?.task.id
        }, check: { files in
            let id = try #require(added)
            let work = try file(files, Self.work)
            #expect(work.tasks.map(\.title) == ["X", "Y", "Z"])
            #expect(work.deleted.map(\.id) == [id], "the undone add is recorded as deleted")
            #expect(!files.values.contains { String(decoding: $0, as: UTF8.self).contains("\"New\"") })
            try keepsB(files)
        })
    }

    @Test func anAddUndoneBeforeAnySyncLeavesOnlyItsTombstone() throws {
        let (a, b) = try machines()
        let store = a.store("add", at: t1)
        let adding = TaskAdding(store: store, session: try a.session(store, at: t1), now: t1,
                                quickAdd: QuickAddParser(fields: FieldParser(now: t1, timeZone: Zone(named: "UTC")!)))
        let id = try #require(try adding.add([(nil, ["New", "list:Work"])]).added.first?.task.id)
        try a.undo(at: t2)
        let work = try #require(try a.read(Self.work))
        #expect(work.tasks.map(\.title) == ["X", "Y", "Z"])
        #expect(work.deleted == [Tombstone(id: id, at: t2)])
        try unrelatedChange(on: b)
        let files = try merged(a, b)
        let merged = try file(files, Self.work)
        #expect(merged.tasks.map(\.title) == ["X", "Y", "Z"])
        #expect(merged.tasks.first { $0.id == Self.y }?.tags == ["home"])
    }

    @Test func anUndoneMoveEndsInItsListWithoutATombstone() throws {
        try scenario(copying: ["lists/work.json", "lists/home.json"], { a in
            _ = try a.mutation("mv", at: t1).move([.id(Self.x)], to: "Home")
        }, check: { files in
            let work = try file(files, Self.work), home = try file(files, Self.home)
            #expect(work.tasks.map(\.title) == ["X", "Y", "Z"])
            #expect(home.tasks.map(\.title) == ["H"])
            #expect(work.deleted.isEmpty && home.deleted.isEmpty, "a move back is not a deletion")
            #expect(work.tasks[0].changed["list"] == t2)
            try keepsB(files)
        })
    }

    @Test func anUndoneListRenameStaysUndone() throws {
        try scenario(copying: ["lists/work.json"], { a in
            let store = a.store("lists rename", at: t1)
            _ = try ListEditing(store: store, session: try a.session(store, at: t1), now: t1).rename("Work", to: "Office")
        }, check: { files in
            let work = try file(files, Self.work)
            #expect(work.name == "Work")
            #expect(work.modifiedAt == t2)
            try keepsB(files)
        })
    }

    @Test func anUndoneReorderStaysUndone() throws {
        try scenario(copying: ["lists/work.json"], { a in
            _ = try a.mutation("reorder", at: t1).reorder(.id(Self.z), to: .top)
        }, check: { files in
            let work = try file(files, Self.work)
            #expect(work.tasks.map(\.title) == ["X", "Y", "Z"])
            try keepsB(files)
        })
    }

    @Test func anUndoneCompletionTakesTheNextOccurrenceBackAsAReopenDoesAndDoingItAgainMakesItAfresh() throws {
        let (a, _) = try machines()
        var work = try #require(try a.read(Self.work))
        work.tasks[0].repeatRule = "daily"
        try a.write(work)
        let utc = try #require(Zone(named: "UTC"))
        let done = try a.mutation("done", at: t1).complete([.id(Self.x)], timeZone: utc)
        let next = try #require(done.first?.outcome.next?.id)
        #expect(done.first?.outcome.nextCreated == true)
        try a.undo(at: t1)
        var file = try #require(try a.read(Self.work))
        #expect(file.tasks.map(\.title) == ["X", "Y", "Z"])
        #expect(file.tasks[0].state == .open)
        #expect(file.deleted.isEmpty, "taken back without a tombstone, as a reopen: the store merge withdraws synced copies")
        #expect(!file.tasks.map(\.id).contains(next))
        // Completed again in the same second: a new completion, with its occurrence.
        let again = try a.mutation("done", at: t1).complete([.id(Self.x)], timeZone: utc)
        #expect(again.first?.outcome.nextCreated == true)
        file = try #require(try a.read(Self.work))
        #expect(file.tasks.map(\.id).contains(next))
        #expect(file.deleted.isEmpty)
    }

    @Test func undoingTwoChangesOfOneTaskInTurnSeesNoConflict() throws {
        let (a, _) = try machines()
        var edit = TaskEdit()
        edit.title = "Renamed"
        _ = try a.mutation("edit", at: t1).edit(.id(Self.x), with: edit)
        _ = try a.mutation("done", at: t1).apply([.id(Self.x)]) { task, now in task.setState(.done, at: now) }
        let outcome = try UndoRun(store: a.store("undo", at: t2), force: false).undo(count: 2)
        #expect(outcome.failure == nil, "the first undo's stamps are not a change since the edit")
        let x = try #require(try a.read(Self.work)?.tasks.first)
        #expect(x.title == "X" && x.state == .open)
        #expect(x.changed["title"] == t2 && x.changed["state"] == t2)
    }
}
