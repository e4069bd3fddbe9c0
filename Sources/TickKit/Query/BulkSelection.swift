import FoundationEssentials

/// What a command that changes tasks acts on: task ids as typed (`3 7 6f1c`,
/// `3-7`, `3,9`), resolved strictly as before, or a filter (`+errand
/// list:Home`) that selects tasks through the index. More than `[bulk]
/// confirm` tasks (3 by default) selected by a filter need a yes from the
/// user (`confirm`), or --yes when there is no one to ask (Docs/CLI.md
/// "Changes by filter").
public struct BulkSelection {
    let session: IndexSession
    let now: Date
    let timeZone: Zone
    let activeFilter: () throws -> (filter: ParsedFilter, label: String)?
    let confirmLimit: () throws -> Int
    /// The fields declared in config.toml, filter keys too.
    let userFields: UserFields

    /// `activeFilter` gives the active context's filter and its label (nil
    /// when none); `confirmLimit` the `[bulk] confirm` setting. Both are
    /// asked only when a filter is given, after it parsed.
    public init(session: IndexSession, now: Date, timeZone: Zone,
                activeFilter: @escaping () throws -> (filter: ParsedFilter, label: String)?,
                confirmLimit: @escaping () throws -> Int, userFields: UserFields = UserFields()) {
        self.userFields = userFields
        self.session = session
        self.now = now
        self.timeZone = timeZone
        self.activeFilter = activeFilter
        self.confirmLimit = confirmLimit
    }

    /// True when every word is a list of task references
    /// (``TaskReference``, the one id grammar): `3`, `3-7`, `3,9`, `6f1c`.
    public static func isIDList(_ words: [String]) -> Bool {
        TaskReference.isList(words)
    }

    /// True for one task id: a short id or a UUID prefix (not a range or list).
    public static func isSingleID(_ word: String) -> Bool {
        TaskReference.single(word) != nil
    }

    /// The task references to change: ids as typed (``TaskReference/tasks(_:)``),
    /// or the ids of the tasks a filter selects among `states` (a filter that names states or
    /// completion chooses its own). `verb` names the change ("Complete").
    /// More than the limit without `yes` calls `confirm` with the tasks
    /// (false cancels); with no `confirm` (no terminal to ask) it is refused.
    public func refs(_ words: [String], states: Set<TaskState>, verb: String, yes: Bool,
                     confirm: (([ListedTask]) -> Bool)?) throws -> [TaskReference] {
        if let refs = TaskReference.tasks(words) { return refs }
        var parsed = try FilterParser(now: now, timeZone: timeZone, userFields: userFields).parse(words)
        if case .all = parsed.expression { throw SelectionError.nothingNamed }
        if let active = try activeFilter() { parsed = parsed.and(active.filter, label: active.label) }
        let chosen = parsed.expression.choosesStates ? Set(TaskState.allCases) : states
        let query = TaskQuery(now: now, timeZone: timeZone)
        let items = try session.load().index.run(.list(nil), filter: TaskFilter(states: chosen, showWaiting: parsed.expression.choosesWaiting),
                                                 matching: parsed, query: query)
        guard !items.isEmpty else {
            let which = chosen == [.open, .active] ? "pending task" : chosen == [.done] ? "done task" : "task"
            throw SelectionError.noMatch(which: which, filter: parsed.line)
        }
        let limit = try confirmLimit()
        if items.count > limit && !yes {
            guard let confirm else {
                throw SelectionError.needsConfirmation(verb: verb, count: items.count, filter: parsed.line, limit: limit)
            }
            guard confirm(items) else { throw SelectionError.cancelled }
        }
        return items.map { .id($0.task.id) }
    }
}
