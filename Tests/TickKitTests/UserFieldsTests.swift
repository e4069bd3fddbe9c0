import Foundation
import Testing
@testable import TickKit

/// `[fields.NAME]` in config.toml: the declaration, the refusals, parsing
/// each type's values, quick-add tokens, the default on add, and the merge of
/// two machines' changes (issue 45).
@Suite struct UserFieldsTests {
    /// 2026-11-28T10:00:00Z, a Saturday.
    let now = Date(timeIntervalSince1970: 1_795_860_000)
    var parser: FieldParser { FieldParser(now: now, timeZone: .utc) }

    static let declared = """
        [fields.client]
        type = "string"
        label = "Client"

        [fields.points]
        type = "number"
        default = 1

        [fields.review]
        type = "date"

        [fields.spent]
        type = "duration"

        [fields.size]
        type = "values"
        values = ["S", "M", "L"]
        default = "M"
        """

    func fields() throws -> UserFields {
        try TickConfig.parse(Self.declared, path: "/c/config.toml").fields
    }

    func quickAdd() throws -> QuickAddParser { QuickAddParser(fields: parser, userFields: try fields()) }

    // MARK: Declaration

    @Test func declarationsAreRead() throws {
        let fields = try fields()
        #expect(fields.names == ["client", "points", "review", "size", "spent"])
        #expect(fields["client"] == UserField(name: "client", kind: .string, label: "Client"))
        #expect(fields["points"]?.defaultText == "1")
        #expect(fields["size"]?.kind == .values(["S", "M", "L"]))
        #expect(fields["Size"]?.name == "size")
        #expect(fields["client"]?.displayName == "Client")
        #expect(fields["spent"]?.displayName == "spent")
    }

    @Test(arguments: [
        ("[fields.due]\ntype = \"string\"", "fields.due"),
        ("[fields.pri]\ntype = \"string\"", "fields.pri"),
        ("[fields.priority]\ntype = \"string\"", "fields.priority"),
        ("[fields.est]\ntype = \"string\"", "fields.est"),
        ("[fields.project]\ntype = \"string\"", "fields.project"),
        ("[fields.notes]\ntype = \"string\"", "fields.notes"),
        ("[fields.at]\ntype = \"string\"", "fields.at"),
        ("[fields.Client]\ntype = \"string\"", "fields.Client"),
        ("[fields.2nd]\ntype = \"string\"", "fields.2nd"),
        ("[fields.x]\ntype = \"text\"", "fields.x.type"),
        ("[fields.x]\nlabel = \"X\"", "fields.x.type"),
        ("[fields.x]\ntype = \"values\"", "fields.x.values"),
        ("[fields.x]\ntype = \"values\"\nvalues = []", "fields.x.values"),
        ("[fields.x]\ntype = \"values\"\nvalues = [\"a\", \"A\"]", "fields.x.values"),
        ("[fields.x]\ntype = \"number\"\ndefault = \"many\"", "fields.x.default"),
        ("[fields.x]\ntype = \"date\"\ndefault = \"someday\"", "fields.x.default"),
        ("[fields.x]\ntype = \"duration\"\ndefault = \"3 weeks\"", "fields.x.default"),
        ("[fields.x]\ntype = \"values\"\nvalues = [\"a\", \"b\"]\ndefault = \"c\"", "fields.x.default"),
    ])
    func badDeclarationsAreRefusedNamingTheKey(text: String, key: String) {
        #expect {
            _ = try TickConfig.parse(text, path: "/c/config.toml")
        } throws: { error in
            guard let error = error as? ConfigError, case .badValue(let path, let named, _, _) = error else { return false }
            let line = error.errorDescription ?? ""
            return path == "/c/config.toml" && named == key && !line.contains("\n") && line.contains("expected")
        }
    }

    @Test func reservedNamesComeFromTicksOwnTables() {
        for field in TaskField.all { #expect(UserFields.reservedNames.contains(field.name.lowercased())) }
        for key in QuickAddParser.keys { #expect(UserFields.reservedNames.contains(key)) }
        #expect(UserFields.nameProblem("client") == nil)
        #expect(UserFields.nameProblem("my_field-2") == nil)
        #expect(UserFields.nameProblem("sched") != nil)
    }

    @Test func unknownKeysOfADeclarationAreWarnedAbout() throws {
        let config = try TickConfig.parse("[fields.x]\ntype = \"string\"\nlable = \"X\"", path: "/c")
        #expect(config.unknownKeys == ["fields.x.lable"])
        #expect(config.fields["x"]?.label == nil)
    }

    // MARK: Values

    @Test func valuesParseByType() throws {
        let f = try fields()
        #expect(try f["client"]?.parse("Acme", with: parser) == .string("Acme"))
        #expect(try f["points"]?.parse("3", with: parser) == JSONNode(.number("3")))
        #expect(try f["points"]?.parse("-2.50", with: parser) == JSONNode(.number("-2.50")))
        #expect(try f["points"]?.parse("007", with: parser) == JSONNode(.number("7")))
        #expect(try f["review"]?.parse("2026-12-01", with: parser) == .string("2026-12-01"))
        #expect(try f["review"]?.parse("tomorrow", with: parser) == .string("2026-11-29"))
        #expect(try f["review"]?.parse("2026-12-01T09:30", with: parser) == .string("2026-12-01T09:30:00Z"))
        #expect(try f["spent"]?.parse("1h30m", with: parser) == JSONNode(.number("90")))
        #expect(try f["spent"]?.parse("45", with: parser) == JSONNode(.number("45")))
        #expect(try f["size"]?.parse("l", with: parser) == .string("L"))
    }

    @Test func badValuesSayWhatIsExpected() throws {
        let f = try fields()
        func message(_ name: String, _ text: String) -> String? {
            do {
                _ = try f[name]?.parse(text, with: parser)
                return nil
            } catch {
                return error.errorDescription
            }
        }
        #expect(message("points", "lots") == "points: \"lots\" is not a number; use digits like 3, -2 or 2.5")
        #expect(message("points", "1e3") != nil)
        #expect(message("review", "someday")?.hasPrefix("review: ") == true)
        #expect(message("spent", "soon")?.hasPrefix("spent: ") == true)
        #expect(message("size", "XL") == "size: \"XL\" is not one of S, M, L (did you mean L?)")
        #expect(message("size", "huge") == "size: \"huge\" is not one of S, M, L")
        #expect(message("client", "a\u{7}b")?.contains("control") == true)
    }

    @Test func storedValuesAsText() throws {
        let f = try fields()
        let spent = try #require(f["spent"])
        #expect(spent.text(of: JSONNode(.number("90"))) == DurationText.format(90))
        #expect(spent.isWellTyped(JSONNode(.number("90"))))
        #expect(!spent.isWellTyped(.string("lots")))
        #expect(spent.text(of: .string("lots")) == "lots")
        #expect(f["review"]?.stored(fromText: "2026-12-01") == .string("2026-12-01"))
        #expect(f["review"]?.stored(fromText: "tomorrow") == nil)
        #expect(f["size"]?.stored(fromText: "s") == .string("S"))
        #expect(f["points"]?.text(of: JSONNode(.bool(true))) == "true")
    }

    // MARK: Quick-add

    @Test func tokensSetAndClearDeclaredFields() throws {
        let (title, edit) = try quickAdd().parse(["Audit", "client:Acme", "points:3", "review:next", "monday", "size:s", "spent:2h"])
        #expect(title == "Audit")
        #expect(edit.userFields["client"] == .set(.string("Acme")))
        #expect(edit.userFields["points"] == .set(JSONNode(.number("3"))))
        #expect(edit.userFields["review"] == .set(.string("2026-11-30")))
        #expect(edit.userFields["size"] == .set(.string("S")))
        #expect(edit.userFields["spent"] == .set(JSONNode(.number("120"))))

        let (_, clearing) = try quickAdd().parse(["client:", "size:none"], allowRemoval: true)
        #expect(clearing.userFields == ["client": .clear, "size": .clear])
    }

    @Test func undeclaredKeysAndProseStayTitleText() throws {
        let (title, edit) = try quickAdd().parse(["Call", "owner:Sam", "Client:"])
        #expect(title == "Call owner:Sam Client:")
        #expect(edit.userFields.isEmpty)
        #expect(throws: InputError.self) { try quickAdd().parse(["Call", "review.before:fri"]) }
        #expect(throws: InputError.self) { try quickAdd().parse(["Call", "size:XL"]) }
        #expect(throws: InputError.self) { try quickAdd().parse(["Call", "client:"]) }
    }

    @Test func applyingKeepsOtherKeysAndTheirOrder() throws {
        var task = TaskItem(id: UUID(), title: "T", createdAt: now, modifiedAt: now,
                            extra: [JSONMember("x-owner", .string("sam")), JSONMember("client", .string("Old"))])
        var edit = TaskEdit()
        edit.userFields = ["client": .set(.string("New")), "size": .set(.string("L"))]
        #expect(edit.apply(to: &task, now: now.addingTimeInterval(60)))
        #expect(task.extra.map(\.key) == ["x-owner", "client", "size"])
        #expect(task.extra[1].value == .string("New"))
        #expect(task.modifiedAt == now.addingTimeInterval(60))
        #expect(!edit.apply(to: &task, now: now.addingTimeInterval(120)))
        edit.userFields = ["client": .clear]
        #expect(edit.apply(to: &task, now: now))
        #expect(task.extra.map(\.key) == ["x-owner", "size"])
    }

    // MARK: Merge

    /// Two machines change the same declared field, without a common base
    /// (a Syncthing conflict copy): the later change wins, though the other
    /// side's task was modified later (by another field).
    @Test func twoMachinesEditsMergeByTheLaterChange() {
        typealias F = MergeFixture
        let ours = F.list([F.task("a", "Audit", "09:30", extra: [JSONMember("client", .string("Acme"))],
                                  changed: ["client": "09:30"])], modified: "09:30")
        let theirs = F.list([F.task("a", "Audit books", "09:40", extra: [JSONMember("client", .string("Globex"))],
                                    changed: ["client": "09:20", "title": "09:40"])], modified: "09:40")
        let out = F.merge(nil, ours, theirs)
        let task = out.file.tasks.first
        #expect(task?.title == "Audit books")
        #expect(task?.extra == [JSONMember("client", .string("Acme"))])
        #expect(task?.changed["client"] == F.at("09:30"))
    }
}
