import FoundationEssentials

/// Reminders no watcher fired: a pending task whose `remind` passed (more
/// than a minute ago, within ``retention``) without this machine's watcher
/// recording it (``FiredReminders``), and which has not changed since. They
/// show as missed in `tick today` and `tick status` until the task changes
/// (done, a new `remind`, any edit).
public struct MissedReminders {
    /// How far back a missed reminder is looked for; the fired record keeps
    /// entries this long.
    public static let retention: TimeInterval = 30 * 86_400
    /// A reminder younger than this may still be on its way (a running watcher).
    public static let grace: TimeInterval = 60

    let index: TaskIndex
    let fired: FiredReminders

    public init(index: TaskIndex, fired: FiredReminders) {
        self.index = index
        self.fired = fired
    }

    /// The missed reminders at `now`, earliest first.
    public func find(now: Date) throws -> [ListedTask] {
        let window = now.addingTimeInterval(-Self.retention)...now.addingTimeInterval(-Self.grace)
        return try index.reminders(in: window).filter { item in
            guard let at = item.task.remind else { return false }
            return !fired.hasFired(item.task.id, at: at) && item.task.modifiedAt <= at
        }
    }
}
