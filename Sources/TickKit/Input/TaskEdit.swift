import FoundationEssentials

/// A set of changes to a task, from quick-add tokens or flags.
public struct TaskEdit: Sendable, Equatable {
    public var title: String?
    /// The changes of the table's fields that words, flags and the UI's
    /// line set (``TaskField/input``) and of the notes, one per property
    /// (read and set through the subscript). A field set to `.keep` has none.
    private(set) var changes: [Int: FieldEdit] = [:]
    /// The slot's start (`at:14:00`); `.clear` removes the slot.
    public var slot: FieldChange<SlotRequest> = .keep
    /// The slot's length (`for:45m`).
    public var slotMinutes: Int?
    /// Lines appended to the notes, after the notes' change (`tick annotate`:
    /// ``Annotation/line(in:)``), against the notes the task has when written.
    public var appendNotes: [String] = []
    public var addTags: [String] = []
    public var removeTags: [String] = []
    /// The list named by `list:NAME`, for `add`.
    public var list: String?
    /// Dependencies as typed (`depends:3,a1b2`: short ids or UUID prefixes);
    /// the command resolves them into ``addDepends``.
    public var dependsAdded: [String] = []
    /// Dependencies to remove as typed (`depends:-3`); resolved into ``removeDepends``.
    public var dependsRemoved: [String] = []
    /// `depends:none`: removes every dependency (before any added ones).
    public var dependsCleared = false
    /// Resolved ids of ``dependsAdded``.
    public var addDepends: [UUID] = []
    /// Resolved ids of ``dependsRemoved``.
    public var removeDepends: [UUID] = []
    /// Declared fields (``UserField``) set or cleared, by name, each value
    /// as the task file stores it (among the task's unknown keys).
    public var userFields: [String: FieldChange<JSONNode>] = [:]

    public init() {}

    /// The change of the task's property at `path` (`edit[\.due] = .set(…)`).
    public subscript<V: Sendable & Equatable>(path: WritableKeyPath<TaskItem, V?> & Sendable) -> FieldChange<V> {
        get { changes[Self.key(of: path)]?.typed(V.self) ?? .keep }
        set {
            if newValue == .keep {
                changes[Self.key(of: path)] = nil
            } else {
                changes[Self.key(of: path)] = FieldEdit(newValue, at: path)
            }
        }
    }

    /// Sets a field's change as read from words or a flag (``FieldInputCoding``).
    mutating func set(_ change: FieldEdit) {
        changes[change.key] = change
    }

    /// Sets the field whose input key is `key` (``TaskField/inputKey``) to
    /// `text` as typed, `spelled` as the user wrote the key or flag (for the error).
    public mutating func set(_ key: String, typed text: String, spelled: String, parser: FieldParser) throws(InputError) {
        guard let parse = QuickAddParser.inputs[key]?.parse else { throw .invalid("\(spelled) is not a field typed as a value") }
        set(try parse(text, spelled, parser))
    }

    /// The key of a property's change: its place in a task (every optional
    /// property of ``TaskItem`` is stored; another key path, by its hash).
    static func key<V>(of path: WritableKeyPath<TaskItem, V>) -> Int {
        MemoryLayout<TaskItem>.offset(of: path) ?? path.hashValue
    }

    /// True when the edit changes nothing.
    public var isEmpty: Bool { self == TaskEdit() }

    /// Why the new title or notes break ``TextRules`` (control characters, length), or nil.
    public var textProblem: String? {
        if let title, let problem = TextRules.titleProblem(title) { return problem }
        if case .set(let text) = self[\.notes], let problem = TextRules.notesProblem(text) { return problem }
        for line in appendNotes {
            if line.contains(where: \.isNewline) { return "an annotation is one line; it cannot hold a line break" }
            if let problem = TextRules.notesProblem(line) { return problem }
        }
        return nil
    }

    /// Applies the edit. When anything changed, `modifiedAt` is set to `now`.
    /// Returns true when the task changed.
    @discardableResult
    public func apply(to task: inout TaskItem, now: Date) -> Bool {
        var changed = false
        if let title, title != task.title {
            task.title = title
            changed = true
        }
        // The slot below reads the scheduled day and estimate these set.
        for key in changes.keys.sorted() {
            if let change = changes[key] { changed = change.apply(to: &task) || changed }
        }
        if let outcome = try? slotOutcome(for: task) {
            switch outcome {
            case .unchanged: break
            case .cleared:
                task.slot = nil
                changed = true
            case .set(let newSlot):
                task.slot = newSlot
                if task.scheduled != newSlot.day { task.scheduled = newSlot.day }
                changed = true
            }
        }
        if !appendNotes.isEmpty {
            task.notes = Annotation.appending(appendNotes, to: task.notes)
            changed = true
        }
        let tagsBefore = task.tags
        for tag in addTags where !task.tags.contains(tag) {
            task.tags.append(tag)
        }
        task.tags.removeAll { removeTags.contains($0) }
        changed = changed || task.tags != tagsBefore
        let dependsBefore = task.depends
        if dependsCleared { task.depends = [] }
        task.depends.removeAll { removeDepends.contains($0) }
        for id in addDepends where id != task.id { task.addDependency(id) }
        changed = changed || task.depends != dependsBefore
        changed = applyUserFields(to: &task) || changed
        if changed { task.modifiedAt = now }
        return changed
    }

    /// Sets or removes the declared fields' keys among the task's unknown
    /// keys (in name order; a key already there keeps its place). Returns
    /// true when the task changed.
    private func applyUserFields(to task: inout TaskItem) -> Bool {
        var changed = false
        for name in userFields.keys.sorted() {
            guard let change = userFields[name] else { continue }
            let index = task.extra.firstIndex { $0.key == name }
            switch change {
            case .keep: continue
            case .set(let value):
                if let index {
                    guard task.extra[index].value != value else { continue }
                    task.extra[index].value = value
                } else {
                    task.extra.append(JSONMember(name, value))
                }
                changed = true
            case .clear:
                guard let index else { continue }
                task.extra.remove(at: index)
                changed = true
            }
        }
        return changed
    }

    /// What this edit does to the slot of `task`, where `task` already has
    /// this edit's other fields (`scheduled`, `estimate`) applied.
    ///
    /// - `at:` places the task on its day (the given one, else the task's
    ///   scheduled day, else today); the length is `for:`, else the slot's
    ///   current length, else the estimate, else 30 minutes.
    /// - `for:` alone changes the length of an existing slot.
    /// - A changed scheduled day moves the slot to that day (same time); a
    ///   cleared scheduled day clears the slot.
    /// Throws when `for:` is given for a task without a slot, or the slot would
    /// run past midnight.
    public func slotOutcome(for task: TaskItem) throws(InputError) -> SlotOutcome {
        var result: TaskSlot
        switch slot {
        case .clear:
            return task.slot == nil ? .unchanged : .cleared
        case .set(let request):
            let day = request.day ?? task.scheduled ?? request.today
            let minutes = slotMinutes ?? task.slot?.minutes ?? task.estimate ?? SlotRequest.defaultMinutes
            result = TaskSlot(day: day, start: request.start, minutes: minutes, extra: task.slot?.extra ?? [])
        case .keep:
            let scheduled = self[\.scheduled]
            guard let current = task.slot else {
                if slotMinutes != nil {
                    throw .invalid("for: sets the length of a slot, and this task has none; give a start too, e.g. at:14:00 for:45m")
                }
                return .unchanged
            }
            if case .clear = scheduled { return .cleared }
            result = current
            if let m = slotMinutes { result.minutes = m }
            if case .set(let day) = scheduled { result.day = day }
        }
        guard TaskSlot.isValid(start: result.start, minutes: result.minutes) else {
            throw .invalid("a slot at \(result.start) for \(DurationText.format(result.minutes)) would run past midnight; a slot must end by 24:00")
        }
        return result == task.slot ? .unchanged : .set(result)
    }

    /// Throws when this edit's slot change cannot be applied to `task` (see ``slotOutcome(for:)``).
    public func checkSlot(on task: TaskItem) throws(InputError) {
        var copy = task
        _ = self[\.scheduled].apply(to: &copy.scheduled)
        _ = self[\.estimate].apply(to: &copy.estimate)
        _ = try slotOutcome(for: copy)
    }

    /// Folds `other` into this edit; later values win.
    public mutating func merge(_ other: TaskEdit) {
        if let t = other.title { title = t }
        changes.merge(other.changes) { _, later in later }
        if other.slot != .keep { slot = other.slot }
        if let m = other.slotMinutes { slotMinutes = m }
        appendNotes += other.appendNotes
        addTags += other.addTags.filter { !addTags.contains($0) }
        removeTags += other.removeTags.filter { !removeTags.contains($0) }
        if let l = other.list { list = l }
        if other.dependsCleared {
            dependsCleared = true
            dependsAdded = []
            addDepends = []
        }
        dependsAdded += other.dependsAdded.filter { !dependsAdded.contains($0) }
        dependsRemoved += other.dependsRemoved.filter { !dependsRemoved.contains($0) }
        addDepends += other.addDepends.filter { !addDepends.contains($0) }
        removeDepends += other.removeDepends.filter { !removeDepends.contains($0) }
        for (name, change) in other.userFields where change != .keep { userFields[name] = change }
    }
}
