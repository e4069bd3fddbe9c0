import Testing
@testable import TickKit

/// tick's own wrapper over SQLite's C API (Sources/TickKit/Index/SQLite).
@Suite struct SQLiteWrapperTests {
    private func memory() throws -> SQLiteConnection {
        try SQLiteConnection(path: nil)
    }

    @Test func errorsCarrySQLitesCodeAndMessage() throws {
        let db = try memory()
        do {
            try db.execute("SELECT * FROM nowhere")
            Issue.record("no error")
        } catch let error as SQLiteError {
            #expect(error.code == 1)
            #expect(error.message == "no such table: nowhere")
            #expect(error.sql == "SELECT * FROM nowhere")
            #expect("\(error)" == "SQLite error 1: no such table: nowhere - while executing `SELECT * FROM nowhere`")
        }
        try db.execute("CREATE TABLE t (x INTEGER PRIMARY KEY, y TEXT NOT NULL)")
        let insert = try db.prepare("INSERT INTO t (x, y) VALUES (?, ?)")
        do {
            try insert.execute([1, nil])
            Issue.record("no error")
        } catch let error as SQLiteError {
            // SQLITE_CONSTRAINT_NOTNULL: the extended code, its primary code.
            #expect(error.extendedCode == 1299)
            #expect(error.code == 19)
            #expect(error.message == "NOT NULL constraint failed: t.y")
        }
        // Wrong number of arguments: an error, not a silent NULL.
        #expect(throws: SQLiteError.self) { try insert.execute([1]) }
    }

    @Test func aFileThatIsNotADatabaseFailsAtOpen() throws {
        let path = "/tmp/tick-sqlite-wrapper-\(UInt64.random(in: 0 ... .max)).db"
        defer { TaskIndex.removeFiles(at: path) }
        let text = Array(repeating: UInt8(ascii: "x"), count: 4096)
        try AtomicFile.write(text, to: path, mode: nil)
        do {
            _ = try SQLiteConnection(path: path)
            Issue.record("opened")
        } catch let error as SQLiteError {
            #expect(error.code == 26)  // SQLITE_NOTADB
            #expect(TaskIndex.isDamage(error))
            #expect(TaskIndex.describe(error) == "it is damaged")
        }
    }

    @Test func bindsAndReadsEveryType() throws {
        let db = try memory()
        try db.execute("CREATE TABLE v (i, d, s, b, n)")
        let insert = try db.prepare("INSERT INTO v VALUES (?, ?, ?, ?, ?)")
        try insert.execute([Int64.max, 2.5, "héllo", [UInt8]([0, 1, 255]), nil])
        try insert.execute([-7, -0.0, "", [UInt8](), nil])
        try insert.execute([true, Double.greatestFiniteMagnitude, "a\u{0}b", [UInt8](repeating: 9, count: 3), nil])
        var rows: [[String]] = []
        try db.forEachRow("SELECT i, d, s, b, n, typeof(s), typeof(b), typeof(n) FROM v ORDER BY rowid") { row in
            #expect(row.columnCount == 8)
            #expect(row.isNull(4))
            #expect(row.optionalText(4) == nil && row.optionalInt(4) == nil && row.optionalDouble(4) == nil)
            #expect(row.bytes(4).isEmpty && row.blob(4).isEmpty)
            rows.append([String(row.int64(0)), String(row.double(1)), row.text(2), Array(row.blob(3)).description,
                         row.text(5), row.text(6), row.text(7)])
        }
        #expect(rows == [
            [String(Int64.max), "2.5", "héllo", "[0, 1, 255]", "text", "blob", "null"],
            // An empty string is text and an empty blob is a blob: neither is NULL.
            ["-7", "-0.0", "", "[]", "text", "blob", "null"],
            ["1", String(Double.greatestFiniteMagnitude), "a\u{0}b", "[9, 9, 9]", "text", "blob", "null"],
        ])
        // Bytes straight from SQLite's buffer, no String made.
        let bytes = try db.first("SELECT s FROM v WHERE rowid = 1") { Array($0.bytes(0)) }
        #expect(bytes == Array("héllo".utf8))
        #expect(try db.int("SELECT count(*) FROM v WHERE s = ''") == 1)
        #expect(try db.int("SELECT i FROM v WHERE rowid = 99") == nil)
        #expect(try db.double("SELECT d FROM v WHERE rowid = 1") == 2.5)
        #expect(try db.text("SELECT n FROM v WHERE rowid = 1") == nil)
        #expect(try db.texts("SELECT s FROM v ORDER BY rowid") == ["héllo", "", "a\u{0}b"])
        #expect(try db.ints("SELECT i FROM v WHERE i < 10 ORDER BY i") == [-7, 1])
    }

    @Test func aTransactionRollsBackWhenItsBodyThrows() throws {
        struct Stop: Error {}
        let db = try memory()
        try db.execute("CREATE TABLE t (x)")
        #expect(throws: Stop.self) {
            try db.write {
                try db.execute("INSERT INTO t VALUES (?)", [1])
                #expect(!db.isAutocommit)
                throw Stop()
            }
        }
        #expect(db.isAutocommit)
        #expect(try db.int("SELECT count(*) FROM t") == 0)
        try db.transaction(.immediate) { try db.execute("INSERT INTO t VALUES (?)", [2]) }
        #expect(try db.int("SELECT sum(x) FROM t") == 2)
        // A failing statement inside: rolled back as a whole, the error is SQLite's.
        #expect(throws: SQLiteError.self) {
            try db.write {
                try db.execute("INSERT INTO t VALUES (?)", [3])
                try db.execute("INSERT INTO nowhere VALUES (1)")
            }
        }
        #expect(try db.int("SELECT sum(x) FROM t") == 2)
        #expect(db.isAutocommit)
    }

    @Test func aStatementIsReusedAfterReset() throws {
        let db = try memory()
        try db.execute("CREATE TABLE t (k TEXT, v INTEGER)")
        let insert = try db.cached("INSERT INTO t VALUES (?, ?)")
        for (k, v) in [("a", 1), ("b", 2), ("c", 3)] { try insert.execute([k, v]) }
        #expect(try db.cached("INSERT INTO t VALUES (?, ?)") === insert)
        let lookup = try db.prepare("SELECT v FROM t WHERE k = ?")
        #expect(try lookup.row(["b"]) { $0.int(0) } == 2)
        #expect(try lookup.row(["c"]) { $0.int(0) } == 3)
        #expect(try lookup.row(["z"]) { $0.int(0) } == nil)
        // Stepped by hand: reset starts over with the same binding.
        lookup.bind("a", at: 1)
        #expect(try lookup.step())
        #expect(lookup.int(0) == 1)
        #expect(try !lookup.step())
        lookup.reset()
        #expect(try lookup.step())
        #expect(lookup.int(0) == 1)
    }

    @Test func theSearchScoringFunctionScoresInsideSQLite() throws {
        let db = try memory()
        try db.execute("CREATE TABLE t (title TEXT, notes TEXT, tags TEXT)")
        for (title, notes, tags) in [("Buy milk", nil, ""), ("Call mum", "about milk", ""), ("Taxes", nil, "milk"), ("Other", nil, "")] as [(String, String?, String)] {
            try db.execute("INSERT INTO t VALUES (?, ?, ?)", [title, notes, tags])
        }
        let query = try SearchQuery("milk")
        try SearchScoreFunction.register(query, on: db)
        var scores: [String: Int] = [:]
        try db.forEachRow("SELECT title, tick_search(title, notes, tags), notes, tags FROM t") { row in
            scores[row.text(0)] = row.int(1)
            #expect(row.int(1) == query.score(title: row.text(0), notes: row.optionalText(2) ?? "", tags: row.text(3)))
        }
        #expect(scores["Buy milk"] == 10)
        #expect(scores["Other"] == 0)
        #expect((scores["Call mum"] ?? 0) > 0 && (scores["Taxes"] ?? 0) > 0)
        // Registering another query replaces the function.
        try SearchScoreFunction.register(try SearchQuery("taxes"), on: db)
        #expect(try db.int("SELECT tick_search(title, notes, tags) FROM t WHERE title = 'Taxes'") == 10)
        #expect(try db.int("SELECT tick_search(title, notes, tags) FROM t WHERE title = 'Buy milk'") == 0)
    }

    @Test func backupCopiesADatabaseAndACloseIsFinal() throws {
        let db = try memory()
        try db.execute("CREATE TABLE t (x); INSERT INTO t VALUES (42)")
        let copy = try memory()
        try db.backup(to: copy)
        #expect(try copy.int("SELECT x FROM t") == 42)
        db.close()
        #expect(throws: SQLiteError.self) { try db.execute("SELECT 1") }
    }
}
