import Foundation
import TickKit

/// Resolves task ids and changes each task in its file, all under the store
/// lock: a task another tick process moved meanwhile is found where it is now.
struct TaskMutation {
    let context: Context

    /// One task's outcome: as it is now, and whether it changed.
    struct Outcome {
        var item: ListedTask
        var changed: Bool
    }

    /// Applies `change` to every task named in `refs`. `change` returns true
    /// when it changed the task.
    func apply(_ refs: [String], _ change: @escaping (inout TaskItem, Date) throws -> Bool) throws -> [Outcome] {
        try applyInFile(refs) { file, id, now -> (Bool, TaskItem, Void) in
            try file.updateTask(id) { task in (try change(&task, now), task, ()) }
        }.map(\.outcome)
    }

    /// Like ``apply(_:_:)``, for changes that touch more of the task's file than
    /// the task (reopening a repeating task takes back its next occurrence):
    /// `change` gets the file, the task's id and the time, and returns whether
    /// the task changed, the task as it is now, and a detail for the report.
    func applyInFile<Detail>(_ refs: [String], _ change: @escaping (inout TaskFile, UUID, Date) throws -> (Bool, TaskItem, Detail))
        throws -> [(outcome: Outcome, detail: Detail)] {
        let now = context.now
        var results: [(outcome: Outcome, detail: Detail)] = []
        try context.store.withLock { writer in
            // Resolved under the lock: outside it, a concurrent `tick mv` can be half
            // done (the task in both lists, or the index having seen it in neither).
            let items = try resolveUnderLock(refs, writer: writer)
            for item in items {
                let (changed, after, detail) = try writer.update(item.kind) { file in
                    try change(&file, item.task.id, now)
                }
                var updated = item
                updated.task = after
                results.append((Outcome(item: updated, changed: changed), detail))
            }
        }
        return results
    }

    /// Resolves `refs` with the store lock held (a concurrent `tick mv` cannot be
    /// half done). A task found in two files (an interrupted `tick mv`, a move
    /// merged file by file) is joined first, so the change lands on the one
    /// copy left (Docs/MERGE.md §14).
    func resolveUnderLock(_ refs: [String], writer: StoreWriter) throws -> [ListedTask] {
        let items = unique(try context.load().tasks.resolve(refs))
        var healed = false
        for item in items {
            let kinds = try context.index.files(containing: item.task.id)
            if kinds.count > 1 {
                _ = try StoreReconciler.run(writer: writer, only: kinds)
                healed = true
            }
        }
        return healed ? unique(try context.load().tasks.resolve(refs)) : items
    }

    /// The same task named twice is handled once.
    func unique(_ items: [ListedTask]) -> [ListedTask] {
        var seen = Set<UUID>()
        return items.filter { seen.insert($0.task.id).inserted }
    }

    /// Prints one line per task in the ``Confirmation`` style: `Completed 12
    /// (6f1c2a3b): title`, or `12 (6f1c2a3b) was already done: title`. The UUID
    /// prefix is there because a done task loses its short id. `ids` gives
    /// current short ids; `place` (`in Work`) follows the id when given.
    func report(_ outcomes: [Outcome], verb: String, unchanged: String, ids: (any ShortIDLookup)? = nil,
                place: ((ListedTask) -> String)? = nil) {
        let confirm = Confirmation(terminal: context.terminal)
        for outcome in outcomes {
            let task = outcome.item.task
            let short = ids.map { $0.shortID(of: task.id) } ?? outcome.item.shortID
            context.terminal.out(outcome.changed
                ? confirm.changed(verb, task, shortID: short, place: place?(outcome.item))
                : confirm.unchanged(task, shortID: short, unchanged))
        }
    }
}
