import FoundationEssentials
import Glibc

/// todo.txt (https://github.com/todotxt/todo.txt): one task per line.
///
/// Mapping (see Docs/INTERCHANGE.md):
/// - `x YYYY-MM-DD` ↔ done + `completedAt` (start of that day in the context's zone);
/// - `(A)` ↔ `must`, `(B)`…`(Z)` ↔ `flexible`; a letter other than the
///   canonical one (A for must, B for flexible) is kept in `x-todotxt-priority`;
/// - the creation date ↔ `createdAt` (date only);
/// - the first `+project` ↔ the list; further projects in `x-todotxt-projects`;
/// - `@context` ↔ tags; `due:YYYY-MM-DD` ↔ all-day `due`;
/// - `t:YYYY-MM-DD` (threshold) ↔ `scheduled`; `rec:` ↔ `repeat` (``TodoTxtRecurrence``,
///   else `tickrepeat:`); `remind:YYYYMMDDTHHMMSSZ` ↔ `remind`; `state:active` ↔ active;
///   `energy:` and `estimate:<minutes>m` ↔ energy and estimate; `wait:` (a day or
///   `YYYYMMDDTHHMMSSZ`) ↔ wait; `depends:<uuid>`, once per dependency, ↔ depends
///   (the keys of tick's fields are ``TaskField/todoTxtKey``);
/// - `tick:<uuid>` ↔ the task id (written on export so a re-import after
///   `todo.sh do N` updates the same task). Lines without it get a name-based
///   id derived from their text without completion mark, priority and dates;
/// - a declared field's `NAME:value` ↔ the field (``UserFieldCells``);
/// - every other `key:value` whose key is a word (starts with a letter) is kept, in order, in `x-todotxt-extra` (an
///   object) and written back on export;
/// - a title word that would read as a marker (`+word`, `@word`, `key:value`) is written with a
///   `\` in front of its `+`/`@` or its first `:` (`due\:-7d`), one more `\` for a word already
///   looking like that, and read back without it.
public enum TodoTxtCodec: InterchangeCodec {
    static let priorityKey = "x-todotxt-priority"
    static let projectsKey = "x-todotxt-projects"
    static let extraKey = "x-todotxt-extra"
    static let idKey = "tick"
    /// Extension keys that carry tick fields (written on export, read back on import): the
    /// fields' own (``TaskField/todoTxtKey``), and `tickrepeat` for a rule `rec:` cannot say.
    static let scheduledKey = TaskField.todoTxtKey("scheduled"), recKey = TaskField.todoTxtKey("repeat"),
        remindKey = TaskField.todoTxtKey("remind"), stateKey = TaskField.todoTxtKey("state"),
        waitKey = TaskField.todoTxtKey("wait"), dependsKey = TaskField.todoTxtKey("depends"),
        dueKey = TaskField.todoTxtKey("due")
    static let tickRepeatKey = "tickrepeat"

    /// tick's own keys that are a word of their value (`energy:low`,
    /// `estimate:45m`): each field of the table whose todo.txt key is its
    /// name, whose value is a word, minutes or text and a CSV cell (which
    /// reads the word back). A new such field goes so with no code here;
    /// dates, the state and the sets are spelled by hand above. Text that
    /// is not one todo.txt word (``word(_:key:)``) is not written: a
    /// re-import keeps the store's value.
    static let ownWords: [(key: String, field: TaskField, coding: FieldCellCoding)] = TaskField.all.compactMap { field in
        guard let key = field.todoTxtKey, key == field.name, field.name != "state",
              [.word, .minutes, .text].contains(field.kind), let coding = field.cell else { return nil }
        return (key, field, coding)
    }

    /// The fields a line says other than by a `key:` of the table: the
    /// title (its words), the priority (`(A)`) and the tags (`@context`).
    static let ownFields: Set<String> = ["title", "priority", "tags"]

    /// The fields a line without their key clears on re-import (the others keep the store's value).
    static let absentClears: Set<String> = ["due", "state"]

    /// True when a line can say `field` (``merge(_:onto:timeZone:)`` keeps the store's value of the others: the slot, the notes).
    static func carries(_ field: TaskField) -> Bool {
        field.todoTxtKey != nil || ownFields.contains(field.name)
    }

    // MARK: Decode

    public static func decode(_ bytes: [UInt8], context: InterchangeContext) throws(ImportError) -> [TaskFile] {
        try decode(from: ImportReader(bytes: bytes, path: context.path), context: context)
    }

    /// Reads todo.txt line by line: the input text is never held whole.
    ///
    /// A malformed line is handed to `badRecord`: the default throws it (all
    /// or nothing); one that returns skips the line and goes on with the next.
    public static func decode(
        from reader: ImportReader, context: InterchangeContext,
        badRecord: (ImportError) throws(ImportError) -> Void = { error throws(ImportError) in throw error }
    ) throws(ImportError) -> [TaskFile] {
        var grouper = ImportGrouper(now: context.now, inboxID: UUID(name: "todotxt-inbox"), listIDPrefix: "todotxt-list:")
        var seen: Set<UUID> = []
        try reader.forEachLine { (bytes: ArraySlice<UInt8>, lineNumber: Int) throws(ImportError) in
            func fail(_ message: String) -> ImportError { ImportError(path: context.path, line: lineNumber, message: message) }
            do throws(ImportError) {
                guard let line = String(validating: bytes, as: UTF8.self) else { throw fail("the line is not valid UTF-8") }
                if line.trimmingWhitespace().isEmpty { return }
                let (task, project) = try parseLine(line, number: lineNumber, context: context)
                guard !seen.contains(task.id) else { throw fail("task id \(task.id.lowercased) appears twice (duplicate line?)") }
                if let problem = TextRules.importProblem(title: task.title, notes: task.notes, list: project) { throw fail(problem) }
                try ImportDateCheck.check(task, path: context.path, line: lineNumber)
                seen.insert(task.id)
                grouper.add(task, list: project)
            } catch {
                try badRecord(error)
            }
        }
        return grouper.files
    }

    /// Parses one non-blank line; returns the task and its list name.
    static func parseLine(_ line: String, number: Int, context: InterchangeContext) throws(ImportError) -> (TaskItem, String?) {
        func fail(_ message: String) -> ImportError { ImportError(path: context.path, line: number, message: message) }
        var words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var done = false
        var completed: LocalDate?
        var created: LocalDate?
        var letter: Character?
        func isDateWord(_ w: String) -> Bool {
            w.utf8.count == 10 && w.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
        }
        func date(_ w: String) throws(ImportError) -> LocalDate {
            guard let d = LocalDate(iso: w) else { throw fail("invalid date \"\(w)\"; use YYYY-MM-DD") }
            return d
        }
        if words.first == "x" {
            done = true
            words.removeFirst()
            if let w = words.first, isDateWord(w) {
                completed = try date(w)
                words.removeFirst()
                if let w2 = words.first, isDateWord(w2) {
                    created = try date(w2)
                    words.removeFirst()
                }
            }
        } else {
            if let w = words.first, w.count == 3, w.first == "(", w.last == ")" {
                let c = w[w.index(after: w.startIndex)]
                if c.isASCII, c.isUppercase {
                    letter = c
                    words.removeFirst()
                }
            }
            if let w = words.first, isDateWord(w) {
                created = try date(w)
                words.removeFirst()
            }
        }

        var titleWords: [String] = []
        var projects: [String] = []
        var tags: [String] = []
        var due: TaskDate?
        var scheduled: LocalDate?
        var repeatRule: String?
        var remind: Date?
        var active = false
        // tick's own keys read by their cell (``ownWords``), the first of each,
        // onto a blank task whose values the task then takes.
        let blank = TaskItem(id: TaskItem.placeholderID, title: "-", createdAt: context.now, modifiedAt: context.now)
        var own = blank
        var ownKeys: Set<String> = []
        var wait: TaskDate?
        var depends: [UUID] = []
        var id: UUID?
        var extras: [JSONMember] = []
        // Declared fields (``UserFieldCells``), stored under their names.
        var declared: [JSONMember] = []
        for w in words {
            if w.count > 1, w.hasPrefix("+") {
                projects.append(String(w.dropFirst()))
            } else if w.count > 1, w.hasPrefix("@") {
                let tag = String(w.dropFirst())
                if !tags.contains(tag) { tags.append(tag) }
            } else if let (key, value) = keyValue(w) {
                if key == dueKey {
                    if let d = LocalDate(iso: value) {
                        due = .day(d)
                    } else if let t = Timestamp.parse(value) {
                        due = .time(t)
                    } else {
                        throw fail("invalid due date \"\(value)\"; use due:YYYY-MM-DD")
                    }
                } else if key == scheduledKey, scheduled == nil, let d = LocalDate(iso: value) {
                    scheduled = d
                } else if key == recKey, repeatRule == nil, let rule = TodoTxtRecurrence.tickRule(forRec: value) {
                    repeatRule = rule
                } else if key == tickRepeatKey, repeatRule == nil,
                          case let rule = value.replacingAll("_", with: " "), (try? RecurrenceRule.parse(rule)) != nil {
                    repeatRule = rule
                } else if key == remindKey, remind == nil, let instant = basicTimestamp(value) {
                    remind = instant
                } else if key == stateKey, value == TaskState.active.rawValue {
                    active = true
                } else if !ownKeys.contains(key), let word = Self.ownWords.first(where: { $0.key == key }),
                          word.coding.read(&own, value) == nil {
                    ownKeys.insert(key)
                } else if key == waitKey, wait == nil, let until = LocalDate(iso: value).map(TaskDate.day) ?? basicTimestamp(value).map(TaskDate.time) {
                    wait = until
                } else if key == dependsKey, let dep = UUID(fastString: value) {
                    if !depends.contains(dep) { depends.append(dep) }
                } else if key == idKey {
                    guard let u = UUID(fastString: value) else { throw fail("invalid task id \"\(value)\" in tick:; expected a UUID") }
                    id = u
                } else if let field = context.fields[key], field.name == key, !declared.contains(where: { $0.key == key }),
                          let stored = UserFieldCells.stored(word: value, for: field) {
                    declared.append(JSONMember(key, stored))
                } else {
                    extras.append(JSONMember(key, .string(value)))
                }
            } else {
                titleWords.append(unescapedTitleWord(w))
            }
        }
        let title = titleWords.joined(separator: " ")
        guard !title.isEmpty else { throw fail("the task has no text, only markers") }

        let taskID = id ?? UUID(name: "todotxt:" + words.joined(separator: " "))
        let createdAt = created?.startOfDay(in: context.timeZone) ?? context.now
        var task = TaskItem(id: taskID, title: title, due: due, tags: tags, createdAt: createdAt, modifiedAt: context.now)
        task.scheduled = scheduled
        task.repeatRule = repeatRule
        task.remind = remind
        for word in Self.ownWords { word.field.applyChange(&task, blank, own) }
        task.wait = wait
        // A dependency on itself is dropped (as Taskwarrior's import does).
        task.depends = depends.filter { $0 != taskID }
        task.extra = declared
        if active { task.state = .active }
        if done {
            task.state = .done
            task.completedAt = completed?.startOfDay(in: context.timeZone) ?? context.now
        }
        if let letter {
            task.priority = letter == "A" ? .must : .flexible
            if letter != "A" && letter != "B" {
                task.extra.append(JSONMember(priorityKey, .string(String(letter))))
            }
        }
        if projects.count > 1 {
            task.extra.append(JSONMember(projectsKey, .array(projects.dropFirst().map { .string($0) })))
        }
        if !extras.isEmpty { task.extra.append(JSONMember(extraKey, .object(extras))) }
        return (task, projects.first)
    }

    // MARK: Encode

    public static func encode(_ files: [TaskFile], context: InterchangeContext) -> [UInt8] {
        var out = ""
        for file in files {
            for task in file.tasks {
                out += line(for: task, list: file.name, timeZone: context.timeZone, fields: context.fields) + "\n"
            }
        }
        return Array(out.utf8)
    }

    /// One task as a todo.txt line; the `fields` declared are `NAME:value` words.
    public static func line(for task: TaskItem, list: String?, timeZone: Zone, fields: UserFields = UserFields()) -> String {
        var parts: [String] = []
        let created = LocalDate(date: task.createdAt, timeZone: timeZone).iso
        if task.state == .done {
            parts.append("x")
            parts.append(LocalDate(date: task.completedAt ?? task.modifiedAt, timeZone: timeZone).iso)
        } else if let p = task.priority {
            var letter = p == .must ? "A" : "B"
            if let stored = stringExtra(task, priorityKey), stored.count == 1,
               let c = stored.first, c.isASCII, c.isUppercase, (c == "A") == (p == .must) {
                letter = stored
            }
            parts.append("(\(letter))")
        }
        parts.append(created)
        // Titles are one line (newlines become spaces); words that would read as markers are escaped.
        parts += titleWords(task.title).map(escapedTitleWord)
        if let list { parts.append("+" + list.replacingAll(" ", with: "_")) }
        for member in task.extra where member.key == projectsKey {
            if case .array(let items) = member.value.kind {
                for item in items { if case .string(let s) = item.kind { parts.append("+" + s) } }
            }
        }
        for tag in task.tags { parts.append("@" + tag) }
        if let due = task.due {
            switch due {
            case .day(let d): parts.append("\(dueKey):" + d.iso)
            case .time(let t): parts.append("\(dueKey):" + LocalDate(date: t, timeZone: timeZone).iso)
            }
        }
        if let scheduled = task.scheduled { parts.append("\(scheduledKey):" + scheduled.iso) }
        if let rule = task.repeatRule {
            if let rec = TodoTxtRecurrence.rec(forRule: rule) {
                parts.append("\(recKey):" + rec)
            } else {
                parts.append("\(tickRepeatKey):" + rule.split(whereSeparator: { $0.isWhitespace }).joined(separator: "_"))
            }
        }
        if let remind = task.remind { parts.append("\(remindKey):" + basicTimestamp(remind)) }
        if let wait = task.wait {
            switch wait {
            case .day(let d): parts.append("\(waitKey):" + d.iso)
            case .time(let t): parts.append("\(waitKey):" + basicTimestamp(t))
            }
        }
        if task.state == .active { parts.append("\(stateKey):active") }
        for (key, _, coding) in Self.ownWords {
            if let word = Self.word(coding.todoTxtWord(task), key: key) { parts.append("\(key):" + word) }
        }
        for dep in task.depends { parts.append("\(dependsKey):" + dep.lowercased) }
        for (field, value) in fields.values(of: task) {
            if let word = UserFieldCells.word(value, for: field) { parts.append(field.name + ":" + word) }
        }
        for member in task.extra where member.key == extraKey {
            if case .object(let kvs) = member.value.kind {
                for kv in kvs { if case .string(let v) = kv.value.kind { parts.append(kv.key + ":" + v) } }
            }
        }
        parts.append("\(idKey):" + task.id.lowercased)
        return parts.joined(separator: " ")
    }

    // MARK: Merge

    /// todo.txt cannot hold every field, so a plain replace on re-import would
    /// wipe notes, reminders and times. Callers that update an existing task
    /// from a todo.txt line should store `merge(imported, onto: current)`:
    /// fields the line does not say (no `t:`, no `rec:`, a foreign tool's line)
    /// keep the store's values, dates that only lost their time of day keep it,
    /// dates the line does not give (no creation date, `x` without a date) keep
    /// the store's, and when nothing the line says differs the result equals
    /// `current` (so the import counts it unchanged and `modifiedAt` stays).
    public static func merge(_ imported: TaskItem, onto current: TaskItem, timeZone: Zone) -> TaskItem {
        var r = TaskField.keepingUncarried(imported, store: current, carried: carries)
        // A decoded line's dates that the line did not give are the import time, its `modifiedAt`.
        let importTime = imported.modifiedAt
        // A line without one of tick's keys (`t:`, `rec:`, `wait:`, `depends:` …: another
        // tool's line, an older export) keeps the store's value; `due:` and `state:` say
        // the task's due date and state on every line tick writes, so their absence clears.
        for field in TaskField.all where field.todoTxtKey != nil && !absentClears.contains(field.name) && field.shown(imported) == nil {
            field.applyChange(&r, imported, current)
        }
        if let a = imported.remind, let b = current.remind, abs(a.timeIntervalSince(b)) < 1 { r.remind = b }
        if TodoTxtRecurrence.same(imported.repeatRule, current.repeatRule) { r.repeatRule = current.repeatRule }
        func sameDay(_ a: Date, _ b: Date) -> Bool { LocalDate(date: a, timeZone: timeZone) == LocalDate(date: b, timeZone: timeZone) }
        if r.createdAt == importTime || sameDay(r.createdAt, current.createdAt) { r.createdAt = current.createdAt }
        if case .day(let d)? = r.due, case .time(let t)? = current.due, LocalDate(date: t, timeZone: timeZone) == d { r.due = current.due }
        if r.state == .done, current.state == .done, let a = r.completedAt, let b = current.completedAt, a == importTime || sameDay(a, b) {
            r.completedAt = b
        }
        // `state:active` starts a task; a line without it does not stop one started in tick.
        if r.state == .open, current.state == .active { r.state = .active }
        if r.title == titleWords(current.title).joined(separator: " ") { r.title = current.title }
        r.extra = ImportExtra.merge(current.extra, dropping: [priorityKey, projectsKey, extraKey], imported: imported.extra)
        // Done lines carry no priority (tick writes none; `todo.sh do` removes it).
        if r.state == .done, r.priority == nil {
            r.priority = current.priority
            r.extra = ImportExtra.merge(current.extra, dropping: [projectsKey, extraKey], imported: imported.extra)
        }
        r.needsFill = current.needsFill
        // Change times are the store's (the write stamps what the import changes): a line
        // that changes no value leaves the task as it is, `modifiedAt` included.
        r.changed = current.changed
        r.modifiedAt = current.modifiedAt
        if !r.sameValues(as: current) { r.modifiedAt = max(imported.modifiedAt, current.modifiedAt) }
        return r
    }

    /// Applies ``merge(_:onto:timeZone:)`` to every decoded task whose id is
    /// already in the store; call it between `decode` and `ImportPlan.make`.
    public static func reconcile(_ files: [TaskFile], with snapshot: StoreSnapshot, timeZone: Zone) -> [TaskFile] {
        snapshot.reconciling(files) { t, current in merge(t, onto: current, timeZone: timeZone) }
    }

    // MARK: Words

    /// `value` when `key:value` is one word tick reads back as that key and
    /// value (no space, no `:`, no leading `/`: ``keyValue(_:)``); nil for
    /// any other value, which has no todo.txt form.
    static func word(_ value: String, key: String) -> String? {
        guard !value.contains(where: { $0.isWhitespace }), keyValue(key + ":" + value)?.value == value else { return nil }
        return value
    }

    /// `key` and `value` of a word tick reads as a `key:value` extension: the key is a
    /// word (starts with a letter: letters, digits, `-`, `_`; `1:1`, `10:30` and `16:9` are
    /// title text) and the value is not empty, starts with no `/` and holds no `:` (URLs).
    static func keyValue(_ w: String) -> (key: String, value: String)? {
        guard let colon = w.firstIndex(of: ":"), colon != w.startIndex else { return nil }
        let key = w[..<colon], value = w[w.index(after: colon)...]
        let keyIsWord = key.unicodeScalars.first.map(TextClass.isLetter) == true
            && key.unicodeScalars.allSatisfy { TextClass.isAlphanumeric($0) || $0 == "-" || $0 == "_" }
        guard keyIsWord, !value.isEmpty, !value.hasPrefix("/"), !value.contains(":") else { return nil }
        return (String(key), String(value))
    }

    /// The words of a title on a line: split at spaces and line breaks.
    static func titleWords(_ title: String) -> [String] {
        title.split(whereSeparator: { $0 == " " || $0.isNewline }).map(String.init)
    }

    /// Where a title word takes its escaping `\` and how many it has: for a word that reads
    /// as a marker (`+work`, `@home`, `due:-7d`: none yet) or looks like an escaped one
    /// (`\+work`, `due\:-7d`: one or more), the index in front of the `+`/`@` or the first
    /// `:`; nil for any other word.
    private static func escapePoint(_ w: String) -> (index: String.Index, count: Int)? {
        let rest = w.drop { $0 == "\\" }
        if rest.count > 1, rest.first == "+" || rest.first == "@" {
            return (w.startIndex, w.distance(from: w.startIndex, to: rest.startIndex))
        }
        guard let colon = w.firstIndex(of: ":") else { return nil }
        let key = w[..<colon]
        let bare = key.reversed().drop { $0 == "\\" }.count
        guard keyValue(String(key.prefix(bare)) + w[colon...]) != nil else { return nil }
        return (w.index(w.startIndex, offsetBy: bare), key.count - bare)
    }

    /// A title word as it is written: one more `\` at its escape point.
    static func escapedTitleWord(_ w: String) -> String {
        guard let point = escapePoint(w) else { return w }
        var out = w
        out.insert("\\", at: point.index)
        return out
    }

    /// A title word as it was before ``escapedTitleWord(_:)``.
    static func unescapedTitleWord(_ w: String) -> String {
        guard let point = escapePoint(w), point.count > 0 else { return w }
        var out = w
        out.remove(at: point.index)
        return out
    }

    /// `20261204T090000Z`: an instant in UTC without `:` (todo.txt values hold none).
    static func basicTimestamp(_ date: Date) -> String {
        Timestamp.format(date).filter { $0 != "-" && $0 != ":" }
    }

    /// Reads ``basicTimestamp(_:)``; nil for anything else.
    static func basicTimestamp(_ text: String) -> Date? {
        let b = Array(text.utf8)
        guard b.count == 16, b[8] == UInt8(ascii: "T"), b[15] == UInt8(ascii: "Z") else { return nil }
        let s = String(decoding: b, as: UTF8.self)
        func cut(_ from: Int, _ length: Int) -> Substring {
            let start = s.index(s.startIndex, offsetBy: from)
            return s[start..<s.index(start, offsetBy: length)]
        }
        return Timestamp.parse("\(cut(0, 4))-\(cut(4, 2))-\(cut(6, 2))T\(cut(9, 2)):\(cut(11, 2)):\(cut(13, 2))Z")
    }

    private static func stringExtra(_ task: TaskItem, _ key: String) -> String? {
        for m in task.extra where m.key == key {
            if case .string(let s) = m.value.kind { return s }
        }
        return nil
    }
}
