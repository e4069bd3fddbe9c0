import FoundationEssentials
import CSQLite

/// Reads task rows straight from SQLite's C API: listings of thousands of
/// tasks must not pay for a generic row abstraction per column.
struct RowReader {
    /// The columns every task query selects, in this order: ``TaskColumns/read``
    /// and the blocked flag. Spelled out, so that a query that finds no row
    /// (an empty `tick today`) never builds the field table: deriving it
    /// here was 8% of an empty read (issue 47). `readColumnList` is checked
    /// against the table by `TaskFieldTests.theSelectedColumnsAreTheTablesReadColumns`,
    /// which prints the list to paste when a field changes.
    static let columns = readColumnList.map { "t." + $0 }.joined(separator: ", ") + ", \(blockedColumn)"

    /// ``TaskColumns/read``, as a literal (see ``columns``).
    static let readColumnList = [
        "id", "path", "short", "position", "title", "state", "due", "remind_ts", "wait", "scheduled_day", "slot_day",
        "slot_start", "slot_minutes", "slot_extra", "priority", "energy", "estimate", "repeat", "notes", "depends",
        "tags", "created_ts", "modified_ts", "completed_ts", "extra",
    ]

    /// The result columns of ``columns`` that are not a field's, by name
    /// (``TaskColumns``); the fields' are numbered by ``TaskColumns/fields``.
    enum C {
        static let id = TaskColumns.result("id")
        static let path = TaskColumns.result("path")
        static let short = TaskColumns.result("short")
        static let position = TaskColumns.result("position")
        /// The blocked flag, right after the named columns.
        static let blocked = Int32(TaskColumns.read.count)
    }

    /// 1 when the task is not done and depends on a task that exists and is not done.
    static let blockedColumn = blocked("t")

    /// ``blockedColumn`` for the tasks table under the name `table`.
    static func blocked(_ table: String) -> String {
        "(\(table).depends IS NOT NULL AND \(table).state != 'done' AND EXISTS (SELECT 1 FROM depends d JOIN tasks u ON u.id = d.dep_id "
            + "WHERE d.task_rowid = \(table).rowid AND u.state != 'done'))"
    }

    /// The fields ranking and placing read (``rankingTask()``).
    static let rankingFields = ["state", "due", "scheduled", "priority", "energy", "estimate", "slot"]

    /// Reads the fields of ``rankingFields`` from ``rankingColumns`` (after
    /// the id), and the path's result column (after them).
    private static let ranking: (read: @Sendable (inout TaskItem, RowReader) -> Bool, path: Int32) = {
        var readers: [(FieldIndexCoding, Int32)] = []
        var result: Int32 = 1
        for field in TaskColumns.fields where rankingFields.contains(field.field.name) {
            readers.append((field.coding, result))
            result += Int32(field.coding.readColumns.count)
        }
        return (TaskColumns.chain(readers), result)
    }()

    /// What ``rankingTask()`` reads: the id, the ranking fields, the path and position.
    static let rankingColumns = (["id"] + TaskColumns.fields.filter { rankingFields.contains($0.field.name) }
        .flatMap { $0.coding.readColumns.map(\.name) } + ["path", "position"]).map { "t." + $0 }.joined(separator: ", ")

    /// The path's result column in ``rankingColumns`` (the position follows it).
    static var rankingPath: Int32 { ranking.path }

    let statement: OpaquePointer

    /// Steps through the statement, calling `body` with each decoded task, its
    /// store-relative path, short id, position and whether it is blocked.
    static func forEach(_ statement: SQLiteStatement, _ body: (TaskItem, String, Int?, Int, Bool) throws -> Void) throws {
        let raw = statement.handle
        let reader = RowReader(statement: raw)
        while true {
            let rc = sqlite3_step(raw)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else {
                throw IndexError.database(String(cString: sqlite3_errmsg(sqlite3_db_handle(raw))))
            }
            guard let task = reader.task(), let path = reader.text(C.path) else { continue }
            try body(task, path, reader.int(C.short), reader.int(C.position) ?? 0, (reader.int(C.blocked) ?? 0) != 0)
        }
    }

    private func isNull(_ i: Int32) -> Bool { sqlite3_column_type(statement, i) == SQLITE_NULL }

    func text(_ i: Int32) -> String? {
        guard !isNull(i), let p = sqlite3_column_text(statement, i) else { return nil }
        let n = Int(sqlite3_column_bytes(statement, i))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    func int(_ i: Int32) -> Int? {
        isNull(i) ? nil : Int(sqlite3_column_int64(statement, i))
    }

    func double(_ i: Int32) -> Double? {
        isNull(i) ? nil : sqlite3_column_double(statement, i)
    }

    /// A column's bytes (empty for NULL), valid until the next step.
    func bytes(_ i: Int32) -> UnsafeBufferPointer<UInt8> {
        guard let p = sqlite3_column_text(statement, i) else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: p, count: Int(sqlite3_column_bytes(statement, i)))
    }

    /// The state column decided on its bytes (no String made for it).
    func state(_ i: Int32) -> TaskState? {
        let b = bytes(i)
        switch b.count {
        case 4 where b[0] == 0x6F && b[1] == 0x70 && b[2] == 0x65 && b[3] == 0x6E: return .open
        case 4 where b[0] == 0x64 && b[1] == 0x6F && b[2] == 0x6E && b[3] == 0x65: return .done
        case 6: return String(decoding: b, as: UTF8.self) == "active" ? .active : nil
        default: return nil
        }
    }

    /// Space-separated words (a set's column), each made by `element` from
    /// its bytes (nil skips it): no String is made for the column.
    func words<E>(_ i: Int32, _ element: (UnsafeBufferPointer<UInt8>) -> E?) -> [E] {
        let b = bytes(i)
        guard !b.isEmpty else { return [] }
        var out: [E] = []
        var start = 0
        for j in 0...b.count where j == b.count || b[j] == 0x20 {
            if j > start, let e = element(UnsafeBufferPointer(rebasing: b[start..<j])) { out.append(e) }
            start = j + 1
        }
        return out
    }

    /// A column's UUID parsed from SQLite's bytes (no String made for it).
    func uuid(_ i: Int32) -> UUID? {
        UUID(fastBytes: bytes(i))
    }

    /// Unknown keys stored as a JSON object (none for NULL or anything else).
    func members(_ i: Int32) -> [JSONMember] {
        guard let json = text(i), let node = try? JSONParser.parse(json), case .object(let members) = node.kind else { return [] }
        return members
    }

    /// The row's task, field by field (``TaskColumns/fields``); nil when the
    /// row cannot hold one (no id, title, known state or timestamps).
    func task() -> TaskItem? {
        guard let id = uuid(C.id) else { return nil }
        var task = TaskItem(id: id, title: "", createdAt: .distantPast, modifiedAt: .distantPast)
        guard TaskColumns.readRow(&task, self) else { return nil }
        return task
    }

    /// A task from ``rankingColumns``: id, state, due, scheduled, priority,
    /// energy, estimate and slot only (empty title, no tags, notes or unknown
    /// keys). For ranking; never shown or written.
    func rankingTask() -> TaskItem? {
        guard let id = uuid(0) else { return nil }
        var task = TaskItem(id: id, title: "", createdAt: .distantPast, modifiedAt: .distantPast)
        guard Self.ranking.read(&task, self) else { return nil }
        return task
    }
}
