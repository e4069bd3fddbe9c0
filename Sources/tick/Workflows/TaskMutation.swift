import FoundationEssentials
import TickKit

extension TaskMutation {
    /// The command's mutation: its store, index and start time.
    init(context: Context) {
        self.init(store: context.store, session: context.indexSession, now: context.now)
    }

    /// Prints one line per task in the ``Confirmation`` style: `Completed 12
    /// (6f1c2a3b): title`, or `12 (6f1c2a3b) was already done: title`. The UUID
    /// prefix is there because a done task loses its short id. `ids` gives
    /// current short ids; `place` (`in Work`) follows the id when given.
    static func report(to terminal: Terminal, _ outcomes: [Outcome], verb: String, unchanged: String, ids: (any ShortIDLookup)? = nil,
                       place: ((ListedTask) -> String)? = nil) {
        for line in lines(outcomes, terminal: terminal, verb: verb, unchanged: unchanged, ids: ids, place: place) {
            terminal.out(line)
        }
    }

    /// The lines ``report(to:_:verb:unchanged:ids:place:)`` prints (`tick ui`'s status line shows them).
    static func lines(_ outcomes: [Outcome], terminal: Terminal, verb: String, unchanged: String, ids: (any ShortIDLookup)? = nil,
                      place: ((ListedTask) -> String)? = nil) -> [String] {
        let confirm = Confirmation(terminal: terminal)
        return outcomes.map { outcome in
            let task = outcome.item.task
            let short = ids.map { $0.shortID(of: task.id) } ?? outcome.item.shortID
            return outcome.changed
                ? confirm.changed(verb, task, shortID: short, place: place?(outcome.item))
                : confirm.unchanged(task, shortID: short, unchanged)
        }
    }
}

extension TaskMutation {
    /// The warnings of a removal: tasks that lost a dependency on a removed one.
    static func warnings(_ removal: Removal) -> [TickWarning] {
        removal.droppedDependencies.compactMap {
            DependencyInput.droppedWarning(task: $0.task, shortID: $0.shortID, dropped: $0.ids)
        }
    }

    /// The warnings of an edit: a dependency dropped on a gone task, a slot over another.
    static func warnings(_ edited: Edited, timeZone: Zone) -> [TickWarning] {
        let item = edited.outcome.item
        let dropped = DependencyInput.droppedWarning(task: item.task.id, shortID: item.shortID, dropped: edited.droppedDependencies)
        // Said when this edit set either date (not for every later edit of the task).
        let dates = edited.before.wait != item.task.wait || edited.before.due != item.task.due
        let wait = dates ? WaitAfterDue.warning(for: item.task, reference: item.reference, timeZone: timeZone) : nil
        return (dropped.map { [$0] } ?? []) + edited.slotWarnings + (wait.map { [$0] } ?? [])
    }

    /// `Edited 3 (6f1c2a3b): title (sched)`, or `… unchanged`, as `tick edit ID CHANGES` prints it.
    static func line(_ edited: Edited, terminal: Terminal) -> String {
        let item = edited.outcome.item
        let confirm = Confirmation(terminal: terminal)
        return edited.outcome.changed
            ? confirm.changed("Edited", item.task, shortID: item.shortID, fields: Confirmation.fieldNames(from: edited.before, to: item.task))
            : confirm.unchanged(item.task, shortID: item.shortID, "unchanged")
    }
}
