import FoundationEssentials
import Glibc

/// Changes tasks named by id in their files, all under the store lock: ids
/// are resolved under the lock, so a task another tick process moved
/// meanwhile is found where it is now, and a task found in two files (an
/// interrupted move) is joined first (Docs/MERGE.md §14). The workflow behind
/// done, start, edit, reopen, reorder, rm and mv.
public struct TaskMutation {
    let store: Store
    let session: IndexSession
    let now: Date

    public init(store: Store, session: IndexSession, now: Date) {
        self.store = store
        self.session = session
        self.now = now
    }

    /// One task's outcome: as it is now, and whether it changed.
    public struct Outcome {
        public var item: ListedTask
        public var changed: Bool

        public init(item: ListedTask, changed: Bool) {
            self.item = item
            self.changed = changed
        }
    }

    /// Applies `change` to every task named in `refs`. `change` returns true
    /// when it changed the task.
    public func apply(_ refs: [TaskReference], _ change: @escaping (inout TaskItem, Date) throws -> Bool) throws -> [Outcome] {
        try applyInFile(refs) { file, id, now -> (Bool, TaskItem, Void) in
            try file.updateTask(id) { task in (try change(&task, now), task, ()) }
        }.map(\.outcome)
    }

    /// Like ``apply(_:_:)``, for changes that touch more of the task's file than
    /// the task (reopening a repeating task takes back its next occurrence):
    /// `change` gets the file, the task's id and the time, and returns whether
    /// the task changed, the task as it is now, and a detail for the report.
    ///
    /// With `refusingDone` (a command's name), a done task among them refuses
    /// the whole change before anything is written (``DoneTaskError``).
    public func applyInFile<Detail>(_ refs: [TaskReference], refusingDone: String? = nil,
                                    _ change: @escaping (inout TaskFile, UUID, Date) throws -> (Bool, TaskItem, Detail))
        throws -> [(outcome: Outcome, detail: Detail)] {
        let now = self.now
        var results: [(outcome: Outcome, detail: Detail)] = []
        try store.withLock { writer in
            // Resolved under the lock: outside it, a concurrent `tick mv` can be half
            // done (the task in both lists, or the index having seen it in neither).
            let items = try resolveUnderLock(refs, writer: writer)
            if let command = refusingDone { try Self.refuseDone(items, refs: refs, command: command, prefixWorks: false) }
            for item in items {
                let (changed, after, detail) = try writer.update(item.kind) { file in
                    try change(&file, item.task.id, now)
                }
                var updated = item
                updated.task = after
                results.append((Outcome(item: updated, changed: changed), detail))
            }
        }
        return results
    }

    /// One completed task: as it is now, and what happened to its series.
    public struct Completed {
        public var item: ListedTask
        public var outcome: CompletionOutcome
    }

    /// Completes every task named in `refs` through
    /// ``TaskFile/complete(taskID:at:timeZone:existsElsewhere:)``, so a
    /// repeating task gets its next occurrence whichever command completes it
    /// (`tick done`, `tick review`, a reminder's action). Ids are resolved
    /// under the lock, as for ``apply(_:_:)``.
    public func complete(_ refs: [TaskReference], timeZone: Zone) throws -> [Completed] {
        try store.withLock { writer in
            let items = try resolveUnderLock(refs, writer: writer)
            return try items.map { try Self.complete($0, writer: writer, index: session.index, now: now, timeZone: timeZone) }
        }
    }

    /// Completes one resolved task with the store lock held; `index` tells
    /// whether a next occurrence already exists in another file.
    static func complete(_ item: ListedTask, writer: StoreWriter, index: TaskIndex, now: Date, timeZone: Zone) throws -> Completed {
        let outcome = try writer.update(item.kind) { file in
            try file.complete(taskID: item.task.id, at: now, timeZone: timeZone) { id in
                // In another list, or archived (one id, one file: Docs/RECURRENCE.md).
                index.contains(id, outside: item.kind) || writer.store.archiveHolds(id)
            }
        }
        var updated = item
        updated.task = outcome.task
        return Completed(item: updated, outcome: outcome)
    }

    /// What deleting tasks did.
    public struct Removal {
        /// The deleted tasks, as they were.
        public var removed: [ListedTask]
        /// Tasks that depended on a deleted one: their id, short id, and the
        /// dependencies dropped from them.
        public var droppedDependencies: [(task: UUID, shortID: Int?, ids: [UUID])]
    }

    /// Deletes every task named in `refs` (a tombstone each, so a merge does
    /// not bring it back) and drops dependencies on them from the tasks that
    /// had them (Docs/CLI.md "Dependencies"), all under the store lock.
    public func remove(_ refs: [TaskReference]) throws -> Removal {
        let now = self.now
        return try store.withLock { writer in
            let items = try resolveUnderLock(refs, writer: writer)
            for item in items {
                try writer.update(item.kind) { file in
                    guard file.index(of: item.task.id) != nil else { throw LookupError.taskNotFound(item.task.id.lowercased) }
                    file.tasks.removeAll { $0.id == item.task.id }
                    file.recordDeletion(of: [item.task.id], at: now)
                }
            }
            let removed = Set(items.map(\.task.id))
            var dropped: [(task: UUID, shortID: Int?, ids: [UUID])] = []
            for dependent in try session.index.dependents(of: Array(removed)) where !removed.contains(dependent.task.id) {
                let ids = try writer.update(dependent.kind) { file -> [UUID] in
                    guard file.index(of: dependent.task.id) != nil else { return [] }
                    return try file.updateTask(dependent.task.id) { task in
                        let gone = task.depends.filter(removed.contains)
                        guard !gone.isEmpty else { return [] }
                        task.depends.removeAll(where: removed.contains)
                        task.modifiedAt = now
                        return gone
                    }
                }
                if !ids.isEmpty { dropped.append((dependent.task.id, dependent.shortID, ids)) }
            }
            return Removal(removed: items, droppedDependencies: dropped)
        }
    }

    /// Where `tick reorder` puts a task: at an end of its list, or just
    /// before or after another task of the same list (named by a reference).
    public enum ReorderTarget: Sendable, Equatable {
        case top
        case bottom
        case before(TaskReference)
        case after(TaskReference)
    }

    /// Moves the task named by `ref` within its list's manual order. The task
    /// and the anchor are resolved under the lock (a task a concurrent `tick
    /// mv` moved is found where it is now); an anchor in another list is an
    /// ``InputError``: reorder works within one list.
    public func reorder(_ ref: TaskReference, to target: ReorderTarget) throws -> Outcome {
        let now = self.now
        return try store.withLock { writer in
            let loaded = try session.load()
            let item = try loaded.tasks.resolve(ref)
            let position: ReorderPosition
            switch target {
            case .top: position = .top
            case .bottom: position = .bottom
            case .before(let anchorRef), .after(let anchorRef):
                let anchor = try loaded.tasks.resolve(anchorRef)
                guard anchor.kind == item.kind else {
                    throw InputError.invalid("\(anchorRef.text) is in \(anchor.listName), not in \(item.listName); reorder works within one list (use `tick mv` to change lists)")
                }
                if case .before = target { position = .before(anchor.task.id) } else { position = .after(anchor.task.id) }
            }
            let changed = try writer.update(item.kind) { file in try file.reorder(item.task.id, to: position, now: now) }
            return Outcome(item: item, changed: changed)
        }
    }

    /// Moves every task named in `refs` to the list named `listRef` (the
    /// inbox created if need be), all under the store lock; returns each
    /// task's outcome (unchanged when already there) and the list's name.
    /// The destination is written first, so an interruption leaves a copy
    /// (healed as one task), never a loss (Docs/MERGE.md §14).
    ///
    /// A list `listRef` names that does not exist is made first, on first
    /// use (``ListResolver/target(_:)``); `created` says so.
    public func move(_ refs: [TaskReference], to listRef: String) throws -> (outcomes: [Outcome], listName: String, created: Bool) {
        let now = self.now
        return try store.withLock { writer in
            // Resolved under the lock: outside it, another `tick mv` of the same
            // task can be half done (the task in both lists, or seen in neither).
            let items = try resolveUnderLock(refs, writer: writer)
            let loaded = try session.load()
            let target = try loaded.lists.target(listRef)
            var name = loaded.name(of: target.kind)
            var created = false
            if case .new(let newName, let slug) = target {
                try writer.createList(named: newName, slug: slug, now: now)
                (name, created) = (newName, true)
            }
            let moved = try items.map { try Self.move($0, to: target.kind, writer: writer, now: now) }
            return (moved, name, created)
        }
    }

    /// Moves every task named in `refs` to the file `target`, applying
    /// `change` to each on the way (stamped like any change), all under the
    /// store lock: the same move as ``move(_:to:)`` (`tick review`'s "inbox"
    /// is this move with the dates cleared). A task already in `target` gets
    /// `change` in place; its outcome's `changed` tells whether it changed.
    public func move(_ refs: [TaskReference], to target: FileKind, changing change: @escaping (inout TaskItem) -> Void) throws -> [Outcome] {
        let now = self.now
        return try store.withLock { writer in
            let items = try resolveUnderLock(refs, writer: writer)
            return try items.map { try Self.move($0, to: target, writer: writer, now: now, changing: change) }
        }
    }

    /// The one move, with the store lock held: `item` (resolved under the
    /// lock) is written into `target` with `changed.list` stamped (its place
    /// in the old list dropped), then removed from its file without a
    /// tombstone. `change`, when given, is applied on the way and its fields
    /// stamped at `now`; to a task already in `target` it is applied in place.
    static func move(_ item: ListedTask, to target: FileKind, writer: StoreWriter, now: Date,
                     changing change: ((inout TaskItem) -> Void)? = nil) throws -> Outcome {
        guard item.kind != target else {
            guard let change else { return Outcome(item: item, changed: false) }
            let (changed, after) = try writer.update(item.kind) { file in
                try file.updateTask(item.task.id) { task -> (Bool, TaskItem) in
                    let before = task
                    change(&task)
                    return (task != before, task)
                }
            }
            var updated = item
            updated.task = after
            return Outcome(item: updated, changed: changed)
        }
        // The task as its file has it now (read under the lock), not the index's copy.
        guard let read = try writer.store.read(item.kind)?.file.tasks.first(where: { $0.id == item.task.id }) else {
            throw LookupError.taskNotFound(item.task.id.lowercased)
        }
        var task = read
        if let change {
            change(&task)
            // Written as a new task in `target`, where the writer has no old copy to compare with.
            task.stampChanges(since: read, at: now)
        }
        task.stamp("list", at: now)
        task.changed["order"] = nil   // its place was in the old list
        task.modifiedAt = max(task.modifiedAt, now)
        // A read-only file at either end stops the move before either is written.
        try writer.requireWritable([target, item.kind])
        try writer.update(target, create: target == .inbox ? { TaskFile.empty(.inbox, name: nil, now: now) } : nil) { file in
            if let i = file.index(of: task.id) { file.tasks[i] = task } else { file.tasks.append(task) }
            file.deleted.removeAll { $0.id == task.id }
        }
        // No tombstone in the source: a move is not a deletion. A copy an
        // older version brings back there merges into this one (its
        // `changed.list` is later) and is removed (Docs/MERGE.md §14).
        try writer.update(item.kind) { file in
            file.tasks.removeAll { $0.id == task.id }
        }
        var after = item
        after.task = task
        after.kind = target
        return Outcome(item: after, changed: true)
    }

    /// What editing one task did.
    public struct Edited {
        /// The task as it is now, and whether it changed.
        public var outcome: Outcome
        /// The task as it was.
        public var before: TaskItem
        /// Dependencies on tasks that are gone, dropped by this write.
        public var droppedDependencies: [UUID]
        /// ``SlotGuard``'s warnings about the task's slot (placing edits only).
        public var slotWarnings: [TickWarning]
    }

    /// Applies `edit` to the task named by `ref`, under the store lock:
    /// `depends:` words resolved, dependencies on tasks that are gone
    /// dropped, and a new slot checked against blocks and other placed tasks
    /// (``SlotGuard``: refused over a commitment, warned over a task).
    ///
    /// `done` says what happens to a done task (``DoneEdit``).
    public func edit(_ ref: TaskReference, with edit: TaskEdit, done: DoneEdit = .edit) throws -> Edited {
        let now = self.now
        let placing = edit.slot != .keep || edit.slotMinutes != nil || edit[\.scheduled] != .keep
        return try store.withLock { writer in
            // Resolved under the lock: outside it, a concurrent `tick mv` of the task
            // can be half done (the task in both lists, or seen in neither).
            guard var item = try resolveUnderLock([ref], writer: writer).first else { throw LookupError.taskNotFound(ref.text) }
            if item.task.state == .done {
                switch done {
                case .edit: break
                case .refuseByShortID:
                    if ref.namesByShortID(item) { try Self.refuseDone([item], refs: [ref], command: "edit", prefixWorks: true) }
                case .reopen:
                    item.task = try writer.update(item.kind) { file in try file.reopen(taskID: item.task.id, at: now).task }
                }
            }
            let loaded = try session.load()
            var edit = edit
            let dependencies = DependencyInput(loaded: loaded)
            try dependencies.resolve(&edit, for: item.task.id)
            let gone = try dependencies.gone(item.task)
            try edit.checkSlot(on: item.task)
            var preview = item.task
            edit.apply(to: &preview, now: now)
            let others = placing ? try preview.slot.map { try loaded.index.placedTasks(on: $0.day).map(\.task) } ?? [] : []
            let commitments = placing ? try store.commitments().blocks : []
            var warnings: [TickWarning] = []
            let (changed, after) = try writer.update(item.kind) { file in
                try file.updateTask(item.task.id) { task in
                    let before = task
                    var changed = edit.apply(to: &task, now: now)
                    if !gone.isEmpty, task.depends.contains(where: gone.contains) {
                        task.depends.removeAll { gone.contains($0) }
                        task.modifiedAt = now
                        changed = true
                    }
                    if placing {
                        warnings = try SlotGuard.check(before: before, after: task, commitments: commitments, tasks: others,
                                                       shortID: { loaded.index.shortID(of: $0) })
                    }
                    return (changed, task)
                }
            }
            var updated = item
            updated.task = after
            return Edited(outcome: Outcome(item: updated, changed: changed), before: item.task,
                          droppedDependencies: gone, slotWarnings: warnings)
        }
    }

    /// What ``edit(_:with:done:)`` does with a done task.
    public enum DoneEdit: Sendable {
        /// Edits it as it is (`tick ui`, the editor, `tick annotate`).
        case edit
        /// Refuses it when named by a short id (`tick edit 3`: the number a
        /// done task keeps for a day is easily typed for another task); its
        /// UUID prefix edits it as a done task, as in Taskwarrior.
        case refuseByShortID
        /// Reopens it first (`tick edit --reopen`).
        case reopen
    }

    /// `tick start` (and any state but done and open, which have their own
    /// paths): sets the state, bumping `modifiedAt` when it changed. A done
    /// task is refused unless `reopening` (`--reopen`, or `tick ui`, whose row
    /// shows it done); one started again is reopened as `tick reopen` does
    /// it (a repeating task's untouched next occurrence taken back).
    public func setState(_ refs: [TaskReference], to state: TaskState, reopening: Bool) throws -> [Outcome] {
        try applyInFile(refs, refusingDone: reopening ? nil : "start") { file, id, now in
            try file.reopen(taskID: id, at: now, to: state)
        }.map(\.outcome)
    }

    /// `tick stop` (Taskwarrior's): an active task goes back to open; any
    /// other is left as it is (reported unchanged).
    public func stop(_ refs: [TaskReference]) throws -> [Outcome] {
        try applyInFile(refs) { file, id, now in
            guard let i = file.index(of: id) else { throw LookupError.taskNotFound(id.lowercased) }
            guard file.tasks[i].state == .active else { return (false, file.tasks[i], ()) }
            let result = try file.reopen(taskID: id, at: now, to: .open)
            return (result.changed, result.task, ())
        }.map(\.outcome)
    }

    /// Throws ``DoneTaskError`` for the first done task among `items`.
    static func refuseDone(_ items: [ListedTask], refs: [TaskReference], command: String, prefixWorks: Bool) throws {
        guard let done = items.first(where: { $0.task.state == .done }) else { return }
        let prefix = String(done.task.id.lowercased.prefix(8))
        // As typed, when one reference named it by its short id.
        let reference = refs.count == 1 && refs[0].namesByShortID(done) ? refs[0].text : prefix
        throw DoneTaskError(command: command, reference: reference, title: done.task.title, prefix: prefix, prefixWorks: prefixWorks)
    }

    /// `tick reopen`: reopens done tasks; a repeating task's untouched next
    /// occurrence is taken back (the detail says what happened to it).
    public func reopen(_ refs: [TaskReference]) throws -> [(outcome: Outcome, detail: NextOccurrenceOnReopen)] {
        try applyInFile(refs) { file, id, now in try file.reopen(taskID: id, at: now) }
    }

    /// Resolves `refs` with the store lock held (a concurrent `tick mv` cannot be
    /// half done). A task found in two files (an interrupted `tick mv`, a move
    /// merged file by file) is joined first, so the change lands on the one
    /// copy left (Docs/MERGE.md §14).
    public func resolveUnderLock(_ refs: [TaskReference], writer: StoreWriter) throws -> [ListedTask] {
        let items = Self.unique(try session.load().tasks.resolve(refs))
        var healed = false
        for item in items {
            let kinds = try session.index.files(containing: item.task.id)
            if kinds.count > 1 {
                _ = try StoreReconciler.run(writer: writer, only: kinds)
                healed = true
            }
        }
        return healed ? Self.unique(try session.load().tasks.resolve(refs)) : items
    }

    /// The same task named twice is handled once.
    public static func unique(_ items: [ListedTask]) -> [ListedTask] {
        var seen = Set<UUID>()
        return items.filter { seen.insert($0.task.id).inserted }
    }
}
