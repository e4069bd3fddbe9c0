import Foundation
import Testing
@testable import TickKit

/// Declared fields through the one VTODO table (``DavMapping/fields(_:)``):
/// `X-TICK-FIELD;NAME=…` in a new item, read back, merged from the phone and
/// patched from tick, and left alone where they are not declared.
@Suite struct UserFieldDavTests {
    static let fields = UserFieldTaskwarriorTests.fields
    let utc = Zone(named: "UTC")!

    func value(_ task: TaskItem?, _ key: String) -> JSONNode? { task?.extra.first { $0.key == key }?.value }

    static func sample() -> TaskItem {
        var task = DavBridgeTests.task("Audit")
        task.extra = [
            JSONMember("client", .string("Acme; Corp, \"big\"")), JSONMember("points", .string("many")),
            JSONMember("review", .string("2030-12-01")), JSONMember("size", .string("L")),
            JSONMember("spent", JSONNode(.number("90"))), JSONMember("note", .string("not declared")),
        ]
        return task
    }

    func bridge(_ f: DavBridgeTests.Fixture, at now: Date, fields: UserFields = Self.fields) -> DavBridge {
        DavBridge(store: f.store(at: now), settings: DavSettings(), root: f.dav, now: now, timeZone: utc, fields: fields)
    }

    @Test func aNewItemCarriesDeclaredFieldsAndReadsThemBack() throws {
        let task = Self.sample()
        let bytes = DavMapping.newItem(for: task, now: DavBridgeTests.at(1), declared: Self.fields)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("X-TICK-FIELD;NAME=client:Acme\\; Corp\\, \"big\"\r\n"), Comment(rawValue: text))
        #expect(text.contains("X-TICK-FIELD;NAME=points;X-TICK-TYPE=json:\"many\"\r\n"))
        #expect(text.contains("X-TICK-FIELD;NAME=review:2030-12-01\r\n"))
        #expect(text.contains("X-TICK-FIELD;NAME=spent:90\r\n"))
        #expect(!text.contains("not declared"))
        // The alarm stays last; the fields come before it.
        let item = try DavItem(bytes: bytes, path: "x.ics")
        let back = try item.task(path: "x.ics", now: DavBridgeTests.at(1), timeZone: utc, fields: Self.fields)
        for key in ["client", "points", "review", "size", "spent"] {
            #expect(value(back, key) == value(task, key), Comment(rawValue: key))
        }
        #expect(DavMapping.differences(back, task, declared: Self.fields).isEmpty, "an undeclared key is no field of the item")
        var withoutNote = task
        withoutNote.extra.removeAll { $0.key == "note" }
        #expect(DavMapping.same(back, withoutNote, declared: Self.fields))
        // Not declared: the property is not read, and the item is written as before.
        let plain = try item.task(path: "x.ics", now: DavBridgeTests.at(1), timeZone: utc)
        #expect(value(plain, "client") == nil)
        #expect(!String(decoding: DavMapping.newItem(for: task, now: DavBridgeTests.at(1)), as: UTF8.self).contains("X-TICK-FIELD"))
        // The iCalendar format reads the property back too (over X-TICK-JSON).
        var file = TaskFile.empty(.inbox, name: nil, now: DavBridgeTests.t0)
        file.tasks = [task]
        let context = InterchangeContext(path: "x.ics", now: DavBridgeTests.t0, timeZone: utc, fields: Self.fields)
        let ics = ICalendarCodec.encode([file], context: context)
        let imported = try #require(try ICalendarCodec.decode(ics, context: context).first?.tasks.first)
        #expect(imported.extra == task.extra, "the values and their order")
        // Each declared value is written once: in its X-TICK-FIELD, not again in X-TICK-JSON.
        let icsText = String(decoding: ics, as: UTF8.self).replacingOccurrences(of: "\r\n ", with: "")
        #expect(icsText.components(separatedBy: "Acme").count == 2, Comment(rawValue: icsText))
        #expect(icsText.contains("x-ical-field:client") && icsText.contains("not declared"), Comment(rawValue: icsText))
        #expect(ICalendarCodec.encode(try ICalendarCodec.decode(ics, context: context), context: context) == ics, "a re-export changes no byte")
    }

    @Test func thePhoneAndTickChangeADeclaredField() throws {
        let f = try DavBridgeTests.Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let task = Self.sample()
        try f.put(.inbox, name: nil, [task])
        let name = task.id.lowercased + ".ics"
        #expect(try bridge(f, at: DavBridgeTests.at(1)).reconcile().sent == 1)
        let sent = try #require(f.item("inbox", name))
        #expect(sent.contains("X-TICK-FIELD;NAME=size:L"))
        #expect(try bridge(f, at: DavBridgeTests.at(2)).reconcile() == DavReport())

        // The phone (or another machine) changes it.
        var edited = sent.replacingOccurrences(of: "X-TICK-FIELD;NAME=size:L", with: "X-TICK-FIELD;NAME=size:S")
        edited = edited.replacingOccurrences(of: #"LAST-MODIFIED:\d{8}T\d{6}Z"#, with: "LAST-MODIFIED:20261121T093000Z", options: .regularExpression)
        try f.putItem("inbox", name, edited)
        let received = try bridge(f, at: DavBridgeTests.at(40)).reconcile()
        #expect(received.received == 1, "\(received)")
        let stored = try #require(try f.tasks(.inbox).first)
        #expect(value(stored, "size") == .string("S"))
        #expect(stored.changed["size"] == DavBridgeTests.at(30))
        #expect(value(stored, "note") == .string("not declared"), "keys the item does not carry stay")
        #expect(value(stored, "points") == .string("many"))

        // tick changes it: the property is patched in place.
        try f.edit(.inbox, at: DavBridgeTests.at(50)) { file in
            file.tasks[0].extra = file.tasks[0].extra.map { $0.key == "client" ? JSONMember("client", .string("Initech")) : $0 }
            file.tasks[0].changed["client"] = DavBridgeTests.at(50)
            file.tasks[0].modifiedAt = DavBridgeTests.at(50)
        }
        #expect(try bridge(f, at: DavBridgeTests.at(60)).reconcile().sent == 1)
        let patched = try #require(f.item("inbox", name))
        #expect(patched.contains("X-TICK-FIELD;NAME=client:Initech\r\n"))
        #expect(!patched.contains("Acme"))
        #expect(try bridge(f, at: DavBridgeTests.at(61)).reconcile() == DavReport())

        // A machine where the field is not declared leaves the property and the key alone.
        let before = f.item("inbox", name)
        #expect(try bridge(f, at: DavBridgeTests.at(70), fields: UserFields()).reconcile() == DavReport())
        #expect(f.item("inbox", name) == before)
        #expect(value(try f.tasks(.inbox).first, "client") == .string("Initech"))
    }
}
