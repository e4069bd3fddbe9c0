import FoundationEssentials

/// A disposable SQLite cache of the store, kept outside it
/// (`$XDG_CACHE_HOME/tick/<store-key>/index.sqlite`).
///
/// Every read first calls ``refresh()``: it stats the store's files and
/// reparses only those that are new, changed or gone, so answers are always
/// those of the files, with or without a watcher. A file that fails to parse
/// keeps its last good tasks, marked stale. The index is never a source of
/// truth: a damaged or outdated index is deleted and rebuilt.
public final class TaskIndex {
    public let store: Store
    /// The database file, or nil for an in-memory index.
    public let path: String?
    var db: SQLiteConnection
    let now: () -> Date

    /// How recent an mtime must be to be distrusted: a file rewritten within
    /// the same timestamp tick could otherwise keep an identical stamp.
    static let racyWindow: Int64 = 2_000_000_000

    /// Held shared while `db` is open on a file, so that no other tick
    /// process deletes or replaces the file under it (nil in memory).
    let lock: IndexLock?
    /// Why this index is in memory when it should be on disk (the cache
    /// could not be used, or not updated), as a warning for the user; nil
    /// when all is well.
    public let fallbackWarning: String?

    /// Opens (or creates) the index at `path`, or in memory when nil.
    ///
    /// Creating, migrating or deleting the file happens under an exclusive
    /// lock (see ``IndexLock``), so any number of processes may do this at once.
    /// A new (or outdated, or damaged) file is built from the store at once;
    /// `progress` hears about that build (files done, files in all).
    public convenience init(store: Store, path: String?, now: @escaping () -> Date = Date.init,
                            progress: ((Int, Int) -> Void)? = nil) throws {
        guard let path else {
            try self.init(store: store, path: nil, db: Self.connect(nil), lock: nil, now: now, fallbackWarning: nil)
            try migrate()
            return
        }
        let opened: (db: SQLiteConnection, lock: IndexLock, fresh: Bool)
        do {
            opened = try Self.openFile(at: path, shortIDs: ShortIDStore.path(for: store))
        } catch let error as IndexError {
            throw error
        } catch let error as UnwritableIndex {
            throw error
        } catch let error as StoreError {
            throw IndexError.cannotOpen(path: path, reason: error.errorDescription ?? "\(error)")
        } catch {
            throw IndexError.cannotOpen(path: path, reason: Self.describe(error))
        }
        self.init(store: store, path: path, db: opened.db, lock: opened.lock, now: now, fallbackWarning: nil)
        if opened.fresh {
            // Still under the exclusive lock: fill it in bulk, then let others in.
            builtAtOpen = try? rebuild(progress: progress)
            lock?.acquire(.shared, timeout: Self.sharedWait)
        }
    }

    init(store: Store, path: String?, db: SQLiteConnection, lock: IndexLock?, now: @escaping () -> Date, fallbackWarning: String?) {
        self.store = store
        self.path = path
        self.db = db
        self.lock = lock
        self.now = now
        self.fallbackWarning = fallbackWarning
    }

    /// Closes the database and lets other processes replace it. The index
    /// must not be used afterwards.
    public func close() {
        db.close()
        lock?.release()
    }

    /// The lists in display order, cached until the next change to `files`.
    var cachedListRows: [ListInfo]?

    /// The report of the build from scratch that opening this index did
    /// (the file was missing, outdated or damaged), until
    /// ``reindexFromScratch(progress:)`` takes it: a cold `tick reindex`
    /// builds the index once, not twice.
    var builtAtOpen: RefreshReport?

    /// How many times this index was built from scratch (tests count them).
    var builds = 0
}
