import Foundation
import Testing
@testable import TickKit

/// Declared fields as Taskwarrior UDAs (issue 45): typed both ways, verbatim
/// when a value would not go back the same, and tick's own export read back
/// unchanged.
@Suite struct UserFieldTaskwarriorTests {
    static let berlin = Zone(named: "Europe/Berlin") ?? .utc
    static let fields = UserFields([
        UserField(name: "client", kind: .string), UserField(name: "points", kind: .number),
        UserField(name: "review", kind: .date), UserField(name: "spent", kind: .duration),
        UserField(name: "size", kind: .values(["S", "M", "L"])),
    ])
    var context: InterchangeContext {
        InterchangeContext(path: "tw.json", now: Date(timeIntervalSince1970: 1_795_338_000), timeZone: Self.berlin, fields: Self.fields)
    }

    func decode(_ text: String) throws -> TaskItem {
        try #require(try TaskwarriorCodec.decode(Array(text.utf8), context: context).first?.tasks.first)
    }

    func value(_ task: TaskItem, _ key: String) -> JSONNode? { task.extra.first { $0.key == key }?.value }

    @Test func periods() {
        #expect(TaskwarriorUDA.period(minutes: 90) == "PT1H30M")
        #expect(TaskwarriorUDA.period(minutes: 1_500) == "P1DT1H")
        #expect(TaskwarriorUDA.period(minutes: 2_880) == "P2D")
        #expect(TaskwarriorUDA.period(minutes: 45) == "PT45M")
        #expect(TaskwarriorUDA.minutes(fromPeriod: "PT1H30M") == 90)
        #expect(TaskwarriorUDA.minutes(fromPeriod: "P1DT1H") == 1_500)
        #expect(TaskwarriorUDA.minutes(fromPeriod: "PT120S") == 2)
        #expect(TaskwarriorUDA.minutes(fromPeriod: "PT30S") == nil)
        #expect(TaskwarriorUDA.minutes(fromPeriod: "P1M") == nil)
        #expect(TaskwarriorUDA.minutes(fromPeriod: "P") == nil)
        #expect(TaskwarriorUDA.minutes(fromPeriod: "PT") == nil)
        #expect(TaskwarriorUDA.minutes(fromPeriod: "1h") == nil)
    }

    @Test func declaredUDAsAreTypedAndUndeclaredKept() throws {
        let task = try decode("""
            [{"uuid":"0e4f3c2a-5b6d-4e7f-8a9b-0c1d2e3f4a5b","description":"Audit","status":"pending","entry":"20261120T080000Z",
              "client":"Acme","points":2.5,"review":"20301130T230000Z","spent":"PT1H30M","size":"M","githuburl":"https://x/1"}]
            """)
        #expect(value(task, "client") == .string("Acme"))
        #expect(value(task, "points") == JSONNode(.number("2.5")))
        #expect(value(task, "review") == .string("2030-12-01"))   // local midnight in Berlin: a day, as `due`
        #expect(value(task, "spent") == JSONNode(.number("90")))
        #expect(value(task, "size") == .string("M"))
        #expect(value(task, "githuburl") == nil)
        #expect(value(task, "x-taskwarrior-githuburl") == .string("https://x/1"))
        #expect(value(task, "x-taskwarrior-client") == nil)
    }

    /// Taskwarrior 2.6 exports a numeric UDA with `%f` (`3` → `3.000000`):
    /// read back as tick stores the number typed (`3`), so re-importing the
    /// export of tick's own export changes nothing (the round-trip property test found it).
    @Test func taskwarriorsFixedPointNumbersReadAsTyped() throws {
        for (exported, stored) in [("3.000000", "3"), ("2.500000", "2.5"), ("-0.750000", "-0.75"), ("1000000.000000", "1000000"),
                                   ("0.000000", "0"), ("-0.000000", "0"), ("12.125000", "12.125"), ("42", "42"), ("1e+06", "1e+06")] {
            let task = try decode("""
                [{"uuid":"0e4f3c2a-5b6d-4e7f-8a9b-0c1d2e3f4a5b","description":"Audit","status":"pending","entry":"20261120T080000Z",
                  "points":\(exported)}]
                """)
            #expect(value(task, "points") == JSONNode(.number(stored)), "\(exported)")
        }
        #expect(TaskwarriorUDA.taskwarriorNumber("10.0100") == "10.01")
        #expect(TaskwarriorUDA.taskwarriorNumber("100") == "100")
    }

    /// A declared date stored as the instant of local midnight comes back
    /// from Taskwarrior as that day; re-importing into the store keeps the
    /// store's form, as for `due` (the round-trip property test found it).
    @Test func reconcileKeepsTheStoresFormOfADateAtLocalMidnight() throws {
        let imported = try decode("""
            [{"uuid":"0e4f3c2a-5b6d-4e7f-8a9b-0c1d2e3f4a5b","description":"Audit","status":"pending","entry":"20261120T080000Z",
              "review":"20301130T230000Z"}]
            """)
        #expect(value(imported, "review") == .string("2030-12-01"))
        var current = imported
        current.extra = [JSONMember("review", .string("2030-11-30T23:00:00Z"))]
        let kept = TaskwarriorCodec.keepStore(imported, of: current, timeZone: Self.berlin, fields: Self.fields)
        #expect(value(kept, "review") == .string("2030-11-30T23:00:00Z"))
        current.extra = [JSONMember("review", .string("2030-12-01T10:00:00Z"))]
        let changed = TaskwarriorCodec.keepStore(imported, of: current, timeZone: Self.berlin, fields: Self.fields)
        #expect(value(changed, "review") == .string("2030-12-01"), "another instant is a change: the import's")
    }

    @Test func valuesThatWouldNotComeBackTheSameAreVerbatim() throws {
        let task = try decode("""
            [{"uuid":"0e4f3c2a-5b6d-4e7f-8a9b-0c1d2e3f4a5b","description":"Audit","status":"pending","entry":"20261120T080000Z",
              "points":"3","review":"2030-12-01","spent":"PT90M","size":"m"}]
            """)
        #expect(value(task, "points") == .string("3"))
        #expect(value(task, "review") == .string("2030-12-01T00:00:00Z") || value(task, "review") == .string("2030-12-01"))
        #expect(value(task, "spent") == .string("PT90M"))
        #expect(value(task, "size") == .string("m"))
        // … and each goes back out as it came, but text in a numeric UDA:
        // Taskwarrior 2.6 writes that unquoted (`"points":many`, a file no
        // one can read), so it stays in tick (FIELDS.md "Formats").
        let out = TaskwarriorCodec.node(for: task, project: nil, context: context)
        guard case .object(let ms) = out.kind else { Issue.record("not an object"); return }
        let back = Dictionary(ms.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        #expect(back["points"] == nil)
        #expect(back["spent"] == .string("PT90M"))
        #expect(back["size"] == .string("m"))
    }

    @Test func tickExportReadsBackTheSame() throws {
        var task = TaskItem(id: UUID(), title: "Audit", createdAt: Date(timeIntervalSince1970: 1_795_338_000),
                            modifiedAt: Date(timeIntervalSince1970: 1_795_338_000))
        task.extra = [
            JSONMember("size", .string("L")), JSONMember("client", .string("Acme Corp")), JSONMember("points", JSONNode(.number("3"))),
            JSONMember("review", .string("2030-12-01")), JSONMember("spent", JSONNode(.number("1500"))),
            JSONMember("later", .string("2030-12-01T10:30:00Z")), JSONMember("undeclared", .string("x")),
        ]
        let file = TaskFile.empty(.inbox, name: nil, now: task.createdAt)
        var files = [file]
        files[0].tasks = [task]
        let bytes = TaskwarriorCodec.encode(files, context: context)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(#""client":"Acme Corp""#))
        #expect(text.contains(#""points":3"#))
        #expect(text.contains(#""review":"20301130T230000Z""#))
        #expect(text.contains(#""spent":"P1DT1H""#))
        #expect(text.contains(#""size":"L""#))
        #expect(!text.contains("undeclared") && !text.contains("later"), "undeclared keys are tick's own: \(text)")
        let back = try #require(try TaskwarriorCodec.decode(bytes, context: context).first?.tasks.first)
        for key in ["size", "client", "points", "review", "spent"] {
            #expect(value(back, key) == value(task, key), "\(key)")
        }
        // The import keeps the store's undeclared keys and order: the same task.
        let snapshotTask = task
        let reconciled = TaskwarriorCodec.reconcile([TaskFile](arrayLiteral: { var f = file; f.tasks = [back]; return f }()),
                                                    with: StoreSnapshot(files: [{ var f = file; f.tasks = [snapshotTask]; return f }()]),
                                                    timeZone: Zone(named: "UTC")!, fields: Self.fields)
        #expect(reconciled.first?.tasks.first?.extra == task.extra)
    }

    @Test func taskwarriorNamesAreNotDeclarable() {
        #expect(UserFields.nameProblem("until") != nil)
        #expect(UserFields.nameProblem("mask") != nil)
        #expect(UserFields.nameProblem("githuburl") == nil)
    }

    @Test func sortByDeclaredFields() throws {
        let sort = try TaskSort("size-,client", fields: Self.fields)
        #expect(sort.keys.count == 2)
        #expect(throws: InputError.self) { try TaskSort("sise", fields: Self.fields) }
        do {
            _ = try TaskSort("clint", fields: Self.fields)
        } catch {
            #expect(error.errorDescription?.contains("did you mean client?") == true, "\(error)")
        }
        func task(_ extra: [JSONMember]) -> TaskItem {
            var t = TaskItem(id: UUID(), title: "t", createdAt: Date(timeIntervalSince1970: 0), modifiedAt: Date(timeIntervalSince1970: 0))
            t.extra = extra
            return t
        }
        let size = try #require(Self.fields["size"])
        #expect(TaskSort.value(of: size, in: task([JSONMember("size", .string("S"))]), timeZone: Self.berlin) == .number(0))
        #expect(TaskSort.value(of: size, in: task([JSONMember("size", .string("L"))]), timeZone: Self.berlin) == .number(2))
        #expect(TaskSort.value(of: size, in: task([JSONMember("size", .string("XL"))]), timeZone: Self.berlin) == nil)
        let review = try #require(Self.fields["review"])
        let day = TaskSort.value(of: review, in: task([JSONMember("review", .string("2030-12-01"))]), timeZone: Self.berlin)
        let time = TaskSort.value(of: review, in: task([JSONMember("review", .string("2030-12-01T10:00:00Z"))]), timeZone: Self.berlin)
        #expect(try #require(time) < #require(day), "a day sorts after the times on it")
        let client = try #require(Self.fields["client"])
        #expect(TaskSort.value(of: client, in: task([JSONMember("client", .string("Acme"))]), timeZone: Self.berlin) == .text("acme"))
        #expect(TaskSort.value(of: client, in: task([JSONMember("client", JSONNode(.number("3")))]), timeZone: Self.berlin) == nil)
        let spent = try #require(Self.fields["spent"])
        #expect(TaskSort.value(of: spent, in: task([JSONMember("spent", JSONNode(.number("90")))]), timeZone: Self.berlin) == .number(90))
    }
}
