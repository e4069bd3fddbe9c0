import FoundationEssentials

/// One item of a vdir: a calendar object (`.ics` file) holding one VTODO,
/// kept as its original text so that what tick does not map survives
/// byte for byte (Docs/DAV.md).
///
/// The text is split into *entries*: one logical content line each, with its
/// physical text (folded continuation lines and line ends included) and the
/// components it sits in. Writing a changed task replaces only the entries of
/// the fields that changed; every other entry is written back as it was read.
public struct DavItem: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        /// The physical text, continuation lines and line end(s) included.
        var raw: String
        /// The property's name (uppercase), `BEGIN` or `END`.
        var name: String
        var params: [String: String]
        var value: String
        /// The components it is inside, outermost first (`VCALENDAR`, `VTODO`, ...).
        var path: [String]
        var line: Int
    }

    var entries: [Entry]
    /// The line end the file uses (`\r\n` unless it uses `\n` only).
    var lineEnd: String

    /// The item's text as bytes.
    public var bytes: [UInt8] { Array(entries.map(\.raw).joined().utf8) }

    /// Splits `bytes` into entries. Throws when the text is not UTF-8, a line
    /// is not `NAME:value`, or BEGIN/END do not match.
    public init(bytes: [UInt8], path: String) throws(DavError) {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .badItem(path: path, reason: "it is not UTF-8 text")
        }
        lineEnd = text.contains("\r\n") || !text.contains("\n") ? "\r\n" : "\n"
        // Physical lines with their line ends, and without them; split on the
        // bytes (LF and CR are never part of a multi-byte UTF-8 sequence).
        var physical: [(line: String, content: String)] = []
        var start = 0
        func cut(_ end: Int) {
            var stop = end
            while stop > start, bytes[stop - 1] == 0x0A || bytes[stop - 1] == 0x0D { stop -= 1 }
            physical.append((String(decoding: bytes[start..<end], as: UTF8.self), String(decoding: bytes[start..<stop], as: UTF8.self)))
        }
        for i in bytes.indices where bytes[i] == 0x0A {
            cut(i + 1)
            start = i + 1
        }
        if start < bytes.count { cut(bytes.count) }
        var logical: [(raw: String, text: String, line: Int)] = []
        for (i, (line, stripped)) in physical.enumerated() {
            var content = stripped
            if let first = content.unicodeScalars.first, first == " " || first == "\t", !logical.isEmpty {
                logical[logical.count - 1].raw += line
                logical[logical.count - 1].text += String(content.unicodeScalars.dropFirst())
            } else if content.isEmpty, !logical.isEmpty {
                // A blank line: kept with the entry before it.
                logical[logical.count - 1].raw += line
            } else {
                if i == 0, content.hasPrefix("\u{FEFF}") { content.removeFirst() }
                logical.append((line, content, i + 1))
            }
        }
        var stack: [String] = []
        var result: [Entry] = []
        for item in logical {
            guard let parsed = ICalendarCodec.parse(item.text, line: item.line) else {
                throw .badItem(path: path, reason: "line \(item.line) is not NAME:value")
            }
            // Only BEGIN and END need their value's component name.
            let value = parsed.name == "BEGIN" || parsed.name == "END" ? parsed.value.trimmingWhitespace().uppercased() : ""
            var entryPath = stack
            if parsed.name == "BEGIN" {
                stack.append(value)
            } else if parsed.name == "END" {
                guard stack.last == value else {
                    throw .badItem(path: path, reason: "line \(item.line): END:\(value) does not match BEGIN:\(stack.last ?? "nothing")")
                }
                stack.removeLast()
                entryPath = stack
            }
            result.append(Entry(raw: item.raw, name: parsed.name, params: parsed.params, value: parsed.value, path: entryPath, line: item.line))
        }
        guard stack.isEmpty else { throw .badItem(path: path, reason: "BEGIN:\(stack.last ?? "") is never closed") }
        guard result.first?.name == "BEGIN", result.first?.value.uppercased() == "VCALENDAR" else {
            throw .badItem(path: path, reason: "it does not start with BEGIN:VCALENDAR")
        }
        let todos = result.filter { $0.name == "BEGIN" && $0.value.uppercased() == "VTODO" && $0.path == ["VCALENDAR"] }
        guard todos.count == 1 else {
            throw .badItem(path: path, reason: todos.isEmpty ? "it holds no VTODO" : "it holds \(todos.count) VTODOs (one is expected)")
        }
        entries = result
    }

    /// The VTODO's own properties (not those of its alarms).
    var todoProperties: [Entry] {
        entries.filter { $0.path == ["VCALENDAR", "VTODO"] && $0.name != "BEGIN" && $0.name != "END" }
    }

    /// The VTODO's alarms, each as the index range of its entries (BEGIN to END).
    var alarmRanges: [ClosedRange<Int>] {
        var ranges: [ClosedRange<Int>] = []
        var start: Int?
        for (i, e) in entries.enumerated() where e.path == ["VCALENDAR", "VTODO"] || e.path == ["VCALENDAR", "VTODO", "VALARM"] {
            if e.name == "BEGIN", e.value.uppercased() == "VALARM", e.path == ["VCALENDAR", "VTODO"] { start = i }
            if e.name == "END", e.value.uppercased() == "VALARM", e.path == ["VCALENDAR", "VTODO"], let s = start {
                ranges.append(s...i)
                start = nil
            }
        }
        return ranges
    }

    /// The UID, as written.
    public var uid: String? {
        todoProperties.first { $0.name == "UID" }.map { $0.value.trimmingWhitespace() }
    }

    /// LAST-MODIFIED as an instant, when present and readable.
    func lastModified(timeZone: Zone) -> Date? {
        guard let e = todoProperties.first(where: { $0.name == "LAST-MODIFIED" }) else { return nil }
        let line = ICalendarCodec.ContentLine(name: e.name, params: e.params, value: e.value, line: e.line)
        let context = InterchangeContext(path: "", now: Date(timeIntervalSince1970: 0), timeZone: timeZone)
        guard let t = try? ICalendarCodec.parseTime(line, context: context), case .instant(let date) = t else { return nil }
        return date
    }

    /// The task the item describes, with interchange's mapping
    /// (Docs/INTERCHANGE.md). Its list is not read from the item (the
    /// collection is the list); `createdAt`/`modifiedAt` come from
    /// CREATED/LAST-MODIFIED, else `now`.
    public func task(path: String, now: Date, timeZone: Zone, fields: UserFields = UserFields()) throws(DavError) -> TaskItem {
        let props = todoProperties.map { ICalendarCodec.ContentLine(name: $0.name, params: $0.params, value: $0.value, line: $0.line) }
        let alarms: [[ICalendarCodec.ContentLine]] = alarmRanges.map { range in
            entries[range].filter { $0.path == ["VCALENDAR", "VTODO", "VALARM"] && $0.name != "BEGIN" && $0.name != "END" }
                .map { ICalendarCodec.ContentLine(name: $0.name, params: $0.params, value: $0.value, line: $0.line) }
        }
        let context = InterchangeContext(path: path, now: now, timeZone: timeZone)
        do {
            var (task, _) = try ICalendarCodec.makeTask(props, alarms: alarms, start: 1, context: context)
            // Only the UID's spelling is kept among the unknown keys: the
            // item's own text keeps everything else.
            task.extra = task.extra.filter { $0.key == ICalendarCodec.uidKey }
            // … and the declared fields' `X-TICK-FIELD`s.
            task.extra += DavMapping.userFieldValues(props, fields: fields)
            // NUL, a line break in a title, over-long text and dates out of range never
            // reach the store; other control characters do, shown visibly (Docs/DAV.md).
            if let problem = TextRules.bridgedProblem(title: task.title, notes: task.notes) {
                throw DavError.badItem(path: path, reason: problem)
            }
            try ImportDateCheck.check(task, path: path, line: nil)
            return task
        } catch let error as DavError {
            throw error
        } catch let error as ImportError {
            throw .badItem(path: path, reason: error.message)
        } catch {
            throw .badItem(path: path, reason: "\(error)")
        }
    }
}
