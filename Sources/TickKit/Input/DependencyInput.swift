import FoundationEssentials

/// Turns the task references typed after `depends:` into task ids, and
/// refuses a dependency that would close a cycle.
public struct DependencyInput {
    let loaded: StoreView

    public init(loaded: StoreView) {
        self.loaded = loaded
    }

    /// Fills `edit.addDepends` / `edit.removeDepends` from the typed
    /// references. `task` is the task being edited (nil for a new task,
    /// which nothing can depend on yet, so it closes no cycle).
    public func resolve(_ edit: inout TaskEdit, for task: UUID?) throws {
        guard !edit.dependsAdded.isEmpty || !edit.dependsRemoved.isEmpty else { return }
        let resolver = loaded.tasks
        edit.addDepends = try edit.dependsAdded.map { try resolver.resolve($0).task.id }
        edit.removeDepends = try edit.dependsRemoved.map { try resolver.resolve($0).task.id }
        guard let task else { return }
        var graph = edit.addDepends.isEmpty ? DependencyGraph(edges: [:]) : try loaded.index.dependencyGraph()
        // The edit's own removals count: they may be what breaks a cycle.
        if edit.dependsCleared { graph.edges[task] = [] }
        graph.edges[task]?.removeAll { edit.removeDepends.contains($0) }
        for dep in edit.addDepends {
            if let path = graph.cycle(adding: dep, to: task) {
                if path.count == 1 {
                    throw InputError.invalid("depends: task \(name(task)) cannot depend on itself")
                }
                let shown = ([task] + path).map(name).joined(separator: " -> ")
                throw InputError.invalid("depends: \(name(dep)) already depends on \(name(task)) (\(shown)); a dependency cycle is refused")
            }
            graph.edges[task, default: []].append(dep)
        }
    }

    /// The ids among `task`'s dependencies that no task in the store has.
    public func gone(_ task: TaskItem) throws -> [UUID] {
        try loaded.index.missingTasks(task.depends)
    }

    /// The warning for a task whose dependencies on gone tasks were
    /// dropped, or nil when none were.
    public static func droppedWarning(task: UUID, shortID: Int?, dropped: [UUID]) -> TickWarning? {
        guard !dropped.isEmpty else { return nil }
        let shown = shortID.map(String.init) ?? String(task.lowercased.prefix(8))
        let ids = dropped.map { String($0.lowercased.prefix(8)) }.joined(separator: ", ")
        return TickWarning("task \(shown): dropped its dependency on \(ids), a task that no longer exists")
    }

    /// A task as messages name it: its short id, else its UUID's first 8 digits.
    private func name(_ id: UUID) -> String {
        loaded.index.shortID(of: id).map(String.init) ?? String(id.lowercased.prefix(8))
    }
}
