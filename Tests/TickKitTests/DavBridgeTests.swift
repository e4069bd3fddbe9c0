import Foundation
import Testing
@testable import TickKit

/// The CalDAV bridge's store ⇄ vdir workflow, in process (Docs/DAV.md).
@Suite struct DavBridgeTests {
    static let t0 = Timestamp.parse("2026-11-21T09:00:00Z")!
    static func at(_ minutes: Double) -> Date { t0.addingTimeInterval(minutes * 60) }
    let utc = Zone(named: "UTC")!

    struct Fixture {
        let dir: String
        let location: StoreLocation
        var dav: String { dir + "/dav" }
        var vdir: String { dav + "/vdir" }

        init() throws {
            dir = NSTemporaryDirectory() + "tick-dav-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: dir + "/store/lists", withIntermediateDirectories: true)
            location = StoreLocation(root: dir + "/store", stateDirectory: dir + "/state", cacheDirectory: dir + "/cache")
        }

        func store(at now: Date) -> Store { Store(location: location, clock: { now }) }

        func bridge(at now: Date, settings: DavSettings = DavSettings()) -> DavBridge {
            DavBridge(store: store(at: now), settings: settings, root: dav, now: now, timeZone: Zone(named: "UTC")!)
        }

        /// Writes a file of tasks.
        func put(_ kind: FileKind, name: String?, _ tasks: [TaskItem]) throws {
            try store(at: DavBridgeTests.t0).withLock { writer in
                try writer.update(kind, create: { TaskFile.empty(kind, name: name, now: DavBridgeTests.t0) }) { file in
                    file.tasks = tasks
                }
            }
        }

        func edit(_ kind: FileKind, at now: Date, _ change: (inout TaskFile) -> Void) throws {
            try store(at: now).withLock { writer in try writer.update(kind) { change(&$0) } }
        }

        func tasks(_ kind: FileKind) throws -> [TaskItem] { try store(at: t0).read(kind)?.file.tasks ?? [] }
        func file(_ kind: FileKind) throws -> TaskFile? { try store(at: t0).read(kind)?.file }

        func item(_ collection: String, _ name: String) -> String? {
            FileManager.default.contents(atPath: vdir + "/" + collection + "/" + name).map { String(decoding: $0, as: UTF8.self) }
        }

        func putItem(_ collection: String, _ name: String, _ text: String) throws {
            try FileManager.default.createDirectory(atPath: vdir + "/" + collection, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: vdir + "/" + collection + "/" + name))
        }

        /// The phone moves item `name` to another calendar (same file name),
        /// changed by `edit`, with LAST-MODIFIED `stamp`.
        func phoneMove(_ name: String, from: String, to: String, stamp: String, edit: (String) -> String = { $0 }) throws {
            let text = try #require(item(from, name))
            try removeItem(from, name)
            try putItem(to, name, edit(text).settingLastModified(stamp))
        }

        func removeItem(_ collection: String, _ name: String) throws {
            try FileManager.default.removeItem(atPath: vdir + "/" + collection + "/" + name)
        }

        func items(_ collection: String) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: vdir + "/" + collection)) ?? []).filter { $0.hasSuffix(".ics") }.sorted()
        }

        var t0: Date { DavBridgeTests.t0 }
    }

    static func task(_ title: String, due: TaskDate? = nil) -> TaskItem {
        TaskItem(id: UUID(name: "dav-test:" + title), title: title, due: due, createdAt: t0, modifiedAt: t0)
    }

    /// An item as an iPhone writes one: unknown properties, a folded line, two alarms.
    static let appleItem = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Apple Inc.//iOS 17.0//EN",
        "BEGIN:VTODO",
        "UID:7D1B5C3E-0F4A-4C1B-9E63-1A2B3C4D5E6F",
        "CREATED:20261120T080000Z",
        "DTSTAMP:20261120T080000Z",
        "LAST-MODIFIED:20261120T080000Z",
        "SUMMARY:Buy milk",
        "X-APPLE-SORT-ORDER:744891234",
        "LOCATION:Corner shop",
        "URL;VALUE=URI:https://example.com/list",
        "PERCENT-COMPLETE:0",
        "X-SOMETHING-LONG:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        " bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
        "RELATED-TO;RELTYPE=PARENT:5A5A5A5A-0000-4000-8000-000000000001",
        "DUE;VALUE=DATE:20261124",
        "STATUS:NEEDS-ACTION",
        "BEGIN:VALARM",
        "ACTION:DISPLAY",
        "DESCRIPTION:Reminder",
        "TRIGGER;VALUE=DATE-TIME:20261124T080000Z",
        "X-WR-ALARMUID:11111111-2222-3333-4444-555555555555",
        "END:VALARM",
        "BEGIN:VALARM",
        "ACTION:AUDIO",
        "TRIGGER:-PT1H",
        "END:VALARM",
        "END:VTODO",
        "END:VCALENDAR",
    ].joined(separator: "\r\n") + "\r\n"
    static let appleID = UUID(uuidString: "7D1B5C3E-0F4A-4C1B-9E63-1A2B3C4D5E6F")!

    // MARK: - Mapping and preservation

    @Test func aNewItemDescribesItsTaskExactly() throws {
        var task = Self.task("Report, final; v2 \\ done", due: .time(Self.at(60)))
        task.notes = "notes\nmore"
        task.tags = ["work", "q4"]
        task.priority = .must
        task.scheduled = LocalDate(year: 2026, month: 11, day: 22)
        task.remind = Self.at(30)
        task.repeatRule = "FREQ=WEEKLY;BYDAY=MO"
        task.energy = .low
        task.estimate = 45
        task.wait = .day(LocalDate(year: 2026, month: 11, day: 22)!)
        task.depends = [UUID(name: "other")]
        task.state = .done
        task.completedAt = Self.at(90)
        let bytes = DavMapping.newItem(for: task, now: Self.at(100))
        let item = try DavItem(bytes: bytes, path: "x.ics")
        let back = try item.task(path: "x.ics", now: Self.at(100), timeZone: utc)
        #expect(back.id == task.id)
        #expect(DavMapping.differences(back, task).map(\.key) == [])
        #expect(item.bytes == bytes)
    }

    @Test("a title's edge spaces go to the phone and come back as they were")
    func titleEdgeSpacesSurviveTheItem() throws {
        let task = TaskItem(id: UUID(name: "edges"), title: "  Buy milk\t ", createdAt: Self.at(0), modifiedAt: Self.at(0))
        let bytes = DavMapping.newItem(for: task, now: Self.at(1))
        let back = try DavItem(bytes: bytes, path: "e.ics").task(path: "e.ics", now: Self.at(1), timeZone: utc)
        #expect(back.title == task.title)
        #expect(DavMapping.differences(back, task).isEmpty)
    }

    @Test func patchingReplacesOnlyTheChangedFieldsAndKeepsEveryOtherLineVerbatim() throws {
        let item = try DavItem(bytes: Array(Self.appleItem.utf8), path: "a.ics")
        #expect(item.bytes == Array(Self.appleItem.utf8))
        let old = try item.task(path: "a.ics", now: Self.t0, timeZone: utc)
        #expect(old.title == "Buy milk")
        #expect(old.remind == Timestamp.parse("2026-11-24T08:00:00Z"))
        var new = old
        new.title = "Buy oat milk"
        // Nothing changed: the same bytes.
        #expect(DavMapping.patch(item, from: old, to: old, now: Self.at(5)) == item.bytes)
        let patched = String(decoding: DavMapping.patch(item, from: old, to: new, now: Self.at(5)), as: UTF8.self)
        let expected = Self.appleItem
            .replacingOccurrences(of: "SUMMARY:Buy milk", with: "SUMMARY:Buy oat milk")
            .replacingOccurrences(of: "DTSTAMP:20261120T080000Z", with: "DTSTAMP:20261121T090500Z")
            .replacingOccurrences(of: "LAST-MODIFIED:20261120T080000Z", with: "LAST-MODIFIED:20261121T090500Z")
        #expect(patched == expected)
        // A new reminder replaces the alarm tick reads; the second alarm stays.
        new.remind = Timestamp.parse("2026-11-24T07:00:00Z")
        new.tags = ["errand"]
        let again = String(decoding: DavMapping.patch(item, from: old, to: new, now: Self.at(5)), as: UTF8.self)
        #expect(again.contains("X-APPLE-SORT-ORDER:744891234\r\nLOCATION:Corner shop\r\n"))
        #expect(again.contains("ACTION:AUDIO\r\nTRIGGER:-PT1H\r\n"))
        // Its other lines stay, the phone's alarm UID included (issue 34).
        #expect(again.contains("ACTION:DISPLAY\r\nDESCRIPTION:Reminder\r\nTRIGGER;VALUE=DATE-TIME:20261124T070000Z\r\nX-WR-ALARMUID:11111111-2222-3333-4444-555555555555\r\nEND:VALARM"))
        #expect(again.contains("TRIGGER;VALUE=DATE-TIME:20261124T070000Z"))
        #expect(again.contains("CATEGORIES:errand\r\nEND:VTODO"))
        let reread = try DavItem(bytes: Array(again.utf8), path: "a.ics").task(path: "a.ics", now: Self.t0, timeZone: utc)
        #expect(DavMapping.same(reread, new))
    }

    // MARK: - The workflow

    @Test func tasksAreExportedOncePerListAndASecondPassChangesNothing() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let a = Self.task("Call the bank"), b = Self.task("Report", due: .day(LocalDate(year: 2026, month: 11, day: 24)!))
        try f.put(.inbox, name: nil, [a])
        try f.put(.list(slug: "work"), name: "Work", [b])
        let report = try f.bridge(at: Self.at(1)).reconcile()
        #expect(report.sent == 2)
        #expect(report.received == 0 && report.merged == 0)
        #expect(f.items("inbox") == [a.id.lowercased + ".ics"])
        #expect(f.items("work") == [b.id.lowercased + ".ics"])
        #expect(FileManager.default.contents(atPath: f.vdir + "/work/displayname") == Data("Work".utf8))
        #expect(FileManager.default.contents(atPath: f.vdir + "/inbox/displayname") == Data("Inbox".utf8))
        let before = f.item("work", b.id.lowercased + ".ics")
        #expect(before?.contains("DUE;VALUE=DATE:20261124") == true)
        let second = try f.bridge(at: Self.at(2)).reconcile()
        #expect(second == DavReport())
        #expect(f.item("work", b.id.lowercased + ".ics") == before)
    }

    @Test func aPhoneItemIsAddedAndKeptByteForByteWhileItsTaskDoesNotChange() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        try f.put(.list(slug: "shopping"), name: "Shopping", [])
        try f.putItem("shopping", "apple-1.ics", Self.appleItem)
        let report = try f.bridge(at: Self.at(1)).reconcile()
        #expect(report.added == 1 && report.received == 1 && report.sent == 0)
        let task = try #require(try f.tasks(.list(slug: "shopping")).first)
        #expect(task.id == Self.appleID && task.title == "Buy milk")
        #expect(task.due == .day(LocalDate(year: 2026, month: 11, day: 24)!))
        #expect(f.item("shopping", "apple-1.ics") == Self.appleItem)
        #expect(try f.bridge(at: Self.at(2)).reconcile() == DavReport())
        #expect(f.item("shopping", "apple-1.ics") == Self.appleItem)

        // Retitled in tick: only SUMMARY, LAST-MODIFIED and DTSTAMP change (to the
        // time of the change, not of the pass), the UID keeps its spelling.
        try f.edit(.list(slug: "shopping"), at: Self.at(3)) { $0.tasks[0].title = "Buy oat milk" }
        let sent = try f.bridge(at: Self.at(4)).reconcile()
        #expect(sent.sent == 1 && sent.merged == 0)
        let written = try #require(f.item("shopping", "apple-1.ics"))
        // Plus a revision mark (vdirsyncer must never take a rewrite for an older version).
        let lines = written.components(separatedBy: "\r\n")
        #expect(lines.filter { $0.hasPrefix("X-TICK-REVISION:") }.count == 1 && lines[lines.count - 4].hasPrefix("X-TICK-REVISION:"), "\(written)")
        let text = lines.filter { !$0.hasPrefix("X-TICK-REVISION:") }.joined(separator: "\r\n")
        #expect(text == Self.appleItem.replacingOccurrences(of: "SUMMARY:Buy milk", with: "SUMMARY:Buy oat milk")
            .replacingOccurrences(of: "DTSTAMP:20261120T080000Z", with: "DTSTAMP:20261121T090300Z")
            .replacingOccurrences(of: "LAST-MODIFIED:20261120T080000Z", with: "LAST-MODIFIED:20261121T090300Z"))
    }

    @Test func aPhoneEditIsStampedWithLastModifiedAndTheLaterChangeOfAFieldWins() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let a = Self.task("Water plants")
        try f.put(.inbox, name: nil, [a])
        _ = try f.bridge(at: Self.at(1)).reconcile()
        let name = a.id.lowercased + ".ics"
        // The phone retitles at 09:10; tick sets notes at 09:05 and the title at 09:08.
        try f.edit(.inbox, at: Self.at(5)) { $0.tasks[0].notes = "the ferns too" }
        try f.edit(.inbox, at: Self.at(8)) { $0.tasks[0].title = "Water the plants" }
        var text = try #require(f.item("inbox", name))
        text = text.replacingOccurrences(of: "SUMMARY:Water plants", with: "SUMMARY:Water all plants")
        text = text.settingLastModified("20261121T091000Z")
        try f.putItem("inbox", name, text)
        let report = try f.bridge(at: Self.at(12)).reconcile()
        #expect(report.received == 1 && report.merged == 1 && report.sent == 1)
        #expect(report.overridden == [FieldOverride(task: a.id, field: "title")])
        let task = try #require(try f.tasks(.inbox).first)
        #expect(task.title == "Water all plants")
        #expect(task.changed["title"] == Self.at(10))
        #expect(task.notes == "the ferns too")
        // The item gets tick's notes, and keeps the phone's title.
        let item = try #require(f.item("inbox", name))
        #expect(item.contains("DESCRIPTION:the ferns too") && item.contains("SUMMARY:Water all plants"))
        #expect(try f.bridge(at: Self.at(13)).reconcile() == DavReport())

        // A phone change older than tick's change of the same field loses.
        try f.edit(.inbox, at: Self.at(20)) { $0.tasks[0].title = "Water plants (tick)" }
        text = try #require(f.item("inbox", name))
        text = text.replacingOccurrences(of: "SUMMARY:Water all plants", with: "SUMMARY:Water plants (phone)")
        text = text.settingLastModified("20261121T091500Z")
        try f.putItem("inbox", name, text)
        let later = try f.bridge(at: Self.at(21)).reconcile()
        #expect(later.overridden == [FieldOverride(task: a.id, field: "title")])
        #expect(try f.tasks(.inbox).first?.title == "Water plants (tick)")
        #expect(f.item("inbox", name)?.contains("SUMMARY:Water plants (tick)") == true)
    }

    @Test func completedOnThePhoneIsDoneWithItsTimeAndARepeatingTaskGetsOneNextOccurrence() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        var a = Self.task("Take out trash", due: .day(LocalDate(year: 2026, month: 11, day: 21)!))
        a.repeatRule = "weekly"
        try f.put(.inbox, name: nil, [a])
        _ = try f.bridge(at: Self.at(1)).reconcile()
        let name = a.id.lowercased + ".ics"
        var text = try #require(f.item("inbox", name))
        text = text.replacingOccurrences(of: "STATUS:NEEDS-ACTION", with: "STATUS:COMPLETED\r\nCOMPLETED:20261121T090700Z")
        text = text.settingLastModified("20261121T090700Z")
        try f.putItem("inbox", name, text)
        let report = try f.bridge(at: Self.at(10)).reconcile()
        #expect(report.merged == 1)
        let tasks = try f.tasks(.inbox)
        #expect(tasks.count == 2)
        #expect(tasks[0].state == .done && tasks[0].completedAt == Self.at(7))
        #expect(tasks[1].id == TaskFile.nextOccurrenceID(after: a.id))
        #expect(tasks[1].due == .day(LocalDate(year: 2026, month: 11, day: 28)!))
        #expect(f.items("inbox").count == 2)
        _ = try f.bridge(at: Self.at(11)).reconcile()
        #expect(try f.tasks(.inbox).count == 2)
    }

    @Test func deletesGoBothWaysAndAPhoneDeleteLeavesATombstone() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let a = Self.task("A"), b = Self.task("B"), c = Self.task("C")
        try f.put(.inbox, name: nil, [a, b, c])
        _ = try f.bridge(at: Self.at(1)).reconcile()
        // Deleted on the phone.
        try f.removeItem("inbox", a.id.lowercased + ".ics")
        // Deleted in tick.
        try f.edit(.inbox, at: Self.at(2)) { file in
            file.tasks.removeAll { $0.id == b.id }
            file.recordDeletion(of: [b.id], at: Self.at(2))
        }
        let report = try f.bridge(at: Self.at(3)).reconcile()
        #expect(report.deleted == 1 && report.sent == 1)
        let file = try #require(try f.file(.inbox))
        #expect(file.tasks.map(\.id) == [c.id])
        #expect(file.deleted.map(\.id).contains(a.id))
        #expect(f.items("inbox") == [c.id.lowercased + ".ics"])
    }

    @Test func movesGoBothWaysAsMovesNotDeletions() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let a = Self.task("A"), b = Self.task("B")
        try f.put(.list(slug: "home"), name: "Home", [a, b])
        try f.put(.list(slug: "work"), name: "Work", [])
        _ = try f.bridge(at: Self.at(1)).reconcile()
        // The phone moves a to Work (same UID, new collection).
        let nameA = a.id.lowercased + ".ics"
        let text = try #require(f.item("home", nameA))
        try f.removeItem("home", nameA)
        try f.putItem("work", "moved.ics", text)
        // tick moves b to Work.
        try f.edit(.list(slug: "work"), at: Self.at(2)) { file in
            var moved = b
            moved.changed["list"] = Self.at(2)
            file.tasks.append(moved)
        }
        try f.edit(.list(slug: "home"), at: Self.at(2)) { $0.tasks.removeAll { $0.id == b.id } }
        let report = try f.bridge(at: Self.at(3)).reconcile()
        #expect(report.moved == 1 && report.deleted == 0)
        #expect(try f.tasks(.list(slug: "work")).map(\.id).sorted { $0.uuidString < $1.uuidString } == [a.id, b.id].sorted { $0.uuidString < $1.uuidString })
        #expect(try f.tasks(.list(slug: "home")).isEmpty)
        #expect(try f.file(.list(slug: "home"))?.deleted.isEmpty == true)
        #expect(f.items("home") == [])
        #expect(Set(f.items("work")) == ["moved.ics", b.id.lowercased + ".ics"])
        #expect(try f.bridge(at: Self.at(4)).reconcile() == DavReport())
    }

    @Test func aSecondMachineBridgingTheSameAccountMatchesByUIDAndNeverDuplicates() throws {
        // Machine 1 exported; machine 2 has the same store (git) and a fresh vdir
        // that vdirsyncer filled from the server, where the phone had retitled a.
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let a = Self.task("A")
        try f.put(.inbox, name: nil, [a])
        var item = String(decoding: DavMapping.newItem(for: a, now: Self.at(1)), as: UTF8.self)
        item = item.replacingOccurrences(of: "SUMMARY:A", with: "SUMMARY:A from the phone")
            .settingLastModified("20261121T090500Z")
        try f.putItem("inbox", "server-name.ics", item)
        let report = try f.bridge(at: Self.at(6)).reconcile()
        #expect(report.added == 0 && report.merged == 1)
        #expect(try f.tasks(.inbox).map(\.title) == ["A from the phone"])
        #expect(f.items("inbox") == ["server-name.ics"])
    }

    @Test func aTasksOrgSubtaskWithANumericUIDIsAddedAndKeepsItsParentLink() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        try f.put(.inbox, name: nil, [])
        let text = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:+//IDN tasks.org//android-130000//EN", "BEGIN:VTODO",
            "UID:4117845839154402358", "DTSTAMP:20261121T091000Z", "CREATED:20261121T091000Z", "LAST-MODIFIED:20261121T091000Z",
            "SUMMARY:Oat milk\\, not soy", "PRIORITY:9", "STATUS:NEEDS-ACTION", "X-APPLE-SORT-ORDER:5",
            "RELATED-TO;RELTYPE=PARENT:7D1B5C3E-0F4A-4C1B-9E63-1A2B3C4D5E6F", "END:VTODO", "END:VCALENDAR",
        ].joined(separator: "\r\n") + "\r\n"
        try f.putItem("inbox", "4117845839154402358.ics", text)
        let report = try f.bridge(at: Self.at(12)).reconcile()
        #expect(report.added == 1, "\(report)")
        let task = try #require(try f.tasks(.inbox).first)
        #expect(task.title == "Oat milk, not soy" && task.priority == .flexible && task.depends.isEmpty)
        try f.edit(.inbox, at: Self.at(13)) { $0.tasks[0].due = .day(LocalDate(year: 2026, month: 11, day: 23)!) }
        _ = try f.bridge(at: Self.at(14)).reconcile()
        let item = try #require(f.item("inbox", "4117845839154402358.ics"))
        #expect(item.contains("UID:4117845839154402358\r\n") && item.contains("RELATED-TO;RELTYPE=PARENT:7D1B5C3E"))
        #expect(item.contains("PRIORITY:9\r\n") && item.contains("DUE;VALUE=DATE:20261123\r\n"))
    }

    @Test func anItemWithLFLineEndsKeepsThemAndItsFolding() throws {
        let text = Self.appleItem.replacingOccurrences(of: "\r\n", with: "\n")
        let item = try DavItem(bytes: Array(text.utf8), path: "a.ics")
        let old = try item.task(path: "a.ics", now: Self.t0, timeZone: utc)
        var new = old
        new.notes = "from tick"
        let patched = String(decoding: DavMapping.patch(item, from: old, to: new, now: Self.at(5)), as: UTF8.self)
        #expect(!patched.contains("\r"))
        #expect(patched.contains("X-SOMETHING-LONG:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n bbbb"))
        #expect(patched.contains("DESCRIPTION:from tick\nEND:VTODO\n"))
    }

    @Test func aLastModifiedInTheFutureCountsAsTheTimeTickSawTheChange() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let a = Self.task("A")
        try f.put(.inbox, name: nil, [a])
        _ = try f.bridge(at: Self.at(1)).reconcile()
        let name = a.id.lowercased + ".ics"
        var text = try #require(f.item("inbox", name))
        text = text.replacingOccurrences(of: "SUMMARY:A", with: "SUMMARY:A2")
            .settingLastModified("20301121T090100Z")
        try f.putItem("inbox", name, text)
        _ = try f.bridge(at: Self.at(5)).reconcile()
        #expect(try f.tasks(.inbox).first?.changed["title"] == Self.at(5))
    }

    /// The phone's apple item in Shopping, synced at minute 1, then deleted on the phone.
    static func appleSyncedThenDeletedOnThePhone(_ f: Fixture) throws {
        try f.put(.list(slug: "shopping"), name: "Shopping", [])
        try f.putItem("shopping", "apple-1.ics", Self.appleItem)
        _ = try f.bridge(at: Self.at(1)).reconcile()
        try f.removeItem("shopping", "apple-1.ics")
    }

    @Test func deletedOnThePhoneAndChangedInTickSinceIsKeptAndSentAgainAndARestoredTaskIsSentAgain() throws {
        // Issue 44: tick cannot know when the phone deleted it; a change made
        // here since the last pass may be later, so the task is kept and sent
        // again (the other end weighs its LAST-MODIFIED against its delete).
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        try Self.appleSyncedThenDeletedOnThePhone(f)
        try f.edit(.list(slug: "shopping"), at: Self.at(2)) { $0.tasks[0].notes = "still needed" }
        let report = try f.bridge(at: Self.at(3)).reconcile()
        #expect(report.deleted == 0 && report.kept == [Self.appleID] && report.sent == 1, "\(report)")
        #expect(try f.tasks(.list(slug: "shopping")).map(\.notes) == ["still needed"])
        let kept = try #require(f.item("shopping", "apple-1.ics"))
        #expect(kept.contains("DESCRIPTION:still needed") && kept.contains("X-APPLE-SORT-ORDER"), "the phone's own lines are sent again too: \(kept)")
        #expect(try f.bridge(at: Self.at(4)).reconcile() == DavReport())

        // Deleted again, with no change here since: deleted, with a tombstone.
        try f.removeItem("shopping", "apple-1.ics")
        let gone = try f.bridge(at: Self.at(5)).reconcile()
        #expect(gone.deleted == 1 && gone.kept.isEmpty && gone.sent == 0, "\(gone)")
        #expect(try f.tasks(.list(slug: "shopping")).isEmpty)
        let file = try #require(try f.file(.list(slug: "shopping")))
        #expect(file.deleted.map(\.id) == [Self.appleID] && file.deleted.first?.at == Self.at(5))
        #expect(f.items("shopping").isEmpty)
        // Restored afterwards (as `tick undo` does): a later change, sent again as a new item.
        try f.edit(.list(slug: "shopping"), at: Self.at(6)) { file in
            var task = Self.task("Oat milk")
            task.id = Self.appleID
            file.tasks.append(task)
            file.deleted.removeAll()
        }
        let again = try f.bridge(at: Self.at(7)).reconcile()
        #expect(again.sent == 1 && again.deleted == 0, "\(again)")
        #expect(f.items("shopping").count == 1)
        #expect(try f.bridge(at: Self.at(8)).reconcile() == DavReport())
    }

    @Test func anItemDeletedHereBecauseItVanishedIsTakenBackWhenItReturnsLikeAMoveInFlight() throws {
        // Issue 44: a task that left one calendar and has not arrived in the
        // other yet (or that another machine kept) is deleted at first sight,
        // with no real time; when it returns, with an older LAST-MODIFIED, it is taken.
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        try Self.appleSyncedThenDeletedOnThePhone(f)
        let first = try f.bridge(at: Self.at(3)).reconcile()
        #expect(first.deleted == 1)
        #expect(try f.tasks(.list(slug: "shopping")).isEmpty)
        // It arrives in the inbox, its LAST-MODIFIED older than the delete's first sight.
        try f.put(.inbox, name: nil, [])
        try f.putItem("inbox", "apple-1.ics", Self.appleItem)
        let back = try f.bridge(at: Self.at(4)).reconcile()
        #expect(back.added == 1 && back.sent == 0, "\(back)")
        #expect(try f.tasks(.inbox).map(\.id) == [Self.appleID])
        #expect(try f.file(.list(slug: "shopping"))?.deleted.isEmpty == true, "no tombstone left to delete it again through a store merge")
        #expect(f.items("inbox").count == 1)
    }

    @Test func aCopyAnotherMachineKeptIsMergedFieldByFieldWithTheVersionDeletedHere() throws {
        // Found by DavTwoMachineHistoryTests (seed 5056): this machine changed
        // the task and sent it; the phone deleted it; another machine, which
        // had changed another field earlier, kept its copy and sent it again.
        // Taken whole, that copy lost this machine's later change.
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        try f.put(.list(slug: "shopping"), name: "Shopping", [])
        try f.putItem("shopping", "apple-1.ics", Self.appleItem)
        _ = try f.bridge(at: Self.at(1)).reconcile()
        try f.edit(.list(slug: "shopping"), at: Self.at(3)) { $0.tasks[0].notes = "still needed" }
        #expect(try f.bridge(at: Self.at(4)).reconcile().sent == 1)
        _ = try f.bridge(at: Self.at(5)).reconcile()
        try f.removeItem("shopping", "apple-1.ics")
        #expect(try f.bridge(at: Self.at(6)).reconcile().deleted == 1)
        // The other machine's copy: its own title change at minute 2, no note.
        let copy = Self.appleItem.replacingOccurrences(of: "SUMMARY:Buy milk", with: "SUMMARY:Buy oat milk")
            .settingLastModified("20261121T090200Z")
        try f.putItem("shopping", "apple-1.ics", copy)
        let back = try f.bridge(at: Self.at(7)).reconcile()
        #expect(back.added == 1 && back.sent == 1, "\(back)")
        let task = try #require(try f.tasks(.list(slug: "shopping")).first)
        #expect(task.title == "Buy oat milk" && task.notes == "still needed", "the later change on each side: \(task)")
        let sent = try #require(f.item("shopping", "apple-1.ics"))
        #expect(sent.contains("SUMMARY:Buy oat milk") && sent.contains("DESCRIPTION:still needed"), "\(sent)")
        #expect(try f.bridge(at: Self.at(8)).reconcile() == DavReport())
        #expect(!FileManager.default.fileExists(atPath: f.dav + "/deleted-versions.json"), "forgotten once merged back")
    }

    @Test func aTaskTheOtherEndMovedIntoAListRemovedHereGoesBackWithItsNewTitle() throws {
        // Found by DavTwoMachineHistoryTests (seed 8835): the phone moved a
        // task into Home and retitled it; this machine, which had not seen
        // the move, removed Home. The item sat in the removed list's calendar
        // and was skipped as "no bridged list": the task stayed in Work with
        // its old title, the server kept it in Home, and when the phone then
        // emptied Home the task came back with the old title.
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let a = Self.task("Report")
        try f.put(.list(slug: "work"), name: "Work", [a])
        try f.put(.list(slug: "home"), name: "Home", [])
        _ = try f.bridge(at: Self.at(1)).reconcile()
        let name = a.id.lowercased + ".ics"
        try f.phoneMove(name, from: "work", to: "home", stamp: "20261121T090200Z") {
            $0.replacingOccurrences(of: "SUMMARY:Report\r\n", with: "SUMMARY:Report for Monday\r\n")
        }
        try f.store(at: Self.at(3)).withLock { try $0.remove(.list(slug: "home")) }
        try DavState.noteRemoved(collection: "home", root: f.dav, at: Self.at(3))
        let report = try f.bridge(at: Self.at(4)).reconcile()
        let task = try #require(try f.tasks(.list(slug: "work")).first)
        #expect(task.title == "Report for Monday", "the phone's retitle is merged, field by field: \(report)")
        #expect(f.items("home").isEmpty, "the removed list's calendar is left empty")
        let back = try #require(f.item("work", name))
        #expect(back.contains("SUMMARY:Report for Monday"), "\(back)")
    }

    @Test func ofTwoAgreedCopiesOfOneTaskTheLaterIsTheBase() throws {
        // Found by DavTwoMachineHistoryTests (seeds 6404, 7096): a move leaves
        // the old calendar's agreed copy while that calendar is set aside
        // (wiped, not synced); the first copy by path was taken for the
        // version both ends agreed on, so a later phone delete of the moved
        // task was taken for a change here (another calendar) and undone.
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let bridge = f.bridge(at: Self.at(40))
        let older = Self.appleItem.settingLastModified("20261121T090800Z")
        let later = Self.appleItem.replacingOccurrences(of: "SUMMARY:Buy milk", with: "SUMMARY:Buy oat milk").settingLastModified("20261121T093000Z")
        for (c, text) in [("inbox", older), ("work", later)] {
            try FileManager.default.createDirectory(atPath: bridge.basePath + "/" + c, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: bridge.basePath + "/" + c + "/apple-1.ics"))
        }
        let base = try #require(bridge.baseItems(matching: [:])[Self.appleID])
        #expect(base.collection == "work" && base.task.title == "Buy oat milk", "\(base.collection)")
    }

    @Test func deletedOnThePhoneRightAfterTickSentAChangeIsDeletedNotKept() throws {
        // Found by DavHistoryTests (seed 3): tick's change was sent by the last
        // pass (its base copy still the older version, not confirmed yet), then
        // the phone deleted the item: tick did not change the task since.
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        try f.put(.inbox, name: nil, [])
        try f.putItem("inbox", "apple-1.ics", Self.appleItem)
        _ = try f.bridge(at: Self.at(1)).reconcile()
        try f.edit(.inbox, at: Self.at(2)) { $0.tasks[0].title = "Buy oat milk" }
        #expect(try f.bridge(at: Self.at(3)).reconcile().sent == 1)
        try f.removeItem("inbox", "apple-1.ics")
        let report = try f.bridge(at: Self.at(4)).reconcile()
        #expect(report.deleted == 1 && report.sent == 0, "\(report)")
        #expect(try f.tasks(.inbox).isEmpty)
        #expect(try f.file(.inbox)?.deleted.map(\.id) == [Self.appleID])
        #expect(!FileManager.default.fileExists(atPath: f.dav + "/sent/inbox/apple-1.ics"), "\((try? FileManager.default.subpathsOfDirectory(atPath: f.dav)) ?? [])")
        #expect(try f.bridge(at: Self.at(5)).reconcile() == DavReport())
    }

    @Test func aTaskMovedOnThePhoneAndEditedInTickLeavesNoStaleSentCopyAndADeleteLaterIsADelete() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let a = Self.task("A")
        try f.put(.list(slug: "home"), name: "Home", [a])
        try f.put(.list(slug: "work"), name: "Work", [])
        _ = try f.bridge(at: Self.at(1)).reconcile()
        let name = a.id.lowercased + ".ics"
        // The phone moves a to Work (same file name); tick retitles it.
        try f.phoneMove(name, from: "home", to: "work", stamp: "20261121T090200Z")
        try f.edit(.list(slug: "home"), at: Self.at(3)) { $0.tasks[0].title = "A2" }
        let report = try f.bridge(at: Self.at(4)).reconcile()
        #expect(report.moved == 1 && report.sent == 1, "\(report)")
        #expect(!FileManager.default.fileExists(atPath: f.dav + "/sent/home/" + name), "no stale sent copy in the old collection")
        #expect(try f.bridge(at: Self.at(5)).reconcile() == DavReport())
        // Deleted on the phone now: deleted in tick (nothing changed there since).
        try f.removeItem("work", name)
        let deleted = try f.bridge(at: Self.at(6)).reconcile()
        #expect(deleted.deleted == 1, "\(deleted)")
        #expect(try f.tasks(.list(slug: "work")).isEmpty)
    }

    @Test func deletedInTickAndChangedOnThePhoneLaterComesBackEarlierIsDeleted() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let a = Self.task("A"), b = Self.task("B")
        try f.put(.inbox, name: nil, [a, b])
        _ = try f.bridge(at: Self.at(1)).reconcile()
        try f.edit(.inbox, at: Self.at(10)) { file in
            file.tasks.removeAll()
            file.recordDeletion(of: [a.id, b.id], at: Self.at(10))
        }
        // The phone changed a after the deletion and b before it (both before tick's next pass).
        for (task, minute) in [(a, "15"), (b, "05")] {
            let name = task.id.lowercased + ".ics"
            let text = try #require(f.item("inbox", name)).replacingOccurrences(of: "SUMMARY:\(task.title)", with: "SUMMARY:\(task.title) edited")
                .settingLastModified("20261121T09\(minute)00Z")
            try f.putItem("inbox", name, text)
        }
        _ = try f.bridge(at: Self.at(20)).reconcile()
        #expect(try f.tasks(.inbox).map(\.title) == ["A edited"])
        #expect(f.items("inbox") == [a.id.lowercased + ".ics"])
    }

    @Test func aCancelledItemIsDoneAndItsStatusLineIsKept() throws {
        let text = Self.appleItem.replacingOccurrences(of: "STATUS:NEEDS-ACTION", with: "STATUS:CANCELLED")
        let item = try DavItem(bytes: Array(text.utf8), path: "a.ics")
        let old = try item.task(path: "a.ics", now: Self.t0, timeZone: utc)
        #expect(old.state == .done)
        var new = old
        new.title = "Renamed"
        let patched = String(decoding: DavMapping.patch(item, from: old, to: new, now: Self.at(5)), as: UTF8.self)
        #expect(patched.contains("STATUS:CANCELLED\r\n") && !patched.contains("COMPLETED:"))
    }

    @Test func anItemWhoseTitleTickCannotHoldIsReportedNotAdded() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        try f.put(.inbox, name: nil, [])
        try f.putItem("inbox", "x.ics", Self.appleItem.replacingOccurrences(of: "SUMMARY:Buy milk", with: "SUMMARY:two\\nlines"))
        let report = try f.bridge(at: Self.at(1)).reconcile()
        #expect(report.added == 0 && report.problems.count == 1 && report.problems[0].contains("newline"), "\(report)")
        #expect(try f.tasks(.inbox).isEmpty)
    }

    @Test func anUnreadableItemIsReportedAndNeverTakenForADeletion() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let a = Self.task("A")
        try f.put(.inbox, name: nil, [a])
        _ = try f.bridge(at: Self.at(1)).reconcile()
        try f.putItem("inbox", a.id.lowercased + ".ics", "BEGIN:VCALENDAR\r\nBROKEN\r\n")
        let report = try f.bridge(at: Self.at(2)).reconcile()
        #expect(report.problems.count == 1)
        #expect(try f.tasks(.inbox).map(\.id) == [a.id])
    }
}

/// `[dav]` settings and `tick dav setup`'s vdirsyncer config.
@Suite struct DavSetupTests {
    @Test func theDavSectionIsRead() throws {
        let config = try TickConfig.parse("""
        [dav]
        path = "~/dav"
        lists = ["Work", "home"]
        inbox = false
        inbox-name = "Eingang"
        vdirsyncer = "/opt/vdirsyncer"
        watch = false
        interval = "5m"
        debounce = "10s"
        discover = "30m"
        """, path: "config.toml")
        #expect(config.unknownKeys.isEmpty)
        #expect(config.dav.resolvedPath(environment: ["HOME": "/h"]) == "/h/dav")
        #expect(config.dav.bridges(listNamed: "HOME") && !config.dav.bridges(listNamed: "Errands"))
        #expect(!config.dav.inbox && config.dav.inboxName == "Eingang" && config.dav.vdirsyncer == "/opt/vdirsyncer")
        #expect(!config.dav.watch && config.dav.interval == 300 && config.dav.debounce == 10 && config.dav.discover == 1_800)
        #expect(DavSettings().discover == 300)
        #expect(DavSettings().resolvedPath(environment: ["XDG_DATA_HOME": "/x"]) == "/x/tick-dav")
        #expect(throws: ConfigError.self) { try TickConfig.parse("[dav]\nlists = \"Work\"\n", path: "c") }
    }

    @Test func onlyHTTPSOrLoopbackHTTPIsAccepted() throws {
        for ok in ["https://dav.example.com/", "http://127.0.0.1:5232/me/", "http://localhost/", "http://[::1]:8000/"] {
            #expect(throws: Never.self) { _ = try DavSetup.checkURL(ok) }
        }
        for bad in ["http://dav.example.com/", "ftp://127.0.0.1/", "dav.example.com", "http://127.0.0.2.example.com/"] {
            #expect(throws: DavError.self) { _ = try DavSetup.checkURL(bad) }
        }
    }

    @Test func theConfigFetchesThePasswordByCommandAndNeverHoldsOne() {
        #expect(DavSetup.splitCommand("secret-tool lookup service 'my dav' user \"me x\"") == ["secret-tool", "lookup", "service", "my dav", "user", "me x"])
        let text = DavSetup.config(url: "https://dav.example.com/", user: "me", passwordCommand: ["pass", "show", "dav \"x\""], root: "/r")
        #expect(text.contains("password.fetch = [\"command\", \"pass\", \"show\", \"dav \\\"x\\\"\"]"))
        #expect(!text.contains("password ="))
        #expect(text.contains("path = \"/r/vdir/\"") && text.contains("status_path = \"/r/status/\""))
        #expect(text.contains("collections = [\"from a\", \"from b\"]") && text.contains("conflict_resolution = \"b wins\""))
    }
}

extension String {
    /// The item's text with its LAST-MODIFIED set to `stamp`, whatever it was.
    func settingLastModified(_ stamp: String) -> String {
        components(separatedBy: "\r\n").map { $0.hasPrefix("LAST-MODIFIED:") ? "LAST-MODIFIED:" + stamp : $0 }.joined(separator: "\r\n")
    }
}
