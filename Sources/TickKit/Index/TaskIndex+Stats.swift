import FoundationEssentials

extension TaskIndex {
    /// Completions per local day for the days `first ..< end`, optionally in one file.
    ///
    /// Reads only the `tasks_completed` index (a covering range scan, already in
    /// time order) and assigns each instant to its day by walking the DST-correct
    /// local midnights alongside: no time zone lookup per task.
    public func completionsPerDay(first: LocalDate, end: LocalDate, timeZone: Zone, path: String? = nil) throws -> [LocalDate: Int] {
        let bounds = DayBoundaries(first: first, end: end, timeZone: timeZone)
        guard let from = bounds.starts.first, let to = bounds.starts.last else { return [:] }
        var sql = "SELECT completed_ts FROM tasks WHERE completed_ts >= ? AND completed_ts < ?"
        var args: SQLArguments = [from.timeIntervalSinceReferenceDate, to.timeIntervalSinceReferenceDate]
        if let path {
            sql += " AND path = ?"
            args += [path]
        }
        sql += " ORDER BY completed_ts"
        let starts = bounds.starts.map(\.timeIntervalSinceReferenceDate)
        return try db.read {
            var perDay: [Int: Int] = [:]
            var day = 0
            try db.forEachRow(sql, args) { row in
                let ts = row.double(0)
                while day + 1 < starts.count, ts >= starts[day + 1] { day += 1 }
                perDay[day, default: 0] += 1
            }
            var out: [LocalDate: Int] = [:]
            for (offset, count) in perDay { out[first.adding(days: offset)] = count }
            return out
        }
    }

    /// Completions per file (relative path) for the days `first ..< end`: a
    /// covering range scan of the `tasks_completed` index, which holds the path.
    public func completionsPerList(first: LocalDate, end: LocalDate, timeZone: Zone, path: String? = nil) throws -> [String: Int] {
        let from = first.startOfDay(in: timeZone).timeIntervalSinceReferenceDate
        let to = end.startOfDay(in: timeZone).timeIntervalSinceReferenceDate
        return try db.read {
            var sql = "SELECT path, count(*) FROM tasks WHERE completed_ts >= ? AND completed_ts < ?"
            var args: SQLArguments = [from, to]
            if let path {
                sql += " AND path = ?"
                args += [path]
            }
            sql += " GROUP BY path"
            var out: [String: Int] = [:]
            try db.forEachRow(sql, args) { row in out[row.text(0)] = row.int(1) }
            return out
        }
    }

    /// How many consecutive days right before `day` (day - 1, day - 2, ...) have at
    /// least one completion: one index probe per day, stopping at the first empty day
    /// (or the oldest completion).
    public func activeDays(before day: LocalDate, timeZone: Zone, path: String? = nil) throws -> Int {
        var sql = "SELECT 1 FROM tasks WHERE completed_ts >= ? AND completed_ts < ?"
        if path != nil { sql += " AND path = ?" }
        sql += " LIMIT 1"
        return try db.read {
            guard let oldest = try db.double("SELECT min(completed_ts) FROM tasks WHERE completed_ts IS NOT NULL") else { return 0 }
            let statement = try db.cached(sql)
            var n = 0
            var end = day.startOfDay(in: timeZone).timeIntervalSinceReferenceDate
            var current = day
            while end > oldest {
                current = current.adding(days: -1)
                let start = current.startOfDay(in: timeZone).timeIntervalSinceReferenceDate
                var args: SQLArguments = [start, end]
                if let path { args += [path] }
                guard try statement.row(args, { !$0.isNull(0) }) == true else { break }
                n += 1
                end = start
            }
            return n
        }
    }
}
