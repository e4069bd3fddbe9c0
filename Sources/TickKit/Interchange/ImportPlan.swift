import FoundationEssentials

/// What an import will do, worked out before anything is written, so that an
/// import is all-or-nothing.
public struct ImportPlan: Sendable {
    /// Tasks to append or replace, per destination file.
    public struct FileChange: Sendable {
        public var kind: FileKind
        /// A file to create when the destination list does not exist yet.
        public var newFile: TaskFile?
        public var added: [TaskItem] = []
        public var updated: [TaskItem] = []
    }

    public var changes: [FileChange] = []
    public var unchanged = 0
    /// Tasks skipped because the store's copy was modified later than the imported one.
    public var keptNewer: [TaskItem] = []

    public init() {}

    public var addedCount: Int { changes.reduce(0) { $0 + $1.added.count } }
    public var updatedCount: Int { changes.reduce(0) { $0 + $1.updated.count } }

    /// Plans importing `files` into a store.
    ///
    /// Lists are matched by id, then by name; a task whose id already exists
    /// anywhere in the store is updated where it is, when it differs and the
    /// imported copy is newer (by `modifiedAt`); a newer local copy is kept.
    /// `inboxExists` tells whether the store has an inbox file; if not, an
    /// imported inbox brings its own id and timestamps.
    public static func make(importing files: [TaskFile], into snapshot: StoreSnapshot, existingSlugs: Set<String>, inboxExists: Bool) -> ImportPlan {
        var files = files
        return make(consuming: &files, into: snapshot, existingSlugs: existingSlugs, inboxExists: inboxExists)
    }

    /// ``make(importing:into:existingSlugs:inboxExists:)`` that empties each of
    /// `files` once planned, so that a large import does not hold every task twice.
    public static func make(consuming files: inout [TaskFile], into snapshot: StoreSnapshot, existingSlugs: Set<String>, inboxExists: Bool) -> ImportPlan {
        var plan = ImportPlan()
        var location: [UUID: (FileKind, TaskItem)] = [:]
        for (file, task) in snapshot.allTasks { location[task.id] = (file.kind, task) }
        // Tasks added by this import: where they went (change, position), not a copy.
        var added: [UUID: (Int, Int)] = [:]
        var taken = existingSlugs
        var index: [FileKind: Int] = [:]
        func slot(_ kind: FileKind, newFile: TaskFile? = nil) -> Int {
            if let i = index[kind] { return i }
            plan.changes.append(FileChange(kind: kind, newFile: newFile))
            index[kind] = plan.changes.count - 1
            return plan.changes.count - 1
        }
        for f in files.indices {
            let file = files[f]
            files[f].tasks = []
            var target: FileKind = .inbox
            var newFile: TaskFile?
            if file.kind == .inbox, !inboxExists {
                var fresh = file
                fresh.tasks = []
                newFile = fresh
            } else if file.kind != .inbox {
                let folded = file.displayName.lowercased()
                if let existing = snapshot.lists.first(where: { $0.id == file.id }) ?? snapshot.lists.first(where: { $0.displayName.lowercased() == folded }) {
                    target = existing.kind
                } else {
                    let wanted = file.kind.slug ?? Slug.make(from: file.displayName)
                    let slug = Slug.unique(wanted, taken: taken)
                    taken.insert(slug)
                    target = .list(slug: slug)
                    var fresh = file
                    fresh.kind = target
                    fresh.tasks = []
                    newFile = fresh
                }
            }
            for var task in file.tasks {
                if let (c, i) = added[task.id] {
                    // The same id twice in one import: the later record wins when it differs.
                    if plan.changes[c].added[i].sameContent(as: task) { plan.unchanged += 1 } else { plan.changes[c].added[i] = task }
                } else if let (kind, current) = location[task.id] {
                    // Formats other than tick's JSON carry no change times: keep the
                    // task's own (the write stamps what the import changes).
                    if task.changed.isEmpty { task.changed = current.changed }
                    // The same values with another `modifiedAt` (Taskwarrior touches
                    // `modified` of a series' instances itself) change nothing.
                    if current.sameValues(as: task) {
                        plan.unchanged += 1
                    } else if current.modifiedAt > task.modifiedAt {
                        plan.keptNewer.append(current)
                    } else {
                        plan.changes[slot(kind)].updated.append(task)
                    }
                } else {
                    let c = slot(target, newFile: newFile)
                    plan.changes[c].added.append(task)
                    added[task.id] = (c, plan.changes[c].added.count - 1)
                }
            }
            if newFile != nil { _ = slot(target, newFile: newFile) }
        }
        return plan
    }

    /// Applies one file's change.
    public static func apply(_ change: FileChange, to file: inout TaskFile) {
        // Positions by id, so a large import stays linear.
        var position: [UUID: Int] = [:]
        for (i, task) in file.tasks.enumerated() { position[task.id] = i }
        for task in change.updated {
            if let i = position[task.id] { file.tasks[i] = task }
        }
        for task in change.added where position[task.id] == nil {
            position[task.id] = file.tasks.count
            file.tasks.append(task)
        }
        // An imported task is wanted: forget that it was once deleted here.
        let imported = Set(change.added.map(\.id))
        file.deleted.removeAll { imported.contains($0.id) }
    }
}
