import Foundation

/// Ranks open tasks for a free block (`tick suggest`).
///
/// Order, each criterion breaking the previous one's ties:
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
    public let timeZone: TimeZone
    /// The free block's length; nil = no limit.
    public let minutes: Int?
    /// The wanted energy; nil or `.any` = no preference.
    public let energy: Energy?

    public init(today: LocalDate, timeZone: TimeZone, minutes: Int?, energy: Energy?) {
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

    /// The candidates among `tasks`, best first.
    public func rank(_ tasks: [TaskItem]) -> [Suggestion] {
        tasks.enumerated()
            .filter { isCandidate($0.element) }
            .map { suggestion(for: $0.element, position: $0.offset) }
            .sorted { $0.score.lexicographicallyPrecedes($1.score) }
    }

    /// One task's ranking key and reasons; `position` breaks ties.
    public func suggestion(for task: TaskItem, position: Int) -> Suggestion {
        var reasons: [String] = []
        var score: [Int] = []

        let must = task.priority == .must
        score.append(must ? 0 : 1)
        if must { reasons.append("must-do") }

        if let wanted = energy, wanted != .any {
            switch task.energy {
            case wanted?:
                score.append(0)
                reasons.append("\(wanted.rawValue) energy")
            case .any?, nil:
                score.append(1)
                if task.energy == .any { reasons.append("any energy") }
            default:
                score.append(2)
                reasons.append("needs \(task.energy?.rawValue ?? "other") energy")
            }
        } else {
            score.append(0)
        }

        if let due = task.due?.localDay(in: timeZone) {
            let days = today.days(until: due)
            score.append(days)
            reasons.append(Self.dueText(days))
        } else {
            score.append(Int.max)
        }

        if let estimate = task.estimate {
            if let minutes, estimate > minutes {
                score.append(2)
                reasons.append("\(DurationText.format(estimate)), longer than \(DurationText.format(minutes))")
            } else {
                score.append(0)
                reasons.append(minutes == nil ? DurationText.format(estimate) : "\(DurationText.format(estimate)) fits")
            }
        } else {
            score.append(1)
            if minutes != nil { reasons.append("no estimate") }
        }
        if task.state == .active { reasons.insert("in progress", at: 0) }
        score.append(position)
        return Suggestion(task: task, reasons: reasons, score: score)
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
