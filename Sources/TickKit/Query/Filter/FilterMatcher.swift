import FoundationEssentials
import Glibc

/// The exact meaning of a filter, over decoded tasks. The index narrows
/// candidates in SQL (``TaskIndex/run(_:filter:matching:query:)``); this
/// decides. Lists and ids are resolved beforehand (``FilterBindings``).
public struct FilterMatcher: Sendable {
    public let expression: FilterExpression
    public let bindings: FilterBindings
    public let query: TaskQuery
    let regexes: FilterRegexes

    public init(expression: FilterExpression, bindings: FilterBindings, query: TaskQuery) {
        self.expression = expression
        self.bindings = bindings
        self.query = query
        self.regexes = FilterRegexes(expression)
    }

    public func matches(_ item: ListedTask) -> Bool {
        matches(expression, item)
    }

    private func matches(_ e: FilterExpression, _ item: ListedTask) -> Bool {
        switch e {
        case .all: return true
        case .term(let t): return matches(t, item)
        case .not(let inner): return !matches(inner, item)
        case .and(let es): return es.allSatisfy { matches($0, item) }
        case .or(let es): return es.contains { matches($0, item) }
        }
    }

    private func matches(_ term: FilterTerm, _ item: ListedTask) -> Bool {
        let task = item.task
        switch term.kind {
        case .tag(let tag): return task.tags.contains(tag)
        case .hasTags(let any): return task.tags.isEmpty != any
        case .list: return bindings.lists[term.range.lowerBound]?.contains(item.kind) ?? false
        case .state(let states): return states.contains(task.state)
        case let .word(field, word): return field.filter.value(task) == word
        case .date(let field, let test): return DateTestEvaluator(timeZone: query.timeZone).holds(test, for: field.value(task))
        case let .number(field, test): return test.holds(number: field.filter.value(task))
        case .words(let search): return search.matches(task)
        case .regex(let pattern): return regexes.matches(pattern, task.title, task.notes)
        case .ids(let refs):
            if bindings.ids[term.range.lowerBound]?.contains(task.id) == true { return true }
            let hex = task.id.uuidString.lowercased().filter { $0 != "-" }
            return refs.contains { if case .uuidPrefix(let p) = $0 { return hex.hasPrefix(p) } else { return false } }
        case .virtual(let v):
            switch v {
            case .overdue: return query.isOverdue(task)
            case .repeating: return task.repeatRule != nil
            case .placed: return task.slot != nil
            case .waiting: return query.isWaiting(task)
            case .blocked: return item.blocked
            }
        case let .field(name, test):
            return test.holds(for: task.extra.first { $0.key == name }?.value, timeZone: query.timeZone)
        }
    }

}

/// Lists and ids of a filter's terms, resolved against the store, keyed by
/// the term's column in the filter line.
public struct FilterBindings: Sendable {
    public var lists: [Int: Set<FileKind>] = [:]
    public var ids: [Int: Set<UUID>] = [:]

    public init(lists: [Int: Set<FileKind>] = [:], ids: [Int: Set<UUID>] = [:]) {
        self.lists = lists
        self.ids = ids
    }

    /// The lists `list:NAME` means: those whose name or slug starts with NAME
    /// (ignoring case), and the inbox for `inbox`.
    public static func lists(matching name: String, in infos: [ListInfo]) -> Set<FileKind> {
        let wanted = name.lowercased()
        var out = Set<FileKind>()
        for info in infos {
            if info.kind == .inbox {
                if wanted == "inbox" || wanted == "none" { out.insert(.inbox) }
                continue
            }
            if info.name.lowercased().hasPrefix(wanted) || (info.kind.slug ?? "").hasPrefix(wanted) { out.insert(info.kind) }
        }
        return out
    }
}

/// How a date term compares: an all-day value compares by its day; an instant
/// by the moment, or by its local day when the term names a day.
public struct DateTestEvaluator: Sendable {
    public enum Value: Sendable { case day(LocalDate), instant(Date) }
    public let timeZone: Zone

    public func holds(_ test: FilterTerm.DateTest, for value: Value?) -> Bool {
        switch test {
        case .any: return value != nil
        case .none: return value == nil
        default: break
        }
        guard let value else { return false }
        switch (value, test) {
        case (.day(let d), _):
            let w: LocalDate
            switch Self.operand(test) {
            case .day(let day): w = day
            case .time(let t): w = LocalDate(date: t, timeZone: timeZone)
            }
            switch test {
            case .on: return d == w
            case .before: return d < w
            case .after: return d > w
            case .by: return d <= w
            default: return false
            }
        case (.instant(let x), _):
            switch Self.operand(test) {
            case .day(let day):
                let start = day.startOfDay(in: timeZone), end = day.adding(days: 1).startOfDay(in: timeZone)
                switch test {
                case .on: return x >= start && x < end
                case .before: return x < start
                case .after: return x >= end
                case .by: return x < end
                default: return false
                }
            case .time(let t):
                switch test {
                case .on: return LocalDate(date: x, timeZone: timeZone) == LocalDate(date: t, timeZone: timeZone)
                case .before: return x < t
                case .after: return x > t
                case .by: return x <= t
                default: return false
                }
            }
        }
    }

    static func operand(_ test: FilterTerm.DateTest) -> TaskDate {
        switch test {
        case .on(let d), .before(let d), .after(let d), .by(let d): return d
        case .any, .none: return .day(LocalDate(daysSinceEpoch: 0))
        }
    }
}
