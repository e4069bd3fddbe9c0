import FoundationEssentials

/// Finds tasks seen more than once in a stream of rows (a task in two files
/// until the next write joins it) without hashing every id through `Hasher`:
/// an open-addressing table of the ids' 64-bit folds, confirmed on the
/// whole id. A few bytes a row; most streams never find a copy.
struct CopyDetector {
    private var slots: [Int32]
    private var folds: [UInt64] = []
    private var ids: [UUID] = []
    private var mask: Int

    /// `expected`: about how many rows will come (the table is sized for them once).
    init(expected: Int = 512) {
        var count = 1024
        while count < expected * 2 { count *= 2 }
        slots = [Int32](repeating: -1, count: count)
        mask = count - 1
        folds.reserveCapacity(expected)
        ids.reserveCapacity(expected)
    }

    /// Records the next row (rows are numbered 0, 1, 2… in the order added)
    /// with task `id`; returns the first row that had the same id, if any.
    mutating func add(_ id: UUID) -> Int32? {
        let fold = Self.fold(id)
        if (folds.count + 1) * 2 > slots.count { grow() }
        var i = Int(truncatingIfNeeded: (fold &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
        while slots[i] >= 0 {
            let other = Int(slots[i])
            if folds[other] == fold, ids[other] == id {
                folds.append(fold)
                ids.append(id)
                return Int32(other)
            }
            i = (i + 1) & mask
        }
        slots[i] = Int32(folds.count)
        folds.append(fold)
        ids.append(id)
        return nil
    }

    private static func fold(_ id: UUID) -> UInt64 {
        let u = id.uuid
        let a = UInt64(u.0) | UInt64(u.1) << 8 | UInt64(u.2) << 16 | UInt64(u.3) << 24 | UInt64(u.4) << 32 | UInt64(u.5) << 40 | UInt64(u.6) << 48 | UInt64(u.7) << 56
        let b = UInt64(u.8) | UInt64(u.9) << 8 | UInt64(u.10) << 16 | UInt64(u.11) << 24 | UInt64(u.12) << 32 | UInt64(u.13) << 40 | UInt64(u.14) << 48 | UInt64(u.15) << 56
        return a ^ (b &* 0xFF51_AFD7_ED55_8CCD)
    }

    private mutating func grow() {
        let count = slots.count * 2
        slots = [Int32](repeating: -1, count: count)
        mask = count - 1
        for (row, fold) in folds.enumerated() {
            var i = Int(truncatingIfNeeded: (fold &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
            // A later copy of an id never takes a slot (add returned the first).
            var duplicate = false
            while slots[i] >= 0 {
                let other = Int(slots[i])
                if folds[other] == fold, ids[other] == ids[row] { duplicate = true; break }
                i = (i + 1) & mask
            }
            if !duplicate { slots[i] = Int32(row) }
        }
    }
}
