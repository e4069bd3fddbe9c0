import FoundationEssentials
import Glibc

/// One of the two sides of a merge.
enum MergeSide: Sendable {
    case ours
    case theirs

    /// The side whose timestamp is later, compared in whole seconds (what a
    /// file keeps); nil when they are equal.
    static func later(ours: Date, theirs: Date) -> MergeSide? {
        let o = MergeClock.seconds(ours), t = MergeClock.seconds(theirs)
        if o == t { return nil }
        return o > t ? .ours : .theirs
    }
}

/// Timestamps as files store them: whole seconds.
enum MergeClock {
    static func seconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }

    /// `a` is strictly later than `b`.
    static func isLater(_ a: Date, than b: Date) -> Bool {
        seconds(a) > seconds(b)
    }
}

/// Canonical JSON of single values, to break ties the same way whatever the
/// argument order.
enum MergeCanon {
    /// The canonical bytes of a value; an absent value is empty, so it sorts first.
    static func bytes(_ node: JSONNode?) -> [UInt8] {
        node.map { JSONWriter.write($0) } ?? []
    }

    static func string(_ s: String?) -> JSONNode? { s.map { .string($0) } }
    static func date(_ d: Date?) -> JSONNode? { d.map { .string(Timestamp.format($0)) } }
}

/// Picks field values for one merged record (a task or the list's
/// metadata) by the per-field rule of Docs/MERGE.md, counting conflicts.
struct MergeFieldPicker<Record> {
    /// The record in the base; nil in a two-way merge or when the record is
    /// not in the base.
    let base: Record?
    let ours: Record
    let theirs: Record
    /// The side whose record `modifiedAt` is later; nil on a tie.
    let later: MergeSide?
    /// Fields changed differently on both sides (or, without a base, fields
    /// that differ).
    private(set) var conflicts = 0

    init(base: Record?, ours: Record, theirs: Record, later: MergeSide?) {
        self.base = base
        self.ours = ours
        self.theirs = theirs
        self.later = later
    }

    /// One field: equal sides or a one-sided change are taken as they are;
    /// otherwise the later side wins, and on a tie the value whose canonical
    /// JSON sorts last (so on a tie keeping a value beats removing it).
    mutating func pick<V: Equatable>(_ path: KeyPath<Record, V>, _ node: (V) -> JSONNode?) -> V {
        if let settled = settled(path) { return settled }
        conflicts += 1
        return resolve(ours[keyPath: path], theirs[keyPath: path], node)
    }

    /// The value when both sides agree or only one changed it (against the
    /// base); nil when both changed it differently, or differ with no base.
    func settled<V: Equatable>(_ path: KeyPath<Record, V>) -> V? {
        let o = ours[keyPath: path], t = theirs[keyPath: path]
        if o == t { return o }
        if let base {
            let b = base[keyPath: path]
            if o == b { return t }
            if t == b { return o }
        }
        return nil
    }

    /// A conflict between two different values.
    func resolve<V>(_ o: V, _ t: V, _ node: (V) -> JSONNode?) -> V {
        switch later {
        case .ours: return o
        case .theirs: return t
        case nil: return MergeCanon.bytes(node(o)).lexicographicallyPrecedes(MergeCanon.bytes(node(t))) ? t : o
        }
    }

    /// `modifiedAt`: one-sided changes are taken; otherwise the later one.
    func modifiedAt(_ path: KeyPath<Record, Date>) -> Date {
        if let settled = settled(path) { return settled }
        let o = ours[keyPath: path], t = theirs[keyPath: path]
        return MergeSide.later(ours: o, theirs: t) == .theirs ? t : o
    }

    /// Unknown keys, merged per key like fields; their order is merged like
    /// the task order.
    mutating func extra(_ path: KeyPath<Record, [JSONMember]>) -> [JSONMember] {
        let o = ours[keyPath: path], t = theirs[keyPath: path]
        if o == t { return o }
        let b = base.map { $0[keyPath: path] }
        if let b, o == b { return t }
        if let b, t == b { return o }
        let bv = b.map(TaskItem.members), ov = TaskItem.members(o), tv = TaskItem.members(t)

        var merged: [String: JSONNode] = [:]
        for key in MergeOrder.filtered(o.map(\.key) + t.map(\.key), Set(ov.keys).union(tv.keys)) {
            let ovalue = ov[key], tvalue = tv[key]
            var value: JSONNode?
            if ovalue == tvalue {
                value = ovalue
            } else if let bv, ovalue == bv[key] {
                value = tvalue
            } else if let bv, tvalue == bv[key] {
                value = ovalue
            } else {
                conflicts += 1
                value = resolve(ovalue, tvalue) { $0 }
            }
            if let value { merged[key] = value }
        }
        let later = self.later
        let order = MergeOrder.merge(
            base: b?.map(\.key), ours: o.map(\.key), theirs: t.map(\.key), keep: Set(merged.keys),
            rules: MergeOrderRules(
                unchangedInOurs: { bv?[$0] == ov[$0] },
                unchangedInTheirs: { bv?[$0] == tv[$0] },
                sameOnBothSides: { ov[$0] == tv[$0] },
                oursWins: { _ in later != .theirs },
                oursRunFirst: { $0 < $1 }))
        return order.compactMap { key in merged[key].map { JSONMember(key, $0) } }
    }
}

/// The field rules for the list's own metadata.
enum MergeFileFields {
    /// Merges everything of the file but its tasks and tombstones (which are
    /// left empty), adding the number of conflicting fields to `conflicts`.
    static func merge(base: TaskFile?, ours: TaskFile, theirs: TaskFile, conflicts: inout Int) -> TaskFile {
        var p = MergeFieldPicker(base: base, ours: ours, theirs: theirs,
                                 later: MergeSide.later(ours: ours.modifiedAt, theirs: theirs.modifiedAt))
        let kind = p.pick(\.kind) { .string($0.relativePath) }
        let file = TaskFile(
            kind: kind,
            version: p.pick(\.version) { JSONNode(.number(String($0))) },
            id: p.pick(\.id) { .string($0.lowercased) },
            name: p.pick(\.name) { MergeCanon.string($0) },
            color: p.pick(\.color) { MergeCanon.string($0) },
            createdAt: p.pick(\.createdAt) { MergeCanon.date($0) },
            modifiedAt: p.modifiedAt(\.modifiedAt),
            extra: p.extra(\.extra),
            tasks: [],
            deleted: [],
            needsFill: ours.needsFill || theirs.needsFill)
        conflicts += p.conflicts
        return file
    }
}
