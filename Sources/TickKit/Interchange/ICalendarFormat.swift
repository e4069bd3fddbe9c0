import FoundationEssentials
import Glibc

/// iCalendar (RFC 5545) VTODO components. See Docs/INTERCHANGE.md.
public enum ICalendarCodec: InterchangeCodec {
    static let uidKey = "x-ical-uid"
    static let priorityKey = "x-ical-priority"
    static let statusKey = "x-ical-status"

    // MARK: - Content lines

    /// One unfolded content line: `NAME;PARAM=V:value`.
    struct ContentLine {
        var name: String
        var params: [String: String]
        var value: String
        /// 1-based physical line where it starts.
        var line: Int
    }

    /// Unfolds (CRLF or LF followed by a space or tab) and splits into content lines.
    static func contentLines(_ text: String, path: String) throws(ImportError) -> [ContentLine] {
        var logical: [(String, Int)] = []
        var number = 0
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            number += 1
            var s = String(raw)
            if s.hasSuffix("\r") { s.removeLast() }
            if number == 1, s.hasPrefix("\u{FEFF}") { s.removeFirst() }
            // By scalar: a fold before a joiner or combining mark (Python's icalendar folds
            // there) makes " " and it one Character, which `first` would not see as a space.
            if let first = s.unicodeScalars.first, first == " " || first == "\t", !logical.isEmpty {
                logical[logical.count - 1].0 += String(s.unicodeScalars.dropFirst())
            } else if !s.isEmpty {
                logical.append((s, number))
            }
        }
        var result: [ContentLine] = []
        for (text, line) in logical {
            guard let parsed = parse(text, line: line) else {
                throw ImportError(path: path, line: line, message: "malformed content line \"\(text.prefix(40))\"; expected NAME:value")
            }
            result.append(parsed)
        }
        return result
    }

    /// Splits a content line, honouring quoted parameter values.
    static func parse(_ text: String, line: Int) -> ContentLine? {
        var name = ""
        var params: [String: String] = [:]
        var i = text.startIndex
        while i < text.endIndex, text[i] != ";", text[i] != ":" {
            name.append(text[i])
            i = text.index(after: i)
        }
        guard !name.isEmpty, i < text.endIndex else { return nil }
        while i < text.endIndex, text[i] == ";" {
            i = text.index(after: i)
            var key = ""
            while i < text.endIndex, text[i] != "=", text[i] != ":", text[i] != ";" {
                key.append(text[i])
                i = text.index(after: i)
            }
            var value = ""
            if i < text.endIndex, text[i] == "=" {
                i = text.index(after: i)
                var quoted = false
                while i < text.endIndex {
                    let c = text[i]
                    if c == "\"" { quoted.toggle() } else if !quoted, c == ":" || c == ";" { break } else { value.append(c) }
                    i = text.index(after: i)
                }
            }
            params[key.uppercased()] = value
        }
        guard i < text.endIndex, text[i] == ":" else { return nil }
        return ContentLine(name: name.uppercased(), params: params, value: String(text[text.index(after: i)...]), line: line)
    }

    /// TEXT unescaping: `\\`, `\;`, `\,`, `\n`/`\N`.
    static func unescape(_ s: String) -> String {
        var out = ""
        var escaping = false
        for c in s {
            if escaping {
                switch c {
                case "n", "N": out.append("\n")
                default: out.append(c)
                }
                escaping = false
            } else if c == "\\" {
                escaping = true
            } else {
                out.append(c)
            }
        }
        if escaping { out.append("\\") }
        return out
    }

    /// For a task already in the store, notes that differ from the store's only by
    /// what TEXT escaping cannot carry (a CRLF is written as a line break, a lone CR
    /// not at all) keep the store's, so a re-import that changes no value changes no
    /// byte. Call it between `decode` and `ImportPlan.make`.
    public static func reconcile(_ files: [TaskFile], with snapshot: StoreSnapshot) -> [TaskFile] {
        snapshot.reconciling(files) { task, old in
            guard let notes = old.notes, task.notes != notes, task.notes == unescape(escape(notes)) else { return task }
            var t = task
            t.notes = notes
            return t
        }
    }

    /// TEXT escaping.
    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n": out += "\\n"
            case "\r\n": out += "\\n"
            case "\r": break
            default: out.append(c)
            }
        }
        return out
    }

    /// Splits a TEXT list on unescaped commas.
    static func splitList(_ s: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaping = false
        for c in s {
            if escaping { current.append("\\"); current.append(c); escaping = false } else if c == "\\" { escaping = true } else if c == "," { parts.append(current); current = "" } else { current.append(c) }
        }
        parts.append(current)
        return parts.map(unescape)
    }

    /// Folds a line to 75 octets per physical line, never inside a UTF-8 sequence.
    static func fold(_ line: String) -> String {
        var out = ""
        var used = 0
        var limit = 75
        for scalar in line.unicodeScalars {
            let size = String(scalar).utf8.count
            if used + size > limit {
                out += "\r\n "
                used = 0
                limit = 74
            }
            out.unicodeScalars.append(scalar)
            used += size
        }
        return out + "\r\n"
    }

    // MARK: - Dates

    enum ICalTime {
        case date(LocalDate)
        case instant(Date)
    }

    static func parseTime(_ p: ContentLine, context: InterchangeContext) throws(ImportError) -> ICalTime {
        let v = p.value.trimmingWhitespace()
        let fail = ImportError(path: context.path, line: p.line, message: "invalid \(p.name) value \"\(v)\"; expected YYYYMMDD or YYYYMMDDTHHMMSS[Z]")
        let digits = Array(v.utf8)
        func num(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= digits.count else { return nil }
            var n = 0
            for b in digits[from..<(from + count)] {
                guard b >= 0x30, b <= 0x39 else { return nil }
                n = n * 10 + Int(b - 0x30)
            }
            return n
        }
        guard let y = num(0, 4), let m = num(4, 2), let d = num(6, 2) else { throw fail }
        if digits.count == 8 || p.params["VALUE"]?.uppercased() == "DATE" {
            guard digits.count == 8, let day = LocalDate(year: y, month: m, day: d) else { throw fail }
            return .date(day)
        }
        guard digits.count >= 15, digits[8] == UInt8(ascii: "T"), let h = num(9, 2), let mi = num(11, 2), let s = num(13, 2),
              let day = LocalDate(year: y, month: m, day: d), h <= 23, mi <= 59, s <= 60
        else { throw fail }
        let utc = digits.count == 16 && digits[15] == UInt8(ascii: "Z")
        guard digits.count == 15 || utc else { throw fail }
        if utc {
            let seconds = day.daysSinceEpoch * 86_400 + h * 3_600 + mi * 60 + min(s, 59)
            return .instant(Date(timeIntervalSince1970: TimeInterval(seconds)))
        }
        var zone = context.timeZone
        if let tzid = p.params["TZID"] {
            // Some writers prefix the id with "/"; unknown ids fall back to the import's zone.
            let cleaned = tzid.hasPrefix("/") ? String(tzid.dropFirst()) : tzid
            zone = Zone(named: cleaned) ?? context.timeZone
        }
        return .instant(day.at(hour: h, minute: mi, second: min(s, 59), timeZone: zone))
    }

    static func stamp(_ date: Date) -> String {
        Timestamp.format(date).replacingAll("-", with: "").replacingAll(":", with: "")
    }

    static func basic(_ d: LocalDate) -> String { d.iso.replacingAll("-", with: "") }

    /// An RFC 5545 duration such as `-PT15M`, `P1D`, `-P1DT2H`, `P2W`, in seconds.
    static func duration(_ s: String) -> TimeInterval? {
        var text = Substring(s.trimmingWhitespace())
        var sign: Double = 1
        if text.hasPrefix("-") { sign = -1; text = text.dropFirst() } else if text.hasPrefix("+") { text = text.dropFirst() }
        guard text.hasPrefix("P") else { return nil }
        text = text.dropFirst()
        var total: Double = 0
        var number = ""
        var inTime = false
        var any = false
        for c in text {
            if c.isASCII, c.isNumber { number.append(c); continue }
            if c == "T" { inTime = true; continue }
            guard let n = Double(number) else { return nil }
            number = ""
            any = true
            switch (c, inTime) {
            case ("W", false): total += n * 604_800
            case ("D", false): total += n * 86_400
            case ("H", true): total += n * 3_600
            case ("M", true): total += n * 60
            case ("S", true): total += n
            default: return nil
            }
        }
        guard any, number.isEmpty else { return nil }
        return sign * total
    }

    // MARK: - Decode

    public static func decode(_ bytes: [UInt8], context: InterchangeContext) throws(ImportError) -> [TaskFile] {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ImportError(path: context.path, line: nil, message: "the file is not valid UTF-8")
        }
        let lines = try contentLines(text, path: context.path)
        guard let first = lines.first, first.name == "BEGIN", first.value.uppercased() == "VCALENDAR" else {
            throw ImportError(path: context.path, line: lines.first?.line ?? 1, message: "not an iCalendar file: expected BEGIN:VCALENDAR")
        }
        var grouper = ImportGrouper(now: context.now, inboxID: UUID(name: "ical-inbox"), listIDPrefix: "ical-list:")
        var seen: Set<UUID> = []
        var stack: [String] = []
        var todo: [ContentLine] = []
        var alarms: [[ContentLine]] = []
        var todoStart = 0
        for line in lines {
            switch line.name {
            case "BEGIN":
                let comp = line.value.uppercased()
                stack.append(comp)
                if comp == "VTODO" {
                    todo = []
                    alarms = []
                    todoStart = line.line
                } else if comp == "VALARM", stack.dropLast().last == "VTODO" {
                    alarms.append([])
                }
            case "END":
                let comp = line.value.uppercased()
                guard stack.last == comp else {
                    throw ImportError(path: context.path, line: line.line, message: "END:\(comp) does not match BEGIN:\(stack.last ?? "nothing")")
                }
                stack.removeLast()
                if comp == "VTODO" {
                    let (task, list) = try makeTask(todo, alarms: alarms, start: todoStart, context: context)
                    guard !seen.contains(task.id) else {
                        throw ImportError(path: context.path, line: todoStart, message: "UID of this VTODO appears twice")
                    }
                    seen.insert(task.id)
                    if let problem = TextRules.importProblem(title: task.title, notes: task.notes, list: list) {
                        throw ImportError(path: context.path, line: todoStart, message: problem)
                    }
                    try ImportDateCheck.check(task, path: context.path, line: todoStart)
                    grouper.add(task, list: list)
                }
            default:
                if stack.last == "VTODO" {
                    todo.append(line)
                } else if stack.last == "VALARM", stack.dropLast().last == "VTODO", !alarms.isEmpty {
                    alarms[alarms.count - 1].append(line)
                }
            }
        }
        if let open = stack.last {
            throw ImportError(path: context.path, line: lines.last?.line, message: "BEGIN:\(open) is never closed (truncated file?)")
        }
        return grouper.files
    }

    static func makeTask(_ props: [ContentLine], alarms: [[ContentLine]], start: Int, context: InterchangeContext) throws(ImportError) -> (TaskItem, String?) {
        func prop(_ name: String) -> ContentLine? { props.first { $0.name == name } }
        func fail(_ line: Int, _ message: String) -> ImportError { ImportError(path: context.path, line: line, message: message) }
        // Kept as written, edge spaces too (issue 45: a title " Buy" came back as "Buy").
        let summary = prop("SUMMARY").map { unescape($0.value) } ?? ""
        guard !summary.trimmingWhitespaceAndNewlines().isEmpty else { throw fail(start, "VTODO has no SUMMARY (a task needs a title)") }
        var extra: [JSONMember] = []
        // The order of the unknown keys, `x-ical-` ones (which properties set) included.
        var order: [String] = []
        if let json = prop("X-TICK-JSON") {
            guard let node = try? JSONParser.parse(unescape(json.value)), case .object(let members) = node.kind else {
                throw fail(json.line, "X-TICK-JSON is not a JSON object")
            }
            extra = members.filter { !$0.key.hasPrefix("x-ical-") }
            // A declared field's place (its value is its X-TICK-FIELD) is `x-ical-field:NAME`.
            order = members.map { $0.key.hasPrefix(fieldPlaceKey) ? String($0.key.dropFirst(fieldPlaceKey.count)) : $0.key }
        }
        let id: UUID
        if let uid = prop("UID")?.value.trimmingWhitespace(), !uid.isEmpty {
            if let u = UUID(fastString: uid) {
                id = u
                if uid != u.lowercased { extra.append(JSONMember(uidKey, .string(uid))) }
            } else {
                id = UUID(name: "ical:" + uid)
                extra.append(JSONMember(uidKey, .string(uid)))
            }
        } else {
            // No UID: derive one from the title so re-imports stay stable.
            id = UUID(name: "ical-summary:" + summary)
        }
        var task = TaskItem(id: id, title: summary, createdAt: context.now, modifiedAt: context.now)
        // Declared fields' `X-TICK-FIELD`s (over the same keys in `X-TICK-JSON`).
        for member in DavMapping.userFieldValues(props, fields: context.fields) {
            if let i = extra.firstIndex(where: { $0.key == member.key }) { extra[i] = member } else { extra.append(member) }
        }
        task.extra = extra
        if let d = prop("DESCRIPTION").map({ unescape($0.value) }), !d.isEmpty { task.notes = d }
        if let p = prop("DUE") {
            switch try parseTime(p, context: context) {
            case .date(let d): task.due = .day(d)
            case .instant(let t): task.due = .time(t)
            }
        }
        if let p = prop("DTSTART") {
            switch try parseTime(p, context: context) {
            case .date(let d): task.scheduled = d
            case .instant(let t): task.scheduled = LocalDate(date: t, timeZone: context.timeZone)
            }
        }
        func instant(_ name: String) throws(ImportError) -> Date? {
            guard let p = prop(name) else { return nil }
            switch try parseTime(p, context: context) {
            case .date(let d): return d.startOfDay(in: context.timeZone)
            case .instant(let t): return t
            }
        }
        if let c = try instant("CREATED") { task.createdAt = c }
        if let m = try instant("LAST-MODIFIED") {
            task.modifiedAt = m
        } else if let m = try instant("DTSTAMP") {
            task.modifiedAt = m
        }
        if let p = prop("STATUS") {
            switch p.value.uppercased() {
            case "NEEDS-ACTION": task.state = .open
            case "IN-PROCESS": task.state = .active
            case "COMPLETED": task.state = .done
            case "CANCELLED":
                task.state = .done
                task.extra.append(JSONMember(statusKey, .string("CANCELLED")))
            default: throw fail(p.line, "unknown STATUS \"\(p.value)\"; expected NEEDS-ACTION, IN-PROCESS, COMPLETED or CANCELLED")
            }
        }
        let completed = try instant("COMPLETED")
        if completed != nil, prop("STATUS") == nil { task.state = .done }
        if task.state == .done { task.completedAt = completed ?? task.modifiedAt }
        if let p = prop("PRIORITY") {
            guard let n = Int(p.value.trimmingWhitespace()), (0...9).contains(n) else {
                throw fail(p.line, "PRIORITY must be 0 to 9, not \"\(p.value)\"")
            }
            switch n {
            case 1...4: task.priority = .must
            case 5...9: task.priority = .flexible
            default: break
            }
            if n != 0, n != 1, n != 5 { task.extra.append(JSONMember(priorityKey, .string(String(n)))) }
        }
        for p in props where p.name == "CATEGORIES" {
            for raw in splitList(p.value) {
                let tag = raw.trimmingWhitespace().split(whereSeparator: { $0.isWhitespace || $0 == "," }).joined(separator: "-")
                if !tag.isEmpty { task.addTag(tag) }
            }
        }
        // RRULE and X-TICK-REPEAT: one mapping for interchange and the bridge (RRuleMapping).
        let tickRepeat = prop("X-TICK-REPEAT")
        let anchor: LocalDate? = task.due.map { due -> LocalDate in
            switch due {
            case .day(let d): return d
            case .time(let t): return LocalDate(date: t, timeZone: context.timeZone)
            }
        } ?? task.scheduled
        task.repeatRule = RRuleMapping.rule(rrule: prop("RRULE")?.value, tickRepeat: tickRepeat.map { unescape($0.value) },
                                            writtenWith: tickRepeat?.params[RRuleMapping.rruleParameter], anchor: anchor)
        // tick's own properties (X-TICK-WAIT, -ENERGY, -ESTIMATE): a value
        // of another kind fails the item, as a bad DUE does.
        for (property, _, cell) in DavMapping.ownProperties {
            guard let p = prop(property) else { continue }
            let text = unescape(p.value)
            guard !text.isEmpty else { continue }
            if let problem = cell.read(&task, text, property) { throw fail(p.line, problem.message) }
        }
        // RFC 9253: RELATED-TO;RELTYPE=DEPENDS-ON:<uid>, one per dependency (a UID
        // that is not a UUID maps to the id its task gets on import).
        for related in props where related.name == "RELATED-TO" && related.params["RELTYPE"]?.uppercased() == "DEPENDS-ON" {
            let uid = related.value.trimmingWhitespace()
            guard !uid.isEmpty else { continue }
            let dep = UUID(fastString: uid) ?? UUID(uuidString: uid) ?? UUID(name: "ical:" + uid)
            if dep != task.id { task.addDependency(dep) }
        }
        if let s = prop("X-TICK-SLOT") {
            // START/MINUTES, e.g. 2026-11-24T10:00/45 (local wall-clock time).
            let parts = s.value.split(separator: "/")
            if parts.count == 2, let (day, start) = TaskSlot.parseStart(String(parts[0])), let n = Int(parts[1]),
               TaskSlot.isValid(start: start, minutes: n) {
                task.slot = TaskSlot(day: day, start: start, minutes: n)
            }
        }
        for alarm in alarms {
            guard let trigger = alarm.first(where: { $0.name == "TRIGGER" }) else { continue }
            if trigger.params["VALUE"]?.uppercased() == "DATE-TIME" {
                if case .instant(let t) = try parseTime(trigger, context: context) { task.remind = t }
            } else {
                guard let offset = duration(trigger.value) else {
                    throw fail(trigger.line, "invalid TRIGGER \"\(trigger.value)\"; expected a duration like -PT15M or VALUE=DATE-TIME")
                }
                let relatedEnd = trigger.params["RELATED"]?.uppercased() == "END"
                var base: Date?
                let dueBase: Date? = task.due.map {
                    switch $0 {
                    case .day(let d): return d.startOfDay(in: context.timeZone)
                    case .time(let t): return t
                    }
                }
                let startBase = task.scheduled?.startOfDay(in: context.timeZone)
                base = relatedEnd ? (dueBase ?? startBase) : (startBase ?? dueBase)
                if let base { task.remind = base.addingTimeInterval(offset) }
            }
            if task.remind != nil { break }
        }
        if let remind = task.remind {
            // tick stores whole seconds.
            task.remind = Date(timeIntervalSince1970: remind.timeIntervalSince1970.rounded(.down))
        }
        let list = prop("X-TICK-LIST").map { unescape($0.value) }.flatMap { $0.isEmpty ? nil : $0 }
        if !order.isEmpty {
            func rank(_ key: String) -> Int { order.firstIndex(of: key) ?? order.count }
            task.extra = task.extra.enumerated().sorted { (rank($0.element.key), $0.offset) < (rank($1.element.key), $1.offset) }.map(\.element)
        }
        return (task, list)
    }

    // MARK: - Encode

    /// In X-TICK-JSON, the place of a declared field among the unknown keys
    /// (`x-ical-field:client`); its value is its `X-TICK-FIELD` property.
    static let fieldPlaceKey = "x-ical-field:"

    public static func encode(_ files: [TaskFile], context: InterchangeContext) -> [UInt8] {
        let declared = Set(context.fields.names)
        var out = ""
        func add(_ line: String) { out += fold(line) }
        add("BEGIN:VCALENDAR")
        add("VERSION:2.0")
        add("PRODID:-//tick//tick//EN")
        add("CALSCALE:GREGORIAN")
        for file in files {
            for task in file.tasks {
                add("BEGIN:VTODO")
                add("UID:" + DavMapping.uid(of: task))
                add("DTSTAMP:" + stamp(context.now))
                add("CREATED:" + stamp(task.createdAt))
                add("LAST-MODIFIED:" + stamp(task.modifiedAt))
                if let name = file.name { add("X-TICK-LIST:" + escape(name)) }
                // With the `x-ical-` keys too (their values come from the properties): the
                // order of the unknown keys comes back, so a re-import changes no byte. A
                // declared field's value is its X-TICK-FIELD alone (written once); here it
                // keeps only its place.
                let members = task.extra.map { m in
                    declared.contains(m.key) ? JSONMember(fieldPlaceKey + m.key, JSONNode(.bool(true))) : m
                }
                if members.contains(where: { !$0.key.hasPrefix("x-ical-") }) || members.count > 1 {
                    add("X-TICK-JSON:" + escape(String(decoding: JSONWriter.write(.object(members)), as: UTF8.self)))
                }
                // Every field as the CalDAV bridge writes it: one VTODO codec (alarms last).
                for field in DavMapping.fields(context.fields) { field.lines(task).forEach(add) }
                add("END:VTODO")
            }
        }
        add("END:VCALENDAR")
        return Array(out.utf8)
    }
}
