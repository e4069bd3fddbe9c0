import FoundationEssentials
import Glibc

extension Store {
    /// A `blocks.json` that was read, with what is needed to notice a later change.
    public struct LoadedCommitments: Sendable {
        public var file: CommitmentFile
        public var bytes: [UInt8]
        public var stamp: FileStamp
    }

    /// The absolute path of `blocks.json`.
    public var commitmentsPath: String { location.path(CommitmentFile.relativePath) }

    /// `blocks.json` as shown in messages (relative to the current directory when below it).
    public var commitmentsDisplayPath: String {
        let path = commitmentsPath
        guard let cwd = currentDirectory, !cwd.isEmpty, cwd != "/" else { return path }
        let prefix = cwd.hasSuffix("/") ? cwd : cwd + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// Reads and decodes `blocks.json`; nil when it does not exist.
    public func readCommitments() throws(StoreError) -> LoadedCommitments? {
        guard let (bytes, stamp) = try AtomicFile.read(path: commitmentsPath) else { return nil }
        do {
            let file = try CommitmentFileCodec.decode(bytes, path: commitmentsDisplayPath, fallbackDate: stamp.modificationDate)
            return LoadedCommitments(file: file, bytes: bytes, stamp: stamp)
        } catch {
            throw .invalidFile(error)
        }
    }

    /// The store's commitments; an empty file when `blocks.json` does not exist.
    public func commitments() throws(StoreError) -> CommitmentFile {
        try readCommitments()?.file ?? CommitmentFile()
    }
}

extension StoreWriter {
    /// Reads `blocks.json` (an empty file when missing), applies `change` and
    /// writes the result atomically, like ``update(_:create:_:)``: nothing is
    /// written when the bytes would not change, a file that does not parse is
    /// never written, and a change on disk meanwhile makes it re-apply.
    @discardableResult
    public func updateCommitments<R>(_ change: (inout CommitmentFile) throws -> R) throws -> R {
        let path = store.commitmentsPath
        for _ in 0..<Self.maxAttempts {
            let loaded = try store.readCommitments()
            var file = loaded?.file ?? CommitmentFile()
            let result = try change(&file)
            let bytes = CommitmentFileCodec.encode(file)
            if let loaded, bytes == loaded.bytes { return result }
            if loaded == nil, file == CommitmentFile() { return result }
            if let loaded {
                // Swapped in only if nobody saved it since it was read; else re-apply.
                try AtomicFile.requireWritable(path: path, shown: store.commitmentsDisplayPath)
                guard try AtomicFile.replace(path, with: bytes, expecting: loaded.bytes, mode: loaded.stamp.mode) else { continue }
            } else {
                if FileStamp.of(path: path) != nil { continue }
                try AtomicFile.write(bytes, to: path, mode: nil)
            }
            store.journal?.recordCommitments(before: loaded?.bytes, after: bytes)
            return result
        }
        throw StoreError.keptChanging(path: store.commitmentsDisplayPath)
    }

    /// Puts `blocks.json` back to exactly these bytes, or removes it (nil);
    /// for `tick undo`. Bytes that do not parse as a commitments file are refused.
    public func restoreCommitments(_ bytes: [UInt8]?) throws {
        let path = store.commitmentsPath
        let before = try store.readCommitments()
        try AtomicFile.requireWritable(path: path, shown: store.commitmentsDisplayPath)
        if let bytes {
            do {
                _ = try CommitmentFileCodec.decode(bytes, path: store.commitmentsDisplayPath, fallbackDate: store.clock())
            } catch {
                throw StoreError.invalidFile(error)
            }
            try AtomicFile.write(bytes, to: path, mode: before?.stamp.mode)
        } else if before != nil {
            try AtomicFile.remove(path: path)
        }
        store.journal?.recordCommitments(before: before?.bytes, after: bytes)
    }
}
