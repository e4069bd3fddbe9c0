import Foundation
import Testing
@testable import TickKit

/// The one task-id grammar (``TaskReference``, Docs/CLI.md §7): what each
/// word is, and that `tick done` and a filter read the same words the same way.
@Suite struct TaskReferenceTests {
    let setup = TaskAddingTests()

    /// Words and what they are: nil is "not an id" (a filter word, a list name, an error).
    static let table: [(String, [TaskReference]?)] = [
        ("3", [.short(3...3)]),
        ("12", [.short(12...12)]),
        ("0", nil),
        ("-3", nil),
        ("+3", nil),
        ("3-7", [.short(3...7)]),
        ("7-3", nil),
        ("0-3", nil),
        ("3,9", [.short(3...3), .short(9...9)]),
        ("3,5-7,6f1c", [.short(3...3), .short(5...7), .uuidPrefix("6f1c")]),
        ("3,", nil),
        (",3", nil),
        ("1234", [.shortOrPrefix(1234, "1234")]),
        ("0123", [.shortOrPrefix(123, "0123")]),
        ("12345678", [.shortOrPrefix(12_345_678, "12345678")]),
        ("1234-5678", [.short(1234...5678)]),
        ("12345678-1234", [.uuidPrefix("123456781234")]),
        ("6f1c", [.uuidPrefix("6f1c")]),
        ("6F1C", [.uuidPrefix("6f1c")]),
        ("a1b", nil),
        ("beef", nil),
        ("cafe", nil),
        ("facade", nil),
        ("deadbeef", [.uuidPrefix("deadbeef")]),
        ("3a5effe4", [.uuidPrefix("3a5effe4")]),
        ("3A5EFFE4-2566", [.uuidPrefix("3a5effe42566")]),
        ("3a5effe4-2566-4a1b-9c3d-000000000001", [.uuidPrefix("3a5effe425664a1b9c3d000000000001")]),
        ("3a5effe4-2566-4a1b-9c3d-0000000000012", nil),
        ("-abcd1234", nil),
        ("abcd1234-", nil),
        ("6f1g", nil),
        ("milk", nil),
        ("+errand", nil),
        ("list:Work", nil),
        ("", nil),
        ("٣", nil),
    ]

    @Test(arguments: table)
    func eachWordIsClassifiedByTheOneGrammar(_ word: String, _ expected: [TaskReference]?) {
        #expect(TaskReference.list(word) == expected)
        #expect(BulkSelection.isIDList([word]) == (expected != nil))
        var single = expected.flatMap { $0.count == 1 ? $0[0] : nil }.flatMap { ref -> TaskReference? in
            if case .short(let r) = ref, r.count > 1 { return nil }
            return ref
        }
        // Where one task is meant (`tick show`), 8 digits with a dash are a UUID prefix, not a range.
        if word == "1234-5678" { single = .uuidPrefix("12345678") }
        #expect(TaskReference.single(word) == single)
        #expect(BulkSelection.isSingleID(word) == (single != nil))
    }

    /// A filter reads a word as ids exactly when `tick done` does, with the same references.
    @Test(arguments: table.map(\.0).filter { !$0.isEmpty && !$0.hasPrefix("-") && !$0.hasPrefix("+") && !$0.contains(":") && $0 != "٣" })
    func aFilterReadsIdsAsTickDoneDoes(_ word: String) throws {
        let parsed = try FilterParser(now: setup.now, timeZone: setup.utc).parse([word, "+x"])
        let idTerms = parsed.expression.terms.compactMap { term -> [TaskReference]? in
            if case .ids(let refs) = term.kind { return refs }
            return nil
        }
        if let refs = TaskReference.list(word) {
            #expect(idTerms == [refs], "\(word) is ids to tick done")
        } else {
            #expect(idTerms.isEmpty, "\(word) is no id to tick done")
        }
    }

    /// The same words select the same tasks in `tick done` (ids resolved as
    /// typed, or a filter) and in a listing's filter.
    @Test func tickDoneAndAFilterSelectTheSameTasks() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        func task(_ id: String, _ title: String) -> TaskItem {
            TaskItem(id: UUID(uuidString: id)!, title: title, createdAt: setup.now, modifiedAt: setup.now)
        }
        var inbox = TaskFile.empty(.inbox, name: nil, now: setup.now)
        inbox.tasks = [
            task("1234abcd-0000-4000-8000-000000000001", "Digits first"),
            task("beef0000-0000-4000-8000-000000000002", "Hex letters first"),
            task("3a5effe4-0000-4000-8000-000000000003", "beef stew"),
        ]
        try AtomicFile.write(TaskFileEncoder.encode(inbox), to: f.store.location.path(of: .inbox), mode: nil)
        let loaded = try f.session.load()
        let selection = BulkSelection(session: f.session, now: setup.now, timeZone: setup.utc, activeFilter: { nil }, confirmLimit: { 10 })
        let query = TaskQuery(now: setup.now, timeZone: setup.utc)
        let cases: [(String, String)] = [
            ("1", "Digits first"),           // a short id
            ("1234", "Digits first"),        // no short id 1234: the UUID prefix
            ("beef0000", "Hex letters first"),
            ("beef", "beef stew"),           // a word: the text, for both
            ("3a5e", "beef stew"),
            ("1-2", "Digits first,Hex letters first"),
        ]
        for (word, titles) in cases {
            let refs = try selection.refs([word], states: [.open, .active], verb: "Complete", yes: false, confirm: nil)
            let done = try loaded.tasks.resolve(refs).map(\.task.title).sorted()
            let parsed = try FilterParser(now: setup.now, timeZone: setup.utc).parse([word])
            let listed = try loaded.index.run(.list(nil), filter: TaskFilter(), matching: parsed, query: query).map(\.task.title).sorted()
            #expect(done == titles.split(separator: ",").map(String.init), "tick done \(word)")
            #expect(listed == done, "a filter of \(word)")
        }
    }
}
