import FoundationEssentials

/// One task, as stored in a list file.
///
/// Known fields are typed; keys tick does not know are kept in ``extra`` in
/// their original order and written back unchanged.
public struct TaskItem: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var title: String
    public var state: TaskState
    public var due: TaskDate?
    public var scheduled: LocalDate?
    public var remind: Date?
    /// The recurrence rule, stored verbatim.
    public var repeatRule: String?
    public var priority: Priority?
    public var energy: Energy?
    /// How long the task should take, in minutes (positive).
    public var estimate: Int?
    /// Where the task is placed on a day (a start time and a length).
    public var slot: TaskSlot?
    public var tags: [String]
    /// Hidden from the views until this moment (a day means the start of
    /// that day, local): the task is *waiting* while it is in the future.
    public var wait: TaskDate?
    /// The tasks this one depends on, by id, in the order they were added:
    /// it is *blocked* while any of them exists and is not done.
    public var depends: [UUID]
    public var notes: String?
    public var createdAt: Date
    public var modifiedAt: Date
    public var completedAt: Date?
    /// Unknown keys, preserved verbatim and in order.
    public var extra: [JSONMember]
    /// When each field was last changed, by change key (``TaskItem/changeKey(for:)``):
    /// only fields changed since creation, so merges without a common base can
    /// tell which side changed what (Docs/MERGE.md, FORMAT.md `changed`).
    public var changed: [String: Date]
    /// True when the id or timestamps were missing on disk and were derived;
    /// the next write of the file stores them.
    public var needsFill: Bool

    public init(
        id: UUID,
        title: String,
        state: TaskState = .open,
        due: TaskDate? = nil,
        scheduled: LocalDate? = nil,
        remind: Date? = nil,
        repeatRule: String? = nil,
        priority: Priority? = nil,
        energy: Energy? = nil,
        estimate: Int? = nil,
        slot: TaskSlot? = nil,
        tags: [String] = [],
        wait: TaskDate? = nil,
        depends: [UUID] = [],
        notes: String? = nil,
        createdAt: Date,
        modifiedAt: Date,
        completedAt: Date? = nil,
        extra: [JSONMember] = [],
        changed: [String: Date] = [:],
        needsFill: Bool = false
    ) {
        self.id = id
        self.title = title
        self.state = state
        self.due = due
        self.scheduled = scheduled
        self.remind = remind
        self.repeatRule = repeatRule
        self.priority = priority
        self.energy = energy
        self.estimate = estimate
        self.slot = slot
        self.tags = tags
        self.wait = wait
        self.depends = depends
        self.notes = notes
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
        self.completedAt = completedAt
        self.extra = extra
        self.changed = changed
        self.needsFill = needsFill
    }

    /// The id of a task being read before its own is known (the all-zero UUID).
    static let placeholderID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// True when every field a user can see is equal (ignores ``needsFill``).
    public func sameContent(as other: TaskItem) -> Bool {
        var a = self
        var b = other
        a.needsFill = false
        b.needsFill = false
        return a == b
    }

    /// True when the values are equal, whatever the change times and
    /// `modifiedAt`: a reorder, a sync that changed no value or an undo's own
    /// stamps are no change of the values (the editor's "changed on disk" and
    /// undo's "changed since" both ask this).
    public func sameValues(as other: TaskItem) -> Bool {
        var a = self, b = other
        a.changed = [:]
        b.changed = [:]
        a.modifiedAt = b.modifiedAt
        return a.sameContent(as: b)
    }

    /// Sets the state, keeping `completedAt` consistent. Returns false when nothing changed.
    @discardableResult
    public mutating func setState(_ newState: TaskState, at now: Date) -> Bool {
        guard state != newState else { return false }
        state = newState
        completedAt = newState == .done ? now : nil
        return true
    }

    /// Adds a dependency when it is not there yet.
    public mutating func addDependency(_ id: UUID) {
        if !depends.contains(id) { depends.append(id) }
    }

    /// Adds a tag when it is not there yet.
    public mutating func addTag(_ tag: String) {
        if !tags.contains(tag) { tags.append(tag) }
    }
}
