import FoundationEssentials

/// `tick search --limit N`, ranked from the index without scoring every hit.
///
/// A task's score (``SearchQuery/score(title:notes:tags:)``) adds, per term,
/// 10 for the title, 5 for the tags and 1 for the notes. The trigram table
/// keeps which columns hold each trigram (`detail=column`), so two FTS5
/// queries per term (the title; the tags and notes) give a *bound* of every
/// candidate's score: the most it can score if the columns whose trigrams
/// match hold the term. Tasks
/// are then scored exactly level by level, highest bound first; a level too
/// large to fetch whole is walked in display order (the inbox, then lists,
/// each in manual order, through the `tasks_path` index), so ties are met in
/// the order they rank. The search stops as soon as `limit` hits are
/// certain: every hit above the level being read, and those of its score up
/// to where the walk has reached (no task not yet read can rank before
/// them). A common word among 100,000 tasks then reads a few dozen rows
/// instead of 16,000. The hits and their order are those of scoring every
/// candidate (``TaskIndex/rankedSearch``, which tests compare it with).
struct BoundedSearch {
    /// One scored task: its score and where it is shown.
    struct Hit {
        let score: Int
        let rank: Int
        let position: Int
        let rowid: Int64
        let id: String

        /// True when `self` ranks before `other`: a higher score, then display order.
        func precedes(_ other: Hit) -> Bool {
            (other.score, rank, position) < (score, other.rank, other.position)
        }
    }

    let db: SQLiteConnection
    let search: SearchQuery
    /// The search's condition without its text match (states, waiting, list, tags), over `t`.
    let clause: String
    let arguments: SQLArguments
    let limit: Int
    /// The files in display order.
    let paths: [String]
    /// Each file's place in ``paths``.
    private let ranks: [String: Int]

    init(db: SQLiteConnection, search: SearchQuery, clause: String, arguments: SQLArguments, limit: Int, paths: [String]) {
        self.db = db
        self.search = search
        self.clause = clause
        self.arguments = arguments
        self.limit = limit
        self.paths = paths
        ranks = Dictionary(paths.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
    }

    /// The columns queried for a term's bound, and what a match there can add
    /// at most: the title's 10, and the tags' 5 with the notes' 1 in one
    /// query (one pass over the trigrams' lists fewer; the title's matches,
    /// common words' thousands, are what the bound must tell apart).
    static let boundColumns = [("title", 10), ("tags notes", 6)]

    /// Levels at most this large are fetched whole rather than walked.
    static let fetchWhole = 256
    /// Rows scored per query while walking a level.
    static let batch = 32

    /// The best `limit` hits, ranked, a task once; nil when this way cannot
    /// answer (a term shorter than a trigram, a file outside the display
    /// order): the caller then scores every candidate.
    func run() throws -> [Hit]? {
        guard limit > 0 else { return [] }
        // Rowids the bit set cannot hold (never made by the index's inserts) take the other way.
        guard let bounds = try self.bounds(), bounds.allSatisfy({ $0.rowid >= 0 && $0.rowid < RowSet.capacity }) else { return nil }
        var levels: [Int: [Int64]] = [:]
        for (rowid, bound) in bounds { levels[bound, default: []].append(rowid) }
        let order = levels.keys.sorted(by: >)
        var known: [Hit] = []
        for (i, level) in order.enumerated() {
            let rows = levels[level] ?? []
            if rows.count <= Self.fetchWhole {
                known += try score(rows)
            } else if let done = try walk(RowSet(rows), level: level, known: &known) {
                return done
            }
            // Every task not read yet scores at most the next level.
            let next = i + 1 < order.count ? order[i + 1] : 0
            if let done = certain(known, where: { $0.score > next }) { return done }
        }
        return ranked(known)
    }

    /// Each candidate's bound, in rowid order: for every term, the weights
    /// of the columns whose trigrams match it; a task some term matches
    /// nowhere is no candidate. Nil when a term has no trigram.
    private func bounds() throws -> [(rowid: Int64, bound: Int)]? {
        var bounds: [(rowid: Int64, bound: Int)] = []
        for (n, term) in search.terms.enumerated() {
            var termBounds: [(rowid: Int64, bound: Int)] = []
            for (columns, weight) in Self.boundColumns {
                guard let match = search.ftsExpression(term, columns: columns) else { return nil }
                var rows: [Int64] = []
                try db.forEachRow("SELECT rowid FROM fts WHERE fts MATCH ?", [match]) { rows.append($0.int64(0)) }
                termBounds = Self.merged(termBounds, rows.map { ($0, weight) }, keepingAll: true)
            }
            bounds = n == 0 ? termBounds : Self.merged(bounds, termBounds, keepingAll: false)
            if bounds.isEmpty { break }
        }
        return bounds
    }

    /// Two lists of rowids with bounds, as one in rowid order: a rowid in
    /// both gets the sum; with `keepingAll` a rowid in one keeps its bound,
    /// else it is left out. (FTS5 gives rowids in order; others are sorted first.)
    static func merged(_ a: [(rowid: Int64, bound: Int)], _ b: [(rowid: Int64, bound: Int)], keepingAll: Bool) -> [(rowid: Int64, bound: Int)] {
        func sorted(_ x: [(rowid: Int64, bound: Int)]) -> [(rowid: Int64, bound: Int)] {
            zip(x, x.dropFirst()).allSatisfy { $0.0.rowid < $0.1.rowid } ? x : x.sorted { $0.rowid < $1.rowid }
        }
        let a = sorted(a), b = sorted(b)
        var out: [(rowid: Int64, bound: Int)] = []
        out.reserveCapacity(keepingAll ? a.count + b.count : min(a.count, b.count))
        var i = 0, j = 0
        while i < a.count, j < b.count {
            if a[i].rowid == b[j].rowid {
                out.append((a[i].rowid, a[i].bound + b[j].bound))
                i += 1
                j += 1
            } else if a[i].rowid < b[j].rowid {
                if keepingAll { out.append(a[i]) }
                i += 1
            } else {
                if keepingAll { out.append(b[j]) }
                j += 1
            }
        }
        if keepingAll {
            out += a[i...]
            out += b[j...]
        }
        return out
    }

    /// Rowids as a bit set (rowids are small positive integers).
    struct RowSet {
        /// The largest rowid plus one it holds (a set of 8 MiB at most).
        static let capacity: Int64 = 1 << 26
        private var words: [UInt64] = []

        init(_ rows: [Int64]) {
            let top = rows.max() ?? 0
            words = Array(repeating: 0, count: Int(top / 64) + 1)
            for row in rows where row >= 0 { words[Int(row / 64)] |= 1 << UInt64(row % 64) }
        }

        func contains(_ row: Int64) -> Bool {
            guard row >= 0, Int(row / 64) < words.count else { return false }
            return words[Int(row / 64)] & (1 << UInt64(row % 64)) != 0
        }
    }

    /// Walks the tasks of one level in display order, scoring them in
    /// batches; the answer once `limit` hits are certain, else nil (the
    /// level is then read whole).
    private func walk(_ rows: RowSet, level: Int, known: inout [Hit]) throws -> [Hit]? {
        let statement = try db.cached("SELECT rowid, position FROM tasks WHERE path = ? ORDER BY position")
        // A statement left mid-step would keep SQLite from registering the next search's function.
        defer { statement.reset() }
        var batch: [Int64] = []
        var cursor = (rank: 0, position: Int.min)
        func flush() throws -> [Hit]? {
            guard !batch.isEmpty else { return nil }
            known += try score(batch)
            batch.removeAll(keepingCapacity: true)
            let reached = cursor
            return certain(known) { $0.score > level || ($0.score == level && ($0.rank, $0.position) <= reached) }
        }
        for (rank, path) in paths.enumerated() {
            statement.reset()
            try statement.bind([path])
            while try statement.step() {
                let rowid = statement.int64(0)
                guard rows.contains(rowid) else { continue }
                batch.append(rowid)
                cursor = (rank, statement.int(1))
                if batch.count == Self.batch, let done = try flush() { return done }
            }
        }
        return try flush()
    }

    /// The exact scores of `rows` that pass the clause and match.
    private func score(_ rows: [Int64]) throws -> [Hit] {
        guard !rows.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: rows.count).joined(separator: ", ")
        var hits: [Hit] = []
        try db.forEachRow("""
            SELECT t.rowid, t.id, t.path, t.position, tick_search(t.title, t.notes, t.tags)
            FROM tasks t WHERE t.rowid IN (\(marks)) AND (\(clause))
            """, SQLArguments(values: rows) + arguments) { row in
            let score = row.int(4)
            guard score > 0 else { return }
            hits.append(Hit(score: score, rank: ranks[row.text(2)] ?? Int.max, position: row.int(3), rowid: row.int64(0), id: row.text(1)))
        }
        return hits
    }

    /// The first `limit` of the hits that `isCertain` says no unread task can
    /// rank before, when there are that many tasks among them.
    private func certain(_ known: [Hit], where isCertain: (Hit) -> Bool) -> [Hit]? {
        let candidates = known.filter(isCertain)
        // Fewer rows than `limit` are fewer tasks: no need to rank them (a walk asks after every batch).
        guard candidates.count >= limit else { return nil }
        let sure = ranked(candidates)
        return sure.count == limit ? sure : nil
    }

    /// Hits ranked, each task once (its best), at most `limit`.
    private func ranked(_ hits: [Hit]) -> [Hit] {
        var seen = Set<String>()
        var out: [Hit] = []
        for hit in hits.sorted(by: { $0.precedes($1) }) where out.count < limit && seen.insert(hit.id).inserted {
            out.append(hit)
        }
        return out
    }
}
