import FoundationEssentials

/// A view's answer without the view's tasks held in memory: each task the
/// view admits is handed to a `render` closure as it is stepped from SQLite,
/// and only what it returned (the printed bytes, say) is kept, with a small
/// key that puts it in the view's order. Built by
/// ``TaskIndex/stream(_:filter:matching:query:render:)``.
///
/// The order is ``TaskQuery/select(_:filter:from:)``'s, exactly: list views
/// in display order (the inbox, lists by name, manual order; blocked tasks
/// after the others of their list); date views by each task's moment, ties
/// in display order, blocked tasks last. A task in two files (an interrupted
/// move) appears once, as ``ListedTask/oneCopyEach(_:)`` keeps it.
public struct StreamedView<Payload>: RandomAccessCollection {
    /// Every list in display order (``ListedTask/kind``'s group index is its
    /// place here); tasks in a file the index does not list come after, under
    /// ``unlistedGroup``.
    public let lists: [ListInfo]
    /// Ordering keys of the rows kept, in the view's order.
    let keys: [StreamKey]
    /// What `render` returned, in the order the rows were read.
    let payloads: [Payload]

    /// One row of the answer: its list's index in ``lists`` and what `render` returned.
    public struct Row {
        public var group: Int
        public var payload: Payload
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { keys.count }
    public subscript(i: Int) -> Row {
        let key = keys[i]
        return Row(group: Int(key.group), payload: payloads[Int(key.payload)])
    }

    /// Rows per group, for headings such as `Work (3)`.
    public func counts() -> [Int] {
        var counts = [Int](repeating: 0, count: lists.count + 1)
        for key in keys { counts[Int(key.group)] += 1 }
        return counts
    }

    /// Each row's payload index (the how-many-th task `render` was handed), in the view's order.
    var payloadIndexes: [Int] { keys.map { Int($0.payload) } }

    /// The rows in `order` (indexes into this view's rows).
    func reordered(_ order: [Int]) -> StreamedView {
        StreamedView(lists: lists, keys: order.map { keys[$0] }, payloads: payloads)
    }

    /// The first `count` rows (the payloads of the others stay, unread).
    func limited(to count: Int) -> StreamedView {
        keys.count <= count ? self : StreamedView(lists: lists, keys: Array(keys.prefix(count)), payloads: payloads)
    }

    /// The group of a task whose file is not among ``lists``.
    public var unlistedGroup: Int { lists.count }
}

/// What ordering a streamed row needs; a few words per admitted task.
struct StreamKey {
    var group: Int32
    var position: Int32
    var blocked: Bool
    var moment: Double
    /// The row's place among the candidates read (ties keep it).
    var arrival: Int32
    /// Index of the row's payload.
    var payload: Int32
}

extension StreamKey {
    /// ``TaskQuery/select(_:filter:from:)``'s order for list views: display
    /// order, blocked tasks after the others of their list.
    static func listOrder(_ a: StreamKey, _ b: StreamKey) -> Bool {
        if a.group != b.group { return a.group < b.group }
        if a.blocked != b.blocked { return !a.blocked }
        if a.position != b.position { return a.position < b.position }
        return a.arrival < b.arrival
    }

    /// The order of date views: blocked tasks last, then by moment, ties in display order.
    static func dateOrder(_ a: StreamKey, _ b: StreamKey) -> Bool {
        if a.blocked != b.blocked { return !a.blocked }
        if a.moment != b.moment { return a.moment < b.moment }
        if a.group != b.group { return a.group < b.group }
        if a.position != b.position { return a.position < b.position }
        return a.arrival < b.arrival
    }
}
