import FoundationEssentials

/// Proposes slots for open tasks in a day's free time. Pure and deterministic.
///
/// Candidates: open or active tasks without a slot on or after the day, not
/// scheduled after it, that are scheduled on or before the day, due within
/// ``dueWindow`` days of it (or overdue), or must-do; with `includeAll`,
/// every open task that is not scheduled later.
///
/// Order: must-do first, then by due day (none last), then tasks scheduled
/// on or before the day, then the given order. Each task takes its estimate
/// (else ``defaultMinutes``) at the earliest free time that holds it whole
/// (first fit); tasks that fit nowhere are reported as unplaced. Placed slots
/// never overlap each other, a commitment or an already placed task.
public struct AutoPlacer: Sendable {
    /// The length given to a task without an estimate.
    public static let defaultMinutes = 30
    /// Tasks due within this many days after the day are candidates.
    public static let dueWindow = 7
    /// Slots start on multiples of this many minutes.
    public static let step = 5

    public let planner: DayPlanner
    public let timeZone: Zone
    /// No slot starts before this time (now, when planning today).
    public let from: ClockTime?
    public let includeAll: Bool

    public init(planner: DayPlanner, timeZone: Zone, from: ClockTime?, includeAll: Bool = false) {
        self.planner = planner
        self.timeZone = timeZone
        self.from = from
        self.includeAll = includeAll
    }

    /// Whether `task` should be placed on the day.
    public func isCandidate(_ task: TaskItem) -> Bool {
        let day = planner.day
        guard task.state != .done else { return false }
        if let slot = task.slot, slot.day >= day { return false }
        if let s = task.scheduled, s > day { return false }
        if includeAll { return true }
        if task.priority == .must { return true }
        if let s = task.scheduled, s <= day { return true }
        if let due = task.due?.localDay(in: timeZone), day.days(until: due) <= Self.dueWindow { return true }
        return false
    }

    /// The proposal for `tasks` (all of the store's tasks, in listing order).
    public func propose(_ tasks: [TaskItem]) -> AutoPlan {
        let day = planner.day
        let ordered = tasks.enumerated().filter { isCandidate($0.element) }
            .map { (key: key($0.element, $0.offset, day), task: $0.element) }
            .sorted { $0.key.lexicographicallyPrecedes($1.key) }
            .map(\.task)
        var free: [(Int, Int)] = planner.freeSlots(from: from.map { DayPlanner.roundUp($0, step: Self.step) }).map { ($0.start.minutes, $0.end.minutes) }
        var placements: [AutoPlan.Placement] = []
        var unplaced: [(task: TaskItem, minutes: Int)] = []
        for task in ordered {
            let minutes = task.estimate ?? Self.defaultMinutes
            if free.isEmpty {
                unplaced.append((task, minutes))
                continue
            }
            guard let i = free.firstIndex(where: { $0.1 - $0.0 >= minutes }),
                  let start = ClockTime(minutes: free[i].0) else {
                unplaced.append((task, minutes))
                continue
            }
            let slot = TaskSlot(day: day, start: start, minutes: minutes, extra: task.slot?.extra ?? [])
            placements.append(.init(task: task, slot: slot, usedDefaultLength: task.estimate == nil))
            let end = free[i].0 + minutes
            if end >= free[i].1 { free.remove(at: i) } else { free[i].0 = end }
        }
        placements.sort { ($0.slot.start, $0.task.id.lowercased) < ($1.slot.start, $1.task.id.lowercased) }
        return AutoPlan(placements: placements, unplaced: unplaced)
    }

    private func key(_ task: TaskItem, _ position: Int, _ day: LocalDate) -> [Int] {
        let due = task.due.map { day.days(until: $0.localDay(in: timeZone)) } ?? Int.max
        let scheduled = (task.scheduled.map { $0 <= day } ?? false) ? 0 : 1
        return [task.priority == .must ? 0 : 1, due, scheduled, position]
    }
}
