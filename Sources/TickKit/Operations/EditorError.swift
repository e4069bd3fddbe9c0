import FoundationEssentials

/// Why an edit in the editor (``EditorSession``) saved nothing.
public enum EditorError: Error, LocalizedError, Sendable, Equatable {
    /// The scratch file was removed while the editor ran.
    case bufferGone(path: String)
    /// The task changed on disk during the edit; the text is kept at `kept`.
    case changedOnDisk(kept: String)
    /// The text did not parse and the user gave up; it is kept at `kept`.
    case notSaved(kept: String)

    public var errorDescription: String? {
        switch self {
        case .bufferGone(let path):
            return "the edited file \(path) is gone; nothing was changed"
        case .changedOnDisk(let kept):
            return "the task changed on disk while you were editing; nothing was saved. Your text is kept in \(kept); "
                + "run `tick edit` again and copy your changes over"
        case .notSaved(let kept):
            return "nothing was saved; your text is kept in \(kept)"
        }
    }
}

extension EditorError: TickError {
    public var kind: FailureKind {
        switch self {
        case .bufferGone, .changedOnDisk: return .failure
        case .notSaved: return .badData
        }
    }
}
