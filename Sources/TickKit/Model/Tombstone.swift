import FoundationEssentials

/// A record that a task was deleted on purpose, kept in its file's `deleted`
/// array so that a two-way merge (a Syncthing conflict copy, with no common
/// base) does not bring the task back.
public struct Tombstone: Sendable, Equatable, Hashable {
    public var id: UUID
    public var at: Date

    public init(id: UUID, at: Date) {
        self.id = id
        self.at = at
    }
}

extension TaskFile {
    /// How long tombstones are kept: conflict copies older than this are
    /// assumed to have been resolved (see Docs/MERGE.md).
    public static let tombstoneLifetime: TimeInterval = 90 * 86_400

    /// Records that tasks were deleted now, and drops tombstones older than
    /// ``tombstoneLifetime``.
    public mutating func recordDeletion(of ids: [UUID], at now: Date) {
        let cutoff = now.addingTimeInterval(-Self.tombstoneLifetime)
        deleted.removeAll { $0.at < cutoff || ids.contains($0.id) }
        deleted.append(contentsOf: ids.map { Tombstone(id: $0, at: now) })
    }
}
