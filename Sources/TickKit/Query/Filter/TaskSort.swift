import FoundationEssentials
import Glibc

/// `--sort KEY[-],…`: the order of a listing by fields, each ascending, or
/// descending with a trailing `-`. Tasks without the field come last either
/// way; ties keep the listing's own order.
public struct TaskSort: Sendable, Equatable {
    /// A sort key: one of tick's fields, or a field declared in config.toml.
    public enum Key: Sendable, Equatable {
        /// The list, in display order; the short id.
        case list, id
        /// A field of the table (``TaskField/all``) by its name there, sorted
        /// by its shown value (``FieldValue``): dates and times in time, a
        /// word in its set's order, minutes by number, text ignoring case.
        case table(String)
        /// A declared field (Docs/FIELDS.md "Sorting"): a date, number or
        /// duration by value, a string by its text ignoring case, one of a set
        /// of values in the declared order; a value of another type than
        /// declared sorts with the tasks that have none, last.
        case field(UserField)

        /// tick's own keys by name: every field the table makes a report
        /// column (``TaskField/column``) whose value has an order (not tags), then the list and the short id.
        public static let builtIn: [(name: String, key: Key)] =
            TaskField.all.filter { $0.kind != .list }.compactMap { f in f.column.map { ($0, .table(f.name)) } } + [("list", .list), ("id", .id)]
    }

    public var keys: [(key: Key, descending: Bool)]

    public static func == (a: TaskSort, b: TaskSort) -> Bool {
        a.keys.map(\.key) == b.keys.map(\.key) && a.keys.map(\.descending) == b.keys.map(\.descending)
    }

    /// Parses `due,pri-`; `+` after a key means ascending, as in Taskwarrior.
    /// A declared field's name (`fields`) is a key too.
    public init(_ text: String, fields: UserFields = UserFields()) throws(InputError) {
        var keys: [(key: Key, descending: Bool)] = []
        for raw in text.split(separator: ",", omittingEmptySubsequences: false) {
            var word = raw.trimmingWhitespace().lowercased()
            var descending = false
            if word.hasSuffix("-") { descending = true; word.removeLast() } else if word.hasSuffix("+") { word.removeLast() }
            let key: Key
            if let field = fields[word], field.name == word {
                key = .field(field)
            } else if let row = Key.builtIn.first(where: { $0.name == FieldNames.canonical(word) }) {
                key = row.key
            } else {
                let names = Key.builtIn.map(\.name) + fields.names
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
            case .table(let name): return TaskField.named(name)?.shown(t).flatMap { Self.value(of: $0, timeZone: query.timeZone) }
            case .list: return .number(Double(listRank(item.kind) ?? Int.max))
            case .id: return item.shortID.map { .number(Double($0)) }
            case .field(let field): return Self.value(of: field, in: t, timeZone: query.timeZone)
            }
        }
    }

    /// A field's sort value: an instant by its time, a day or a date that is a
    /// day at the day's end (after the times on it, as a declared date), a
    /// slot by its start; nil for what has no order (tags, dependencies).
    static func value(of shown: FieldValue, timeZone: Zone) -> Value? {
        switch shown {
        case .text(let s): return .text(s.lowercased())
        case .word(_, let rank): return .number(Double(rank))
        case .date(.day(let d)): return .number(d.startOfDay(in: timeZone).timeIntervalSinceReferenceDate + 86_399)
        case .date(.time(let x)), .instant(let x): return .number(x.timeIntervalSinceReferenceDate)
        case .day(let d): return .number(d.startOfDay(in: timeZone).timeIntervalSinceReferenceDate + 86_399)
        case .minutes(let m): return .number(Double(m))
        case .slot(let s): return .number(s.day.startOfDay(in: timeZone).timeIntervalSinceReferenceDate + Double(s.start.minutes) * 60)
        case .tasks, .tags: return nil
        }
    }

    /// A declared field's sort value in `task`; nil when unset or not of its type.
    static func value(of field: UserField, in task: TaskItem, timeZone: Zone) -> Value? {
        guard let value = field.value(in: task), field.isWellTyped(value) else { return nil }
        switch (field.kind, value.kind) {
        case (.number, .number(let literal)), (.duration, .number(let literal)):
            return Double(literal).map { .number($0) }
        case (.date, .string(let s)):
            switch TaskDate(fileString: s) {
            // A day sorts at its end, as `due` does: after the times on it.
            case .day(let d)?: return .number(d.startOfDay(in: timeZone).timeIntervalSinceReferenceDate + 86_399)
            case .time(let x)?: return .number(x.timeIntervalSinceReferenceDate)
            case nil: return nil
            }
        case (.values(let allowed), .string(let s)):
            return allowed.firstIndex(of: s).map { .number(Double($0)) }
        case (.string, .string(let s)):
            return .text(s.lowercased())
        default:
            return nil
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
