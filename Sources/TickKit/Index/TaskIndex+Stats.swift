import Foundation
import GRDB

extension TaskIndex {
    /// Completions per local day and list for the days `first ..< end`, from the
    /// `tasks_completed` index: SQL counts per list and quarter hour after `first`'s
    /// local midnight (every UTC offset in use is a multiple of 15 minutes, so a
    /// quarter hour never straddles midnight), then each quarter is mapped to its
    /// day by binary search over the DST-correct midnights. `path` limits it to one file.
    public func completionCounts(first: LocalDate, end: LocalDate, timeZone: TimeZone, path: String? = nil) throws -> [CompletionStats.DayCount] {
        let bounds = DayBoundaries(first: first, end: end, timeZone: timeZone)
        guard let from = bounds.starts.first, let to = bounds.starts.last else { return [] }
        let fromTS = from.timeIntervalSinceReferenceDate
        var sql = "SELECT path, CAST((completed_ts - ?) / 900 AS INTEGER) AS q, count(*) FROM tasks WHERE completed_ts >= ? AND completed_ts < ?"
        var args: StatementArguments = [fromTS, fromTS, to.timeIntervalSinceReferenceDate]
        if let path {
            sql += " AND path = ?"
            args += [path]
        }
        sql += " GROUP BY path, q"
        return try db.read { db in
            var out: [CompletionStats.DayCount] = []
            let rows = try Row.fetchCursor(db, sql: sql, arguments: args)
            var lastQuarter = Int.min
            var lastDay: LocalDate?
            while let row = try rows.next() {
                let quarter: Int = row[1]
                if quarter != lastQuarter {
                    lastQuarter = quarter
                    lastDay = bounds.day(of: from.addingTimeInterval(Double(quarter) * 900))
                }
                guard let day = lastDay else { continue }
                out.append(CompletionStats.DayCount(day: day, list: row[0], count: row[2]))
            }
            return out
        }
    }
}
