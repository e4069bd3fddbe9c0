import Foundation
import Testing
@testable import TickKit

@Suite struct StoreTests {
    let now = Timestamp.parse("2026-11-21T09:00:00Z")!

    func makeStore() throws -> (Store, String) {
        let dir = NSTemporaryDirectory() + "tick-store-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/store/lists", withIntermediateDirectories: true)
        let location = StoreLocation(root: dir + "/store", stateDirectory: dir + "/state", cacheDirectory: dir + "/cache")
        return (Store(location: location), dir)
    }

    func listFile(_ titles: [String]) -> TaskFile {
        var file = TaskFile.empty(.list(slug: "work"), name: "Work", now: now)
        file.tasks = titles.map { TaskItem(id: UUID(name: $0), title: $0, createdAt: now, modifiedAt: now) }
        return file
    }

    @Test func replaceSwapsInOnlyOverTheExpectedBytes() throws {
        let (store, dir) = try makeStore()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = store.location.root + "/blocks.json"
        try Data("saved by an editor\n".utf8).write(to: URL(fileURLWithPath: path))
        // The file no longer holds what tick read: nothing changes, the caller re-reads.
        #expect(try AtomicFile.replace(path, with: Array("tick\n".utf8), expecting: Array("what tick read\n".utf8), mode: nil) == false)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "saved by an editor\n")
        // It does: swapped in, nothing left beside it.
        #expect(try AtomicFile.replace(path, with: Array("tick\n".utf8), expecting: Array("saved by an editor\n".utf8), mode: 0o640))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "tick\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.location.root).sorted() == ["blocks.json", "lists"])
        #expect(FileStamp.of(path: path).map { $0.mode & 0o7777 } == 0o640)
    }

    @Test func updateMergesASaveMadeUnderneath() throws {
        let (store, dir) = try makeStore()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = store.location.path(of: .list(slug: "work"))
        try Data(TaskFileEncoder.encode(listFile(["a"]))).write(to: URL(fileURLWithPath: path))
        var attempts = 0
        try store.withLock { writer in
            try writer.update(.list(slug: "work")) { file in
                attempts += 1
                if attempts == 1 {
                    // Another program saves the file between tick's read and its write.
                    try Data(TaskFileEncoder.encode(listFile(["a", "from-editor"]))).write(to: URL(fileURLWithPath: path))
                }
                file.tasks.append(TaskItem(id: UUID(name: "from-tick"), title: "from-tick", createdAt: now, modifiedAt: now))
            }
        }
        #expect(attempts == 1, "merged, not re-applied")
        let final = try #require(try store.read(.list(slug: "work")))
        #expect(Set(final.file.tasks.map(\.title)) == ["a", "from-editor", "from-tick"])
        #expect(final.file.tasks.count == 3)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.location.path("lists")) == ["work.json"])
    }

    /// Saves `titles` to `path` as an editor does (temp file, rename).
    func editorSave(_ bytes: [UInt8], to path: String) {
        let tmp = path + ".editor"
        _ = FileManager.default.createFile(atPath: tmp, contents: Data(bytes))
        rename(tmp, path)
    }

    @Test func aSaveBetweenTheCheckAndTheSwapIsMergedIn() throws {
        let (store, dir) = try makeStore()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = store.location.path(of: .list(slug: "work"))
        try Data(TaskFileEncoder.encode(listFile(["a"]))).write(to: URL(fileURLWithPath: path))
        var editor = listFile(["a", "from-editor"])
        editor.extra.append(JSONMember("x-editor", JSONNode(.number("1"))))
        let save = TaskFileEncoder.encode(editor)
        let racing = store.savingOnce(at: path) { self.editorSave(save, to: path) }
        try racing.withLock { writer in
            try writer.update(.list(slug: "work")) { file in
                file.tasks.append(TaskItem(id: UUID(name: "from-tick"), title: "from-tick", createdAt: now, modifiedAt: now))
            }
        }
        let final = try #require(try store.read(.list(slug: "work")))
        #expect(Set(final.file.tasks.map(\.title)) == ["a", "from-editor", "from-tick"])
        #expect(final.file.tasks.count == 3)
        #expect(final.file.extra.map(\.key) == ["x-editor"])
        // The swapped-out version is deleted once the merge is in place.
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.location.path("lists")) == ["work.json"])
        #expect(store.written.bytes(of: .list(slug: "work")) == final.bytes)
    }

    @Test func aSaveTakenOutByTheSwapIsPutBackAtOnceAndOneBetweenTheSwapsIsKeptToo() throws {
        let (store, dir) = try makeStore()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = store.location.path(of: .list(slug: "work"))
        try Data(TaskFileEncoder.encode(listFile(["a"]))).write(to: URL(fileURLWithPath: path))
        let first = TaskFileEncoder.encode(listFile(["a", "first-save"]))
        let second = TaskFileEncoder.encode(listFile(["a", "second-save"]))
        // Before the swap: the first save lands. Before the swap back: the file
        // holds tick's version without it; a second save replaces that.
        let calls = Counter()
        var racing = store
        let seenBeforeSwapBack = Box<[UInt8]>()
        racing.beforeSwap = { p in
            guard p == path else { return }
            switch calls.next() {
            case 1: self.editorSave(first, to: path)
            case 2:
                seenBeforeSwapBack.set(Array((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()))
                self.editorSave(second, to: path)
            default: break
            }
        }
        try racing.withLock { writer in
            try writer.update(.list(slug: "work")) { file in
                file.tasks.append(TaskItem(id: UUID(name: "from-tick"), title: "from-tick", createdAt: now, modifiedAt: now))
            }
        }
        #expect(calls.value >= 3, "the swap, the swap back, and the swap of the merge")
        #expect(seenBeforeSwapBack.get().map { String(decoding: $0, as: UTF8.self).contains("from-tick") } == true)
        let final = try #require(try store.read(.list(slug: "work")))
        #expect(Set(final.file.tasks.map(\.title)) == ["a", "first-save", "second-save", "from-tick"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.location.path("lists")) == ["work.json"])
    }

    @Test func aSaveThatDoesNotParseIsPutBack() throws {
        let (store, dir) = try makeStore()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = store.location.path(of: .list(slug: "work"))
        try Data(TaskFileEncoder.encode(listFile(["a"]))).write(to: URL(fileURLWithPath: path))
        let broken = Array("{\"name\": \"Work\", \"tasks\": [\n".utf8)
        let racing = store.savingOnce(at: path) { self.editorSave(broken, to: path) }
        #expect(throws: StoreError.self) {
            try racing.withLock { writer in
                try writer.update(.list(slug: "work")) { file in file.tasks[0].title = "b" }
            }
        }
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == broken, "the editor's save is back in place")
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.location.path("lists")) == ["work.json"])
    }

    @Test func unparseableFileIsNeverWritten() throws {
        let (store, dir) = try makeStore()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = store.location.path(of: .list(slug: "work"))
        let broken = Data("{\"name\": \"Work\", \"tasks\": [\n  {\"title\": \"x\",}\n]}\n".utf8)
        try broken.write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreError.self) {
            try store.withLock { writer in
                try writer.update(.list(slug: "work")) { file in file.tasks.removeAll() }
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == broken)
        let snapshot = try store.snapshot()
        #expect(snapshot.brokenKinds == [.list(slug: "work")])
        #expect(snapshot.problems.first?.location?.line == 2)
    }

    @Test func unchangedContentIsNotRewrittenAndModeIsKept() throws {
        let (store, dir) = try makeStore()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = store.location.path(of: .list(slug: "work"))
        try Data(TaskFileEncoder.encode(listFile(["a"]))).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        let before = try #require(FileStamp.of(path: path))
        try store.withLock { writer in try writer.update(.list(slug: "work")) { _ in } }
        #expect(FileStamp.of(path: path) == before)
        try store.withLock { writer in
            try writer.update(.list(slug: "work")) { file in file.tasks[0].title = "b" }
        }
        let after = try #require(FileStamp.of(path: path))
        #expect(after.inode != before.inode)
        #expect(after.mode & 0o777 == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.location.path("lists")).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test func failedWriteLeavesTheOriginal() throws {
        let (store, dir) = try makeStore()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The target path is a directory: the rename must fail.
        let path = store.location.path(of: .list(slug: "work"))
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try "keep".write(toFile: path + "/marker", atomically: false, encoding: .utf8)
        #expect(throws: StoreError.self) { try AtomicFile.write(Array("{}".utf8), to: path, mode: nil) }
        #expect(try String(contentsOfFile: path + "/marker", encoding: .utf8) == "keep")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.location.path("lists")).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test func locationFollowsFlagThenEnvThenXDG() {
        let env = ["HOME": "/home/u", "TICK_STORE": "/data/tasks", "XDG_STATE_HOME": "/st"]
        #expect(StoreLocation.resolve(explicit: "rel", environment: env, currentDirectory: "/cwd").root == "/cwd/rel")
        #expect(StoreLocation.resolve(explicit: nil, environment: env, currentDirectory: "/cwd").root == "/data/tasks")
        let xdg = StoreLocation.resolve(explicit: nil, environment: ["HOME": "/home/u", "XDG_DATA_HOME": "/xd"], currentDirectory: "/")
        #expect(xdg.root == "/xd/tick")
        let fallback = StoreLocation.resolve(explicit: nil, environment: ["HOME": "/home/u"], currentDirectory: "/")
        #expect(fallback.root == "/home/u/.local/share/tick")
        #expect(fallback.stateDirectory.hasPrefix("/home/u/.local/state/tick/tick-"))
        #expect(fallback.cacheDirectory.hasPrefix("/home/u/.cache/tick/tick-"))
        let state = StoreLocation.resolve(explicit: nil, environment: env, currentDirectory: "/").stateDirectory
        #expect(state.hasPrefix("/st/tick/tasks-"))
        #expect(!state.hasPrefix("/data/tasks"))
    }
}

/// Runs a handler the first time it is called.
final class Once: @unchecked Sendable {
    private let lock = NSLock()
    private var handler: (() -> Void)?
    init(_ handler: @escaping () -> Void) { self.handler = handler }
    func run() {
        let h = lock.withLock { () -> (() -> Void)? in
            defer { handler = nil }
            return handler
        }
        h?()
    }
}

extension Store {
    /// This store, with `save` run just before its first swap of `path`.
    func savingOnce(at path: String, _ save: @escaping () -> Void) -> Store {
        var store = self
        let once = Once(save)
        store.beforeSwap = { if $0 == path { once.run() } }
        return store
    }
}

/// Counts calls, across threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    /// The number of this call, from 1.
    func next() -> Int { lock.withLock { count += 1; return count } }
    var value: Int { lock.withLock { count } }
}

/// One value, set from a handler and read by the test.
final class Box<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?
    func set(_ v: Value) { lock.withLock { value = v } }
    func get() -> Value? { lock.withLock { value } }
}
