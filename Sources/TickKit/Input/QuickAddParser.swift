import FoundationEssentials

/// Splits Taskwarrior-style words into a title and field changes.
///
/// Tokens: `due:WHEN`, `remind:WHEN`, `sched:WHEN` (or `scheduled:`),
/// `list:NAME` (or `project:`), `+tag`, `pri:must|flexible` (or `priority:`, and
/// Taskwarrior's `H`, `M`, `L`), `energy:high|low|any`, `repeat:RULE` (or `recur:`,
/// which also takes Taskwarrior's values), `estimate:45m` (or `est:`),
/// `at:14:00` / `at:DAY@14:00` (a slot), `for:45m` (its length), `wait:WHEN` and
/// `depends:ID[,ID]` (`depends:-ID` removes one in an edit). With `allowRemoval`, `-tag` removes
/// a tag and an empty value (`due:`) or `none` clears the field. Other spellings
/// of a key come from ``FieldNames/aliases``.
///
/// Refused rather than kept as title text: a `key:value` whose key is Taskwarrior's or
/// todo.txt's and not a field here (``FieldNames/notTakenOnAdd``: `until:eom`,
/// `status:done`, `t:2026-12-01`), and a filter modifier (`due.before:fri`).
///
/// What stays title text (Docs/CLI.md "Literal titles"): words after `--`; a word starting
/// with a backslash (which is dropped); `key:value` whose key is not one of ``keys``; a
/// known key followed by a space inside one quoted word (`'Remind: Sam'`); a capitalized
/// key with nothing after the colon (`Remind:`); `at:` followed by no digit (`at:home`);
/// `+` followed by a digit or an ASCII sign (`+1`, `+15%`).
public struct QuickAddParser: Sendable {
    public let fields: FieldParser
    /// The fields declared in config.toml: `NAME:value` sets one (``UserField/parse(_:with:)``).
    public let userFields: UserFields

    public init(fields: FieldParser, userFields: UserFields = UserFields()) {
        self.fields = fields
        self.userFields = userFields
    }

    /// tick's keys of quick-add tokens: the fields' input keys (``TaskField/inputKey``),
    /// `list:` (the file a task is in) and `for:` (a slot's length).
    static let fieldKeys: Set<String> = TaskField.inputKeys.union(["list", "for"])

    /// The keys recognized as tokens: tick's and their other spellings (``FieldNames/aliases``).
    public static let keys: Set<String> = fieldKeys.union(FieldNames.aliases.filter { fieldKeys.contains($0.value) }.keys)

    /// The fields' input codings by key (``TaskField/input``).
    static let inputs: [String: FieldInputCoding] = Dictionary(
        TaskField.inputs.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })

    /// The keys that take WHEN words (a day or an instant, from the field table).
    static let dateKeys: Set<String> = TaskField.dateInputKeys

    /// Parses words; returns the title (words joined by spaces; may be empty) and the edit.
    public func parse(_ words: [String], allowRemoval: Bool = false) throws(InputError) -> (title: String, edit: TaskEdit) {
        let (titleWords, edit) = try split(words, allowRemoval: allowRemoval)
        return (titleWords.joined(separator: " "), edit)
    }

    /// Parses words; returns the words that are title text, one by one, and the edit.
    public func split(_ words: [String], allowRemoval: Bool = false) throws(InputError) -> (titleWords: [String], edit: TaskEdit) {
        var edit = TaskEdit()
        var titleWords: [String] = []
        var literal = false
        var words = words[...]
        while let word = words.popFirst() {
            if literal {
                titleWords.append(word)
                continue
            }
            if word == "--" {
                literal = true
                continue
            }
            if word.hasPrefix("\\"), word.count > 1 {
                titleWords.append(String(word.dropFirst()))
                continue
            }
            // todo.txt's priority first: `(A) Call mum` (one quoted word or several).
            if titleWords.isEmpty, edit[\.priority] == .keep, let (priority, rest) = Self.todoTxtPriority(word) {
                edit[\.priority] = .set(priority)
                if !rest.isEmpty { words.insert(contentsOf: rest.split(separator: " ").map(String.init), at: words.startIndex) }
                continue
            }
            if Self.isTagWord(word) {
                do { edit.addTags.append(try fields.tag(word)) } catch { throw Self.literalHint(error, word: word, allowRemoval) }
                continue
            }
            if allowRemoval, Self.isUntagWord(word) {
                edit.removeTags.append(try fields.tag(String(word.dropFirst())))
                continue
            }
            if let (field, typedValue) = userToken(in: word) {
                try applyUser(field, typedValue, word: word, rest: &words, to: &edit, allowRemoval: allowRemoval)
                continue
            }
            if let refusal = userFilterWord(word) { throw Self.literalHint(refusal, word: word, allowRemoval) }
            // `tick edit 3 title:"New title"` (Taskwarrior's `modify description:…`): the title.
            if allowRemoval, let title = Self.titleToken(word) {
                guard !title.trimmingWhitespace().isEmpty else { throw .emptyTitle }
                edit.title = title
                continue
            }
            guard let (key, typedValue) = Self.token(in: word) else {
                if let refusal = Self.notAField(word) { throw Self.literalHint(refusal, word: word, allowRemoval) }
                titleWords.append(word)
                continue
            }
            var value = typedValue
            if value.isEmpty || value.lowercased() == "none" {
                // `due: fri` is a mistyped `due:fri`, never a clear plus a title word.
                if let next = words.first, next != "--", !Self.isFieldWord(next, allowRemoval: allowRemoval) {
                    throw .separatedValue(key: key, next: next, clearing: allowRemoval)
                }
                if value.isEmpty || allowRemoval {
                    try clear(key: key, in: &edit, allowRemoval: allowRemoval)
                }
                continue
            }
            var spelled = word
            for next in joinedWords(key: key, value: value, following: words) {
                value += " " + next
                spelled += " " + next
                words = words.dropFirst()
            }
            do { try apply(key: key, value: value, to: &edit, allowRemoval: allowRemoval) } catch { throw Self.literalHint(error, word: spelled, allowRemoval) }
        }
        return (titleWords, edit)
    }

    // MARK: - What is a token

    /// `+tag`: a plus followed by a letter, `_` or any non-ASCII character (`+é`, `+🔥`);
    /// a digit or other ASCII sign after the plus makes it text (`+1`, `+15%`, `+$5`).
    static func isTagWord(_ word: String) -> Bool {
        guard word.count > 1, word.hasPrefix("+"), let first = word.dropFirst().first else { return false }
        return !first.isASCII || first.isLetter || first == "_"
    }

    /// The value of `title:VALUE` or `description:VALUE` (edit only); nil for another word.
    static func titleToken(_ word: String) -> String? {
        guard let colon = word.firstIndex(of: ":"), FieldNames.canonical(String(word[..<colon])) == "title" else { return nil }
        return String(word[word.index(after: colon)...])
    }

    /// `-tag` (edit only): a minus followed by a letter.
    static func isUntagWord(_ word: String) -> Bool {
        word.count > 1 && word.hasPrefix("-") && !word.hasPrefix("--") && word.dropFirst().first?.isLetter == true
    }

    /// The key (lowercased) and value when `word` is a `key:value` token; nil when it is text.
    static func token(in word: String) -> (key: String, value: String)? {
        guard let colon = word.firstIndex(of: ":") else { return nil }
        let typedKey = word[..<colon]
        let key = typedKey.lowercased()
        guard keys.contains(key) else { return nil }
        let value = String(word[word.index(after: colon)...])
        // `'Remind: Sam about keys'` quoted as one word: prose, not a token.
        if value.first?.isWhitespace == true { return nil }
        // `Remind:` or `Note:` written as a sentence starts: prose.
        if value.isEmpty, typedKey.first?.isUppercase == true { return nil }
        // `at:home`, `at:work`: an English word, not a start time.
        if key == "at", !value.isEmpty, !value.contains(where: { $0.isASCII && $0.isNumber }), !value.contains("@"),
           value.lowercased() != "noon" {
            return nil
        }
        return (key, value)
    }

    /// `(A)` (must) or `(B)`…`(Z)` (flexible) at the start of a word, as todo.txt
    /// and `tick import` read them, and the rest of the word.
    static func todoTxtPriority(_ word: String) -> (Priority, String)? {
        let chars = Array(word)
        guard chars.count >= 3, chars[0] == "(", chars[2] == ")", let letter = chars[1].asciiValue,
              letter >= UInt8(ascii: "A"), letter <= UInt8(ascii: "Z"), chars.count == 3 || chars[3] == " " else { return nil }
        return (letter == UInt8(ascii: "A") ? .must : .flexible, String(chars.dropFirst(3)).trimmingWhitespace())
    }

    /// The refusal of a word that looks like a field tick does not take here:
    /// Taskwarrior's or todo.txt's key (``FieldNames/notTakenOnAdd``), or a filter
    /// modifier (`due.before:fri`). Nil for text (`Note:x`, `16:9`, `http://…`, `Status: ok`).
    static func notAField(_ word: String) -> InputError? {
        guard let colon = word.firstIndex(of: ":") else { return nil }
        let typedKey = word[..<colon]
        let value = word[word.index(after: colon)...]
        guard let first = value.first, !first.isWhitespace, !typedKey.isEmpty,
              typedKey.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == ".") }) else { return nil }
        let key = typedKey.lowercased()
        let parts = key.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 2, keys.contains(String(parts[0])) || FilterParser.keys.contains(FieldNames.canonical(String(parts[0]))) {
            let field = FieldNames.canonical(String(parts[0]))
            return .invalid("\(typedKey): is a filter term (tick list \(word)); to set the field write \(field):\(value)")
        }
        guard let hint = FieldNames.notTakenOnAdd[key] else { return nil }
        return .invalid("\(key): is not a field tick sets here: \(hint)")
    }

    /// True when `word` would be read as a token (so it is not a stray value).
    static func isFieldWord(_ word: String, allowRemoval: Bool) -> Bool {
        isTagWord(word) || (allowRemoval && isUntagWord(word)) || token(in: word) != nil
    }

    /// The words after `key:value` that belong to its value: `due:in 3d`, `due:in 3 days`,
    /// `due:next monday`, `due:last fri`, `due:2d ago`, `due:3 days ago`, `due:dec 24`, `due:24 dec`, `due:dec 24 2027`, `repeat:every 2w`,
    /// `repeat:every 3 days`. Only these shapes join, so a title word is never taken.
    func joinedWords(key: String, value: String, following words: ArraySlice<String>) -> [String] {
        let lower = value.lowercased()
        var rest = words
        var taken: [String] = []
        func take(_ ok: (String) -> Bool) -> Bool {
            guard let next = rest.first, ok(next.lowercased()) else { return false }
            taken.append(next)
            rest = rest.dropFirst()
            return true
        }
        let isNumber: (String) -> Bool = { !$0.isEmpty && $0.count <= 5 && $0.allSatisfy { $0.isASCII && $0.isNumber } }
        let isUnit: (String) -> Bool = { DurationUnit.named($0.split(separator: "@").first ?? "") != nil }
        let isMonth: (String) -> Bool = { WhenParser.months[String($0.split(separator: "@").first ?? "")] != nil }
        let isDayOfMonth: (String) -> Bool = { word in
            let day = String(word.split(separator: "@").first ?? "")
            return WhenParser.ordinal(day) != nil || (isNumber(day) && day.count <= 2 && (Int(day) ?? 0) >= 1 && (Int(day) ?? 0) <= 31)
        }
        if FieldNames.canonical(key) == "repeat" {
            if lower == "every", take({ _ in true }), isNumber(taken[0].lowercased()) {
                _ = take(isUnit)
            }
            return taken
        }
        guard Self.dateKeys.contains(FieldNames.canonical(key)) else { return [] }
        if lower == "in" {
            if take({ _ in true }), isNumber(taken[0].lowercased()) { _ = take(isUnit) }
        } else if lower == "next" || lower == "last" || lower == "this" {
            _ = take { _ in true }
        } else if isNumber(lower), !take(isMonth) {
            _ = take(isUnit)   // `due:3 days`
        } else if WhenParser.ordinal(lower) != nil {
            _ = take(isMonth)  // `due:24th dec`
        } else if WhenParser.months[lower] != nil {
            if take(isDayOfMonth), !taken[0].contains("@") {
                _ = take { $0.count == 4 && isNumber($0) }   // a year
            }
        }
        // `due:2d ago`, `due:3 days ago`: the past, never "ago" in the title
        // (a value it does not fit is an error, not text).
        _ = take { $0 == "ago" }
        return taken
    }

    /// The declared field and value when `word` is `NAME:value` for a field of
    /// ``userFields``; nil when it is text (the same prose rules as tick's keys).
    func userToken(in word: String) -> (field: UserField, value: String)? {
        guard !userFields.isEmpty, let colon = word.firstIndex(of: ":") else { return nil }
        let typedKey = word[..<colon]
        guard let field = userFields[String(typedKey)] else { return nil }
        let value = String(word[word.index(after: colon)...])
        if value.first?.isWhitespace == true { return nil }
        if value.isEmpty, typedKey.first?.isUppercase == true { return nil }
        return (field, value)
    }

    /// The refusal of `NAME.before:fri` for a declared field: a filter term, not a value.
    func userFilterWord(_ word: String) -> InputError? {
        guard !userFields.isEmpty, let colon = word.firstIndex(of: ":") else { return nil }
        let parts = word[..<colon].lowercased().split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let field = userFields[String(parts[0])], !word[word.index(after: colon)...].isEmpty else { return nil }
        return .invalid("\(word[..<colon]): is a filter term (tick list \(word)); to set the field write \(field.name):\(word[word.index(after: colon)...])")
    }

    /// Applies `NAME:value` of a declared field: an empty value (or `none`)
    /// clears it in an edit; a date takes the same following words as `due:`.
    private func applyUser(_ field: UserField, _ typedValue: String, word: String, rest words: inout ArraySlice<String>,
                           to edit: inout TaskEdit, allowRemoval: Bool) throws(InputError) {
        var value = typedValue
        if value.isEmpty || value.lowercased() == "none" {
            if let next = words.first, next != "--", !Self.isFieldWord(next, allowRemoval: allowRemoval), userToken(in: next) == nil {
                throw .separatedValue(key: field.name, next: next, clearing: allowRemoval)
            }
            if allowRemoval {
                edit.userFields[field.name] = .clear
            } else if value.isEmpty {
                throw .invalid("\(field.name): needs a value, e.g. \(field.name):\(Self.example(field)); "
                    + "if \"\(field.name):\" is title text, put it after `--` or write \\\(field.name):")
            }
            return
        }
        var spelled = word
        if case .date = field.kind {
            for next in joinedWords(key: "due", value: value, following: words) {
                value += " " + next
                spelled += " " + next
                words = words.dropFirst()
            }
        }
        do { edit.userFields[field.name] = .set(try field.parse(value, with: fields)) } catch {
            throw Self.literalHint(error, word: spelled, allowRemoval)
        }
    }

    static func example(_ field: UserField) -> String {
        switch field.kind {
        case .string: return "text"
        case .number: return "3"
        case .date: return "tomorrow"
        case .duration: return "45m"
        case .values(let names): return names.first ?? "a"
        }
    }

    // MARK: - Applying

    /// In `add`, a bad token value may be a title word: the error says how to keep it as text.
    /// (`edit` takes a new title only from `--title` or from words alone.)
    static func literalHint(_ error: InputError, word: String, _ allowRemoval: Bool) -> InputError {
        allowRemoval ? error : .inToken(word: word, error)
    }

    private func clear(key: String, in edit: inout TaskEdit, allowRemoval: Bool) throws(InputError) {
        guard allowRemoval || FieldNames.canonical(key) == "list" else {
            throw .invalid("\(key): needs a value, e.g. \(key):\(Self.example(key)); "
                + "if \"\(key):\" is title text, put it after `--` or write \\\(key):")
        }
        let canonical = FieldNames.canonical(key)
        if let clear = Self.inputs[canonical]?.clear {
            edit.set(clear)
            return
        }
        switch canonical {
        case "at": edit.slot = .clear
        case "depends":
            edit.dependsCleared = true
            edit.dependsAdded = []
        case "for": throw .invalid("for: needs a length, e.g. for:45m (use at: to remove the slot)")
        default: throw .invalid("list: needs a list name, e.g. list:Work (use list:inbox for the inbox)")
        }
    }

    private func apply(key: String, value: String, to edit: inout TaskEdit, allowRemoval: Bool) throws(InputError) {
        let canonical = FieldNames.canonical(key)
        if let parse = Self.inputs[canonical]?.parse {
            edit.set(try parse(value, key, fields))
            return
        }
        switch canonical {
        case "depends":
            for ref in try fields.dependencies(value) {
                if ref.hasPrefix("-") {
                    guard allowRemoval else {
                        throw .invalid("depends: \"\(ref)\" removes a dependency, which only tick edit does; give task ids, e.g. depends:3,7")
                    }
                    edit.dependsRemoved.append(String(ref.dropFirst()))
                } else if !edit.dependsAdded.contains(ref) {
                    edit.dependsAdded.append(ref)
                }
            }
        case "list": edit.list = value
        case "at": edit.slot = .set(try fields.slotStart(value))
        case "for": edit.slotMinutes = try fields.slotLength(value)
        default: break
        }
    }

    /// A value for `key` in an error that asks for one: the field's own (from
    /// the table), else `at:`'s companion and `list:`.
    static func example(_ key: String) -> String {
        let canonical = FieldNames.canonical(key)
        if let example = inputs[canonical]?.example { return example }
        switch canonical {
        case "for": return Int.inputExample
        case "list": return "Work"
        default: return TaskDate.inputExample
        }
    }
}
