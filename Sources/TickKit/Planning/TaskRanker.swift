import FoundationEssentials

/// Ranks open tasks for a free block (`tick suggest`).
///
/// Order, each criterion breaking the previous one's ties:
/// 0. tasks that fit the block and the energy before those that do not (an
///    estimate longer than the block, or the other energy than the one
///    asked for): a must-do that cannot be done now is no suggestion for now;
/// 1. must-do before flexible or unset priority;
/// 2. energy match (when an energy is asked for): the same energy, then
///    `any` or unset, then the other energy;
/// 3. due soon: overdue and today first, then by due day; no due date last;
/// 4. estimate fits the block: fits, then no estimate, then too long;
/// 5. the order the tasks were given in (lists in display order, manual order).
///
/// Pure: the clock and zone are inputs.
public struct TaskRanker: Sendable {
    /// The day being planned (for "due today", "overdue").
    public let today: LocalDate
    /// The zone in which timed due dates fall on a day.
    public let timeZone: Zone
    /// The free block's length; nil = no limit.
    public let minutes: Int?
    /// The wanted energy; nil or `.any` = no preference.
    public let energy: Energy?

    public init(today: LocalDate, timeZone: Zone, minutes: Int?, energy: Energy?) {
        self.today = today
        self.timeZone = timeZone
        self.minutes = minutes
        self.energy = energy
    }

    /// Tasks worth suggesting: open or active, not placed in a slot on
    /// `today` or later, not scheduled after `today`.
    public func isCandidate(_ task: TaskItem) -> Bool {
        guard task.state != .done else { return false }
        if let slot = task.slot, slot.day >= today { return false }
        if let s = task.scheduled, s > today { return false }
        return true
    }

    /// The candidates among `tasks`, best first; at most `limit` when given.
    public func rank(_ tasks: [TaskItem], limit: Int? = nil) -> [Suggestion] {
        var scored: [(score: [Int], index: Int)] = []
        scored.reserveCapacity(tasks.count)
        for (i, task) in tasks.enumerated() where isCandidate(task) {
            scored.append((score(for: task, position: i), i))
        }
        scored.sort { $0.score.lexicographicallyPrecedes($1.score) }
        let top = limit.map { scored.prefix($0) } ?? scored[...]
        return top.map { Suggestion(task: tasks[$0.index], reasons: reasons(for: tasks[$0.index]), score: $0.score) }
    }

    /// One task's ranking key and reasons; `position` breaks ties.
    public func suggestion(for task: TaskItem, position: Int) -> Suggestion {
        Suggestion(task: task, reasons: reasons(for: task), score: score(for: task, position: position))
    }

    /// True when the task can be done in the block with the energy asked
    /// for: no estimate longer than the block, not the other energy.
    public func fits(_ task: TaskItem) -> Bool {
        if let minutes, let estimate = task.estimate, estimate > minutes { return false }
        if let wanted = energy, wanted != .any, let has = task.energy, has != .any, has != wanted { return false }
        return true
    }

    /// The ranking key, smaller first: fits, must-do, energy match, due day, fit, position.
    public func score(for task: TaskItem, position: Int) -> [Int] {
        var score = [fits(task) ? 0 : 1, task.priority == .must ? 0 : 1]
        if let wanted = energy, wanted != .any {
            switch task.energy {
            case wanted?: score.append(0)
            case .any?, nil: score.append(1)
            default: score.append(2)
            }
        } else {
            score.append(0)
        }
        score.append(task.due.map { today.days(until: $0.localDay(in: timeZone)) } ?? Int.max)
        if let estimate = task.estimate {
            score.append(minutes.map { estimate > $0 ? 2 : 0 } ?? 0)
        } else {
            score.append(1)
        }
        score.append(position)
        return score
    }

    /// A few words on why the task ranks where it does.
    public func reasons(for task: TaskItem) -> [String] {
        var reasons: [String] = []
        if task.state == .active { reasons.append("in progress") }
        if task.priority == .must { reasons.append("must-do") }
        if let wanted = energy, wanted != .any {
            switch task.energy {
            case wanted?: reasons.append("\(wanted.rawValue) energy")
            case .any?: reasons.append("any energy")
            case nil: break
            case let other?: reasons.append("needs \(other.rawValue) energy")
            }
        }
        if let due = task.due?.localDay(in: timeZone) {
            reasons.append(Self.dueText(today.days(until: due)))
        }
        if let estimate = task.estimate {
            if let minutes, estimate > minutes {
                reasons.append("\(DurationText.format(estimate)), longer than \(DurationText.format(minutes))")
            } else {
                reasons.append(minutes == nil ? DurationText.format(estimate) : "\(DurationText.format(estimate)) fits")
            }
        } else if minutes != nil {
            reasons.append("no estimate")
        }
        return reasons
    }

    /// "overdue 2d", "due today", "due tomorrow", "due in 3d".
    static func dueText(_ days: Int) -> String {
        switch days {
        case ..<0: return "overdue \(-days)d"
        case 0: return "due today"
        case 1: return "due tomorrow"
        default: return "due in \(days)d"
        }
    }
}
