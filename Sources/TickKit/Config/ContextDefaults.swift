import FoundationEssentials

/// What an active context writes on a task added under it, as Taskwarrior's
/// write contexts do. A filter that is only `+tag`, `list:NAME` and word
/// terms (`pri:must`, `energy:low`: ``FilterTerm/WordField``) joined by `and`
/// gives the new task those tags, that list and those words, unless the add
/// names its own (`list:`, `pri:`, `energy:` typed in the add win; tags are
/// added to the typed ones). Any
/// other filter (`or`, `not`, `-tag`, dates, words) writes nothing: the task is
/// added as typed, and ``TaskAdding`` says when it lands outside the context.
public struct ContextDefaults: Sendable, Equatable {
    /// The context's name (`work`).
    public let name: String
    /// Its filter, as parsed from config.toml.
    public let filter: ParsedFilter
    /// The tags it writes.
    public private(set) var tags: [String] = []
    /// The `list:` name it writes (a prefix of a list's name or slug, or `inbox`).
    public private(set) var list: String?
    /// The words it writes, by filter key (`pri` → `must`).
    public private(set) var words: [String: String] = [:]
    /// False when the filter has a term or combination that cannot be written:
    /// then nothing is written.
    public private(set) var writable = true

    public init(name: String, filter: ParsedFilter) {
        self.name = name
        self.filter = filter
        let parts: [FilterExpression]
        switch filter.expression {
        case .all: parts = []
        case .term: parts = [filter.expression]
        case .and(let es): parts = es
        case .or, .not: parts = [filter.expression]
        }
        for part in parts {
            guard case .term(let term) = part else { writable = false; break }
            switch term.kind {
            case .tag(let tag) where TagRules.problem(with: tag) == nil:
                if !tags.contains(tag) { tags.append(tag) }
            case .list(let name) where list == nil:
                list = name
            case .word(let field, let word?) where words[field.rawValue] == nil:
                words[field.rawValue] = word
            default:
                writable = false
            }
            if !writable { break }
        }
        if !writable { (tags, list, words) = ([], nil, [:]) }
    }

    /// True when the context writes something on a new task.
    public var writesAnything: Bool { !tags.isEmpty || list != nil || !words.isEmpty }

    /// `edit` with the context's tags added and its words where `edit` sets
    /// none of that field; a tag the edit removes (`-tag`) is not added. The list
    /// is the caller's business (it must resolve against the store's lists).
    public func applied(to edit: TaskEdit) -> TaskEdit {
        var edit = edit
        for tag in tags where !edit.addTags.contains(tag) && !edit.removeTags.contains(tag) {
            edit.addTags.append(tag)
        }
        for (key, word) in words.sorted(by: { $0.key < $1.key }) {
            guard let change = FilterTerm.WordField(rawValue: key)?.filter.set(word), edit.changes[change.key] == nil else { continue }
            edit.set(change)
        }
        return edit
    }

    /// "context work (+work)".
    public var label: String { "context \(name) (\(filter.line))" }
}
