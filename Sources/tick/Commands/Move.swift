import ArgumentParser
import TickKit

extension Tick {
    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mv",
            abstract: "Move tasks to another list (or `inbox`).",
            discussion: """
            The tasks are appended to the end of LIST. The destination is written \
            before the source, so an interruption can leave a copy but never loses a task.

            EXAMPLES
              tick mv 3 5 Work
              tick mv 7 inbox
              tick mv +reading Reading --yes
            """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: ArgumentHelp("The tasks (ids or a filter), then the destination list.", valueName: "id|filter"), completion: ShellCompletion.filter)
        var arguments: [String]

        @Flag(name: [.customShort("y"), .long], help: "Move more than [bulk] confirm tasks selected by a filter without asking.")
        var yes = false

        func validate() throws {
            guard arguments.count >= 2 else { throw ValidationError("give one or more task IDs and a destination list, e.g. tick mv 3 Work") }
        }

        func run() throws {
            let context = try Context(global)
            let mutation = TaskMutation(context: context)
            let now = context.now
            var moved: [TaskMutation.Outcome] = []
            let words = FilterArguments.unmarked(arguments.dropLast())
            let refs = try BulkSelection(context: context).refs(words, states: [.open, .active], verb: "Move", yes: yes, terminal: context.terminal)
            let (loaded, target) = try context.store.withLock { writer in
                // Resolved under the lock: outside it, another `tick mv` of the same
                // task can be half done (the task in both lists, or seen in neither).
                let items = try mutation.resolveUnderLock(refs, writer: writer)
                let loaded = try context.load()
                let target = try loaded.lists.resolve(arguments[arguments.count - 1])
                for item in items {
                    guard item.kind != target else {
                        moved.append(.init(item: item, changed: false))
                        continue
                    }
                    // The task as its file has it now (read under the lock), not the index's copy.
                    guard var task = try context.store.read(item.kind)?.file.tasks.first(where: { $0.id == item.task.id }) else {
                        throw LookupError.taskNotFound(item.task.id.lowercased)
                    }
                    task.stamp("list", at: now)
                    task.changed["order"] = nil   // its place was in the old list
                    task.modifiedAt = max(task.modifiedAt, now)
                    // A read-only file at either end stops the move before either is written.
                    try writer.requireWritable([target, item.kind])
                    // The destination first: an interruption leaves a copy (healed as one task), never a loss.
                    try writer.update(target, create: target == .inbox ? { TaskFile.empty(.inbox, name: nil, now: now) } : nil) { file in
                        if let i = file.index(of: task.id) { file.tasks[i] = task } else { file.tasks.append(task) }
                        file.deleted.removeAll { $0.id == task.id }
                    }
                    // No tombstone in the source: a move is not a deletion. A copy an
                    // older version brings back there merges into this one (its
                    // `changed.list` is later) and is removed (Docs/MERGE.md §14).
                    try writer.update(item.kind) { file in
                        file.tasks.removeAll { $0.id == task.id }
                    }
                    var after = item
                    after.task = task
                    after.kind = target
                    moved.append(.init(item: after, changed: true))
                }
                return (loaded, target)
            }
            let name = loaded.name(of: target)
            _ = try context.resyncIDs()
            let confirm = Confirmation(terminal: context.terminal)
            for outcome in moved {
                let task = outcome.item.task
                context.terminal.out(outcome.changed
                    ? confirm.changed("Moved", task, shortID: outcome.item.shortID, place: "to " + name)
                    : confirm.unchanged(task, shortID: outcome.item.shortID, "is already in " + name))
            }
        }
    }
}
