import FoundationEssentials

/// Where to move a task within its list.
public enum ReorderPosition: Sendable, Equatable {
    case top
    case bottom
    case before(UUID)
    case after(UUID)
}

extension TaskFile {
    /// Moves a task within the file's manual order and records when (`changed.order`).
    /// Not an edit: `modifiedAt` stays, so a reorder never beats a field edit
    /// or revives a task deleted elsewhere in a merge.
    /// Returns false when the task is already there. Throws when an anchor is
    /// not in this file.
    @discardableResult
    public mutating func reorder(_ id: UUID, to position: ReorderPosition, now: Date) throws(LookupError) -> Bool {
        guard let from = index(of: id) else { throw .taskNotFound(id.lowercased) }
        var rest = tasks
        var task = rest.remove(at: from)
        let target: Int
        switch position {
        case .top: target = 0
        case .bottom: target = rest.count
        case .before(let anchor), .after(let anchor):
            guard anchor != id else { return false }
            guard let a = rest.firstIndex(where: { $0.id == anchor }) else {
                throw .taskNotFound(anchor.lowercased)
            }
            if case .after = position { target = a + 1 } else { target = a }
        }
        if target == from { return false }
        task.stamp("order", at: now)
        rest.insert(task, at: target)
        tasks = rest
        return true
    }

    /// Applies `body` to the task with `id`; throws when it is not in this file.
    @discardableResult
    public mutating func updateTask<R>(_ id: UUID, _ body: (inout TaskItem) throws -> R) throws -> R {
        guard let i = index(of: id) else { throw LookupError.taskNotFound(id.lowercased) }
        return try body(&tasks[i])
    }
}

extension TaskEdit {
    /// A new open task with this edit applied.
    public func makeTask(title: String, now: Date) -> TaskItem {
        var task = TaskItem(id: UUID(), title: title, createdAt: now, modifiedAt: now)
        apply(to: &task, now: now)
        return task
    }
}
