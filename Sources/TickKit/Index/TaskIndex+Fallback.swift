import FoundationEssentials
import CSQLite

/// When the index on disk cannot be used: in-memory copies that keep its
/// short ids, and telling disk failures from damage, in words rather than SQLite's.
extension TaskIndex {
    /// An in-memory copy of `index` (its short ids included) that answers
    /// from the files when the index on disk cannot be updated (a full or
    /// failing disk). Without a readable copy, a fresh in-memory index.
    public static func inMemoryCopy(of index: TaskIndex, reason: String) throws -> TaskIndex {
        let memory = try connect(nil)
        let warning = copyWarning(index.path ?? index.store.location.cacheDirectory, reason)
        let copy = TaskIndex(store: index.store, path: nil, db: memory, lock: nil, now: index.now, fallbackWarning: warning)
        do {
            try index.db.backup(to: memory)
            guard copy.isCurrent else { throw IndexError.database("incomplete copy") }
            if let rows = ShortIDStore.rows(of: index.db) { ShortIDStore.copy(rows, to: memory) }
        } catch {
            let fresh = TaskIndex(store: index.store, path: nil, db: try connect(nil), lock: nil, now: index.now, fallbackWarning: warning)
            try fresh.migrate()
            return fresh
        }
        return copy
    }

    /// The warning of an index that answers from an in-memory copy.
    static func copyWarning(_ path: String, _ reason: String) -> String {
        "cannot update the index \(path) (\(reason)); answering from the store files for this command (short ids of new tasks may change)"
    }

    /// An in-memory copy of the database file at `path`, read as bytes (it
    /// cannot be opened: SQLite needs room for its WAL files to open it).
    /// What the WAL held but the file not yet is reparsed from the files.
    static func inMemoryCopy(ofFile path: String, store: Store, now: @escaping () -> Date, warning: String) throws -> TaskIndex {
        let memory = try connect(nil)
        let copy = TaskIndex(store: store, path: nil, db: memory, lock: nil, now: now, fallbackWarning: warning)
        if var bytes = (try? AtomicFile.read(path: path))??.bytes, bytes.count >= 100 {
            // A WAL database's header says so (bytes 18-19 = 2); an image in memory has no WAL.
            if bytes[18] == 2 { bytes[18] = 1 }
            if bytes[19] == 2 { bytes[19] = 1 }
            if memory.deserialize(bytes), copy.isCurrent {
                if let rows = ShortIDStore.rows(inFile: ShortIDStore.path(for: store)) { ShortIDStore.copy(rows, to: memory) }
                return copy
            }
        }
        let fresh = TaskIndex(store: store, path: nil, db: try connect(nil), lock: nil, now: now, fallbackWarning: warning)
        try fresh.migrate()
        return fresh
    }

    /// An index file that exists but cannot be opened for writing.
    struct UnwritableIndex: Error {
        var path: String
        var warning: String
    }

    /// True for errors that say the database file itself is damaged.
    static func isDamage(_ error: Error) -> Bool {
        guard let error = error as? SQLiteError else { return false }
        return error.code == SQLITE_CORRUPT || error.code == SQLITE_NOTADB
    }

    /// True for errors of the disk rather than of the database: full, I/O,
    /// read-only, permission. Deleting and rebuilding the index cannot help.
    public static func isResourceFailure(_ error: Error) -> Bool {
        guard let error = error as? SQLiteError else { return false }
        // SQLITE_READONLY_DBMOVED (a macro Swift cannot import): the file was replaced, not a disk failure.
        if error.extendedCode == SQLITE_READONLY | (4 << 8) { return false }
        return [SQLITE_FULL, SQLITE_IOERR, SQLITE_READONLY, SQLITE_PERM, SQLITE_CANTOPEN].contains(error.code)
    }

    /// A short reason for an index failure, in words rather than SQLite's.
    public static func describe(_ error: Error) -> String {
        if let error = error as? SQLiteError {
            switch error.code {
            case SQLITE_FULL: return "the disk is full"
            case SQLITE_IOERR: return "an I/O error"
            case SQLITE_READONLY, SQLITE_PERM: return "it cannot be written"
            case SQLITE_CANTOPEN: return "it cannot be opened"
            case SQLITE_CORRUPT, SQLITE_NOTADB: return "it is damaged"
            case SQLITE_BUSY, SQLITE_LOCKED: return "it is busy"
            default: return "database error \(error.code)"
            }
        }
        if let error = error as? IndexError {
            switch error {
            case .cannotOpen(_, let reason), .database(let reason), .busy(let reason): return reason
            }
        }
        return (error as? LocalizedError)?.errorDescription ?? "\(error)"
    }
}
