import FoundationEssentials

/// A repeating task's occurrences, as tick makes them, read as the one
/// Taskwarrior series they are (Docs/INTERCHANGE.md, "Taskwarrior").
///
/// Completing a repeating task in tick leaves it done under its own id and
/// makes the next occurrence under ``TaskFile/nextOccurrenceID(after:)``.
/// Taskwarrior keeps one template for the whole series instead. So export
/// writes a chain of occurrences (a done one, the one after it, …) as one
/// series under the first occurrence's id: its template follows the current
/// (open) occurrence (due, `mask: "-"`), the done occurrences are its
/// completed instances, and the open one is its pending instance. Import
/// reads that series back onto the occurrences it came from. A done
/// occurrence whose next one was removed (or that came from a Taskwarrior
/// series and has none) ends its series: the template goes out deleted
/// (Taskwarrior's way to stop a series), with that occurrence as its
/// completed instance. Before this, the done task went out as a plain
/// completed task over its template's uuid, which Taskwarrior 2.6 crashes
/// on (SIGSEGV, nothing imported).
///
/// A chain is followed only through the tasks at hand: an occurrence
/// archived or removed cuts it (the rest starts a series of its own).
struct TaskwarriorChain {
    /// Each occurrence that follows a done repeating task here: that task.
    private var previous: [UUID: TaskItem] = [:]
    /// Every task at hand, by id.
    private var byID: [UUID: TaskItem] = [:]
    /// The uuid of a done occurrence's Taskwarrior instance: the one it came
    /// with from Taskwarrior, else one derived from its id.
    private var occurrenceOfInstance: [UUID: UUID] = [:]

    /// Tasks removed on purpose (the files' tombstones).
    private var removed: Set<UUID> = []

    /// `removed`: the ids of tasks removed on purpose (tombstones), so a
    /// series whose next occurrence was removed is known to end.
    init(_ tasks: some Sequence<TaskItem>, removed: Set<UUID> = []) {
        self.removed = removed
        for task in tasks {
            byID[task.id] = task
            if task.state == .done, task.repeatRule != nil {
                previous[TaskFile.nextOccurrenceID(after: task.id)] = task
            }
        }
        for task in byID.values where task.state == .done && task.repeatRule != nil {
            occurrenceOfInstance[instanceID(of: task)] = task.id
        }
    }

    /// True when `task` is a done occurrence that ends a series Taskwarrior
    /// may hold as a template: its next occurrence was removed here, or it
    /// came from Taskwarrior's series and has no next one at hand. (Any other
    /// done repeating task goes out as a plain completed task, as before.)
    func endsSeries(_ task: TaskItem) -> Bool {
        guard task.state == .done, task.repeatRule != nil, !hasNext(task) else { return false }
        return removed.contains(TaskFile.nextOccurrenceID(after: task.id))
            || task.extra.contains { $0.key == TaskwarriorRecurrence.extraKey }
    }

    /// True when `task` is done, repeats and its next occurrence is at hand.
    func hasNext(_ task: TaskItem) -> Bool {
        task.state == .done && task.repeatRule != nil && byID[TaskFile.nextOccurrenceID(after: task.id)] != nil
    }

    /// The id of the first occurrence of `task`'s chain (its series'
    /// template), or nil when no done occurrence at hand comes before it.
    func seriesID(of task: TaskItem) -> UUID? {
        var id = task.id
        var steps = 0
        while let before = previous[id], steps < byID.count {
            id = before.id
            steps += 1
        }
        return steps == 0 ? nil : id
    }

    /// The occurrence the chain starting at (or passing) `id` has reached:
    /// the next ones followed while they are at hand.
    func current(from id: UUID) -> TaskItem? {
        guard var task = byID[id] else { return nil }
        var steps = 0
        while hasNext(task), let next = byID[TaskFile.nextOccurrenceID(after: task.id)], steps < byID.count {
            task = next
            steps += 1
        }
        return task
    }

    /// The done occurrence whose Taskwarrior instance is `id`, if any.
    func occurrence(ofInstance id: UUID) -> TaskItem? {
        occurrenceOfInstance[id].flatMap { byID[$0] }
    }

    /// The uuid of the Taskwarrior instance an occurrence is written as: the
    /// first occurrence keeps the instance it came with from Taskwarrior
    /// (``TaskwarriorRecurrence/seriesKey``); any other is derived from its id.
    func instanceID(of task: TaskItem) -> UUID {
        if seriesID(of: task) == nil, let kept = Self.keptInstance(of: task) { return kept }
        return TaskwarriorRecurrence.instanceID(forTemplate: task.id)
    }

    /// An imported task read onto the occurrence it stands for (import's
    /// side of the chain, over the store's tasks): a series whose first
    /// occurrence is done here is the occurrence the chain has reached, and
    /// keeps no instance uuid export derives anyway; a completed instance of
    /// a done occurrence here is that occurrence, with its rule and the
    /// instance it came with, without the series' parts (export writes them
    /// again). Any other task as it is.
    func placed(_ imported: TaskItem) -> TaskItem {
        var task = imported
        if let here = byID[task.id] {
            guard hasNext(here), task.state != .done, let reached = current(from: here.id), reached.id != here.id else { return task }
            task.id = reached.id
            if let i = task.extra.firstIndex(where: { $0.key == TaskwarriorRecurrence.extraKey }), case .object(var parts) = task.extra[i].value.kind {
                parts.removeAll { $0.key == "instance" && $0.value == .string(TaskwarriorRecurrence.instanceID(forTemplate: reached.id).lowercased) }
                if parts.isEmpty { task.extra.remove(at: i) } else { task.extra[i].value = .object(parts) }
            }
            return task
        }
        guard let done = occurrence(ofInstance: task.id) else { return task }
        task.id = done.id
        task.repeatRule = done.repeatRule
        task.extra.removeAll { Self.instanceParts.contains($0.key) }
        // The instance it came with from Taskwarrior stays its own.
        let key = TaskwarriorRecurrence.extraKey
        if let kept = done.extra.first(where: { $0.key == key }), !task.extra.contains(where: { $0.key == key }) {
            task.extra.append(kept)
        }
        return task
    }

    /// The keys a completed instance brings that export derives from the chain.
    private static let instanceParts = Set(["parent", "imask", "rtype", "recur"].map { TaskwarriorCodec.prefix + $0 })

    private static func keptInstance(of task: TaskItem) -> UUID? {
        guard case .string(let text)? = TaskwarriorRecurrence.keptParts(of: task)["instance"]?.kind else { return nil }
        return UUID(uuidString: text)
    }
}
