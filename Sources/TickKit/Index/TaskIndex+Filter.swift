import FoundationEssentials

/// Filters answered by the index: SQL narrows the rows (exactly for most
/// terms, as a superset for words), then ``FilterMatcher`` decides, so both
/// paths share one definition.
extension TaskIndex {
    /// Resolves a filter's lists and ids against the store. A `list:` term
    /// that names no list is an error (a typo would otherwise show nothing).
    public func bind(_ filter: ParsedFilter, query: TaskQuery) throws -> FilterBindings {
        var bindings = FilterBindings()
        let terms = filter.expression.terms
        guard !terms.isEmpty else { return bindings }
        let infos = try lists()
        let now = store.clock().timeIntervalSinceReferenceDate
        for term in terms {
            switch term.kind {
            case .list(let name):
                let kinds = FilterBindings.lists(matching: name, in: infos)
                guard !kinds.isEmpty else {
                    throw filter.error("no list is named or starts with \"\(name)\"; see tick lists", at: term)
                }
                bindings.lists[term.range.lowerBound] = kinds
            case .ids(let refs):
                var ids = Set<UUID>()
                try db.read {
                    func held(_ range: ClosedRange<Int>) throws -> [UUID] {
                        try db.texts("SELECT id FROM ids.short_ids WHERE n BETWEEN ? AND ? AND (held_until IS NULL OR held_until >= ?)",
                                    [range.lowerBound, range.upperBound, now]).compactMap(UUID.init(uuidString:))
                    }
                    for ref in refs {
                        switch ref {
                        case .short(let range): ids.formUnion(try held(range))
                        case .shortOrPrefix(let n, let digits):
                            // As `tick done` resolves it: the short id, else a UUID prefix.
                            let found = try held(n...n)
                            if !found.isEmpty { ids.formUnion(found); continue }
                            let dashed = FilterSQL.dashed(digits)
                            ids.formUnion(try db.texts("SELECT id FROM tasks WHERE id >= ? AND id < ?", [dashed, dashed + "~"])
                                .compactMap(UUID.init(uuidString:)))
                        case .uuidPrefix: break
                        case .id(let id): ids.insert(id)
                        }
                    }
                }
                bindings.ids[term.range.lowerBound] = ids
            default:
                break
            }
        }
        return bindings
    }

    /// Runs a view narrowed by a filter: the view's own definition and the
    /// filter's exact match, both decided per task as the rows are read
    /// (``stream(_:filter:matching:query:render:)``, kept whole).
    public func run(_ view: TaskView, filter: TaskFilter, matching parsed: ParsedFilter, query: TaskQuery) throws -> [ListedTask] {
        try stream(view, filter: filter, matching: parsed, query: query) { $0 }.map(\.payload)
    }

    /// Registers `tick_regexp(pattern, title, notes)` on the connection for this filter's patterns.
    static func addRegexFunction(_ regexes: FilterRegexes, to db: SQLiteConnection) throws {
        guard !regexes.isEmpty else { return }
        try db.createFunction("tick_regexp", argumentCount: 3) { values in
            guard let pattern = values.text(0), let title = values.text(1) else { return 0 }
            return regexes.matches(pattern, title, values.text(2)) ? 1 : 0
        }
    }
}

/// A filter as a SQL condition over `tasks t`: for every task the filter
/// matches, the condition is true (it may be true for more when a term is
/// not exact in SQL, e.g. words through the trigram table).
struct FilterSQL {
    let bindings: FilterBindings
    let query: TaskQuery
    /// The query around the filter admits no done task (its states leave
    /// them out): date ranges may then name the pending-only indexes.
    var pendingOnly = false

    struct Part {
        var sql: String
        var arguments: SQLArguments
        /// True when the condition is exactly the term (so its negation is exact too).
        var exact: Bool
        static let anything = Part(sql: "1", arguments: [], exact: false)
    }

    func compile(_ e: FilterExpression) -> Part {
        switch e {
        case .all: return Part(sql: "1", arguments: [], exact: true)
        case .term(let t): return term(t)
        case .not(let inner):
            let p = compile(inner)
            return p.exact ? Part(sql: "NOT (\(p.sql))", arguments: p.arguments, exact: true) : .anything
        case .and(let es), .or(let es):
            let parts = es.map(compile)
            var isAnd = false
            if case .and = e { isAnd = true }
            var args: SQLArguments = []
            for p in parts { args += p.arguments }
            return Part(sql: parts.map { "(\($0.sql))" }.joined(separator: isAnd ? " AND " : " OR "), arguments: args,
                        exact: parts.allSatisfy(\.exact))
        }
    }

    func term(_ t: FilterTerm) -> Part {
        func exact(_ sql: String, _ args: SQLArguments = []) -> Part { Part(sql: sql, arguments: args, exact: true) }
        switch t.kind {
        case .tag(let tag): return exact("t.rowid IN (SELECT task_rowid FROM tags WHERE tag = ?)", [tag])
        case .hasTags(let any): return exact(any ? "t.tags != ''" : "t.tags = ''")
        case .list:
            let paths = (bindings.lists[t.range.lowerBound] ?? []).map(\.relativePath).sorted()
            guard !paths.isEmpty else { return exact("0") }
            return exact("t.path IN (\(paths.map { _ in "?" }.joined(separator: ", ")))", SQLArguments(values: paths))
        case .state(let states):
            return exact("t.state IN (\(states.map { "'\($0.rawValue)'" }.sorted().joined(separator: ", ")))")
        case let .word(field, word): return word.map { exact("t.\(field.column) IS ?", [$0]) } ?? exact("t.\(field.column) IS NULL")
        case .words(let search):
            guard let match = search.ftsExpression else { return .anything }
            return Part(sql: "t.rowid IN (SELECT rowid FROM fts WHERE fts MATCH ?)", arguments: [match], exact: false)
        case .regex(let pattern): return exact("tick_regexp(?, t.title, t.notes)", [pattern])
        case .ids(let refs):
            var conditions: [String] = []
            var args: SQLArguments = []
            let ids = (bindings.ids[t.range.lowerBound] ?? []).map { $0.uuidString.lowercased() }.sorted()
            if !ids.isEmpty {
                conditions.append("t.id IN (\(ids.map { _ in "?" }.joined(separator: ", ")))")
                args += SQLArguments(values: ids)
            }
            for case .uuidPrefix(let hex) in refs {
                let dashed = Self.dashed(hex)
                conditions.append("(t.id >= ? AND t.id < ?)")
                args += [dashed, dashed + "~"]
            }
            return exact(conditions.isEmpty ? "0" : conditions.joined(separator: " OR "), args)
        case .virtual(let v):
            switch v {
            case .overdue:
                return exact("t.state != 'done' AND ((t.due_day IS NOT NULL AND t.due_day < ?) OR (t.due_ts IS NOT NULL AND t.due_ts < ?))",
                             [query.today.daysSinceEpoch, query.now.timeIntervalSinceReferenceDate])
            case .repeating: return exact("t.repeat IS NOT NULL")
            case .placed: return exact("t.slot_day IS NOT NULL")
            case .waiting:
                return exact("(t.wait_day IS NOT NULL AND t.wait_day > ?) OR (t.wait_ts IS NOT NULL AND t.wait_ts > ?)",
                             [query.today.daysSinceEpoch, query.now.timeIntervalSinceReferenceDate])
            case .blocked: return exact(RowReader.blockedColumn)
            }
        case let .number(field, test):
            let column = "t." + field.column
            switch test {
            case .any: return exact("\(column) IS NOT NULL")
            case .none: return exact("\(column) IS NULL")
            case .number(let n): return exact("\(column) = ?", [n])
            case .over(let n): return exact("\(column) > ?", [n])
            case .under(let n): return exact("\(column) < ?", [n])
            case .text, .date: return exact("0")
            }
        case let .field(name, test):
            // The declared field's key among the unknown keys (`extra`, a JSON object).
            let path = "$.\"\(name)\""
            switch test {
            case .any: return exact("json_type(t.extra, ?) IS NOT NULL", [path])
            case .none: return exact("json_type(t.extra, ?) IS NULL", [path])
            case .text(let text, let ignoringCase):
                // SQLite's lower() folds ASCII only: the matcher decides a case-insensitive one.
                guard !ignoringCase else { return Part(sql: "json_type(t.extra, ?) = 'text'", arguments: [path], exact: false) }
                return exact("json_type(t.extra, ?) = 'text' AND json_extract(t.extra, ?) = ?", [path, path, text])
            case .number(let n), .over(let n), .under(let n):
                let op: String
                switch test {
                case .over: op = ">"
                case .under: op = "<"
                default: op = "="
                }
                return exact("json_type(t.extra, ?) IN ('integer', 'real') AND json_extract(t.extra, ?) \(op) ?", [path, path, n])
            case .date:
                // A day or a timestamp as text: the matcher compares it as `due` is.
                return Part(sql: "json_type(t.extra, ?) = 'text'", arguments: [path], exact: false)
            }
        case .date(let field, let test):
            // Over pending tasks only, a range on a column with a pending-only
            // index says so, so that SQLite reads that index (done tasks, most
            // of a store's past dates, are then never looked up).
            func pending(_ p: Part) -> Part {
                pendingOnly ? Part(sql: p.sql + " AND t.state != 'done'", arguments: p.arguments, exact: p.exact) : p
            }
            // The field's columns (``FilterTerm/DateField``): a day, an instant, or both.
            let columns = [field.dayColumn, field.instantColumn].compactMap { $0 }
            let indexed = !columns.isEmpty && columns.allSatisfy(IndexSchema.pendingIndexed.contains)
            switch test {
            case .any: return exact("t.\(field.setColumn) IS NOT NULL")
            case .none: return exact("t.\(field.setColumn) IS NULL")
            default: break
            }
            var conditions: [Part] = []
            if let day = field.dayColumn { conditions.append(dayCondition("t." + day, test)) }
            if let instant = field.instantColumn { conditions.append(instantCondition("t." + instant, test)) }
            if indexed { conditions = conditions.map(pending) }
            guard conditions.count > 1 else { return conditions.first ?? exact("0") }
            var arguments: SQLArguments = []
            for condition in conditions { arguments = arguments + condition.arguments }
            return exact(conditions.map { "(\($0.sql))" }.joined(separator: " OR "), arguments)
        }
    }

    /// A column of days since 1970-01-01, as ``DateTestEvaluator`` compares a day.
    func dayCondition(_ column: String, _ test: FilterTerm.DateTest) -> Part {
        let op: String
        switch test {
        case .any: return Part(sql: "\(column) IS NOT NULL", arguments: [], exact: true)
        case .none: return Part(sql: "\(column) IS NULL", arguments: [], exact: true)
        case .on: op = "="
        case .before: op = "<"
        case .after: op = ">"
        case .by: op = "<="
        }
        let day: LocalDate
        switch DateTestEvaluator.operand(test) {
        case .day(let d): day = d
        case .time(let t): day = LocalDate(date: t, timeZone: query.timeZone)
        }
        return Part(sql: "\(column) IS NOT NULL AND \(column) \(op) ?", arguments: [day.daysSinceEpoch], exact: true)
    }

    /// A column of seconds since the reference date, as ``DateTestEvaluator`` compares an instant.
    func instantCondition(_ column: String, _ test: FilterTerm.DateTest) -> Part {
        func part(_ condition: String, _ args: SQLArguments) -> Part {
            Part(sql: "\(column) IS NOT NULL AND \(condition)", arguments: args, exact: true)
        }
        let tz = query.timeZone
        switch test {
        case .any: return Part(sql: "\(column) IS NOT NULL", arguments: [], exact: true)
        case .none: return Part(sql: "\(column) IS NULL", arguments: [], exact: true)
        default: break
        }
        func bounds(_ day: LocalDate) -> (Double, Double) {
            (day.startOfDay(in: tz).timeIntervalSinceReferenceDate, day.adding(days: 1).startOfDay(in: tz).timeIntervalSinceReferenceDate)
        }
        switch DateTestEvaluator.operand(test) {
        case .day(let d):
            let (start, end) = bounds(d)
            switch test {
            case .on: return part("\(column) >= ? AND \(column) < ?", [start, end])
            case .before: return part("\(column) < ?", [start])
            case .after: return part("\(column) >= ?", [end])
            default: return part("\(column) < ?", [end])
            }
        case .time(let t):
            let w = t.timeIntervalSinceReferenceDate
            switch test {
            case .on:
                let (start, end) = bounds(LocalDate(date: t, timeZone: tz))
                return part("\(column) >= ? AND \(column) < ?", [start, end])
            case .before: return part("\(column) < ?", [w])
            case .after: return part("\(column) > ?", [w])
            default: return part("\(column) <= ?", [w])
            }
        }
    }

    /// A UUID's hex prefix with its dashes put back (8-4-4-4-12), for a range scan of the id index.
    static func dashed(_ hex: String) -> String {
        var dashed = ""
        for (i, c) in hex.prefix(32).enumerated() {
            if [8, 12, 16, 20].contains(i) { dashed.append("-") }
            dashed.append(c)
        }
        return dashed
    }
}
