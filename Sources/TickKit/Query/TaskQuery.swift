import FoundationEssentials
import Glibc

/// Which tasks a listing shows.
public enum TaskView: Sendable, Equatable {
    /// All tasks of one file, or of every file when nil, in manual order.
    case list(FileKind?)
    /// Due or scheduled today or earlier, overdue, reminding today, or
    /// active (started); a placed task at its slot's start.
    case today
    /// Due or scheduled within the next `days` days, after today.
    case upcoming(days: Int)
    /// Due before now.
    case overdue
}

/// Filters applied on top of a view.
public struct TaskFilter: Sendable, Equatable {
    /// States to include; pending (open and active) by default.
    public var states: Set<TaskState>
    /// Tags a task must all have.
    public var tags: [String]
    /// Include waiting tasks (`--all`); views hide them by default.
    public var showWaiting: Bool

    public init(states: Set<TaskState> = [.open, .active], tags: [String] = [], showWaiting: Bool = false) {
        self.states = states
        self.tags = tags
        self.showWaiting = showWaiting
    }

    public func matches(_ task: TaskItem) -> Bool {
        states.contains(task.state) && tags.allSatisfy(task.tags.contains)
    }
}

/// Answers views over a snapshot. Pure: time and zone are parameters.
public struct TaskQuery: Sendable {
    public let now: Date
    public let timeZone: Zone
    public let today: LocalDate

    public init(now: Date, timeZone: Zone) {
        self.now = now
        self.timeZone = timeZone
        self.today = LocalDate(date: now, timeZone: timeZone)
    }

    /// True when the task's due date has passed and it is not done.
    public func isOverdue(_ task: TaskItem) -> Bool {
        guard task.state.isPending, let due = task.due else { return false }
        switch due {
        case .day(let d): return d < today
        case .time(let t): return t < now
        }
    }

    /// True while the task's `wait` is in the future (a day waits until its
    /// start, local): it is hidden from every view.
    public func isWaiting(_ task: TaskItem) -> Bool {
        switch task.wait {
        case nil: return false
        case .day(let d)?: return d > today
        case .time(let t)?: return t > now
        }
    }

    /// The ids of the tasks in `tasks` that are blocked: not done, and they
    /// depend on a task that exists (in `tasks`) and is not done.
    public static func blockedIDs<S: Sequence>(in tasks: S) -> Set<UUID> where S.Element == TaskItem {
        var pending: Set<UUID> = []
        var dependents: [TaskItem] = []
        for task in tasks {
            if task.state != .done { pending.insert(task.id) }
            if !task.depends.isEmpty, task.state != .done { dependents.append(task) }
        }
        var out: Set<UUID> = []
        for task in dependents where task.depends.contains(where: pending.contains) { out.insert(task.id) }
        return out
    }

    /// True when the task's reminder is on today's date (fired or not). A
    /// reminder on an earlier day has had its day: it does not keep the task in `today`.
    public func remindsToday(_ task: TaskItem) -> Bool {
        guard let r = task.remind else { return false }
        return LocalDate(date: r, timeZone: timeZone) == today
    }

    /// The earliest day the task is due or scheduled, if any.
    public func relevantDay(_ task: TaskItem) -> LocalDate? {
        let dueDay = task.due?.localDay(in: timeZone)
        switch (dueDay, task.scheduled) {
        case let (d?, s?): return min(d, s)
        case let (d?, nil): return d
        case let (nil, s?): return s
        case (nil, nil): return nil
        }
    }

    /// Runs a view over a snapshot. Results keep manual order for list views
    /// and are sorted by date (then manual order) for date views.
    public func run(_ view: TaskView, filter: TaskFilter, snapshot: StoreSnapshot, ids: ShortIDTable) -> [ListedTask] {
        var candidates: [ListedTask] = []
        let blocked = Self.blockedIDs(in: snapshot.files.lazy.flatMap(\.tasks))
        for file in snapshot.files {
            for task in file.tasks {
                candidates.append(ListedTask(task: task, kind: file.kind, listName: file.displayName, shortID: ids.shortID(of: task.id),
                                             blocked: blocked.contains(task.id)))
            }
        }
        return select(view, filter: filter, from: candidates)
    }

    /// The exact definition of every view: keeps the candidates that belong
    /// to it and orders them. `candidates` must be in display order (inbox,
    /// then lists by name, each in manual order); the index passes a
    /// pre-filtered superset, so both paths share this one definition.
    /// Waiting tasks are left out unless the filter shows them; blocked tasks
    /// come after the unblocked ones (of the same list, in list views).
    public func select(_ view: TaskView, filter: TaskFilter, from candidates: [ListedTask]) -> [ListedTask] {
        var out: [ListedTask] = []
        for item in candidates where admits(item, to: view, filter: filter) { out.append(item) }
        switch view {
        case .list:
            return Self.blockedLast(out, sameGroup: { $0.kind == $1.kind })
        case .today, .upcoming, .overdue:
            // Sort indices, not the (large) items themselves.
            let keys = out.map { sortKey($0.task, in: view) }
            let order = out.indices.sorted { a, b in keys[a] != keys[b] ? keys[a] < keys[b] : a < b }
            return Self.blockedLast(order.map { out[$0] }, sameGroup: { _, _ in true })
        }
    }

    /// Whether one candidate belongs to the view (its order aside): the
    /// membership half of ``select(_:filter:from:)``.
    public func admits(_ item: ListedTask, to view: TaskView, filter: TaskFilter) -> Bool {
        if case .list(let kind?) = view, item.kind != kind { return false }
        if !filter.showWaiting, isWaiting(item.task) { return false }
        return filter.matches(item.task) && include(item.task, in: view)
    }

    /// Moves blocked tasks after the unblocked ones of their run of one
    /// group, keeping the order within each part.
    static func blockedLast(_ items: [ListedTask], sameGroup: (ListedTask, ListedTask) -> Bool) -> [ListedTask] {
        guard items.contains(where: \.blocked) else { return items }
        var out: [ListedTask] = []
        out.reserveCapacity(items.count)
        var start = items.startIndex
        while start < items.endIndex {
            var end = start + 1
            while end < items.endIndex, sameGroup(items[start], items[end]) { end += 1 }
            let run = items[start..<end]
            out.append(contentsOf: run.filter { !$0.blocked })
            out.append(contentsOf: run.filter(\.blocked))
            start = end
        }
        return out
    }

    private func include(_ task: TaskItem, in view: TaskView) -> Bool {
        switch view {
        case .list: return true
        case .overdue: return isOverdue(task)
        case .today:
            // A done task belongs to today only if it was completed today.
            if task.state == .done {
                guard let c = task.completedAt else { return false }
                return LocalDate(date: c, timeZone: timeZone) == today
            }
            // Started work is today's business whatever its dates say.
            if task.state == .active || isOverdue(task) { return true }
            if remindsToday(task) { return true }
            guard let day = relevantDay(task) else { return false }
            return day <= today
        case .upcoming(let days):
            guard let day = relevantDay(task) else { return false }
            return day > today && day <= today.adding(days: days)
        }
    }

    /// Seconds since the epoch of the moment that matters most for sorting.
    /// A placed task (with a slot) sorts at its slot's start: that is when it
    /// was decided to be done. Any other task at the earliest of its due
    /// moment (a due day counts at its end), its scheduled day (just before
    /// its end) and, in today's view, its reminder. So today reads as the day
    /// runs: unplaced overdue work, then placed tasks in slot order among timed
    /// ones, then the rest of the day; undated tasks (active ones, say) last.
    func sortKey(_ task: TaskItem, in view: TaskView) -> Double {
        if let slot = task.slot {
            return slot.day.at(hour: slot.start.hour, minute: slot.start.minute, timeZone: timeZone).timeIntervalSince1970
        }
        var candidates: [Double] = []
        switch task.due {
        case .day(let d)?: candidates.append(d.startOfDay(in: timeZone).timeIntervalSince1970 + 86_399)
        case .time(let t)?: candidates.append(t.timeIntervalSince1970)
        case nil: break
        }
        if let s = task.scheduled { candidates.append(s.startOfDay(in: timeZone).timeIntervalSince1970 + 86_398) }
        if view == .today, remindsToday(task), let r = task.remind { candidates.append(r.timeIntervalSince1970) }
        return candidates.min() ?? .infinity
    }
}
