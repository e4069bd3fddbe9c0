import FoundationEssentials
import CSQLite

/// Inserts task rows through SQLite's C API (reindexing 100,000 tasks must
/// not build a boxed argument array per row).
struct RowWriter {
    static let insertSQL = "INSERT INTO tasks (" + TaskColumns.insert.joined(separator: ", ") + ") VALUES ("
        + Array(repeating: "?", count: TaskColumns.insert.count).joined(separator: ", ") + ")"

    /// The insert's own parameters, by column name (``TaskColumns``); the
    /// fields' are numbered by ``TaskColumns/fields``.
    enum P {
        static let id = TaskColumns.parameter("id")
        static let chash = TaskColumns.parameter("chash")
        static let path = TaskColumns.parameter("path")
        static let position = TaskColumns.parameter("position")
    }

    let insert: SQLiteStatement
    let tagInsert: SQLiteStatement
    let dependsInsert: SQLiteStatement

    /// The three inserts, from `db`'s statement cache.
    init(_ db: SQLiteConnection) throws {
        insert = try db.cached(Self.insertSQL)
        tagInsert = try db.cached("INSERT INTO tags (task_rowid, tag) VALUES (?, ?)")
        dependsInsert = try db.cached("INSERT INTO depends (task_rowid, dep_id) VALUES (?, ?)")
    }

    /// A hash of everything the index stores of a task: FNV-1a 64 over the
    /// very column values ``write(_:hash:path:position:db:)`` binds (each
    /// tagged with its column number and length), so a row is rewritten
    /// exactly when one of its stored values would change.
    static func contentHash(_ task: TaskItem, id: String) -> Int64 {
        var hasher = ColumnBinder(statement: nil)
        visitColumns(of: task, id: id, into: &hasher)
        return Int64(bitPattern: hasher.hasher.hash)
    }

    /// Inserts one task (and its tags and dependencies). `hash` is the
    /// row's `chash`: nil to compute ``contentHash(_:id:)`` while binding.
    func write(_ task: TaskItem, id: String, hash: Int64?, path: String, position: Int, db: SQLiteConnection) throws {
        let s = insert.handle
        sqlite3_reset(s)
        sqlite3_clear_bindings(s)
        var binder = ColumnBinder(statement: s)
        Self.visitColumns(of: task, id: id, into: &binder)
        sqlite3_bind_int64(s, P.chash, hash ?? Int64(bitPattern: binder.hasher.hash))
        Self.bind(s, P.path, path)
        sqlite3_bind_int64(s, P.position, Int64(position))
        try step(s, db)
        guard !task.tags.isEmpty || !task.depends.isEmpty else { return }
        let rowid = sqlite3_last_insert_rowid(sqlite3_db_handle(s))
        let d = dependsInsert.handle
        for dep in task.depends {
            sqlite3_reset(d)
            sqlite3_bind_int64(d, 1, rowid)
            Self.bind(d, 2, dep.lowercased)
            try step(d, db)
        }
        let t = tagInsert.handle
        for tag in task.tags {
            sqlite3_reset(t)
            sqlite3_bind_int64(t, 1, rowid)
            Self.bind(t, 2, tag)
            try step(t, db)
        }
    }

    /// Hands every column value that comes from the task to `binder`, by
    /// its parameter number in ``insertSQL`` (a NULL column is not visited):
    /// the id, then each field's columns (``TaskColumns/fields``). `id` is
    /// `task.id.lowercased`. Binding and hashing both walk this, so the
    /// hash covers what is stored by construction.
    static func visitColumns(of task: TaskItem, id: String, into binder: inout ColumnBinder) {
        binder.text(P.id, id)
        TaskColumns.visitRow(task, &binder)
    }

    /// Unknown keys as the text of one JSON object; nil for none.
    static func json(_ members: [JSONMember]) -> String? {
        members.isEmpty ? nil : String(decoding: JSONWriter.write(.object(members)), as: UTF8.self)
    }

    fileprivate static func bind(_ s: OpaquePointer, _ i: Int32, _ text: String) {
        var text = text
        text.withUTF8 { buf in bind(s, i, buf) }
    }

    fileprivate static func bind(_ s: OpaquePointer, _ i: Int32, _ buf: UnsafeBufferPointer<UInt8>) {
        _ = buf.withMemoryRebound(to: CChar.self) { chars in
            sqlite3_bind_text(s, i, chars.baseAddress, Int32(chars.count), tick_sqlite3_transient())
        }
    }

    private func step(_ s: OpaquePointer, _ db: SQLiteConnection) throws {
        let rc = sqlite3_step(s)
        guard rc == SQLITE_DONE else {
            throw IndexError.database(String(cString: sqlite3_errmsg(sqlite3_db_handle(s))))
        }
    }
}

/// FNV-1a 64 of a row's values: each is its column number, a type byte
/// and its bytes (text: its length first), so no two rows share a stream.
struct ColumnHasher {
    private(set) var hash: UInt64 = 0xcbf2_9ce4_8422_2325

    private mutating func byte(_ b: UInt8) {
        hash = (hash ^ UInt64(b)) &* 0x0000_0100_0000_01B3
    }

    private mutating func word(_ w: UInt64) {
        var w = w
        for _ in 0..<8 {
            byte(UInt8(truncatingIfNeeded: w))
            w >>= 8
        }
    }

    mutating func bytes(_ column: Int32, _ buf: UnsafeBufferPointer<UInt8>) {
        byte(UInt8(truncatingIfNeeded: column))
        byte(0x74)
        word(UInt64(buf.count))
        for b in buf { byte(b) }
    }

    mutating func text(_ column: Int32, _ value: String) {
        var value = value
        value.withUTF8 { bytes(column, $0) }
    }

    mutating func int(_ column: Int32, _ value: Int64) {
        byte(UInt8(truncatingIfNeeded: column))
        byte(0x69)
        word(UInt64(bitPattern: value))
    }

    mutating func double(_ column: Int32, _ value: Double) {
        byte(UInt8(truncatingIfNeeded: column))
        byte(0x64)
        word(value.bitPattern)
    }

    mutating func parts(_ column: Int32, _ values: [String]) {
        byte(UInt8(truncatingIfNeeded: column))
        byte(0x70)
        word(UInt64(values.count))
        for value in values { text(column, value) }
    }
}

/// Binds a row's values to the insert statement, hashing them on the way;
/// with no statement, hashes only (``RowWriter/contentHash(_:id:)``).
struct ColumnBinder {
    let statement: OpaquePointer?
    var hasher = ColumnHasher()

    mutating func text(_ column: Int32, _ value: String) {
        var value = value
        value.withUTF8 { buf in
            hasher.bytes(column, buf)
            if let statement { RowWriter.bind(statement, column, buf) }
        }
    }

    mutating func int(_ column: Int32, _ value: Int64) {
        hasher.int(column, value)
        if let statement { sqlite3_bind_int64(statement, column, value) }
    }

    mutating func double(_ column: Int32, _ value: Double) {
        hasher.double(column, value)
        if let statement { sqlite3_bind_double(statement, column, value) }
    }

    /// The pieces a column's text was joined from (hashed, not bound).
    mutating func parts(_ column: Int32, _ values: [String]) {
        hasher.parts(column, values)
    }
}
