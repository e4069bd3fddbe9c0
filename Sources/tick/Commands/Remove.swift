import ArgumentParser
import Foundation
import TickKit

extension Tick {
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm",
            abstract: "Delete tasks.",
            discussion: """
            Removes the tasks from their files. With git or Syncthing versioning the \
            old lines remain in history. Tasks that depended on a removed task lose \
            that dependency in the same change, with one warning each.

            EXAMPLE
              tick rm 4 9
              tick rm +spam state:open --yes
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
            var dropped: [(task: UUID, shortID: Int?, ids: [UUID])] = []
            let loaded = try context.load()
            let items = try context.store.withLock { writer in
                let items = try mutation.resolveUnderLock(refs, writer: writer)
                for item in items {
                    try writer.update(item.kind) { file in
                        guard file.index(of: item.task.id) != nil else { throw LookupError.taskNotFound(item.task.id.lowercased) }
                        file.tasks.removeAll { $0.id == item.task.id }
                        file.recordDeletion(of: [item.task.id], at: now)
                    }
                }
                // A dependency on a deleted task is dropped at once (Docs/CLI.md "Dependencies").
                let removed = Set(items.map(\.task.id))
                for dependent in try loaded.index.dependents(of: Array(removed)) where !removed.contains(dependent.task.id) {
                    let ids = try writer.update(dependent.kind) { file -> [UUID] in
                        guard file.index(of: dependent.task.id) != nil else { return [] }
                        return try file.updateTask(dependent.task.id) { task in
                            let gone = task.depends.filter(removed.contains)
                            guard !gone.isEmpty else { return [] }
                            task.depends.removeAll(where: removed.contains)
                            task.modifiedAt = now
                            return gone
                        }
                    }
                    if !ids.isEmpty { dropped.append((dependent.task.id, dependent.shortID, ids)) }
                }
                return items
            }
            for d in dropped {
                if let line = DependencyInput.droppedWarning(task: d.task, shortID: d.shortID, dropped: d.ids) { context.terminal.err(line) }
            }
            TaskMutation.report(to: context.terminal, items.map { .init(item: $0, changed: true) }, verb: "Deleted", unchanged: "")
            _ = try context.resyncIDs()
        }
    }
}
