import FoundationEssentials
import Glibc

/// `--sort KEY[-],…`: the order of a listing by fields, each ascending, or
/// descending with a trailing `-`. Tasks without the field come last either
/// way; ties keep the listing's own order.
public struct TaskSort: Sendable, Equatable {
    public enum Key: String, Sendable, CaseIterable {
        case due, sched, remind, created, modified, completed, pri, energy, estimate, title, list, id
    }

    public var keys: [(key: Key, descending: Bool)]

    public static func == (a: TaskSort, b: TaskSort) -> Bool {
        a.keys.map(\.key) == b.keys.map(\.key) && a.keys.map(\.descending) == b.keys.map(\.descending)
    }

    /// Parses `due,pri-`; `+` after a key means ascending, as in Taskwarrior.
    public init(_ text: String) throws(InputError) {
        var keys: [(key: Key, descending: Bool)] = []
        for raw in text.split(separator: ",", omittingEmptySubsequences: false) {
            var word = raw.trimmingWhitespace().lowercased()
            var descending = false
            if word.hasSuffix("-") { descending = true; word.removeLast() } else if word.hasSuffix("+") { word.removeLast() }
            guard let key = Key(rawValue: FieldNames.canonical(word)) else {
                let names = Key.allCases.map(\.rawValue)
                let guess = Spelling.closest(to: word, among: names).map { " (did you mean \($0)?)" } ?? ""
                throw .invalid("--sort: \"\(raw)\" is not a sort key\(guess); give one or more of \(names.joined(separator: ", ")), comma-separated, each with - for descending")
            }
            keys.append((key, descending))
        }
        self.keys = keys
    }

    /// One task's value for one key: a number (instants, days, ranks) or
    /// text (titles, lowercased).
    public enum Value: Comparable, Sendable {
        case number(Double)
        case text(String)
    }

    /// A task's values for ``keys``, in order; nil where it lacks the field.
    /// `listRank` gives a list's place in display order (nil: after all).
    public func values(_ item: ListedTask, query: TaskQuery, listRank: (FileKind) -> Int?) -> [Value?] {
        let t = item.task
        return keys.map { entry -> Value? in
            switch entry.key {
            case .due:
                switch t.due {
                case .day(let d)?: return .number(d.startOfDay(in: query.timeZone).timeIntervalSinceReferenceDate + 86_399)
                case .time(let x)?: return .number(x.timeIntervalSinceReferenceDate)
                case nil: return nil
                }
            case .sched: return t.scheduled.map { .number(Double($0.daysSinceEpoch)) }
            case .remind: return t.remind.map { .number($0.timeIntervalSinceReferenceDate) }
            case .created: return .number(t.createdAt.timeIntervalSinceReferenceDate)
            case .modified: return .number(t.modifiedAt.timeIntervalSinceReferenceDate)
            case .completed: return t.completedAt.map { .number($0.timeIntervalSinceReferenceDate) }
            case .pri: return t.priority.map { .number($0 == .must ? 0 : 1) }
            case .energy: return t.energy.map { .number($0 == .high ? 0 : $0 == .low ? 1 : 2) }
            case .estimate: return t.estimate.map { .number(Double($0)) }
            case .title: return .text(t.title.lowercased())
            case .list: return .number(Double(listRank(item.kind) ?? Int.max))
            case .id: return item.shortID.map { .number(Double($0)) }
            }
        }
    }

    /// The order of rows given as their values (``values(_:query:listRank:)``,
    /// in the listing's order): the indexes of `rows`, sorted key by key, each
    /// ascending or descending, a missing value last either way; ties keep
    /// the listing's order (a stable sort).
    public func order(_ rows: [[Value?]]) -> [Int] {
        rows.indices.sorted { i, j in
            for (k, entry) in keys.enumerated() {
                switch (rows[i][k], rows[j][k]) {
                case (nil, nil): continue
                case (nil, _): return false
                case (_, nil): return true
                case let (x?, y?):
                    if x == y { continue }
                    return entry.descending ? y < x : x < y
                }
            }
            return i < j
        }
    }

    /// Sorts `items` (stable), with `query` for local days and `listRank` for list order.
    public func sorted(_ items: [ListedTask], query: TaskQuery, listRank: [FileKind: Int]) -> [ListedTask] {
        order(items.map { values($0, query: query, listRank: { listRank[$0] }) }).map { items[$0] }
    }
}
