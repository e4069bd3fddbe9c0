import Foundation
import GRDB
import GRDBSQLite

/// Inserts task rows through SQLite's C API (reindexing 100,000 tasks must
/// not build a boxed argument array per row).
struct RowWriter {
    static let insertSQL = """
        INSERT INTO tasks (id, chash, path, position, title, state, due, due_day, due_ts, scheduled_day, remind_ts,
                           repeat, priority, energy, tags, notes, created_ts, modified_ts, completed_ts, extra,
                           estimate, slot_day, slot_start, slot_minutes, slot_extra, wait, wait_day, wait_ts, depends)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    let insert: Statement
    let tagInsert: Statement
    let dependsInsert: Statement

    init(_ db: Database) throws {
        insert = try db.cachedStatement(sql: Self.insertSQL)
        tagInsert = try db.cachedStatement(sql: "INSERT INTO tags (task_rowid, tag) VALUES (?, ?)")
        dependsInsert = try db.cachedStatement(sql: "INSERT INTO depends (task_rowid, dep_id) VALUES (?, ?)")
    }

    /// A hash of everything the index stores of a task (its canonical JSON).
    static func contentHash(_ task: TaskItem) -> Int64 {
        Int64(bitPattern: FNV1a.hash64(JSONWriter.write(TaskFileEncoder.node(for: task))))
    }

    /// Inserts one task (and its tags and dependencies).
    func write(_ task: TaskItem, hash: Int64, path: String, position: Int, db: Database) throws {
        let s = insert.sqliteStatement
        sqlite3_reset(s)
        sqlite3_clear_bindings(s)
        let id = task.id.lowercased
        bind(s, 1, id)
        sqlite3_bind_int64(s, 2, hash)
        bind(s, 3, path)
        sqlite3_bind_int64(s, 4, Int64(position))
        bind(s, 5, task.title)
        bind(s, 6, task.state.rawValue)
        if let due = task.due {
            bind(s, 7, due.fileString)
            switch due {
            case .day(let d): sqlite3_bind_int64(s, 8, Int64(d.daysSinceEpoch))
            case .time(let t): sqlite3_bind_double(s, 9, t.timeIntervalSinceReferenceDate)
            }
        }
        if let d = task.scheduled { sqlite3_bind_int64(s, 10, Int64(d.daysSinceEpoch)) }
        if let r = task.remind { sqlite3_bind_double(s, 11, r.timeIntervalSinceReferenceDate) }
        if let r = task.repeatRule { bind(s, 12, r) }
        if let p = task.priority { bind(s, 13, p.rawValue) }
        if let e = task.energy { bind(s, 14, e.rawValue) }
        bind(s, 15, task.tags.joined(separator: " "))
        if let n = task.notes { bind(s, 16, n) }
        sqlite3_bind_double(s, 17, task.createdAt.timeIntervalSinceReferenceDate)
        sqlite3_bind_double(s, 18, task.modifiedAt.timeIntervalSinceReferenceDate)
        if let c = task.completedAt { sqlite3_bind_double(s, 19, c.timeIntervalSinceReferenceDate) }
        if !task.extra.isEmpty {
            bind(s, 20, String(decoding: JSONWriter.write(.object(task.extra)), as: UTF8.self))
        }
        if let e = task.estimate { sqlite3_bind_int64(s, 21, Int64(e)) }
        if let slot = task.slot {
            sqlite3_bind_int64(s, 22, Int64(slot.day.daysSinceEpoch))
            sqlite3_bind_int64(s, 23, Int64(slot.start.minutes))
            sqlite3_bind_int64(s, 24, Int64(slot.minutes))
            if !slot.extra.isEmpty {
                bind(s, 25, String(decoding: JSONWriter.write(.object(slot.extra)), as: UTF8.self))
            }
        }
        if let wait = task.wait {
            bind(s, 26, wait.fileString)
            switch wait {
            case .day(let d): sqlite3_bind_int64(s, 27, Int64(d.daysSinceEpoch))
            case .time(let t): sqlite3_bind_double(s, 28, t.timeIntervalSinceReferenceDate)
            }
        }
        if !task.depends.isEmpty { bind(s, 29, task.depends.map(\.lowercased).joined(separator: " ")) }
        try step(s, db)
        guard !task.tags.isEmpty || !task.depends.isEmpty else { return }
        let rowid = sqlite3_last_insert_rowid(sqlite3_db_handle(s))
        let d = dependsInsert.sqliteStatement
        for dep in task.depends {
            sqlite3_reset(d)
            sqlite3_bind_int64(d, 1, rowid)
            bind(d, 2, dep.lowercased)
            try step(d, db)
        }
        let t = tagInsert.sqliteStatement
        for tag in task.tags {
            sqlite3_reset(t)
            sqlite3_bind_int64(t, 1, rowid)
            bind(t, 2, tag)
            try step(t, db)
        }
    }

    private func bind(_ s: SQLiteStatement, _ i: Int32, _ text: String) {
        var text = text
        text.withUTF8 { buf in
            _ = buf.withMemoryRebound(to: CChar.self) { chars in
                sqlite3_bind_text(s, i, chars.baseAddress, Int32(chars.count), Self.transient)
            }
        }
    }

    private func step(_ s: SQLiteStatement, _ db: Database) throws {
        let rc = sqlite3_step(s)
        guard rc == SQLITE_DONE else {
            throw IndexError.database(String(cString: sqlite3_errmsg(sqlite3_db_handle(s))))
        }
    }
}
