import Foundation

/// RFC 4180 CSV, one row per task (see Docs/INTERCHANGE.md).
///
/// Columns: id,list,title,state,due,scheduled,remind,repeat,priority,energy,
/// tags,notes,createdAt,modifiedAt,completedAt. On import the header may be in
/// any order and only `title` is required.
public enum CSVCodec: InterchangeCodec {
    /// The columns tick writes, in order.
    public static let columns = [
        "id", "list", "title", "state", "due", "scheduled", "remind", "repeat", "priority", "energy",
        "tags", "notes", "createdAt", "modifiedAt", "completedAt",
    ]

    /// One parsed record and the physical line it starts on.
    struct Record {
        var fields: [String]
        var line: Int
    }

    /// Splits CSV text into records, counting physical lines (quoted fields may span lines).
    static func records(_ bytes: [UInt8], path: String) throws(ImportError) -> [Record] {
        var b = bytes[...]
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { b = b.dropFirst(3) }
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), lf: UInt8 = 0x0A, cr: UInt8 = 0x0D
        var out: [Record] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var line = 1
        var recordLine = 1
        var i = b.startIndex
        var atFieldStart = true
        var inRecord = false
        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }
        while i < b.endIndex {
            let c = b[i]
            if atFieldStart && c == quote {
                // Quoted field.
                inRecord = true
                let startLine = line
                i += 1
                var closed = false
                while i < b.endIndex {
                    let q = b[i]
                    if q == quote {
                        if i + 1 < b.endIndex, b[i + 1] == quote {
                            field.append(quote)
                            i += 2
                            continue
                        }
                        closed = true
                        i += 1
                        break
                    }
                    if q == lf { line += 1 }
                    field.append(q)
                    i += 1
                }
                guard closed else {
                    throw ImportError(path: path, line: startLine, message: "a quoted field is never closed (missing '\"')")
                }
                // After the closing quote: a comma, a line end or the end.
                if i < b.endIndex {
                    let n = b[i]
                    if n != comma && n != lf && n != cr {
                        throw ImportError(path: path, line: line, message: "unexpected character after a closing quote (a '\"' inside a field must be doubled)")
                    }
                }
                atFieldStart = false
                continue
            }
            if c == comma {
                inRecord = true
                endField()
                atFieldStart = true
                i += 1
                continue
            }
            if c == lf || c == cr {
                if c == cr, i + 1 < b.endIndex, b[i + 1] == lf { i += 1 }
                i += 1
                if inRecord || !field.isEmpty {
                    endField()
                    out.append(Record(fields: fields, line: recordLine))
                }
                fields = []
                line += 1
                recordLine = line
                atFieldStart = true
                inRecord = false
                continue
            }
            if c == quote {
                throw ImportError(path: path, line: line, message: "a '\"' inside an unquoted field (quote the field and double the '\"')")
            }
            inRecord = true
            atFieldStart = false
            field.append(c)
            i += 1
        }
        if inRecord || !field.isEmpty {
            endField()
            out.append(Record(fields: fields, line: recordLine))
        }
        return out
    }

    public static func decode(_ bytes: [UInt8], context: InterchangeContext) throws(ImportError) -> [TaskFile] {
        let rows = try records(bytes, path: context.path)
        guard let header = rows.first else { return [] }
        var index: [String: Int] = [:]
        var unknown: [(Int, String)] = []
        let known = Dictionary(uniqueKeysWithValues: columns.map { ($0.lowercased(), $0) })
        for (i, raw) in header.fields.enumerated() {
            let name = raw.trimmingCharacters(in: .whitespaces)
            if let k = known[name.lowercased()] {
                guard index[k] == nil else { throw ImportError(path: context.path, line: header.line, message: "column \"\(k)\" appears twice in the header") }
                index[k] = i
            } else if !name.isEmpty {
                unknown.append((i, name))
            }
        }
        guard index["title"] != nil else {
            throw ImportError(path: context.path, line: header.line, message: "the header has no \"title\" column (found: \(header.fields.joined(separator: ",")))")
        }
        var grouper = ImportGrouper(now: context.now, inboxID: UUID(name: "tick-list:inbox"), listIDPrefix: "tick-import-list:")
        var occurrences: [String: Int] = [:]
        for row in rows.dropFirst() {
            func fail(_ message: String) -> ImportError { ImportError(path: context.path, line: row.line, message: message) }
            if row.fields.count == 1, row.fields[0].isEmpty { continue }
            guard row.fields.count == header.fields.count else {
                throw fail("expected \(header.fields.count) fields, found \(row.fields.count)")
            }
            func value(_ column: String) -> String? {
                guard let i = index[column] else { return nil }
                let v = row.fields[i]
                return v.isEmpty ? nil : v
            }
            func timestamp(_ column: String) throws(ImportError) -> Date? {
                guard let text = value(column) else { return nil }
                guard let d = Timestamp.parse(text.trimmingCharacters(in: .whitespaces)) else {
                    throw fail("\(column) is not a timestamp (YYYY-MM-DDTHH:MM:SSZ): \"\(text)\"")
                }
                return d
            }
            guard let title = value("title"), !title.allSatisfy(\.isWhitespace) else { throw fail("the title is empty") }
            let list = value("list")
            let id: UUID
            if let text = value("id")?.trimmingCharacters(in: .whitespaces) {
                guard let u = UUID(uuidString: text) else { throw fail("id is not a UUID: \"\(text)\"") }
                id = u
            } else {
                // A stable id, so that importing the same file twice does not duplicate.
                let key = "\(list?.lowercased() ?? "")\n\(title)"
                let n = occurrences[key, default: 0]
                occurrences[key] = n + 1
                id = UUID(name: "tick-csv:\(key)\n\(n)")
            }
            let created = try timestamp("createdAt") ?? context.now
            let modified = try timestamp("modifiedAt") ?? context.now
            var task = TaskItem(id: id, title: title, createdAt: created, modifiedAt: modified)
            if let s = value("state") {
                guard let state = TaskState(rawValue: s.trimmingCharacters(in: .whitespaces).lowercased()) else {
                    throw fail("state must be open, active or done, found \"\(s)\"")
                }
                task.state = state
            }
            if let d = value("due") {
                guard let due = TaskDate(fileString: d.trimmingCharacters(in: .whitespaces)) else {
                    throw fail("due is not a date (YYYY-MM-DD) or timestamp: \"\(d)\"")
                }
                task.due = due
            }
            if let s = value("scheduled") {
                guard let day = LocalDate(iso: s.trimmingCharacters(in: .whitespaces)) else { throw fail("scheduled is not a date (YYYY-MM-DD): \"\(s)\"") }
                task.scheduled = day
            }
            task.remind = try timestamp("remind")
            task.repeatRule = value("repeat")
            if let p = value("priority") {
                guard let priority = Priority(rawValue: p.trimmingCharacters(in: .whitespaces).lowercased()) else {
                    throw fail("priority must be must or flexible, found \"\(p)\"")
                }
                task.priority = priority
            }
            if let e = value("energy") {
                guard let energy = Energy(rawValue: e.trimmingCharacters(in: .whitespaces).lowercased()) else {
                    throw fail("energy must be high, low or any, found \"\(e)\"")
                }
                task.energy = energy
            }
            if let t = value("tags") {
                for tag in t.split(whereSeparator: { $0.isWhitespace }).map(String.init) {
                    let bare = tag.hasPrefix("+") ? String(tag.dropFirst()) : tag
                    if let problem = TagRules.problem(with: bare) { throw fail(problem) }
                    task.addTag(bare)
                }
            }
            if let n = value("notes") { task.notes = n.replacingOccurrences(of: "\r\n", with: "\n") }
            if task.state == .done {
                task.completedAt = try timestamp("completedAt") ?? modified
            } else {
                _ = try timestamp("completedAt")
            }
            for (i, name) in unknown where !row.fields[i].isEmpty {
                task.extra.append(JSONMember("x-csv-\(name)", .string(row.fields[i])))
            }
            if let problem = TextRules.importProblem(title: task.title, notes: task.notes, list: list) { throw fail(problem) }
            try ImportDateCheck.check(task, path: context.path, line: row.line)
            grouper.add(task, list: list)
        }
        return grouper.files
    }

    public static func encode(_ files: [TaskFile], context: InterchangeContext) -> [UInt8] {
        var out = ""
        out += columns.joined(separator: ",") + "\r\n"
        for file in files {
            let list = file.kind == .inbox ? "" : file.displayName
            for task in file.tasks {
                let row: [String] = [
                    task.id.lowercased,
                    list,
                    task.title,
                    task.state.rawValue,
                    task.due?.fileString ?? "",
                    task.scheduled?.iso ?? "",
                    task.remind.map(Timestamp.format) ?? "",
                    task.repeatRule ?? "",
                    task.priority?.rawValue ?? "",
                    task.energy?.rawValue ?? "",
                    task.tags.joined(separator: " "),
                    task.notes ?? "",
                    Timestamp.format(task.createdAt),
                    Timestamp.format(task.modifiedAt),
                    task.completedAt.map(Timestamp.format) ?? "",
                ]
                out += row.map(quote).joined(separator: ",") + "\r\n"
            }
        }
        return Array(out.utf8)
    }

    /// Quotes a field when it holds a comma, a quote, a line break or edge spaces.
    static func quote(_ field: String) -> String {
        let needs = field.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
            || field.hasPrefix(" ") || field.hasSuffix(" ")
        guard needs else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
