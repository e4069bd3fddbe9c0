import FoundationEssentials

/// What the order merge needs to know about the elements of a sequence
/// (tasks, unknown keys, tombstones), beyond their ids.
///
/// "ours" and "theirs" here are the two sides after ``MergeEngine`` has put
/// them in canonical order, so every tie can safely go to "ours".
struct MergeOrderRules<ID: Hashable> {
    /// The element's content on our side equals its content in the base.
    var unchangedInOurs: (ID) -> Bool
    /// The element's content on their side equals its content in the base.
    var unchangedInTheirs: (ID) -> Bool
    /// Both sides have the same content for the element (used when it has no
    /// base and ``laterPlacement`` is nil).
    var sameOnBothSides: (ID) -> Bool
    /// Whose position wins when both sides moved the element, or both added it
    /// (or, without a base, neither placed it later but the sides disagree):
    /// true for ours (tasks: the later placement, then the later `order`
    /// change time or `modifiedAt`).
    var oursWins: (ID) -> Bool
    /// When both sides put new or moved elements right after the same anchor:
    /// true when our run (starting with the first id) goes before theirs
    /// (starting with the second id).
    var oursRunFirst: (_ oursFirst: ID, _ theirsFirst: ID) -> Bool
    /// Without a base: the side that placed an element both sides have later
    /// (tasks: the later `order` or `list` change time), nil when neither did.
    /// That side counts as having moved it, as a move since the base does in
    /// a three-way merge. Nil for sequences without placement times: their
    /// skeleton then prefers elements that are the same on both sides.
    var laterPlacement: ((ID) -> MergeSide?)? = nil
}

/// Merges a manual order (a sequence of unique ids) as a sequence, not by
/// position. See Docs/MERGE.md, "Manual order".
///
/// 1. Every sequence is filtered to the elements that are in the result
///    (`keep`), keeping the first occurrence of a duplicated id.
/// 2. With a base, each side's *stable* elements are a heaviest common
///    subsequence of the base and that side (elements whose content did not
///    change weigh more, so a task a reorder stamped is the one seen as
///    moved). The other elements the side shares with the base are *moved*.
///    Without a base, an element both sides have was moved by the side that
///    placed it later (``MergeOrderRules/laterPlacement``), if any.
/// 3. The *skeleton* is a heaviest common subsequence of the two sides; an
///    element weighs more when neither side moved it (or, without a base and
///    without placement times, when it is identical on both sides). All sides
///    agree on the skeleton's order.
/// 4. Every other element is *placed by* one side: the side that has it, the
///    side that moved it, or, when both moved (or both added) it, the side
///    given by ``MergeOrderRules/oursWins``.
/// 5. Reading a side's sequence with only the skeleton and the elements that
///    side places, each placed element follows its nearest such predecessor;
///    so the elements form runs after each skeleton element (or at the
///    head). The result is the skeleton with, after each of its elements, our
///    run and their run (in the order given by
///    ``MergeOrderRules/oursRunFirst``).
///
/// Each kept element is emitted exactly once: the skeleton once, every other
/// element in the one run of the one side that places it. Anchors only point
/// backwards within one side's sequence, so there are no cycles to break.
enum MergeOrder {
    static func merge<ID: Hashable>(
        base: [ID]?, ours: [ID], theirs: [ID], keep: Set<ID>, rules: MergeOrderRules<ID>
    ) -> [ID] {
        let a = filtered(ours, keep)
        let b = filtered(theirs, keep)
        let baseSeq = base.map { filtered($0, keep) }
        if a == b { return a }

        let inA = Set(a), inB = Set(b)
        let inBase = Set(baseSeq ?? [])
        var movedA = Set<ID>(), movedB = Set<ID>()
        // Whether movedA and movedB say which side moved an element both sides have.
        let tracksMoves: (ID) -> Bool
        if let baseSeq {
            let stableA = Set(heaviestCommonSubsequence(ref: baseSeq, seq: a) { rules.unchangedInOurs($0) })
            let stableB = Set(heaviestCommonSubsequence(ref: baseSeq, seq: b) { rules.unchangedInTheirs($0) })
            movedA = Set(a.filter { inBase.contains($0) && !stableA.contains($0) })
            movedB = Set(b.filter { inBase.contains($0) && !stableB.contains($0) })
            tracksMoves = { inBase.contains($0) }
        } else if let later = rules.laterPlacement {
            // No base: the side that placed the element later moved it.
            for x in a where inB.contains(x) {
                switch later(x) {
                case .ours: movedA.insert(x)
                case .theirs: movedB.insert(x)
                case nil: break
                }
            }
            tracksMoves = { _ in true }
        } else {
            tracksMoves = { _ in false }
        }
        let skeleton = heaviestCommonSubsequence(ref: a, seq: b) { x in
            tracksMoves(x) ? !movedA.contains(x) && !movedB.contains(x) : rules.sameOnBothSides(x)
        }
        var slotOf: [ID: Int] = [:]
        for (i, x) in skeleton.enumerated() { slotOf[x] = i + 1 }

        // Which side places each element that is not in the skeleton.
        var placedByA = Set<ID>()
        for x in a where slotOf[x] == nil {
            if !inB.contains(x) {
                placedByA.insert(x)
            } else if tracksMoves(x), movedA.contains(x) != movedB.contains(x) {
                if movedA.contains(x) { placedByA.insert(x) }
            } else if rules.oursWins(x) {
                placedByA.insert(x)
            }
        }
        let runsA = runs(a, slots: skeleton.count, slotOf: slotOf) { placedByA.contains($0) }
        let runsB = runs(b, slots: skeleton.count, slotOf: slotOf) { !inA.contains($0) || !placedByA.contains($0) }

        var out: [ID] = []
        out.reserveCapacity(keep.count)
        for slot in 0...skeleton.count {
            if slot > 0 { out.append(skeleton[slot - 1]) }
            let ra = runsA[slot], rb = runsB[slot]
            if let fa = ra.first, let fb = rb.first, !rules.oursRunFirst(fa, fb) {
                out.append(contentsOf: rb)
                out.append(contentsOf: ra)
            } else {
                out.append(contentsOf: ra)
                out.append(contentsOf: rb)
            }
        }
        return out
    }

    /// The elements of `seq` that are in `keep`, each once (first occurrence).
    static func filtered<ID: Hashable>(_ seq: [ID], _ keep: Set<ID>) -> [ID] {
        var seen = Set<ID>()
        seen.reserveCapacity(seq.count)
        return seq.filter { keep.contains($0) && seen.insert($0).inserted }
    }

    /// Splits `seq` into the runs of placed elements that follow each
    /// skeleton element (slot 0 is the head).
    private static func runs<ID: Hashable>(
        _ seq: [ID], slots: Int, slotOf: [ID: Int], placed: (ID) -> Bool
    ) -> [[ID]] {
        var out = Array(repeating: [ID](), count: slots + 1)
        var slot = 0
        for x in seq {
            if let s = slotOf[x] {
                slot = s
            } else if placed(x) {
                out[slot].append(x)
            }
        }
        return out
    }

    /// A heaviest subsequence of `seq` whose elements appear in `ref` in the
    /// same relative order (elements of `seq` missing from `ref` are skipped).
    /// Heavy elements (`isHeavy`) outweigh all light ones together. Both
    /// sequences must be free of duplicates. Deterministic; O(n log n).
    static func heaviestCommonSubsequence<ID: Hashable>(ref: [ID], seq: [ID], isHeavy: (ID) -> Bool) -> [ID] {
        var position: [ID: Int] = [:]
        position.reserveCapacity(ref.count)
        for (i, x) in ref.enumerated() { position[x] = i + 1 }
        var items: [(id: ID, pos: Int)] = []
        items.reserveCapacity(seq.count)
        for x in seq {
            if let p = position[x] { items.append((x, p)) }
        }
        if items.count == ref.count, zip(items, ref).allSatisfy({ $0.id == $1 }) { return ref }
        if items.isEmpty { return [] }

        let heavy = items.count + 1
        // Fenwick tree over ref positions: best (weight, item index) among prefixes.
        var tree = Array(repeating: (weight: 0, item: -1), count: ref.count + 1)
        var previous = Array(repeating: -1, count: items.count)
        var bestItem = -1
        var bestWeight = 0
        for (i, item) in items.enumerated() {
            var q = item.pos - 1
            var found = (weight: 0, item: -1)
            while q > 0 {
                if tree[q].weight > found.weight { found = tree[q] }
                q -= q & -q
            }
            let w = found.weight + (isHeavy(item.id) ? heavy : 1)
            previous[i] = found.item
            if w > bestWeight {
                bestWeight = w
                bestItem = i
            }
            var u = item.pos
            while u < tree.count {
                if w > tree[u].weight { tree[u] = (w, i) }
                u += u & -u
            }
        }
        var chain: [ID] = []
        var i = bestItem
        while i >= 0 {
            chain.append(items[i].id)
            i = previous[i]
        }
        return chain.reversed()
    }
}
