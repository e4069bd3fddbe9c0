import FoundationEssentials

extension TaskwarriorCodec {
    /// For a task already in the store, keeps what Taskwarrior cannot say or says
    /// another way, so that a round trip through Taskwarrior that changed nothing is
    /// *unchanged* (issue 45): Taskwarrior keeps tags and dependencies as sets (`task
    /// export` sorts them) and annotations in time order, and tick's export leaves out
    /// empty notes lines, so the same ones in another order keep the store's (its
    /// order, its empty lines); a due or wait date at local midnight keeps the store's
    /// form (a day or that instant); the slot and unknown keys other than
    /// `x-taskwarrior-` ones, which are not exported, are kept (as CSV keeps them).
    /// The keys Taskwarrior carries (`x-taskwarrior-…` and the declared fields) are the
    /// import's, in the store's places. Call it between `decode` and `ImportPlan.make`.
    public static func reconcile(_ files: [TaskFile], with snapshot: StoreSnapshot, timeZone: Zone,
                                 fields: UserFields = UserFields()) -> [TaskFile] {
        // A series tick's completions made is read back onto its occurrences (``TaskwarriorChain``).
        let chain = TaskwarriorChain(snapshot.allTasks.lazy.map(\.task))
        let placed = files.map { file in
            var f = file
            f.tasks = file.tasks.map(chain.placed)
            return f
        }
        return snapshot.reconciling(placed) { t, current in keepStore(t, of: current, timeZone: timeZone, fields: fields) }
    }

    /// True when Taskwarrior has an attribute for `field` (the hook JSON's keys are its
    /// attributes); ``keepStore(_:of:timeZone:fields:)`` keeps the store's value of the others (the slot).
    static func carries(_ field: TaskField) -> Bool {
        field.hookKey != nil
    }

    /// `imported` with what ``reconcile(_:with:timeZone:fields:)`` keeps of `current`.
    static func keepStore(_ imported: TaskItem, of current: TaskItem, timeZone: Zone, fields: UserFields = UserFields()) -> TaskItem {
        var r = TaskField.keepingUncarried(imported, store: current, carried: carries)
        // A declared field whose value Taskwarrior cannot hold was not exported: it stays.
        func exported(_ key: String) -> Bool {
            guard let field = fields[key], field.name == key else { return false }
            guard let value = current.extra.first(where: { $0.key == key })?.value else { return true }
            return TaskwarriorUDA.holds(value, for: field)
        }
        r.extra = ImportExtra.merge(current.extra, dropping: { $0.hasPrefix(prefix) || exported($0) }, imported: imported.extra)
        func sameInstant(_ a: TaskDate?, _ b: TaskDate?) -> Bool {
            switch (a, b) {
            case (.day(let d)?, .time(let t)?), (.time(let t)?, .day(let d)?): d.startOfDay(in: timeZone) == t
            default: false
            }
        }
        if sameInstant(r.due, current.due) { r.due = current.due }
        if sameInstant(r.wait, current.wait) { r.wait = current.wait }
        // A declared date field, like `due`: Taskwarrior reads an instant at local midnight as that day.
        for field in fields.all {
            guard case .date = field.kind, let i = r.extra.firstIndex(where: { $0.key == field.name }),
                  let mine = current.extra.first(where: { $0.key == field.name })?.value,
                  case .string(let a) = r.extra[i].value.kind, case .string(let b) = mine.kind,
                  sameInstant(TaskDate(fileString: a), TaskDate(fileString: b)) else { continue }
            r.extra[i].value = mine
        }
        if r.tags != current.tags, r.tags.sorted() == current.tags.sorted() { r.tags = current.tags }
        if r.depends != current.depends, r.depends.map(\.lowercased).sorted() == current.depends.map(\.lowercased).sorted() {
            r.depends = current.depends
        }
        func lines(_ notes: String?) -> [Substring] { (notes ?? "").split(separator: "\n", omittingEmptySubsequences: true).sorted() }
        if r.notes != current.notes, lines(r.notes) == lines(current.notes) { r.notes = current.notes }
        return r
    }
}
