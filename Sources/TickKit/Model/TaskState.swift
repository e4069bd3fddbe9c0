/// The three states of a task.
public enum TaskState: String, Sendable, CaseIterable, Codable {
    case open
    case active
    case done

    /// Open or active: still to do.
    public var isPending: Bool { self != .done }
}

/// How important a task is: a must-do or something flexible.
public enum Priority: String, Sendable, CaseIterable, Codable {
    case must
    case flexible
}

/// The energy a task needs.
public enum Energy: String, Sendable, CaseIterable, Codable {
    case high
    case low
    case any
}
