import Foundation
import TickKit

/// Resolves task ids, then changes each task in its file under the store lock.
struct TaskMutation {
    let context: Context

    /// Applies `change` to every task named in `refs`. `change` returns true
    /// when it changed the task. Returns the tasks as they were before and
    /// whether each changed.
    @discardableResult
    func apply(_ refs: [String], _ change: @escaping (inout TaskItem, Date) throws -> Bool) throws -> [(item: ListedTask, changed: Bool)] {
        let loaded = try context.load()
        let items = try unique(loaded.tasks.resolve(refs))
        let now = context.now
        var results: [(ListedTask, Bool)] = []
        try context.store.withLock { writer in
            for item in items {
                let changed = try writer.update(item.kind) { file in
                    try file.updateTask(item.task.id) { task in try change(&task, now) }
                }
                results.append((item, changed))
            }
        }
        return results
    }

    /// The same task named twice is handled once.
    func unique(_ items: [ListedTask]) -> [ListedTask] {
        var seen = Set<UUID>()
        return items.filter { seen.insert($0.task.id).inserted }
    }

    /// `Verb 12: title` for each task (or `12 was already ...`).
    func report(_ results: [(item: ListedTask, changed: Bool)], verb: String, unchanged: String) {
        let t = context.terminal
        for (item, changed) in results {
            let id = item.shortID.map(String.init) ?? String(item.task.id.lowercased.prefix(8))
            t.out(changed ? "\(verb) \(t.bold(id)): \(item.task.title)" : "\(id) \(unchanged): \(item.task.title)")
        }
    }
}
