import FoundationEssentials

extension TaskIndex {
    /// Pending tasks whose `remind` lies in `window` (lower bound exclusive,
    /// upper bound inclusive), earliest first. Uses the pending-reminder index.
    public func reminders(in window: ClosedRange<Date>) throws -> [ListedTask] {
        let from = window.lowerBound.timeIntervalSinceReferenceDate
        let through = window.upperBound.timeIntervalSinceReferenceDate
        let found = try db.read {
            try listed(db, where: "t.state != 'done' AND t.remind_ts IS NOT NULL AND t.remind_ts > ? AND t.remind_ts <= ?",
                       arguments: [from, through])
        }
        // By time, ties by id (as their uuidStrings order, without making them).
        let keys = found.map { ($0.task.remind ?? .distantPast, $0.task.id.orderKey) }
        return found.indices.sorted { a, b in
            let (x, y) = (keys[a], keys[b])
            return x.0 != y.0 ? x.0 < y.0 : x.1 < y.1
        }.map { found[$0] }
    }

    /// The earliest `remind` of a pending task that is later than `instant`, if any.
    public func nextReminder(after instant: Date) throws -> Date? {
        try db.read {
            try db.double(
                "SELECT min(remind_ts) FROM tasks WHERE state != 'done' AND remind_ts IS NOT NULL AND remind_ts > ?",
                [instant.timeIntervalSinceReferenceDate])
        }.map { Date(timeIntervalSinceReferenceDate: $0) }
    }

    /// A task by its full id, wherever it lives now.
    public func task(id: UUID) throws -> ListedTask? {
        try tasks(ids: [id]).first
    }

    /// True when a task with this id is in a file other than `kind` (it was moved there).
    public func contains(_ id: UUID, outside kind: FileKind) -> Bool {
        let found = try? db.read {
            try db.int("SELECT 1 FROM tasks WHERE id = ? AND path != ? LIMIT 1",
                       [id.lowercased, kind.relativePath])
        }
        return (found ?? 0) != 0
    }
}
