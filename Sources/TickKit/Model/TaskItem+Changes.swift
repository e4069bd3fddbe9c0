import FoundationEssentials

/// The per-field change times of a task (the `changed` object of a task in a
/// file, Docs/FORMAT.md): what lets two versions of a task merge field by
/// field without a common base (Docs/MERGE.md).
///
/// Keys:
/// - a field: `title`, `state` (with `completedAt`), `due`, `scheduled`,
///   `remind`, `wait`, `repeat`, `priority`, `energy`, `estimate`, `slot`, `notes`;
/// - `list`: the task's list (set by a move);
/// - `order`: its place in the manual order (set by a reorder; not an edit);
/// - `+TAG`: the tag was added, or removed, at that time;
/// - `depends:UUID`: the dependency was added, or removed, at that time;
/// - an unknown key of the task, by its name.
///
/// A key that is absent counts as changed at the task's `createdAt`; in a task
/// with no `changed` object at all (files written before it existed, or by
/// hand) every field counts as changed at the task's `modifiedAt`.
public enum TaskChange {
    /// The fields with a change time, in the order the `changed` object lists them.
    public static let fieldKeys = [
        "title", "state", "due", "scheduled", "remind", "wait", "repeat", "priority", "energy",
        "estimate", "slot", "notes", "list", "order",
    ]
    static let fieldRank: [String: Int] = Dictionary(uniqueKeysWithValues: fieldKeys.enumerated().map { ($1, $0) })

    /// The key of a tag's entry.
    public static func tagKey(_ tag: String) -> String { "+" + tag }

    /// The prefix of a dependency's entry.
    public static let dependencyPrefix = "depends:"

    /// The key of a dependency's entry: `depends:` and the lowercase UUID.
    public static func dependencyKey(_ id: UUID) -> String { dependencyPrefix + id.lowercased }

    /// Keys sorted as files write them: the fields in ``fieldKeys`` order, then
    /// tags, then dependencies, then unknown keys, each by name.
    public static func sortedKeys<S: Sequence>(_ keys: S) -> [String] where S.Element == String {
        keys.sorted { a, b in
            let ra = rank(a), rb = rank(b)
            if ra != rb { return ra < rb }
            return Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
        }
    }

    /// The change time for a change made at `now` to a key last changed at
    /// `previous`: `now`, or one second after `previous` when `now` is not
    /// later in the whole seconds files keep. Two changes of one key in the
    /// same second (or under a pinned `TICK_NOW`) would otherwise tie, and a
    /// tie cannot tell a later change from a stale copy of an earlier one (a
    /// hybrid logical clock; Docs/FORMAT.md §4.1, Docs/MERGE.md §15).
    public static func stamp(now: Date, after previous: Date) -> Date {
        let last = MergeClock.seconds(previous)
        guard MergeClock.seconds(now) <= last else { return now }
        return Date(timeIntervalSince1970: TimeInterval(last + 1))
    }

    private static func rank(_ key: String) -> Int {
        if let r = fieldRank[key] { return r }
        if key.hasPrefix("+") { return fieldKeys.count }
        return key.hasPrefix(dependencyPrefix) ? fieldKeys.count + 1 : fieldKeys.count + 2
    }
}

extension TaskItem {
    /// The time a key counts as changed at when it has no entry.
    public var defaultChangeTime: Date {
        changed.isEmpty ? modifiedAt : createdAt
    }

    /// When `key` (see ``TaskChange``) last changed.
    public func changeTime(_ key: String) -> Date {
        changed[key] ?? defaultChangeTime
    }

    /// True when `key` has its own entry (it was changed since creation by a
    /// tick that records change times).
    public func hasChangeEntry(_ key: String) -> Bool { changed[key] != nil }

    /// When the task was last placed in its list (created there or moved).
    public var listTime: Date { changeTime("list") }

    /// When its manual position was last changed (a reorder), else its last
    /// edit: the order merge's tie-break when ``placedAt`` ties.
    public var orderTime: Date { max(changed["order"] ?? modifiedAt, modifiedAt) }

    /// When the task was last placed where it is in its list: the later of its
    /// last reorder (`order`) and its move into the list (`list`), else its
    /// creation (in a task without change times, its `modifiedAt`). An edit
    /// does not place a task, so a later title edit on one machine does not
    /// undo a reorder on another (Docs/MERGE.md §7).
    public var placedAt: Date { max(changeTime("order"), changeTime("list")) }

    /// Records that `key` changed at `now` (or just after its previous change:
    /// see ``TaskChange/stamp(now:after:)``).
    public mutating func stamp(_ key: String, at now: Date) {
        changed[key] = TaskChange.stamp(now: now, after: changeTime(key))
    }

    /// Stamps every key whose value differs from `old` (the same task as it
    /// was read) at `now`, and moves `modifiedAt` to `now` when any field
    /// did. A task whose stamps the caller already moved past `now` keeps them.
    /// Reordering is not a change of the task: the position is not compared.
    ///
    /// - Returns: the keys stamped.
    @discardableResult
    public mutating func stampChanges(since old: TaskItem, at now: Date) -> [String] {
        let keys = changedKeys(comparedTo: old)
        guard !keys.isEmpty else { return [] }
        for key in keys {
            let at = TaskChange.stamp(now: now, after: old.changeTime(key))
            if (changed[key] ?? .distantPast) < at { changed[key] = at }
            if modifiedAt < at { modifiedAt = at }
        }
        return keys
    }

    /// The change keys whose values differ between this task and `other`
    /// (`list` and `order` are not values of a task, so never included),
    /// from ``TaskField/all``.
    public func changedKeys(comparedTo other: TaskItem) -> [String] {
        var keys: [String] = []
        for field in TaskField.all {
            for key in field.changeKeys(self, other) where !keys.contains(key) { keys.append(key) }
        }
        return keys
    }

    /// Unknown keys by name (first occurrence wins).
    static func members(_ list: [JSONMember]) -> [String: JSONNode] {
        var out: [String: JSONNode] = [:]
        for m in list where out[m.key] == nil { out[m.key] = m.value }
        return out
    }

    /// Equal in every field a user can see, ignoring the manual-order stamp
    /// (a reorder is not an edit; it never revives a deleted task).
    public func sameIgnoringOrder(as other: TaskItem) -> Bool {
        var a = self, b = other
        a.changed["order"] = nil
        b.changed["order"] = nil
        return a.sameContent(as: b)
    }
}
