import FoundationEssentials
import Glibc
import TickKit

/// The terminal side of TickKit's ``BulkSelection``: the active context and
/// `[bulk] confirm` from the command's context, and the question on stderr.
extension BulkSelection {
    /// The command's selection: its index, clock, active context and config.
    init(context: Context) throws {
        self.init(session: context.indexSession, now: context.now, timeZone: context.timeZone,
                  activeFilter: { try context.activeContext().map { ($0.filter, $0.label) } },
                  confirmLimit: { try context.config().bulkConfirm }, userFields: try context.userFields())
    }

    /// ``refs(_:states:verb:yes:confirm:)`` asking on a terminal: the first
    /// ten tasks are listed on stderr, then `<verb> these N tasks? [y/N]`.
    func refs(_ words: [String], states: Set<TaskState>, verb: String, yes: Bool, terminal t: Terminal) throws -> [TaskReference] {
        try refs(words, states: states, verb: verb, yes: yes, confirm: t.stdinIsTTY ? { items in
            for item in items.prefix(10) {
                t.err("  \(item.reference)  \(item.listName): \(item.task.title)")
            }
            if items.count > 10 { t.err("  … and \(items.count - 10) more") }
            return askYesNo("\(verb) these \(items.count) tasks?")
        } : nil)
    }
}
