import FoundationEssentials

/// Reads a filter from command-line words (Docs/CLI.md "Filters").
///
/// The words are joined by spaces into one line, which error carets point
/// into. A word may hold several terms and parentheses (`'(+a or +b)'`); a
/// value with spaces is quoted (`list:"Side projects"`), or is one shell word
/// that starts with a key and holds no other term (`"list:Side projects"`).
/// Dates use the one date grammar (``WhenParser``).
public struct FilterParser: Sendable {
    public let now: Date
    public let timeZone: Zone
    /// The fields declared in config.toml: each is a filter key (``UserFieldTest``).
    public let userFields: UserFields

    public init(now: Date, timeZone: Zone, userFields: UserFields = UserFields()) {
        self.now = now
        self.timeZone = timeZone
        self.userFields = userFields
    }

    /// The keys a term can start with, and what they mean.
    public static let keys: [String] = ["list", "state"] + FilterTerm.WordField.keys + ["tags", "is"] + FilterTerm.DateField.keys + FilterTerm.NumberField.keys
    /// Other spellings of the keys (``FieldNames/aliases``), those that name a filter key.
    static let aliases: [String: String] = FieldNames.aliases.filter { keys.contains($0.value) }
    static let modifiers = ["before", "after", "by", "any", "none", "is"]

    /// True when `word` alone is a filter term by its shape: `+tag`, or
    /// `key:value` / `key.modifier:value` with a filter key (``keys``, or
    /// another spelling of one such as `project:`). For Taskwarrior's order
    /// `tick +work list` (the terms before the command).
    public static func isTermWord(_ word: String) -> Bool {
        if word.hasPrefix("+") { return word.dropFirst().first?.isLetter == true }
        guard let colon = word.firstIndex(of: ":"), colon != word.startIndex else { return false }
        let key = word[..<colon].split(separator: ".", maxSplits: 1).first.map(String.init) ?? ""
        return keys.contains(FieldNames.canonical(key))
    }

    /// A token: its text and columns in the line.
    struct Token {
        var text: String
        var range: Range<Int>
        var quoted = false
    }

    /// Parses `words`. An empty filter is ``FilterExpression/all``.
    public func parse(_ words: [String]) throws(FilterError) -> ParsedFilter {
        let (line, tokens) = Self.tokenize(words, userNames: Set(userFields.names))
        return ParsedFilter(expression: try parse(line: line, tokens: tokens), line: line)
    }

    func parse(line: String, tokens: [Token]) throws(FilterError) -> FilterExpression {
        var reader = Reader(parser: self, line: line, tokens: tokens)
        guard !tokens.isEmpty else { return .all }
        let expression = try reader.orExpression()
        if reader.index < tokens.count {
            let t = tokens[reader.index]
            throw FilterError(t.text == ")" ? "\")\" has no matching \"(\"" : "unexpected \"\(t.text)\"", line: line, range: t.range)
        }
        return expression
    }

    // MARK: Tokens

    static func tokenize(_ words: [String], userNames: Set<String> = []) -> (String, [Token]) {
        var line = ""
        var tokens: [Token] = []
        for word in words {
            if !line.isEmpty { line += " " }
            let offset = line.count
            line += word
            if startsWithKey(word, userNames: userNames) && (!holdsSeveralTerms(word) || isDateWithSpaces(word))
                || word.hasPrefix("/") && word.count >= 2 && word.hasSuffix("/") {
                tokens.append(Token(text: word, range: offset..<(offset + word.count)))
                continue
            }
            tokens += split(word, offset: offset)
        }
        return (line, tokens)
    }

    /// `key:`, `key.mod`, `-key:` at the start of a word.
    static func startsWithKey(_ word: String, userNames: Set<String> = []) -> Bool {
        var s = Substring(word)
        if s.first == "-" { s = s.dropFirst() }
        if !userNames.isEmpty {
            // A declared name may hold digits, `_` and `-` (`[fields.due-2]`).
            let head = s.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == ".") }
            let key = head.split(separator: ".", maxSplits: 1).first.map(String.init)?.lowercased() ?? ""
            if userNames.contains(key), s.dropFirst(head.count).first == ":" || head.contains(".") { return true }
        }
        let head = s.prefix { $0.isLetter || $0 == "." }
        guard !head.isEmpty, head.first?.isLetter == true else { return false }
        let key = head.split(separator: ".", maxSplits: 1).first.map(String.init)?.lowercased() ?? ""
        let known = keys.contains(key) || aliases[key] != nil
        return s.dropFirst(head.count).first == ":" || (known && head.contains("."))
    }

    /// True when a word that starts with a key goes on with more terms
    /// (`'list:Work or +errand'`) rather than a value with spaces (`list:Side projects`).
    static func holdsSeveralTerms(_ word: String) -> Bool {
        if word.contains("(") || word.contains(")") || word.contains("\"") { return true }
        let pieces = word.split(whereSeparator: \.isWhitespace)
        return pieces.dropFirst().contains { piece in
            ["or", "and", "not"].contains(piece.lowercased()) || piece.hasPrefix("+") || piece.hasPrefix("/")
                || (piece.hasPrefix("-") && piece.count > 1) || startsWithKey(String(piece)) || idRefs(String(piece)) != nil
        }
    }

    /// True for one shell word that is a date key and a date with spaces, such as
    /// `completed:nov 19` or `created.after:7d ago`, where `19` alone would read as a task id.
    /// Only the shape of the grammar matters here, so any clock will do.
    static func isDateWithSpaces(_ word: String) -> Bool {
        guard let colon = word.firstIndex(of: ":") else { return false }
        var head = word[..<colon].lowercased()
        if head.hasPrefix("-") { head.removeFirst() }
        let typed = head.split(separator: ".", maxSplits: 1).first.map(String.init) ?? ""
        guard FilterTerm.DateField(rawValue: aliases[typed] ?? typed) != nil else { return false }
        let value = word[word.index(after: colon)...]
        guard value.contains(" ") else { return false }
        let anyClock = WhenParser(now: Date(timeIntervalSince1970: 0), timeZone: .utc)
        return (try? anyClock.parse(String(value))) != nil
    }

    /// Splits a word on spaces and parentheses, keeping `"quoted phrases"` whole.
    static func split(_ word: String, offset: Int) -> [Token] {
        var tokens: [Token] = []
        let chars = Array(word)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c.isWhitespace { i += 1; continue }
            if c == "(" || c == ")" {
                tokens.append(Token(text: String(c), range: (offset + i)..<(offset + i + 1)))
                i += 1
                continue
            }
            let start = i
            if c == "\"" {
                var j = i + 1
                while j < chars.count, chars[j] != "\"" { j += 1 }
                let body = String(chars[(i + 1)..<min(j, chars.count)])
                i = min(j + 1, chars.count)
                tokens.append(Token(text: body, range: (offset + start)..<(offset + i), quoted: true))
                continue
            }
            if c == "/" {
                var j = i + 1
                while j < chars.count, chars[j] != "/" { j += chars[j] == "\\" ? 2 : 1 }
                i = min(j + 1, chars.count)
                tokens.append(Token(text: String(chars[start..<i]), range: (offset + start)..<(offset + i)))
                continue
            }
            while i < chars.count, !chars[i].isWhitespace, chars[i] != "(", chars[i] != ")" {
                // A quoted value (`list:"Side projects"`) runs to its closing quote.
                if chars[i] == "\"" {
                    i += 1
                    while i < chars.count, chars[i] != "\"" { i += 1 }
                }
                i += 1
            }
            i = min(i, chars.count)
            tokens.append(Token(text: String(chars[start..<i]), range: (offset + start)..<(offset + i)))
        }
        return tokens
    }

    // MARK: Grammar

    struct Reader {
        let parser: FilterParser
        let line: String
        let tokens: [Token]
        var index = 0

        func isWord(_ t: Token, _ word: String) -> Bool { !t.quoted && t.text.lowercased() == word }

        func fail(_ message: String, _ range: Range<Int>) -> FilterError {
            FilterError(message, line: line, range: range)
        }

        mutating func orExpression() throws(FilterError) -> FilterExpression {
            var parts = [try andExpression()]
            while index < tokens.count, isWord(tokens[index], "or") {
                let or = tokens[index]
                index += 1
                guard index < tokens.count, tokens[index].text != ")" || tokens[index].quoted else {
                    throw fail("\"or\" needs a term after it", or.range)
                }
                parts.append(try andExpression())
            }
            return parts.count == 1 ? parts[0] : .or(parts)
        }

        mutating func andExpression() throws(FilterError) -> FilterExpression {
            var parts: [FilterExpression] = []
            while index < tokens.count {
                let t = tokens[index]
                if !t.quoted, t.text == ")" || isWord(t, "or") { break }
                if isWord(t, "and") {
                    guard !parts.isEmpty else { throw fail("\"and\" needs a term before it", t.range) }
                    index += 1
                    guard index < tokens.count, !isWord(tokens[index], "or"), tokens[index].text != ")" || tokens[index].quoted else {
                        throw fail("\"and\" needs a term after it", t.range)
                    }
                    continue
                }
                parts.append(try unary())
            }
            guard !parts.isEmpty else {
                let at = index < tokens.count ? tokens[index].range : line.count..<(line.count + 1)
                throw fail(index < tokens.count && tokens[index].text == ")" ? "empty parentheses or a missing term" : "\"or\" needs a term before it", at)
            }
            return parts.count == 1 ? parts[0] : .and(parts)
        }

        mutating func unary() throws(FilterError) -> FilterExpression {
            let t = tokens[index]
            if isWord(t, "not") {
                index += 1
                guard index < tokens.count, tokens[index].text != ")" || tokens[index].quoted else {
                    throw fail("\"not\" needs a term after it", t.range)
                }
                return .not(try unary())
            }
            if !t.quoted, t.text == "(" {
                index += 1
                let inner = try orExpression()
                guard index < tokens.count, tokens[index].text == ")" else {
                    throw fail("\"(\" is not closed; add \")\"", t.range)
                }
                index += 1
                return inner
            }
            index += 1
            return try parser.atom(t, line: line)
        }
    }

    // MARK: Terms

    func atom(_ t: Token, line: String) throws(FilterError) -> FilterExpression {
        func fail(_ message: String) -> FilterError { FilterError(message, line: line, range: t.range) }
        func term(_ kind: FilterTerm.Kind) -> FilterExpression { .term(FilterTerm(kind: kind, text: t.text, range: t.range)) }
        if t.quoted {
            guard !t.text.trimmingWhitespace().isEmpty else { throw fail("an empty phrase matches nothing; put words between the quotes") }
            return term(.words(try words("\"\(t.text)\"", fail)))
        }
        let text = t.text
        if text.hasPrefix("+") {
            let tag = String(text.dropFirst())
            guard !tag.isEmpty, !tag.contains(where: \.isWhitespace) else { throw fail("\"+\" needs a tag name, e.g. +work") }
            return term(.tag(tag))
        }
        if text.hasPrefix("-"), text.count >= 2 {
            let rest = String(text.dropFirst())
            if rest.allSatisfy({ $0.isNumber || $0 == "-" || $0 == "," }) {
                throw fail("\"\(text)\" is not a filter term; ids are numbers from 1 (to leave tasks out, write not \(rest))")
            }
            if rest.hasPrefix("/") || Self.startsWithKey(rest, userNames: Set(userFields.names)) {
                let inner = Token(text: rest, range: (t.range.lowerBound + 1)..<t.range.upperBound)
                return .not(try atom(inner, line: line))
            }
            guard !rest.hasPrefix("+"), !rest.hasPrefix("-") else { throw fail("\"\(text)\" is not a filter term; write -tag or not +tag") }
            return .not(.term(FilterTerm(kind: .tag(rest), text: text, range: t.range)))
        }
        if text.hasPrefix("/") {
            guard text.count >= 3, text.hasSuffix("/") else { throw fail("a regex is written /pattern/; close it with /") }
            let pattern = String(text.dropFirst().dropLast())
            do {
                _ = try Regex(pattern)
            } catch {
                throw fail("/\(pattern)/ is not a regular expression: \(error)")
            }
            return term(.regex(pattern))
        }
        if Self.startsWithKey(text, userNames: Set(userFields.names)) { return term(try keyed(text, fail)) }
        if let refs = Self.idRefs(text) {
            for case .short(let r) in refs where r.count > 100_000 {
                throw fail("the range \(r.lowerBound)-\(r.upperBound) is too large; ids go up to the number of pending tasks")
            }
            return term(.ids(refs))
        }
        return term(.words(try words(text, fail)))
    }

    func words(_ text: String, _ fail: (String) -> FilterError) throws(FilterError) -> SearchQuery {
        do {
            return try SearchQuery(text)
        } catch {
            throw fail(error.errorDescription ?? "not a search word")
        }
    }

    /// `3`, `3-7`, `3,9`, `3,5-7`, and UUID prefixes: ``TaskReference``, the
    /// grammar `tick done` reads ids with.
    static func idRefs(_ text: String) -> [FilterTerm.IDRef]? {
        TaskReference.list(text)
    }

    func keyed(_ text: String, _ fail: (String) -> FilterError) throws(FilterError) -> FilterTerm.Kind {
        let colon = text.firstIndex(of: ":")
        let head = colon.map { String(text[..<$0]) } ?? text
        var value = colon.map { String(text[text.index(after: $0)...]) }
        if let v = value, v.hasPrefix("\"") {
            guard v.count >= 2, v.hasSuffix("\"") else { throw fail("unclosed quote in \(text); close the value with \"") }
            value = String(v.dropFirst().dropLast())
        }
        let parts = head.lowercased().split(separator: ".", maxSplits: 1).map(String.init)
        let typedKey = parts.first ?? ""
        let key = Self.aliases[typedKey] ?? typedKey
        let modifier = parts.count > 1 ? parts[1] : nil
        if let field = userFields[typedKey], field.name == typedKey {
            return .field(name: field.name, test: try userFieldTest(field, modifier: modifier, value: value, text: text, fail))
        }
        guard Self.keys.contains(key) else {
            var message = "unknown filter key \"\(typedKey)\" in \(text)"
            if let guess = Spelling.closest(to: typedKey, among: Self.keys) { message += " (did you mean \(guess):?)" }
            throw fail(message + "; to match the text, quote it: \"\(text)\"")
        }
        if let field = FilterTerm.DateField(rawValue: key) {
            return .date(field, try dateTest(field: key, modifier: modifier, value: value, text: text, fail))
        }
        if let field = FilterTerm.NumberField(rawValue: key) {
            return .number(field, try numberTest(key, typeName: field.filter.typeName, example: field.filter.example, modifier: modifier, value: value, text: text, fail) {
                number throws(InputError) in try field.filter.parse(number, typedKey, FieldParser(now: now, timeZone: timeZone))
            })
        }
        guard modifier == nil else { throw fail("\(key): takes no .\(modifier ?? "") modifier; write \(key):VALUE") }
        guard let value, !value.isEmpty else { throw fail("\(key): needs a value, e.g. \(Self.example(key))") }
        let v = value.lowercased()
        if let field = FilterTerm.WordField(rawValue: key) {
            if v == "none" { return .word(field, nil) }
            guard let word = field.filter.parse(v) else { throw fail(field.filter.refusal(value)) }
            return .word(field, word)
        }
        switch key {
        case "list":
            return .list(value)
        case "state":
            var states = Set<TaskState>()
            for word in v.split(separator: ",", omittingEmptySubsequences: false) {
                if word == "pending" { states.formUnion([.open, .active]); continue }
                if word == "all" || word == "any" { states.formUnion(TaskState.allCases); continue }
                guard let s = TaskState(rawValue: String(word)) else {
                    throw fail("state:\(word) is not a state; give open, active, done or pending (comma-separated)")
                }
                states.insert(s)
            }
            return .state(states)
        case "tags":
            guard v == "none" || v == "any" else { throw fail("tags:\(value): give tags:none or tags:any; for one tag write +\(value)") }
            return .hasTags(v == "any")
        case "is":
            guard let tag = FilterTerm.VirtualTag(rawValue: v) else {
                throw fail("is:\(value) is not known; give one of \(FilterTerm.VirtualTag.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return .virtual(tag)
        default:
            throw fail("unknown filter key \"\(key)\"")
        }
    }

    func dateTest(field: String, modifier: String?, value: String?, text: String, _ fail: (String) -> FilterError) throws(FilterError) -> FilterTerm.DateTest {
        switch modifier {
        case "any":
            guard value == nil || value == "" else { throw fail("\(field).any takes no value") }
            return .any
        case "none":
            guard value == nil || value == "" else { throw fail("\(field).none takes no value") }
            return .none
        case nil, "is", "before", "after", "by":
            break
        default:
            throw fail("unknown modifier .\(modifier ?? "") in \(text); give \(field):WHEN, \(field).before:WHEN, \(field).after:WHEN, \(field).by:WHEN, \(field).any or \(field).none")
        }
        guard let value, !value.isEmpty else {
            throw fail("\(text) needs a date, e.g. \(field)\(modifier.map { "." + $0 } ?? ""):today (or \(field):none)")
        }
        switch value.lowercased() {
        case "none" where modifier == nil || modifier == "is": return .none
        case "any" where modifier == nil || modifier == "is": return .any
        default: break
        }
        // Completion, creation and change times lie behind: `completed.after:fri` is the last
        // Friday, `created.after:7d` a week ago, and a future date there would match nothing.
        let past = FilterTerm.DateField(rawValue: field)?.isPast ?? false
        let when = WhenParser(now: now, timeZone: timeZone, direction: past ? .past : .future)
        let date: TaskDate
        do {
            date = try when.parse(value)
            if past, modifier == "after" || modifier == nil || modifier == "is" {
                let bound: TaskDate = modifier == "after" ? date : .day(date.localDay(in: timeZone))
                try when.requirePast(bound, input: value, what: field + (modifier.map { "." + $0 } ?? "") + ":",
                                     strictlyAfter: modifier == "after")
            }
        } catch {
            throw fail("\(text): \(error.errorDescription ?? "not a date")")
        }
        // A period word compares as an instant (`due.before:eow` is before
        // the end of Sunday, so what is due on Sunday is in).
        if let period = PeriodWord(value.trimmingWhitespaceAndNewlines()), case .day(let day) = date {
            switch (modifier, period.isEnd) {
            case ("before", true), ("by", true): return .by(.day(day))
            case ("after", false): return .after(.day(day.adding(days: -1)))
            case ("by", false): return .before(.day(day))
            default: break
            }
        }
        switch modifier {
        case "before": return .before(date)
        case "after": return .after(date)
        case "by": return .by(date)
        default: return .on(date)
        }
    }

    /// A term on a declared field: `NAME:value` (or `NAME:none`/`NAME:any`),
    /// `NAME.any:`, `NAME.none:`, and by type `.before:`/`.after:`/`.by:` (a
    /// date) or `.over:`/`.under:` (a number, a duration).
    func userFieldTest(_ field: UserField, modifier: String?, value: String?, text: String,
                       _ fail: (String) -> FilterError) throws(FilterError) -> UserFieldTest {
        let name = field.name
        if field.kind == .number || field.kind == .duration {
            return try numberTest(name, typeName: field.kind.typeName, example: QuickAddParser.example(field), modifier: modifier, value: value, text: text, fail) {
                number throws(InputError) in
                guard case .number(let literal) = try field.parse(number, with: FieldParser(now: now, timeZone: timeZone)).kind, let n = Double(literal) else {
                    throw .invalid("\(name): not a number")
                }
                return n
            }
        }
        let value = value ?? ""
        if let presence = try presenceTest(name, example: QuickAddParser.example(field), modifier: modifier, value: value, fail) { return presence }
        let fields = FieldParser(now: now, timeZone: timeZone)
        func parsed() throws(FilterError) -> JSONNode {
            do { return try field.parse(value, with: fields) } catch { throw fail("\(text): \(error.errorDescription ?? "not valid")") }
        }
        switch (field.kind, modifier) {
        case (.date, nil), (.date, "is"), (.date, "before"), (.date, "after"), (.date, "by"):
            guard !value.isEmpty else { throw fail("\(text) needs a date, e.g. \(name).\(modifier ?? "before"):today") }
            let test = try dateTest(field: name, modifier: modifier, value: value, text: text, fail)
            return .date(test)
        case (.string, nil), (.string, "is"):
            guard case .string(let s) = try parsed().kind else { throw fail("\(text): not text") }
            return .text(s, ignoringCase: false)
        case (.values, nil), (.values, "is"):
            guard case .string(let s) = try parsed().kind else { throw fail("\(text): not one of the values") }
            return .text(s, ignoringCase: true)
        default:
            let forms: String
            switch field.kind {
            case .date: forms = "\(name):WHEN, \(name).before:WHEN, \(name).after:WHEN, \(name).by:WHEN"
            case .number, .duration: forms = "\(name):N, \(name).over:N, \(name).under:N"
            case .string, .values: forms = "\(name):VALUE"
            }
            throw fail("unknown modifier .\(modifier ?? "") in \(text) for a \(field.kind.typeName) field; give \(forms), \(name).any: or \(name).none:")
        }
    }

    /// `NAME.any:`, `NAME.none:`, `NAME:any`, `NAME:none`; nil for a term
    /// that tests the value; an error for `NAME:` with none.
    func presenceTest(_ name: String, example: String, modifier: String?, value: String,
                      _ fail: (String) -> FilterError) throws(FilterError) -> UserFieldTest? {
        switch modifier {
        case "any", "none":
            guard value.isEmpty else { throw fail("\(name).\(modifier ?? ""): takes no value") }
            return modifier == "any" ? UserFieldTest.any : UserFieldTest.none
        case nil, "is":
            switch value.lowercased() {
            case "": throw fail("\(name): needs a value, e.g. \(name):\(example) (or \(name).any:, \(name).none:)")
            case "none": return UserFieldTest.none
            case "any": return UserFieldTest.any
            default: return nil
            }
        default:
            return nil
        }
    }

    /// A term on a number (a duration in minutes): `NAME:N` (or `NAME:none`/`NAME:any`),
    /// `NAME.over:N`, `NAME.under:N`, `NAME.any:`, `NAME.none:`; `number` reads N.
    func numberTest(_ name: String, typeName: String, example: String, modifier: String?, value: String?, text: String,
                    _ fail: (String) -> FilterError,
                    number: (String) throws(InputError) -> Double) throws(FilterError) -> UserFieldTest {
        let value = value ?? ""
        if let presence = try presenceTest(name, example: example, modifier: modifier, value: value, fail) { return presence }
        switch modifier {
        case nil, "is":
            break
        case "over", "under":
            guard !value.isEmpty else { throw fail("\(text) needs a value, e.g. \(name).\(modifier ?? ""):\(example)") }
        default:
            throw fail("unknown modifier .\(modifier ?? "") in \(text) for a \(typeName) field; give \(name):N, \(name).over:N, \(name).under:N, \(name).any: or \(name).none:")
        }
        let n: Double
        do { n = try number(value) } catch { throw fail("\(text): \(error.errorDescription ?? "not a number")") }
        switch modifier {
        case "over": return .over(n)
        case "under": return .under(n)
        default: return .number(n)
        }
    }

    static func example(_ key: String) -> String {
        if let word = FilterTerm.WordField(rawValue: key) { return key + ":" + word.filter.example }
        switch key {
        case "list": return "list:Work"
        case "state": return "state:done"
        case "tags": return "tags:none"
        case "is": return "is:overdue"
        default: return "\(key):today"
        }
    }
}
