import FoundationEssentials

/// Why `tick undo` did not (fully) undo a change.
public enum UndoError: Error, LocalizedError, Sendable, Equatable {
    /// The journal has no change left to undo.
    case nothingToUndo(available: Int)
    /// The entry's images were not kept (too large).
    case tooLarge(command: String)
    /// Things changed since by another route; `--force` overrides the ones that allow it.
    case conflicts(command: String, [UndoConflict])
    /// A before or after image in the journal could not be read back.
    case unreadableImage(path: String, reason: String)
    /// The journal file could not be read or written.
    case journalFailed(path: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case .nothingToUndo(let available):
            return available == 0
                ? "nothing to undo: the undo journal of this store on this machine has no change left to undo (it only knows changes tick made here)"
                : "nothing more to undo: only \(available) change(s) can be undone"
        case .tooLarge(let command):
            return "the `\(command)` change was too large to keep in the undo journal, so it cannot be undone (and neither can anything before it)"
        case let .conflicts(command, conflicts):
            let lines = conflicts.map { "  " + $0.description }
            let forceable = conflicts.allSatisfy(\.overridable)
            return "cannot undo `\(command)`: changed since by another route (a hand edit, git, Syncthing, another machine):\n"
                + lines.joined(separator: "\n") + "\n"
                + (forceable ? "nothing was undone; pass --force to put back the state before `\(command)` anyway" : "nothing was undone")
        case let .unreadableImage(path, reason):
            return "the undo journal's image of \(path) cannot be read (\(reason)); nothing was undone"
        case let .journalFailed(path, reason):
            return "cannot use the undo journal \(path): \(reason)"
        }
    }
}

/// One thing that changed since a journal entry was written.
public struct UndoConflict: Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// The task differs from the entry's after image in these fields.
        case changed(fields: [String])
        /// The task the entry left in the file is gone (deleted or moved).
        case gone
        /// The entry removed the task, and it is back.
        case reappeared
        /// The file the entry wrote no longer exists.
        case fileMissing
        /// The file was deleted and created again (another list id), or exists again after the entry deleted it.
        case fileRecreated
        /// The file's own fields (name, color) differ from the entry's after image.
        case fileChanged
        /// The file cannot be parsed now.
        case fileUnreadable(String)
        /// `blocks.json` differs from what the entry left.
        case commitmentsChanged
    }

    public var path: String
    public var listName: String
    public var taskID: UUID?
    public var reason: Reason

    public init(path: String, listName: String, taskID: UUID? = nil, reason: Reason) {
        self.path = path
        self.listName = listName
        self.taskID = taskID
        self.reason = reason
    }

    /// True when `--force` may overwrite it (task and list fields), false when a file would be lost or is unreadable.
    public var overridable: Bool {
        switch reason {
        case .changed, .gone, .reappeared, .fileChanged, .commitmentsChanged: return true
        case .fileMissing, .fileRecreated, .fileUnreadable: return false
        }
    }

    /// What changed, without task titles: `task 6f1c2a3b in Work: changed since (state, modifiedAt)`.
    public func describe(taskLabel: (UUID) -> String) -> String {
        let where_ = "\(listName) (\(path))"
        let task = taskID.map { "task \(taskLabel($0)) in \(where_)" } ?? where_
        switch reason {
        case .changed(let fields): return "\(task): changed since (\(fields.joined(separator: ", ")))"
        case .gone: return "\(task): no longer there (deleted, or moved to another list)"
        case .reappeared: return "\(task): was removed, and is back"
        case .fileMissing: return "\(where_): the file no longer exists"
        case .fileRecreated: return "\(where_): the file was deleted and created again (or exists again); move it aside to undo"
        case .fileChanged: return "\(where_): the list's own fields (name, color, other keys) changed since"
        case .fileUnreadable(let why): return "\(where_): cannot be parsed (\(why)); fix it first"
        case .commitmentsChanged: return "\(where_): changed since (look with `tick blocks`)"
        }
    }

    public var description: String { describe { String($0.lowercased.prefix(8)) } }
}

extension UndoError: TickError {
    public var kind: FailureKind { .failure }
}
