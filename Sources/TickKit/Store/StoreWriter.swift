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
    }

    /// Deletes a file.
    public func remove(_ kind: FileKind) throws {
        try AtomicFile.remove(path: store.location.path(of: kind))
    }
}
