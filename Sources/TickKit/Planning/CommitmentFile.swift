import FoundationEssentials

/// `blocks.json` at the store root: the store's fixed commitments.
public struct CommitmentFile: Sendable, Equatable {
    /// The format version tick writes.
    public static let currentVersion = 1
    /// The file's path relative to the store root.
    public static let relativePath = "blocks.json"

    public var version: Int
    /// Unknown file-level keys, kept verbatim and in order.
    public var extra: [JSONMember]
    /// The commitments, in file order (the order `tick blocks` numbers them).
    public var blocks: [Commitment]

    public init(version: Int = CommitmentFile.currentVersion, extra: [JSONMember] = [], blocks: [Commitment] = []) {
        self.version = version
        self.extra = extra
        self.blocks = blocks
    }

    /// The commitments on `day`, by start time, then end, then file order.
    public func blocks(on day: LocalDate) -> [Commitment] {
        blocks.enumerated().filter { $0.element.occurs(on: day) }.sorted {
            ($0.element.start, $0.element.end, $0.offset) < ($1.element.start, $1.element.end, $1.offset)
        }.map(\.element)
    }
}
