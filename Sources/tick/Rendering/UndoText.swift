import FoundationEssentials
import TickKit

/// How an undo run is said, by `tick undo` and by `u` in `tick ui` alike:
/// the entries undone, the tasks they touched by short id, and the error
/// when the run stopped (with what it undid before).
enum UndoText {
    /// `Undid done: 2 task(s): 3, 6f1c2a3b`, one line per entry undone.
    static func lines(_ undone: [JournalEntry], terminal: Terminal, ids: TaskIndex?) -> [String] {
        undone.map { "Undid \(terminal.bold($0.command)): \($0.summary)\(taskList($0, ids: ids))" }
    }

    /// The error for a run that stopped (`failure`) after undoing `undone`
    /// of `requested` entries; conflicts name the tasks by short id (`ids`:
    /// the numbering before the run). Nothing to undo at all is its own error.
    static func error(_ failure: any Error, undone: Int, requested: Int, ids: TaskIndex?) -> any Error {
        if undone == 0, case UndoError.nothingToUndo = failure { return failure }
        let prefix = undone == 0 ? "" : "undid \(undone) of \(requested) change(s); then "
        if case UndoError.conflicts(let command, let conflicts) = failure {
            return CLIError(prefix + describe(command: command, conflicts, ids: ids))
        }
        if let e = failure as? UndoError { return CLIError(prefix + (e.errorDescription ?? "\(e)")) }
        return failure
    }

    /// `: 3, 7, 6f1c2a3b` — the tasks, by short id where they have one.
    static func taskList(_ entry: JournalEntry, ids: TaskIndex?) -> String {
        let tasks = entry.taskIDs
        guard !tasks.isEmpty else { return "" }
        let shown = tasks.prefix(6).map { label($0, ids: ids) }
        return ": " + shown.joined(separator: ", ") + (tasks.count > 6 ? ", …" : "")
    }

    /// `3 (6f1c2a3b)`, or the UUID prefix alone for a task with no short id.
    static func label(_ id: UUID, ids: TaskIndex?) -> String {
        let prefix = String(id.lowercased.prefix(8))
        return ids?.shortID(of: id).map { "\($0) (\(prefix))" } ?? prefix
    }

    /// Why an entry cannot be undone: one line per conflict, and whether `--force` would do.
    static func describe(command: String, _ conflicts: [UndoConflict], ids: TaskIndex?) -> String {
        let lines = conflicts.map { "  " + $0.describe { label($0, ids: ids) } }
        let forceable = conflicts.allSatisfy(\.overridable)
        return "cannot undo `\(command)`: changed since by another route (a hand edit, git, Syncthing, another machine):\n"
            + lines.joined(separator: "\n") + "\n  "
            + (forceable
                ? "nothing was undone; look with `tick show ID`, or pass --force to put back the state before `\(command)` anyway"
                : "nothing was undone")
    }
}
