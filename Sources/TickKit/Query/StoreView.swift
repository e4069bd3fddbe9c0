/// What a command reads the store through once the index is current: the
/// index, every list (and the inbox, when it exists) in display order, and
/// the files that cannot be read, with resolvers for task ids and list names.
public struct StoreView {
    public let index: TaskIndex
    /// Every list file and the inbox (when it exists), in display order.
    public let listInfos: [ListInfo]
    public let broken: [FileKind: FormatError]

    public init(index: TaskIndex, listInfos: [ListInfo], broken: [FileKind: FormatError]) {
        self.index = index
        self.listInfos = listInfos
        self.broken = broken
    }

    /// Resolves short ids, UUID prefixes and filters to tasks.
    public var tasks: TaskResolver { TaskResolver(catalog: index) }
    /// The slugs of the list files.
    public var existingSlugs: Set<String> { Set(listInfos.compactMap(\.kind.slug)) }
    /// Resolves list names (and `inbox`) to files.
    public var lists: ListResolver {
        ListResolver(lists: listInfos, existingSlugs: existingSlugs, problems: broken.sorted { $0.key < $1.key }.map(\.value))
    }

    /// The display name of a list ("Inbox" for the inbox).
    public func name(of kind: FileKind) -> String {
        listInfos.first { $0.kind == kind }?.name ?? (kind == .inbox ? "Inbox" : kind.slug ?? "")
    }
}
