import ArgumentParser
import TickKit

extension Tick {
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm",
            abstract: "Delete tasks.",
            discussion: """
            Removes the tasks from their files. With git or Syncthing versioning the \
            old lines remain in history.

            EXAMPLE
              tick rm 4 9
            """,
            aliases: ["delete"])

        @OptionGroup var global: GlobalOptions

        @OptionGroup var tasks: TaskIDs

        func run() throws {
            let context = try Context(global)
            let mutation = TaskMutation(context: context)
            let now = context.now
            let refs = try tasks.refs(context, verb: "Delete")
            // Resolved under the lock, so a task a concurrent `tick mv` moved is found where it is now.
            let items = try context.store.withLock { writer in
                let items = try mutation.resolveUnderLock(refs, writer: writer)
                for item in items {
                    try writer.update(item.kind) { file in
                        guard file.index(of: item.task.id) != nil else { throw LookupError.taskNotFound(item.task.id.lowercased) }
                        file.tasks.removeAll { $0.id == item.task.id }
                        file.recordDeletion(of: [item.task.id], at: now)
                    }
                }
                return items
            }
            mutation.report(items.map { .init(item: $0, changed: true) }, verb: "Deleted", unchanged: "")
            _ = try context.resyncIDs()
        }
    }
}
