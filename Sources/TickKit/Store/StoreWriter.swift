import FoundationEssentials
import Glibc

/// Writes to a store. It exists only while the store lock is held.
public struct StoreWriter {
    public let store: Store

    /// How many times an update is re-applied when the file keeps changing underneath.
    static let maxAttempts = 5

    /// Reads `kind`, applies `change`, and writes the result atomically.
    ///
    /// - If the file does not exist, `create` makes a new one (or the update fails).
    /// - If the result is byte-identical to the file, nothing is written.
    /// - If the file changed on disk between the read and the write (an editor
    ///   or Syncthing), that version is merged in (``SwappingWrite``), so
    ///   nothing is overwritten blind; if it was created or removed meanwhile,
    ///   it is read again and `change` is re-applied.
    /// - A file that cannot be parsed is never written.
    /// - Fields changed by hand since tick last wrote the file get the file's
    ///   mtime as their change time, and every field `change` changes gets the
    ///   store clock's time (`changed`, Docs/FORMAT.md), so merges know who
    ///   changed what and when. Reordering is not a change of a task. With
    ///   `stampChanges` false (writing a merge, whose values keep the change
    ///   times they had) only the hand edits are stamped.
    /// - With the store's ``TaskHooks``, and `stampChanges` true, the user's
    ///   hook scripts see each added, changed or deleted task first.
    @discardableResult
    public func update<R>(
        _ kind: FileKind,
        create: (() -> TaskFile)? = nil,
        stampChanges: Bool = true,
        _ change: (inout TaskFile) throws -> R
    ) throws -> R {
        for _ in 0..<Self.maxAttempts {
            var loaded = try store.read(kind)
            var file: TaskFile
            if var read = loaded {
                store.written.stampHandEdits(in: &read.file, bytes: read.bytes, at: read.stamp.modificationDate)
                loaded = read
                file = read.file
            } else if let create {
                file = create()
            } else {
                throw StoreError.fileMissing(path: store.displayPath(kind))
            }
            let result = try change(&file)
            if stampChanges, let loaded { Self.stampChanges(in: &file, since: loaded.file, at: store.clock()) }
            // The user's hooks see the change before it is written, and may refuse or
            // amend it; not a merge's or an undo's (changes already made, not new ones).
            if stampChanges, let hooks = store.hooks { try hooks.review(before: loaded?.file, after: &file, now: store.clock()) }
            let bytes = TaskFileEncoder.encode(file)
            if let loaded, bytes == loaded.bytes {
                store.written.save(bytes, for: kind)
                return result
            }
            // Swapped in, never renamed over blind: a save made since the read is merged in.
            guard let placed = try SwappingWrite(store: store, kind: kind).put(bytes, file: file, over: loaded) else { continue }
            store.written.save(placed.bytes, for: kind)
            // The journal records this command's change only, not what it merged in.
            store.journal?.record(kind: kind, before: loaded?.file, after: file)
            return result
        }
        throw StoreError.keptChanging(path: store.displayPath(kind))
    }

    /// Stamps the fields of each task of `file` that differ from its version in `old`.
    static func stampChanges(in file: inout TaskFile, since old: TaskFile, at now: Date) {
        var before: [UUID: Int] = [:]
        for (i, task) in old.tasks.enumerated() { before[task.id] = i }
        for i in file.tasks.indices {
            guard let j = before[file.tasks[i].id] else { continue }
            let previous = old.tasks[j]
            if file.tasks[i] != previous { file.tasks[i].stampChanges(since: previous, at: now) }
        }
    }

    /// Writes a whole new file; fails when it already exists.
    public func create(_ file: TaskFile) throws {
        let path = store.location.path(of: file.kind)
        guard FileStamp.of(path: path) == nil else {
            throw StoreError.writeFailed(path: path, reason: "it already exists")
        }
        let bytes = TaskFileEncoder.encode(file)
        try AtomicFile.write(bytes, to: path, mode: nil)
        store.written.save(bytes, for: file.kind)
        store.journal?.record(kind: file.kind, before: nil, after: file)
    }

    /// Creates the empty file of a new list `name` at `slug` (already checked
    /// with ``ListResolver/slugForNewList(named:)``), in `color` or the one
    /// picked from the name: `tick lists add` and a list made on first use.
    public func createList(named name: String, slug: String, color: String? = nil, now: Date) throws {
        try create(TaskFile.empty(.list(slug: slug), name: name, color: color ?? ColorCode.default(for: name), now: now))
    }

    /// Writes a new file with exactly these bytes (undo of a deleted list);
    /// fails when it already exists or the bytes are not a valid file.
    public func restore(_ bytes: [UInt8], as kind: FileKind, mode: UInt32?) throws {
        let path = store.location.path(of: kind)
        guard FileStamp.of(path: path) == nil else {
            throw StoreError.writeFailed(path: path, reason: "it already exists")
        }
        let file: TaskFile
        do {
            file = try TaskFileDecoder(bytes: bytes, path: store.displayPath(kind), kind: kind, fallbackDate: store.clock()).decode()
        } catch {
            throw StoreError.invalidFile(error)
        }
        try AtomicFile.write(bytes, to: path, mode: mode)
        store.journal?.record(kind: kind, before: nil, after: file)
    }

    /// Throws ``StoreError/readOnly(path:)`` for the first of these files
    /// that exists and may not be written (``AtomicFile/requireWritable(path:shown:)``).
    /// A command that writes several files calls it first, so that a
    /// read-only one stops it before any file is changed.
    public func requireWritable(_ kinds: [FileKind]) throws(StoreError) {
        for kind in kinds {
            try AtomicFile.requireWritable(path: store.location.path(of: kind), shown: store.displayPath(kind))
        }
    }

    /// Deletes a file; refuses a read-only one, as `rm -i` asks first.
    public func remove(_ kind: FileKind) throws {
        let path = store.location.path(of: kind)
        try requireWritable([kind])
        // The journal keeps the whole file, so `tick undo` can put it back byte for byte.
        let before = store.journal == nil ? nil : try? store.read(kind)
        try AtomicFile.remove(path: path)
        store.written.remove(kind)
        if let before {
            store.journal?.record(kind: kind, before: before.file, after: nil, beforeBytes: before.bytes, beforeMode: before.stamp.mode)
        }
    }
}
