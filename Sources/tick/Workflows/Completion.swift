import FoundationEssentials
import Glibc
import TickKit

/// The printing side of completing tasks: TickKit's
/// ``TaskMutation/complete(_:timeZone:)`` completes them (a recurring task
/// gets its next occurrence whichever command completes it); this reports.
struct Completion {
    let context: Context

    /// One completed task and what happened to its series.
    struct Result {
        var item: ListedTask
        var outcome: CompletionOutcome
    }

    /// Resolves `refs` and completes those tasks, all under the store lock (a
    /// task another tick process moved meanwhile is found where it is now).
    func complete(_ refs: [TaskReference]) throws -> [Result] {
        try TaskMutation(context: context).complete(refs, timeZone: context.timeZone).map { Result(item: $0.item, outcome: $0.outcome) }
    }

    /// Prints `Completed 12 (6f1c2a3b): title` and, for a recurring task,
    /// `Next: 14 (ab12cd34) due Mon 23 Nov`. `ids` gives current short ids.
    func report(_ results: [Result], ids: any ShortIDLookup) {
        let (lines, warnings) = describe(results, ids: ids)
        context.terminal.outLines(lines)
        warnings.forEach(context.terminal.warn)
    }

    /// What ``report(_:ids:)`` prints: its lines, and its warnings (a repeat
    /// rule that gives no next occurrence). `tick ui` shows them on its status line.
    func describe(_ results: [Result], ids: any ShortIDLookup) -> (lines: [String], warnings: [TickWarning]) {
        var lines = TaskMutation.lines(results.map { .init(item: $0.item, changed: $0.outcome.changed) }, terminal: context.terminal,
                                       verb: "Completed", unchanged: "was already done")
        var warnings: [TickWarning] = []
        for result in results {
            let said = series(of: result, ids: ids)
            lines += said.lines
            warnings += said.warnings
        }
        return (lines, warnings)
    }

    /// Prints what happened to a completed task's series (``series(of:ids:)``);
    /// `tick edit` in the editor prints it after its own confirmation.
    func reportSeries(of result: Result, ids: any ShortIDLookup) {
        let said = series(of: result, ids: ids)
        context.terminal.outLines(said.lines)
        said.warnings.forEach(context.terminal.warn)
    }

    /// What happened to a completed task's series: `Next: …` for a created
    /// occurrence, a warning when its repeat rule could not be read.
    func series(of result: Result, ids: any ShortIDLookup) -> (lines: [String], warnings: [TickWarning]) {
        var warnings: [TickWarning] = []
        if let problem = result.outcome.ruleProblem {
            warnings.append(TickWarning("no next occurrence for \(result.item.task.id.lowercased.prefix(8)): \(problem)"))
        }
        guard let next = result.outcome.next, result.outcome.nextCreated else { return ([], warnings) }
        return (["Next: " + Self.describe(next, ids: ids, dates: context.dates, terminal: context.terminal)], warnings)
    }

    /// `14 (ab12cd34) due Mon 23 Nov`: the short id, the UUID prefix and its first date.
    static func describe(_ task: TaskItem, ids: any ShortIDLookup, dates: RelativeDateFormatter, terminal t: Terminal) -> String {
        let prefix = String(task.id.lowercased.prefix(8))
        var text = ids.shortID(of: task.id).map { "\(t.bold(String($0))) (\(prefix))" } ?? t.bold(prefix)
        if let due = task.due {
            text += " due " + dates.label(due)
        } else if let s = task.scheduled {
            text += " scheduled " + dates.label(.day(s))
        } else if let r = task.remind {
            text += " remind " + dates.label(.time(r))
        }
        return text
    }
}
