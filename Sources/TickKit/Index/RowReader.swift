import FoundationEssentials
import CSQLite

/// Reads task rows straight from SQLite's C API: listings of thousands of
/// tasks must not pay for a generic row abstraction per column.
struct RowReader {
    /// The columns every task query selects, in this order.
    static let columns = TaskColumns.read.map { "t." + $0 }.joined(separator: ", ") + ", \(blockedColumn)"

    /// The result columns of ``columns``, by name (``TaskColumns``).
    enum C {
        static let id = TaskColumns.result("id")
        static let title = TaskColumns.result("title")
        static let state = TaskColumns.result("state")
        static let due = TaskColumns.result("due")
        static let scheduledDay = TaskColumns.result("scheduled_day")
        static let remindTs = TaskColumns.result("remind_ts")
        static let `repeat` = TaskColumns.result("repeat")
        static let priority = TaskColumns.result("priority")
        static let energy = TaskColumns.result("energy")
        static let tags = TaskColumns.result("tags")
        static let notes = TaskColumns.result("notes")
        static let createdTs = TaskColumns.result("created_ts")
        static let modifiedTs = TaskColumns.result("modified_ts")
        static let completedTs = TaskColumns.result("completed_ts")
        static let extra = TaskColumns.result("extra")
        static let path = TaskColumns.result("path")
        static let short = TaskColumns.result("short")
        static let position = TaskColumns.result("position")
        static let estimate = TaskColumns.result("estimate")
        static let slotDay = TaskColumns.result("slot_day")
        static let slotStart = TaskColumns.result("slot_start")
        static let slotMinutes = TaskColumns.result("slot_minutes")
        static let slotExtra = TaskColumns.result("slot_extra")
        static let wait = TaskColumns.result("wait")
        static let depends = TaskColumns.result("depends")
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

    /// The columns of ``rankingTask()``: what ranking and placing read.
    static let rankingColumns = "t.id, t.state, t.due, t.scheduled_day, t.priority, t.energy, t.estimate, t.slot_day, t.slot_start, t.slot_minutes, t.path, t.position"

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

    /// Space-separated words (the tags column), one String each, split on the bytes.
    func words(_ i: Int32) -> [String] {
        let b = bytes(i)
        guard !b.isEmpty else { return [] }
        var out: [String] = []
        var start = 0
        for j in 0...b.count where j == b.count || b[j] == 0x20 {
            if j > start { out.append(String(decoding: UnsafeBufferPointer(rebasing: b[start..<j]), as: UTF8.self)) }
            start = j + 1
        }
        return out
    }

    /// A column's UUID parsed from SQLite's bytes (no String made for it).
    func uuid(_ i: Int32) -> UUID? {
        UUID(fastBytes: bytes(i))
    }

    func task() -> TaskItem? {
        guard let id = uuid(C.id), let title = text(C.title), let state = state(C.state),
              let created = double(C.createdTs), let modified = double(C.modifiedTs)
        else { return nil }
        var extra: [JSONMember] = []
        if let json = text(C.extra), let node = try? JSONParser.parse(json), case .object(let members) = node.kind {
            extra = members
        }
        let dependsText = text(C.depends) ?? ""
        var slot: TaskSlot?
        if let day = int(C.slotDay), let startMinutes = int(C.slotStart), let start = ClockTime(minutes: startMinutes), let length = int(C.slotMinutes) {
            var slotExtra: [JSONMember] = []
            if let json = text(C.slotExtra), let node = try? JSONParser.parse(json), case .object(let members) = node.kind {
                slotExtra = members
            }
            slot = TaskSlot(day: LocalDate(daysSinceEpoch: day), start: start, minutes: length, extra: slotExtra)
        }
        return TaskItem(
            id: id,
            title: title,
            state: state,
            due: text(C.due).flatMap(TaskDate.init(fileString:)),
            scheduled: int(C.scheduledDay).map(LocalDate.init(daysSinceEpoch:)),
            remind: double(C.remindTs).map(Date.init(timeIntervalSinceReferenceDate:)),
            repeatRule: text(C.repeat),
            priority: text(C.priority).flatMap(Priority.init(rawValue:)),
            energy: text(C.energy).flatMap(Energy.init(rawValue:)),
            estimate: int(C.estimate),
            slot: slot,
            tags: words(C.tags),
            wait: text(C.wait).flatMap(TaskDate.init(fileString:)),
            depends: dependsText.isEmpty ? [] : dependsText.split(separator: " ").compactMap { UUID(fastString: String($0)) },
            notes: text(C.notes),
            createdAt: Date(timeIntervalSinceReferenceDate: created),
            modifiedAt: Date(timeIntervalSinceReferenceDate: modified),
            completedAt: double(C.completedTs).map(Date.init(timeIntervalSinceReferenceDate:)),
            extra: extra
        )
    }

    /// A task from ``rankingColumns``: id, state, due, scheduled, priority,
    /// energy, estimate and slot only (empty title, no tags, notes or unknown
    /// keys). For ranking; never shown or written.
    func rankingTask() -> TaskItem? {
        guard let idText = text(0), let id = UUID(fastString: idText),
              let stateText = text(1), let state = TaskState(rawValue: stateText) else { return nil }
        var slot: TaskSlot?
        if let day = int(7), let startMinutes = int(8), let start = ClockTime(minutes: startMinutes), let length = int(9) {
            slot = TaskSlot(day: LocalDate(daysSinceEpoch: day), start: start, minutes: length)
        }
        return TaskItem(
            id: id, title: "", state: state,
            due: text(2).flatMap(TaskDate.init(fileString:)),
            scheduled: int(3).map(LocalDate.init(daysSinceEpoch:)),
            priority: text(4).flatMap(Priority.init(rawValue:)),
            energy: text(5).flatMap(Energy.init(rawValue:)),
            estimate: int(6), slot: slot,
            createdAt: .distantPast, modifiedAt: .distantPast)
    }
}
