import FoundationEssentials

/// Merges versions of `blocks.json` block by block (by id) and field by field,
/// with the same rules as tasks (Docs/MERGE.md): a one-sided change is taken;
/// a field changed on both sides goes to the block modified later.
///
/// Three-way (with a base): a block deleted on one side and unchanged on the
/// other is deleted; deleted on one side and changed on the other, it is kept.
/// Two-way (no base, e.g. a Syncthing conflict copy): blocks of either side
/// are kept (blocks.json has no deletion records).
public enum CommitmentMerge {
    /// What a merge did, in counts.
    public struct Report: Sendable, Equatable {
        public var added = 0
        public var updated = 0
        public var deleted = 0
        public var conflictsResolved = 0
        public init() {}
    }

    /// The merged file; the order is ours, then blocks only theirs has, in their order.
    public static func merge(base: CommitmentFile?, ours: CommitmentFile, theirs: CommitmentFile) -> (file: CommitmentFile, report: Report) {
        var report = Report()
        let baseByID = Dictionary(base?.blocks.map { ($0.id, $0) } ?? [], uniquingKeysWith: { a, _ in a })
        let theirsByID = Dictionary(theirs.blocks.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let oursIDs = Set(ours.blocks.map(\.id))
        var out: [Commitment] = []
        for o in ours.blocks {
            let b = baseByID[o.id]
            if let t = theirsByID[o.id] {
                let merged = mergeBlock(base: b, ours: o, theirs: t, conflicts: &report.conflictsResolved)
                if merged != o { report.updated += 1 }
                out.append(merged)
            } else if let b, base != nil, o == b {
                report.deleted += 1      // they deleted it; we did not touch it
            } else {
                out.append(o)            // ours added it, or changed it while they deleted it
            }
        }
        for t in theirs.blocks where !oursIDs.contains(t.id) {
            if let b = baseByID[t.id], t == b { continue }   // we deleted it; they did not touch it
            out.append(t)
            report.added += 1
        }
        var p = MergeFieldPicker(base: base, ours: ours, theirs: theirs, later: nil)
        let file = CommitmentFile(
            version: max(ours.version, theirs.version),
            extra: p.extra(\.extra),
            blocks: out)
        report.conflictsResolved += p.conflicts
        return (file, report)
    }

    static func mergeBlock(base: Commitment?, ours: Commitment, theirs: Commitment, conflicts: inout Int) -> Commitment {
        if ours == theirs { return ours }
        var p = MergeFieldPicker(base: base, ours: ours, theirs: theirs,
                                 later: MergeSide.later(ours: ours.modifiedAt, theirs: theirs.modifiedAt))
        var r = ours
        r.title = p.pick(\.title) { .string($0) }
        r.recurrence = p.pick(\.recurrence) { recurrence in
            switch recurrence {
            case .once(let d): return .string(d.iso)
            case .weekly(let days): return .array(days.map { .string(Commitment.weekdayNames[$0 - 1]) })
            }
        }
        r.start = p.pick(\.start) { .string($0.description) }
        r.end = p.pick(\.end) { .string($0.description) }
        r.createdAt = p.pick(\.createdAt) { MergeCanon.date($0) }
        r.modifiedAt = p.modifiedAt(\.modifiedAt)
        r.extra = p.extra(\.extra)
        // A merge of start and end from different sides could invert them: keep the later side's pair.
        if r.end <= r.start {
            let winner = MergeSide.later(ours: ours.modifiedAt, theirs: theirs.modifiedAt) == .theirs ? theirs : ours
            r.start = winner.start
            r.end = winner.end
        }
        conflicts += p.conflicts
        return r
    }
}
