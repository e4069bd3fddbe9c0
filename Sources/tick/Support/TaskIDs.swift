import ArgumentParser
import TickKit

/// The `ID...` argument of commands that act on several tasks.
struct TaskIDs: ParsableArguments {
    @Argument(help: "The tasks: short ids from a listing, or 4+ hex digits of their UUIDs.")
    var ids: [String] = []

    func validate() throws {
        guard !ids.isEmpty else { throw ValidationError("give at least one task ID") }
    }

    /// Sets every named task to `state` (bumping modifiedAt), then reports
    /// `Verb 12 (6f1c2a3b): title` per task. Done tasks lose their short id,
    /// so their line shows the id they had.
    func setState(_ state: TaskState, global: GlobalOptions, verb: String, unchanged: String) throws {
        let context = try Context(global)
        if state == .done {
            // Through the recurrence-aware path: a repeating task gets its next occurrence.
            let completion = Completion(context: context)
            let results = try completion.complete(ids)
            completion.report(results, ids: try context.resyncIDs())
            return
        }
        let mutation = TaskMutation(context: context)
        let results = try mutation.apply(ids) { task, now in
            guard task.setState(state, at: now) else { return false }
            task.modifiedAt = now
            return true
        }
        let current = try context.resyncIDs()
        mutation.report(results, verb: verb, unchanged: unchanged, ids: state == .done ? nil : current)
    }
}
