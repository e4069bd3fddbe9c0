import FoundationEssentials

/// A parsed filter: terms combined with `and` (the default), `or`,
/// parentheses and `not`/`-` (Docs/CLI.md "Filters").
public indirect enum FilterExpression: Sendable, Equatable {
    /// Every task (an empty filter).
    case all
    case term(FilterTerm)
    case not(FilterExpression)
    case and([FilterExpression])
    case or([FilterExpression])

    /// Every term, in order, whatever combines them.
    public var terms: [FilterTerm] {
        switch self {
        case .all: return []
        case .term(let t): return [t]
        case .not(let e): return e.terms
        case .and(let es), .or(let es): return es.flatMap(\.terms)
        }
    }

    /// True when the filter says which states it wants (`state:`,
    /// `completed…`): then the listing's default of pending tasks only does not apply.
    public var choosesStates: Bool {
        terms.contains { term in
            switch term.kind {
            case .state: return true
            case .date(.completed, _): return true
            default: return false
            }
        }
    }

    /// True when the filter asks about waiting (`is:waiting`, `wait…`): then
    /// waiting tasks, hidden from listings by default, are candidates.
    public var choosesWaiting: Bool {
        terms.contains { term in
            switch term.kind {
            case .virtual(.waiting), .date(.wait, _): return true
            default: return false
            }
        }
    }

    /// True when the filter is only task ids (`3`, `3-7`, `3,9`, UUID prefixes).
    public var isOnlyIDs: Bool {
        func isIDs(_ e: FilterExpression) -> Bool {
            if case .term(let t) = e, case .ids = t.kind { return true }
            return false
        }
        switch self {
        case .term: return isIDs(self)
        case .and(let es): return es.allSatisfy(isIDs)
        default: return false
        }
    }

    /// The same filter with every term's columns moved by `offset`.
    public func shifted(by offset: Int) -> FilterExpression {
        switch self {
        case .all: return .all
        case .term(var t):
            t.range = (t.range.lowerBound + offset)..<(t.range.upperBound + offset)
            return .term(t)
        case .not(let e): return .not(e.shifted(by: offset))
        case .and(let es): return .and(es.map { $0.shifted(by: offset) })
        case .or(let es): return .or(es.map { $0.shifted(by: offset) })
        }
    }

    /// AND of two filters, either of which may be `.all`.
    public static func both(_ a: FilterExpression, _ b: FilterExpression) -> FilterExpression {
        switch (a, b) {
        case (.all, _): return b
        case (_, .all): return a
        default: return .and([a, b])
        }
    }
}

/// One term of a filter, with where it was typed (for error carets).
public struct FilterTerm: Sendable, Equatable {
    public var kind: Kind
    /// The text as typed, and its column range in the filter line.
    public var text: String
    public var range: Range<Int>

    public init(kind: Kind, text: String, range: Range<Int>) {
        self.kind = kind
        self.text = text
        self.range = range
    }

    public enum Kind: Sendable, Equatable {
        /// `+tag` (its negation `-tag` is `.not` of this).
        case tag(String)
        /// `tags:none` / `tags:any`.
        case hasTags(Bool)
        /// `list:NAME`: a case-insensitive prefix of a list's name or slug; `inbox`.
        case list(String)
        case state(Set<TaskState>)
        /// `pri:must`, `energy:low`: a field of one word (``WordField``); nil is `KEY:none`.
        case word(WordField, String?)
        case date(DateField, DateTest)
        /// `estimate.over:30m`, `estimate:none`: a field of a number (``NumberField``);
        /// the tests are those of a declared number field.
        case number(NumberField, UserFieldTest)
        /// A word or `"phrase"` (or `prefix*`) anywhere in the title, notes or tags, like `grep -i`.
        case words(SearchQuery)
        /// `/regex/` over the title and notes, case-insensitive.
        case regex(String)
        /// Short ids and UUID prefixes.
        case ids([IDRef])
        /// `is:overdue`, `is:repeating`, `is:placed`, `is:waiting`, `is:blocked`.
        case virtual(VirtualTag)
        /// `NAME:value`, `NAME.any:`, `NAME.before:WHEN`, `NAME.over:N`…: a field declared in config.toml.
        case field(name: String, test: UserFieldTest)
    }


    /// What a date term asks of its field.
    public enum DateTest: Sendable, Equatable {
        case on(TaskDate)
        case before(TaskDate)
        case after(TaskDate)
        /// On or before.
        case by(TaskDate)
        case any
        case none
    }

    /// A task reference of the one id grammar.
    public typealias IDRef = TaskReference

    public enum VirtualTag: String, Sendable, CaseIterable {
        case overdue, repeating, placed, waiting, blocked
    }
}
