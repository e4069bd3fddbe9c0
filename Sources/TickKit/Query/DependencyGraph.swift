import FoundationEssentials

/// The `depends` edges of a store: which task depends on which. Refuses
/// cycles before they are written (a task that waits for itself, through any
/// number of others, could never be done).
public struct DependencyGraph: Sendable {
    /// Each task's dependencies, by task id.
    public var edges: [UUID: [UUID]]

    public init(edges: [UUID: [UUID]]) {
        self.edges = edges
    }

    /// The graph of the tasks given.
    public init<S: Sequence>(tasks: S) where S.Element == TaskItem {
        var edges: [UUID: [UUID]] = [:]
        for task in tasks where !task.depends.isEmpty { edges[task.id, default: []] += task.depends }
        self.edges = edges
    }

    /// The path `dependency → … → task` when `task` depending on
    /// `dependency` would close a cycle (the dependency already depends on
    /// the task, directly or not); nil when it would not. A task depending on
    /// itself is the one-element path `[task]`.
    public func cycle(adding dependency: UUID, to task: UUID) -> [UUID]? {
        if dependency == task { return [task] }
        // Breadth-first from the dependency along its own dependencies; the
        // first path that reaches the task is a shortest one.
        var previous: [UUID: UUID] = [:]
        var queue = [dependency]
        var seen: Set<UUID> = [dependency]
        var head = 0
        while head < queue.count {
            let current = queue[head]
            head += 1
            for next in edges[current] ?? [] where seen.insert(next).inserted {
                previous[next] = current
                if next == task {
                    var path = [task]
                    var step = task
                    while let p = previous[step] {
                        path.append(p)
                        step = p
                    }
                    return path.reversed()
                }
                queue.append(next)
            }
        }
        return nil
    }
}
