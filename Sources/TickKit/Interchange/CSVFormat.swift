import FoundationEssentials

/// RFC 4180 CSV, one row per task (see Docs/INTERCHANGE.md).
///
/// Columns: id,list,title,state,due,scheduled,remind,repeat,priority,energy,
/// tags,notes,createdAt,modifiedAt,completedAt,estimate (minutes),wait,depends (UUIDs separated by
/// spaces), then any other field of the table with a cell (``TaskField/cell``),
/// then one column per declared field, named as it is (``UserFieldCells``).
/// On import the header may be in any order and only `title` is required.
public enum CSVCodec: InterchangeCodec {
    /// The columns tick writes, in order: those of tick 0.1, in their order
    /// (the format's), then each other field of the table whose value is a
    /// ``CellValue``, under its name, in the table's order.
    public static let columns: [String] = {
        let first = [
            "id", "list", "title", "state", "due", "scheduled", "remind", "repeat", "priority", "energy",
            "tags", "notes", "createdAt", "modifiedAt", "completedAt", "estimate", "wait", "depends",
        ]
        return first + TaskField.all.filter { $0.cell != nil && !first.contains($0.name) }.map(\.name)
    }()

    /// The columns this codec reads with code of its own: the row's identity,
    /// the required title, the timestamps' defaults, a done task's
    /// completion, the notes' line breaks and the sets. Every other column is
    /// its field's cell, read as its value type reads it.
    static let ownColumns: Set<String> = ["id", "list", "title", "tags", "notes", "createdAt", "modifiedAt", "completedAt", "depends"]

    /// The fields read by their cell (``FieldCellCoding``), in the table's order.
    static let cellFields: [(column: String, coding: FieldCellCoding)] = TaskField.all.compactMap { field in
        ownColumns.contains(field.name) ? nil : field.cell.map { (field.name, $0) }
    }

    typealias Record = CSVRecordParser.Record

    /// Splits CSV text into records, counting physical lines (quoted fields may span lines).
    static func records(_ bytes: [UInt8], path: String) throws(ImportError) -> [Record] {
        var parser = CSVRecordParser(path: path)
        var out: [Record] = []
        try parser.feed(bytes[...]) { out.append($0) }
        try parser.finish { out.append($0) }
        return out
    }

    public static func decode(_ bytes: [UInt8], context: InterchangeContext) throws(ImportError) -> [TaskFile] {
        try decode(from: ImportReader(bytes: bytes, path: context.path), context: context)
    }

    /// Reads CSV record by record: the input text is never held whole.
    ///
    /// A malformed row is handed to `badRecord`: the default throws it (all or
    /// nothing); one that returns skips the row. A bad header or a broken quote
    /// (which leaves the rows after it unreadable) always throws.
    public static func decode(
        from reader: ImportReader, context: InterchangeContext,
        badRecord: (ImportError) throws(ImportError) -> Void = { error throws(ImportError) in throw error }
    ) throws(ImportError) -> [TaskFile] {
        var decoder = RowDecoder(context: context)
        var parser = CSVRecordParser(path: context.path)
        try reader.forEachChunk { (chunk: ArraySlice<UInt8>) throws(ImportError) in
            try parser.feed(chunk) { (record: Record) throws(ImportError) in try decoder.take(record, badRecord: badRecord) }
        }
        try parser.finish { (record: Record) throws(ImportError) in try decoder.take(record, badRecord: badRecord) }
        return decoder.grouper.files
    }

    /// Turns records into tasks: the first is the header.
    struct RowDecoder {
        let context: InterchangeContext
        var header: Record?
        var index: [String: Int] = [:]
        var unknown: [(Int, String)] = []
        /// The columns of declared fields (header `NAME`).
        var declared: [(column: Int, field: UserField)] = []
        var grouper: ImportGrouper
        var occurrences: [String: Int] = [:]

        init(context: InterchangeContext) {
            self.context = context
            grouper = ImportGrouper(now: context.now, inboxID: UUID(name: "tick-list:inbox"), listIDPrefix: "tick-import-list:")
        }

        /// Reads the header, or a row; a bad row goes to `badRecord` (which throws it or skips it).
        mutating func take(
            _ record: Record,
            badRecord: (ImportError) throws(ImportError) -> Void = { error throws(ImportError) in throw error }
        ) throws(ImportError) {
            guard let header else {
                try readHeader(record)
                return
            }
            do throws(ImportError) {
                try readRow(record, header: header)
            } catch {
                try badRecord(error)
            }
        }

        mutating func readHeader(_ header: Record) throws(ImportError) {
            var index: [String: Int] = [:]
            var unknown: [(Int, String)] = []
            var declared: [(column: Int, field: UserField)] = []
            let known = Dictionary(uniqueKeysWithValues: columns.map { ($0.lowercased(), $0) })
            for (i, raw) in header.fields.enumerated() {
                let name = raw.trimmingWhitespace()
                if let field = context.fields[name], field.name == name, !declared.contains(where: { $0.field == field }) {
                    declared.append((i, field))
                } else if let k = known[name.lowercased()] {
                    guard index[k] == nil else { throw ImportError(path: context.path, line: header.line, message: "column \"\(k)\" appears twice in the header") }
                    index[k] = i
                } else if !name.isEmpty {
                    unknown.append((i, name))
                }
            }
            guard index["title"] != nil else {
                throw ImportError(path: context.path, line: header.line, message: "the header has no \"title\" column (found: \(header.fields.joined(separator: ",")))")
            }
            self.index = index
            self.unknown = unknown
            self.declared = declared
            self.header = header
        }

        mutating func readRow(_ row: Record, header: Record) throws(ImportError) {
            let index = self.index
            let unknown = self.unknown
            let declared = self.declared
            let context = self.context
            func fail(_ message: String) -> ImportError { ImportError(path: context.path, line: row.line, message: message) }
            if row.fields.count == 1, row.fields[0].isEmpty { return }
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
                switch Date.fromCell(text, column: column) {
                case .success(let date): return date
                case .failure(let problem): throw fail(problem.message)
                }
            }
            guard let title = value("title"), !title.allSatisfy(\.isWhitespace) else { throw fail("the title is empty") }
            let list = value("list")
            let id: UUID
            if let text = value("id")?.trimmingWhitespace() {
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
            for (column, coding) in CSVCodec.cellFields {
                guard let text = value(column) else { continue }
                if let problem = coding.read(&task, text) { throw fail(problem.message) }
            }
            if let t = value("tags") {
                for tag in t.split(whereSeparator: { $0.isWhitespace }).map(String.init) {
                    let bare = tag.hasPrefix("+") ? String(tag.dropFirst()) : tag
                    if let problem = TagRules.problem(with: bare) { throw fail(problem) }
                    task.addTag(bare)
                }
            }
            if let d = value("depends") {
                for text in d.split(whereSeparator: { $0.isWhitespace || $0 == "," }) {
                    guard let dep = UUID(uuidString: String(text)) else { throw fail("depends holds \"\(text)\", which is not a UUID") }
                    if dep != id, !task.depends.contains(dep) { task.depends.append(dep) }
                }
            }
            if let n = value("notes") { task.notes = n.replacingAll("\r\n", with: "\n") }
            if task.state == .done {
                task.completedAt = try timestamp("completedAt") ?? modified
            } else {
                _ = try timestamp("completedAt")
            }
            for (i, field) in declared where !row.fields[i].isEmpty {
                switch UserFieldCells.stored(cell: row.fields[i], for: field) {
                case .success(let value): task.extra.append(JSONMember(field.name, value))
                case .failure(let message): throw fail(message.text)
                }
            }
            for (i, name) in unknown where !row.fields[i].isEmpty {
                task.extra.append(JSONMember("x-csv-\(name)", .string(row.fields[i])))
            }
            if let problem = TextRules.importProblem(title: task.title, notes: task.notes, list: list) { throw fail(problem) }
            try ImportDateCheck.check(task, path: context.path, line: row.line)
            grouper.add(task, list: list)
        }
    }

    public static func encode(_ files: [TaskFile], context: InterchangeContext) -> [UInt8] {
        var out = ""
        // tick's columns, then one per declared field (header: its name).
        out += (columns + context.fields.names).map(quote).joined(separator: ",") + "\r\n"
        // Each column's cell of a task in a list (named, or "" for the inbox).
        let cells: [(TaskItem, String) -> String] = columns.map { column in
            switch column {
            case "id": return { task, _ in task.id.lowercased }
            case "list": return { _, list in list }
            case "tags": return { task, _ in task.tags.joined(separator: " ") }
            case "depends": return { task, _ in task.depends.map(\.lowercased).joined(separator: " ") }
            default:
                let write = TaskField.named(column)?.cell?.write
                return { task, _ in write?(task) ?? "" }
            }
        }
        for file in files {
            let list = file.kind == .inbox ? "" : file.displayName
            for task in file.tasks {
                let row: [String] = cells.map { $0(task, list) }
                    + context.fields.all.map { field in field.value(in: task).map { UserFieldCells.cell($0, for: field) } ?? "" }
                out += row.map(quote).joined(separator: ",") + "\r\n"
            }
        }
        return Array(out.utf8)
    }

    /// What CSV has no column for keeps the store's value on re-import: each field of the
    /// table with no column (the slot, ``TaskField/keepingUncarried(_:store:carried:)``) and
    /// the unknown keys (other than the `x-csv-` columns a row brings). Call it between `decode`
    /// and `ImportPlan.make`.
    public static func reconcile(_ files: [TaskFile], with snapshot: StoreSnapshot) -> [TaskFile] {
        snapshot.reconciling(files, keepStore)
    }

    /// `task`, read from a row, with what ``reconcile(_:with:)`` keeps of the store's `old`.
    static func keepStore(_ task: TaskItem, of old: TaskItem) -> TaskItem {
        var t = TaskField.keepingUncarried(task, store: old, carried: carries)
        // Import reads a CRLF in notes as a line break: the store's CRLFs stay.
        if let notes = old.notes, t.notes != notes, t.notes == notes.replacingAll("\r\n", with: "\n") { t.notes = notes }
        // The row's `x-csv-` keys and declared fields replace the store's in their places; a
        // field the row leaves empty (or has no column for) keeps the store's value.
        t.extra = ImportExtra.merge(old.extra, dropping: { $0.hasPrefix("x-csv-") }, imported: task.extra)
        return t
    }

    /// True when a row has a column for `field`: its cell, or one this codec reads itself.
    static func carries(_ field: TaskField) -> Bool {
        field.cell != nil || ownColumns.contains(field.name)
    }

    /// Quotes a field when it holds a comma, a quote, a line break or edge spaces.
    static func quote(_ field: String) -> String {
        let needs = field.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
            || field.hasPrefix(" ") || field.hasSuffix(" ")
        guard needs else { return field }
        return "\"" + field.replacingAll("\"", with: "\"\"") + "\""
    }
}
