import Foundation

/// A set of changes to a task, from quick-add tokens or flags.
public struct TaskEdit: Sendable, Equatable {
    public var title: String?
    public var due: FieldChange<TaskDate> = .keep
    public var scheduled: FieldChange<LocalDate> = .keep
    public var remind: FieldChange<Date> = .keep
    public var repeatRule: FieldChange<String> = .keep
    public var priority: FieldChange<Priority> = .keep
    public var energy: FieldChange<Energy> = .keep
    public var notes: FieldChange<String> = .keep
    public var addTags: [String] = []
    public var removeTags: [String] = []
    /// The list named by `list:NAME`, for `add`.
    public var list: String?

    public init() {}

    /// True when the edit changes nothing.
    public var isEmpty: Bool { self == TaskEdit() }

    /// Applies the edit. When anything changed, `modifiedAt` is set to `now`.
    /// Returns true when the task changed.
    @discardableResult
    public func apply(to task: inout TaskItem, now: Date) -> Bool {
        var changed = false
        if let title, title != task.title {
            task.title = title
            changed = true
        }
        changed = due.apply(to: &task.due) || changed
        changed = scheduled.apply(to: &task.scheduled) || changed
        changed = remind.apply(to: &task.remind) || changed
        changed = repeatRule.apply(to: &task.repeatRule) || changed
        changed = priority.apply(to: &task.priority) || changed
        changed = energy.apply(to: &task.energy) || changed
        changed = notes.apply(to: &task.notes) || changed
        let tagsBefore = task.tags
        for tag in addTags where !task.tags.contains(tag) {
            task.tags.append(tag)
        }
        task.tags.removeAll { removeTags.contains($0) }
        changed = changed || task.tags != tagsBefore
        if changed { task.modifiedAt = now }
        return changed
    }

    /// Folds `other` into this edit; later values win.
    public mutating func merge(_ other: TaskEdit) {
        if let t = other.title { title = t }
        if other.due != .keep { due = other.due }
        if other.scheduled != .keep { scheduled = other.scheduled }
        if other.remind != .keep { remind = other.remind }
        if other.repeatRule != .keep { repeatRule = other.repeatRule }
        if other.priority != .keep { priority = other.priority }
        if other.energy != .keep { energy = other.energy }
        if other.notes != .keep { notes = other.notes }
        addTags += other.addTags.filter { !addTags.contains($0) }
        removeTags += other.removeTags.filter { !removeTags.contains($0) }
        if let l = other.list { list = l }
    }
}
