import Foundation
import Testing
@testable import TickKit

/// Declared fields in `tick ui`'s `e` line: written as `NAME:value`, taken
/// back, and cleared when taken out; text the line cannot hold is left alone.
@Suite struct UserFieldUITests {
    static let fields = UserFieldTaskwarriorTests.fields
    static let berlin = Zone(named: "Europe/Berlin") ?? .utc

    @Test func theLineShowsTakesAndClearsDeclaredFields() throws {
        var task = TaskItem(id: UUID(), title: "Audit", createdAt: Date(timeIntervalSince1970: 0), modifiedAt: Date(timeIntervalSince1970: 0))
        task.extra = [
            JSONMember("client", .string("Acme")), JSONMember("review", .string("2030-12-01T09:00:00Z")),
            JSONMember("spent", JSONNode(.number("90"))), JSONMember("size", .string("L")),
            JSONMember("points", .string("many")),   // another type: not on the line, kept
        ]
        let line = UITaskText.tokens(of: task, timeZone: Self.berlin, fields: Self.fields)
        #expect(line == "Audit client:Acme review:2030-12-01T10:00 size:L spent:1h30m")
        let parser = QuickAddParser(fields: FieldParser(now: Date(timeIntervalSince1970: 1_795_338_000), timeZone: Self.berlin), userFields: Self.fields)
        let edited = line.replacingOccurrences(of: " client:Acme", with: "").replacingOccurrences(of: "size:L", with: "size:s")
        let (titleWords, tokens) = try parser.split(edited.split(separator: " ").map(String.init), allowRemoval: true)
        let edit = try UILineEdit.change(to: task, titleWords: titleWords, tokens: tokens, fields: Self.fields)
        #expect(edit.userFields["client"] == .clear)
        #expect(edit.userFields["size"] == .set(.string("S")))
        #expect(edit.userFields["spent"] == .set(JSONNode(.number("90"))))
        #expect(edit.userFields["review"] == .set(.string("2030-12-01T09:00:00Z")))
        #expect(edit.userFields["points"] == nil)
        // Text with a space has no word on the line, and is not cleared.
        task.extra[0] = JSONMember("client", .string("Acme Corp"))
        #expect(!UITaskText.tokens(of: task, timeZone: Self.berlin, fields: Self.fields).contains("client:"))
        let again = try UILineEdit.change(to: task, titleWords: ["Audit"], tokens: TaskEdit(), fields: Self.fields)
        #expect(again.userFields["client"] == nil)
    }
}
