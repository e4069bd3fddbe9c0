import FoundationEssentials
import Glibc

/// Failures of the store: reading, writing, locking.
public enum StoreError: Error, LocalizedError, Sendable {
    /// A file could not be parsed or breaks the schema.
    case invalidFile(FormatError)
    /// A file or directory could not be read.
    case readFailed(path: String, reason: String)
    /// A file could not be written; the original is intact.
    case writeFailed(path: String, reason: String)
    /// Another tick process held the lock for too long.
    case lockTimeout(path: String, seconds: Int)
    /// The file kept changing on disk while tick tried to update it.
    case keptChanging(path: String)
    /// Another program saved the file while tick replaced it, and that
    /// version could not be merged; it is kept at `kept` (one path or more).
    case unmergedSave(path: String, kept: [String], written: Bool)
    /// The store path exists but is not a directory.
    case notADirectory(path: String)
    /// The target list does not exist.
    case fileMissing(path: String)
    /// The file has no write permission for this user (e.g. `chmod 444`):
    /// tick respects that and writes nothing (Docs/FORMAT.md section 10).
    case readOnly(path: String)
    /// A store named by `--store` or `TICK_STORE` does not exist; only the
    /// default store is created on the first write.
    case noStore(path: String)

    public var errorDescription: String? {
        switch self {
        case .invalidFile(let e):
            return (e.errorDescription ?? e.summary) + "\n    " + e.hint
        case let .readFailed(path, reason):
            return "cannot read \(path): \(reason)"
        case let .writeFailed(path, reason):
            return "cannot write \(path): \(reason); the file on disk is unchanged"
        case let .lockTimeout(path, seconds):
            return "another tick process has held the store lock \(path) for over \(seconds)s; try again, or check for a stuck tick process"
        case .keptChanging(let path):
            return "\(path) kept changing on disk while tick tried to update it (is a sync tool writing it?); nothing was written, try again"
        case let .unmergedSave(path, kept, written):
            let outcome = written ? "tick's change was written" : "tick's change was not written"
            let versions = kept.count == 1 ? "that version; it is kept as \(kept[0])" : "those versions; they are kept as \(kept.joined(separator: ", "))"
            return "\(path) was saved by another program while tick wrote it, and tick could not merge \(versions) (\(outcome)); merge by hand, then delete the kept file"
        case .notADirectory(let path):
            return "the store \(path) is not a directory; pass --store DIR or set TICK_STORE"
        case .fileMissing(let path):
            return "\(path) does not exist"
        case .readOnly(let path):
            return "cannot write \(path): the file is read-only (no write permission) and tick respects that; nothing was written. To allow writes: chmod u+w \(Self.shellQuoted(path))"
        case .noStore(let path):
            return "no store at \(path); create it with `tick init \(Self.shellQuoted(path))`"
        }
    }
}

extension StoreError {
    /// `path` as it can be pasted into a shell.
    static func shellQuoted(_ path: String) -> String {
        let plain = path.unicodeScalars.allSatisfy { TextClass.isAlphanumeric($0) || "/._-+,=:@%~".unicodeScalars.contains($0) }
        return plain && !path.isEmpty ? path : "'" + path.replacingAll("'", with: "'\\''") + "'"
    }
}

extension StoreError: TickError {
    public var kind: FailureKind {
        if case .invalidFile = self { return .badData }
        return .failure
    }

    public var fileLocation: String? {
        if case .invalidFile(let e) = self { return e.fileLocation }
        return nil
    }

    public var report: String {
        if case .invalidFile(let e) = self {
            return e.report + "\n    " + e.hint
        }
        return errorDescription ?? "\(self)"
    }
}
