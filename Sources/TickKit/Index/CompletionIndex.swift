import Glibc

/// Read-only lookups for shell completion, answered from the index file as
/// it is: nothing is refreshed, locked, created or written, so a Tab never
/// waits for a rebuild and never changes anything on disk. The price is
/// that a change made since the last tick command (an edit by hand, a
/// `git pull`) shows up in completions only after the next command or
/// while `tick watch` runs. A missing, outdated or unreadable index answers
/// nothing.
public final class CompletionIndex {
    private let db: SQLiteConnection

    /// A pending task as completion offers it: its short id and title.
    public struct TaskCandidate: Sendable, Equatable {
        public let shortID: Int
        public let title: String
    }

    /// Opens the index of the store at `location` read-only, with the
    /// short-id table attached (also read-only); nil when there is no usable index.
    public init?(location: StoreLocation) {
        let path = TaskIndex.defaultPath(in: location)
        let shortIDs = ShortIDStore.path(in: location)
        guard access(path, R_OK) == 0 else { return nil }
        let hasShortIDs = access(shortIDs, R_OK) == 0
        guard let connection = try? SQLiteConnection(path: path, readOnly: true, busyTimeout: 1) else { return nil }
        if hasShortIDs {
            guard (try? connection.execute("ATTACH DATABASE ? AS ids", [shortIDs])) != nil else { return nil }
        }
        guard (try? connection.read({ try connection.int("PRAGMA user_version") })) == IndexSchema.version else { return nil }
        db = connection
        self.hasShortIDs = hasShortIDs
    }

    private let hasShortIDs: Bool

    /// The names of the lists (not the inbox) starting with `prefix`, in
    /// any letter case, sorted.
    public func listNames(prefix: String) -> [String] {
        let names = (try? db.read {
            try db.texts("SELECT coalesce(name, slug) FROM files WHERE slug IS NOT NULL AND path LIKE 'lists/%'")
        }) ?? []
        return Self.matching(names, prefix: prefix)
    }

    /// Every tag in the store starting with `prefix` (tags are case-sensitive), sorted.
    public func tags(prefix: String) -> [String] {
        // A skip scan on the tag index: one seek per distinct tag, not one
        // step per tagged task (100,000 rows hold some 40 tags), from
        // `prefix` up to the first string that no longer starts with it.
        (try? db.read {
            try db.texts("""
                WITH RECURSIVE t(tag) AS (
                    SELECT min(tag) FROM tags WHERE tag >= ?1
                    UNION ALL
                    SELECT (SELECT min(tag) FROM tags WHERE tag > t.tag) FROM t WHERE t.tag < ?2
                )
                SELECT tag FROM t WHERE tag IS NOT NULL AND tag < ?2
                """, [prefix, prefix + "\u{10FFFF}"])
        }) ?? []
    }

    /// Pending tasks whose short id starts with the digits `prefix`, by
    /// number, at most `limit` of them.
    public func tasks(prefix: String, limit: Int) -> [TaskCandidate] {
        guard hasShortIDs, prefix.allSatisfy(\.isASCII), prefix.allSatisfy(\.isNumber) else { return [] }
        return (try? db.read {
            var candidates: [TaskCandidate] = []
            try db.forEachRow("""
                SELECT s.n, t.title FROM ids.short_ids s JOIN tasks t ON t.id = s.id
                WHERE s.held_until IS NULL AND t.state != 'done' AND CAST(s.n AS TEXT) LIKE ?
                GROUP BY s.n ORDER BY s.n LIMIT ?
                """, [prefix + "%", limit]) { candidates.append(TaskCandidate(shortID: $0.int(0), title: $0.text(1))) }
            return candidates
        }) ?? []
    }

    /// `names` that start with `prefix` ignoring case, sorted, without duplicates.
    static func matching(_ names: [String], prefix: String) -> [String] {
        let folded = prefix.lowercased()
        return Set(names.filter { $0.lowercased().hasPrefix(folded) }).sorted {
            $0.lowercased() == $1.lowercased() ? $0 < $1 : $0.lowercased() < $1.lowercased()
        }
    }
}
