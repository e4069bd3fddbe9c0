import Foundation

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
    ///   or Syncthing), it is read again and `change` is re-applied, so nothing
    ///   is overwritten blind.
    /// - A file that cannot be parsed is never written.
    @discardableResult
    public func update<R>(
        _ kind: FileKind,
        create: (() -> TaskFile)? = nil,
        _ change: (inout TaskFile) throws -> R
    ) throws -> R {
        let path = store.location.path(of: kind)
        for _ in 0..<Self.maxAttempts {
            let loaded = try store.read(kind)
            var file: TaskFile
            if let loaded {
                file = loaded.file
            } else if let create {
                file = create()
            } else {
                throw StoreError.fileMissing(path: store.displayPath(kind))
            }
            let result = try change(&file)
            let bytes = TaskFileEncoder.encode(file)
            if let loaded, bytes == loaded.bytes { return result }
            // Re-check just before the rename: someone may have saved meanwhile.
            if FileStamp.of(path: path) != loaded?.stamp { continue }
            try AtomicFile.write(bytes, to: path, mode: loaded?.stamp.mode)
            store.journal?.record(kind: kind, before: loaded?.file, after: file)
            return result
        }
        throw StoreError.keptChanging(path: store.displayPath(kind))
    }

    /// Writes a whole new file; fails when it already exists.
    public func create(_ file: TaskFile) throws {
        let path = store.location.path(of: file.kind)
        guard FileStamp.of(path: path) == nil else {
            throw StoreError.writeFailed(path: path, reason: "it already exists")
        }
        try AtomicFile.write(TaskFileEncoder.encode(file), to: path, mode: nil)
        store.journal?.record(kind: file.kind, before: nil, after: file)
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
            file = try TaskFileDecoder(bytes: bytes, path: store.displayPath(kind), kind: kind, fallbackDate: Date()).decode()
        } catch {
            throw StoreError.invalidFile(error)
        }
        try AtomicFile.write(bytes, to: path, mode: mode)
        store.journal?.record(kind: kind, before: nil, after: file)
    }

    /// Deletes a file.
    public func remove(_ kind: FileKind) throws {
        let path = store.location.path(of: kind)
        // The journal keeps the whole file, so `tick undo` can put it back byte for byte.
        let before = store.journal == nil ? nil : try? store.read(kind)
        try AtomicFile.remove(path: path)
        if let before {
            store.journal?.record(kind: kind, before: before.file, after: nil, beforeBytes: before.bytes, beforeMode: before.stamp.mode)
        }
    }
}
