import Foundation
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
