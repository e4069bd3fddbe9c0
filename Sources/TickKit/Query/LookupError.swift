import FoundationEssentials

/// A task or list named on the command line could not be found, or was ambiguous.
public enum LookupError: Error, LocalizedError, Sendable, Equatable {
    case taskNotFound(String)
    case ambiguousTask(String, candidates: [String])
    case listNotFound(String, known: [String])
    case listExists(String)
    /// Several list files carry the same name.
    case ambiguousList(String, files: [String])
    case invalidListName(String, reason: String)
    /// The task is in a file that cannot be read right now.
    case taskInBrokenFile(String, path: String)
    /// The list may be one of the files that cannot be read right now.
    case listInBrokenFile(String, problems: [String])
    /// No list has the name, and one has a name within one edit of it (a typo, not a new list).
    case nearList(String, near: String)

    public var errorDescription: String? {
        // Names may come from hand-edited files: quote them on one line, controls visible.
        let v = { (s: String) in TextRules.visible(s) }
        switch self {
        case .taskNotFound(let ref):
            return "no task with id \"\(v(ref))\"; use a short id from a listing (e.g. `tick list`) or a prefix of the task's UUID (8 hex digits, or 4 with a digit and a letter)"
        case let .ambiguousTask(ref, candidates):
            return "\"\(v(ref))\" matches \(candidates.count) tasks; give more of the UUID:\n" + candidates.map { "  " + $0 }.joined(separator: "\n")
        case let .listNotFound(name, known):
            let hint = known.isEmpty ? "there are no lists yet; create one with `tick lists add NAME`" : "known lists: " + known.map(v).joined(separator: ", ")
            return "no list named \"\(v(name))\"; \(hint)"
        case let .ambiguousList(name, files):
            return "several lists are named \"\(v(name))\": \(files.joined(separator: ", ")); rename one in its file, or name the list by its slug (the file name without .json)"
        case .listExists(let name):
            return "a list named \"\(v(name))\" already exists"
        case let .invalidListName(name, reason):
            return "cannot use \"\(v(name))\" as a list name: \(reason)"
        case let .listInBrokenFile(name, problems):
            return "no readable list named \"\(v(name))\"; it may be in a file that cannot be read; fix it first:\n" + problems.map { "  " + $0 }.joined(separator: "\n")
        case let .taskInBrokenFile(ref, path):
            return "task \"\(v(ref))\" may be in \(path), which cannot be read; fix that file first"
        case let .nearList(name, near):
            return "no list named \"\(v(name))\" (did you mean \"\(v(near))\"?); a new list of that name is made with `tick lists add \(v(name))`"
        }
    }
}

extension LookupError: TickError {
    public var kind: FailureKind {
        switch self {
        case .listExists, .invalidListName: return .usage
        case .taskInBrokenFile, .listInBrokenFile: return .badData
        case .taskNotFound, .ambiguousTask, .listNotFound, .ambiguousList, .nearList: return .notFound
        }
    }
}
