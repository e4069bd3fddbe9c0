import ArgumentParser
import TickKit

/// The `ID...` argument of commands that act on several tasks: ids, or a
/// filter (``BulkSelection``).
struct TaskIDs: ParsableArguments {
    @Argument(help: ArgumentHelp("The tasks: short ids from a listing (3, 3-7, 3,9), UUID prefixes (8 hex digits, or 4 with a digit and a letter), or a filter (+errand list:Home).",
                                 valueName: "id|filter"), completion: ShellCompletion.tasks)
    var ids: [String] = []

    @Flag(name: [.customShort("y"), .long], help: "Change more than [bulk] confirm tasks selected by a filter without asking.")
    var yes = false

    func validate() throws {
        guard !ids.isEmpty else { throw ValidationError("give at least one task ID or a filter") }
    }

    /// The words as typed (a leading `-` comes marked, see ``FilterArguments``).
    var typed: [String] { FilterArguments.unmarked(ids) }

    /// The references to change: the ids, or what the filter selects among `states`.
    func refs(_ context: Context, states: Set<TaskState> = [.open, .active], verb: String) throws -> [TaskReference] {
        try BulkSelection(context: context).refs(typed, states: states, verb: verb, yes: yes, terminal: context.terminal)
    }

    /// Sets every named task to `state` (bumping modifiedAt), then reports
    /// `Verb 12 (6f1c2a3b): title` per task. Done tasks lose their short id,
    /// so their line shows the id they had.
    func setState(_ state: TaskState, global: GlobalOptions, verb: String, unchanged: String, reopening: Bool = false) throws {
        let context = try Context(global)
        if state == .done {
            // Through the recurrence-aware path: a repeating task gets its next occurrence.
            let completion = Completion(context: context)
            let results = try completion.complete(try refs(context, verb: verb == "Completed" ? "Complete" : verb))
            completion.report(results, ids: try context.resyncIDs())
            return
        }
        let mutation = TaskMutation(context: context)
        let results = try mutation.setState(try refs(context, verb: verb == "Started" ? "Start" : verb), to: state, reopening: reopening)
        let current = try context.resyncIDs()
        TaskMutation.report(to: context.terminal, results, verb: verb, unchanged: unchanged, ids: state == .done ? nil : current)
    }
}
