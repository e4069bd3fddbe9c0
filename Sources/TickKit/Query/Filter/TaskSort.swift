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

    /// Sorts `items` (stable), with `query` for local days and `listRank` for list order.
    public func sorted(_ items: [ListedTask], query: TaskQuery, listRank: [FileKind: Int]) -> [ListedTask] {
        let tz = query.timeZone
        func value(_ key: Key, _ item: ListedTask) -> (any Comparable)? {
            let t = item.task
            switch key {
            case .due:
                switch t.due {
                case .day(let d)?: return d.startOfDay(in: tz).timeIntervalSinceReferenceDate + 86_399
                case .time(let x)?: return x.timeIntervalSinceReferenceDate
                case nil: return nil
                }
            case .sched: return t.scheduled?.daysSinceEpoch
            case .remind: return t.remind?.timeIntervalSinceReferenceDate
            case .created: return t.createdAt.timeIntervalSinceReferenceDate
            case .modified: return t.modifiedAt.timeIntervalSinceReferenceDate
            case .completed: return t.completedAt?.timeIntervalSinceReferenceDate
            case .pri: return t.priority.map { $0 == .must ? 0 : 1 }
            case .energy: return t.energy.map { $0 == .high ? 0 : $0 == .low ? 1 : 2 }
            case .estimate: return t.estimate
            case .title: return t.title.lowercased()
            case .list: return listRank[item.kind] ?? Int.max
            case .id: return item.shortID
            }
        }
        func compare(_ a: any Comparable, _ b: any Comparable) -> Int {
            func typed<T: Comparable>(_ x: T) -> Int {
                guard let y = b as? T else { return 0 }
                return x < y ? -1 : (y < x ? 1 : 0)
            }
            return typed(a)
        }
        let rows = items.map { item in keys.map { value($0.key, item) } }
        let order = items.indices.sorted { i, j in
            for (k, key) in keys.enumerated() {
                switch (rows[i][k], rows[j][k]) {
                case (nil, nil): continue
                case (nil, _): return false
                case (_, nil): return true
                case let (a?, b?):
                    let c = compare(a, b)
                    if c != 0 { return key.descending ? c > 0 : c < 0 }
                }
            }
            return i < j
        }
        return order.map { items[$0] }
    }
}
