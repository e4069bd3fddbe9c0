import FoundationEssentials

/// `tick block add` and `tick block rm`: blocks.json changed under the store
/// lock, blocks named by number or id prefix, and the placed tasks a new
/// block lands on (for the caller to warn about).
public struct BlockEditing {
    let store: Store
    let session: IndexSession
    let now: Date
    let timeZone: Zone

    public init(store: Store, session: IndexSession, now: Date, timeZone: Zone) {
        self.store = store
        self.session = session
        self.now = now
        self.timeZone = timeZone
    }

    /// Appends `block` to blocks.json; returns its number (its 1-based
    /// position, as `tick blocks` shows it) and the pending tasks placed over it.
    public func add(_ block: Commitment) throws -> (number: Int, overlapping: [TaskItem]) {
        try store.withLock { writer in
            let n = try writer.updateCommitments { file -> Int in
                file.blocks.append(block)
                return file.blocks.count
            }
            return (n, try overlappingTasks(block))
        }
    }

    /// Removes the blocks named in `refs` (each once); returns them as they were.
    /// Nothing is written when a reference names no block.
    public func remove(_ refs: [String]) throws -> [Commitment] {
        try store.withLock { writer in
            try writer.updateCommitments { file -> [Commitment] in
                var targets: [UUID] = []
                for ref in refs {
                    let id = try Self.resolve(ref, in: file)
                    if !targets.contains(id) { targets.append(id) }
                }
                let gone = file.blocks.filter { targets.contains($0.id) }
                file.blocks.removeAll { targets.contains($0.id) }
                return gone
            }
        }
    }

    /// Pending tasks placed over `block` (on any day it occurs, today or later).
    public func overlappingTasks(_ block: Commitment) throws -> [TaskItem] {
        let today = LocalDate(date: now, timeZone: timeZone)
        let tasks = try session.load().index.pendingPlacedTasks(onOrAfter: today).map(\.task)
        return tasks.filter { task in
            guard let slot = task.slot, slot.day >= today, block.occurs(on: slot.day) else { return false }
            return DayPlanner.overlaps(slot.start, slot.end, block.start, block.end)
        }
    }

    /// A block by number (1-based position) or by id prefix (4+ hex digits).
    public static func resolve(_ ref: String, in file: CommitmentFile) throws(BlockLookupError) -> UUID {
        let text = ref.trimmingWhitespace().lowercased()
        if let n = Int(text), text.count < 4 || n <= file.blocks.count {
            guard n >= 1, n <= file.blocks.count else { throw .noNumber(n, count: file.blocks.count) }
            return file.blocks[n - 1].id
        }
        let hex = text.filter { $0 != "-" }
        guard hex.count >= 4, hex.allSatisfy(\.isHexDigit) else { throw .notABlockReference(ref) }
        let matches = file.blocks.filter { $0.id.lowercased.replacingAll("-", with: "").hasPrefix(hex) }
        switch matches.count {
        case 1: return matches[0].id
        case 0: throw .noPrefix(ref)
        default: throw .ambiguous(ref, matches: matches.count)
        }
    }
}

/// A block named on the command line could not be found, or was ambiguous.
public enum BlockLookupError: Error, LocalizedError, Sendable, Equatable {
    /// A number past the end of the list.
    case noNumber(Int, count: Int)
    /// Neither a number nor 4+ hex digits.
    case notABlockReference(String)
    /// No block id starts with these digits.
    case noPrefix(String)
    /// Several block ids start with these digits.
    case ambiguous(String, matches: Int)

    public var errorDescription: String? {
        switch self {
        case let .noNumber(n, count):
            return "no block number \(n); there \(count == 1 ? "is 1 block" : "are \(count) blocks") (see `tick blocks`)"
        case .notABlockReference(let ref):
            return "\"\(TextRules.visible(ref))\" is not a block number or 4+ hex digits of a block id (see `tick blocks`)"
        case .noPrefix(let ref):
            return "no block id starts with \(TextRules.visible(ref)) (see `tick blocks`)"
        case let .ambiguous(ref, matches):
            return "\(TextRules.visible(ref)) matches \(matches) blocks; give more digits (see `tick blocks --json`)"
        }
    }
}

extension BlockLookupError: TickError {
    public var kind: FailureKind {
        switch self {
        case .notABlockReference: return .usage
        case .noNumber, .noPrefix, .ambiguous: return .notFound
        }
    }
}
