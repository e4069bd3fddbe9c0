import FoundationEssentials

/// One tab of `tick ui`: a view of the store.
public enum UIView: Sendable, Hashable {
    /// What needs you today (`tick today`).
    case today
    /// The next days (`tick upcoming`).
    case upcoming
    /// One file in its manual order: the inbox or a list (`tick list NAME`).
    case list(FileKind, name: String)

    /// The inbox tab.
    public static let inbox = UIView.list(.inbox, name: "Inbox")

    /// The tab's label.
    public var title: String {
        switch self {
        case .today: return "Today"
        case .upcoming: return "Upcoming"
        case .list(_, let name): return name
        }
    }

    /// The file this view shows, when it shows one file.
    public var kind: FileKind? {
        if case .list(let kind, _) = self { return kind }
        return nil
    }

    /// True when the rows are in the file's manual order (the order `J`/`K` change).
    public var isManualOrder: Bool { kind != nil }
}
