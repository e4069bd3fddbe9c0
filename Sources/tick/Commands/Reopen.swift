import ArgumentParser
import TickKit

extension Tick {
    struct Reopen: TickCommand {
        static let facts = CommandFacts(takesIDs: true, takesFilter: true, writes: true)
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "reopen",
            abstract: "Set tasks back to open; clears completedAt.",
            discussion: """
            Each ID is a short id from a listing or a UUID prefix (8 hex digits, or 4 \
            with a digit and a letter). \
            Every change bumps the task's modifiedAt. A done task keeps its \
            short id for a while, so `tick reopen 12` right after `tick done 12` works.

            A repeating task's completion created its next occurrence: reopening \
            the task removes that occurrence when nobody has touched it (as \
            `tick undo` would), so the series has one open task again. An \
            occurrence that was changed, started or completed meanwhile is kept, \
            and the command says so.

            EXAMPLE
              tick reopen 6f1c2a
            """))

        @OptionGroup var global: GlobalOptions
        @OptionGroup var tasks: TaskIDs

        func run() throws {
            let context = try Context(global)
            let mutation = TaskMutation(context: context)
            let results = try mutation.reopen(try tasks.refs(context, states: [.done], verb: "Reopen"))
            let ids = try context.resyncIDs()
            TaskMutation.report(to: context.terminal, results.map(\.outcome), verb: "Reopened", unchanged: "was already open", ids: ids)
            for (_, next) in results {
                if let line = Self.describe(next, ids: ids, terminal: context.terminal) { context.terminal.out("  " + line) }
            }
        }

        /// What reopening did to the task's next occurrence, in words (nil: it had none).
        static func describe(_ next: NextOccurrenceOnReopen, ids: any ShortIDLookup, terminal t: Terminal) -> String? {
            switch next {
            case .none: return nil
            case .removed(let task):
                return "removed its next occurrence \(t.bold(String(task.id.lowercased.prefix(8)))), which nobody had touched: \(task.title)"
            case .kept(let task):
                let label = ids.shortID(of: task.id).map { "\(t.bold(String($0))) (\(task.id.lowercased.prefix(8)))" } ?? t.bold(String(task.id.lowercased.prefix(8)))
                return "kept its next occurrence \(label), changed since (delete it with `tick rm` if it is not wanted): \(task.title)"
            }
        }
    }
}
