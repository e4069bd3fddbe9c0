import Foundation
import GRDB

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
    var db: DatabaseQueue
    let now: () -> Date

    /// How recent an mtime must be to be distrusted: a file rewritten within
    /// the same timestamp tick could otherwise keep an identical stamp.
    static let racyWindow: Int64 = 2_000_000_000

    /// Opens (or creates) the index at `path`, or in memory when nil.
    public init(store: Store, path: String?, now: @escaping () -> Date = Date.init) throws {
        self.store = store
        self.path = path
        self.now = now
        do {
            if let path {
                try AtomicFile.createDirectory((path as NSString).deletingLastPathComponent)
            }
            db = try Self.connect(path)
            try migrate()
        } catch let error as StoreError {
            throw IndexError.cannotOpen(path: path ?? ":memory:", reason: error.localizedDescription)
        } catch {
            throw IndexError.cannotOpen(path: path ?? ":memory:", reason: "\(error)")
        }
    }


    /// The lists in display order, cached until the next change to `files`.
    var cachedListRows: [ListInfo]?
}
