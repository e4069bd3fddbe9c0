import Foundation
import Testing
@testable import TickKit

/// Repeats across the bridge, hostile items and notices said once, in process (issue 34; Docs/DAV.md).
@Suite struct DavRepeatsTests {
    typealias Fixture = DavBridgeTests.Fixture
    static func at(_ minutes: Double) -> Date { DavBridgeTests.at(minutes) }
    let utc = Zone(named: "UTC")!

    static func weekly(_ title: String, due: LocalDate) -> TaskItem {
        var t = DavBridgeTests.task(title, due: .day(due))
        t.repeatRule = "weekly"
        return t
    }

    static let nov21 = LocalDate(year: 2026, month: 11, day: 21)!
    static let nov28 = LocalDate(year: 2026, month: 11, day: 28)!

    /// The item with its DUE (and DTSTART) moved to `to`, STATUS untouched, as Tasks.org does.
    static func advanced(_ text: String, from: LocalDate, to: LocalDate, lastModified: String, modifiedBefore: String) -> String {
        text.replacingOccurrences(of: "DUE;VALUE=DATE:" + ICalendarCodec.basic(from), with: "DUE;VALUE=DATE:" + ICalendarCodec.basic(to))
            .replacingOccurrences(of: "DTSTART;VALUE=DATE:" + ICalendarCodec.basic(from), with: "DTSTART;VALUE=DATE:" + ICalendarCodec.basic(to))
            .replacingOccurrences(of: "LAST-MODIFIED:" + modifiedBefore, with: "LAST-MODIFIED:" + lastModified)
            // tick writes LAST-MODIFIED as the task's change time (issue 34, davconverge), not the pass time.
            .settingLastModified(lastModified)
    }

    @Test func tickSendsAnRRULEBesideXTickRepeatAndAnItemFromBeforeGetsOneOnce() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let a = Self.weekly("Bins", due: Self.nov21)
        try f.put(.inbox, name: nil, [a])
        _ = try f.bridge(at: Self.at(1)).reconcile()
        let name = a.id.lowercased + ".ics"
        let text = try #require(f.item("inbox", name))
        #expect(text.contains("RRULE:FREQ=WEEKLY\r\n") && text.contains("X-TICK-REPEAT;X-TICK-RRULE=\"FREQ=WEEKLY\":weekly\r\n"))
        #expect(try f.bridge(at: Self.at(2)).reconcile() == DavReport())
        // An item an older tick wrote (X-TICK-REPEAT alone) in vdir and base: the RRULE goes out once.
        let old = text.replacingOccurrences(of: "RRULE:FREQ=WEEKLY\r\n", with: "").replacingOccurrences(of: "X-TICK-REPEAT;X-TICK-RRULE=\"FREQ=WEEKLY\":", with: "X-TICK-REPEAT:")
        try f.putItem("inbox", name, old)
        try old.write(toFile: f.dav + "/base/inbox/" + name, atomically: true, encoding: .utf8)
        let upgrade = try f.bridge(at: Self.at(3)).reconcile()
        #expect(upgrade.sent == 1 && upgrade.merged == 0, "\(upgrade)")
        #expect(f.item("inbox", name)?.contains("RRULE:FREQ=WEEKLY\r\n") == true)
        #expect(try f.tasks(.inbox).first?.repeatRule == "weekly")
        #expect(try f.bridge(at: Self.at(4)).reconcile() == DavReport())
    }

    @Test func thePhoneMovingTheDueDateForwardCompletesTheOccurrenceAndMakesTheNextOnceOnBothSides() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        var a = Self.weekly("Bins", due: Self.nov21)
        a.scheduled = Self.nov21
        try f.put(.inbox, name: nil, [a])
        _ = try f.bridge(at: Self.at(1)).reconcile()
        let name = a.id.lowercased + ".ics"
        let text = try #require(f.item("inbox", name))
        try f.putItem("inbox", name, Self.advanced(text, from: Self.nov21, to: Self.nov28, lastModified: "20261121T090700Z", modifiedBefore: "20261121T090100Z"))
        let report = try f.bridge(at: Self.at(10)).reconcile()
        #expect(report.merged == 1 && report.problems.isEmpty, "\(report)")
        let tasks = try f.tasks(.inbox)
        #expect(tasks.count == 2)
        #expect(tasks[0].id == a.id && tasks[0].state == .done && tasks[0].completedAt == Self.at(7))
        #expect(tasks[0].due == .day(Self.nov21))
        let next = tasks[1]
        #expect(next.id == TaskFile.nextOccurrenceID(after: a.id) && next.state == .open)
        #expect(next.due == .day(Self.nov28) && next.scheduled == Self.nov28 && next.repeatRule == "weekly")
        // The phone's item goes back completed with the occurrence's dates; the next occurrence is a new item.
        let back = try #require(f.item("inbox", name))
        #expect(back.contains("STATUS:COMPLETED") && back.contains("DUE;VALUE=DATE:20261121") && back.contains("DTSTART;VALUE=DATE:20261121"))
        let nextItem = try #require(f.item("inbox", next.id.lowercased + ".ics"))
        #expect(nextItem.contains("DUE;VALUE=DATE:20261128") && nextItem.contains("STATUS:NEEDS-ACTION") && nextItem.contains("RRULE:FREQ=WEEKLY"))
        #expect(f.items("inbox").count == 2)
        // Stable: nothing more happens.
        #expect(try f.bridge(at: Self.at(11)).reconcile().merged == 0)
        #expect(try f.tasks(.inbox).count == 2 && f.items("inbox").count == 2)

        // The next occurrence advanced on the phone in turn: one more, never two.
        let n2 = try #require(f.item("inbox", next.id.lowercased + ".ics"))
        let lm = try #require(icsValue(n2, "LAST-MODIFIED"))
        try f.putItem("inbox", next.id.lowercased + ".ics",
                      Self.advanced(n2, from: Self.nov28, to: LocalDate(year: 2026, month: 12, day: 5)!, lastModified: "20261128T100000Z", modifiedBefore: lm))
        _ = try f.bridge(at: Timestamp.parse("2026-11-28T10:05:00Z")!).reconcile()
        let third = try f.tasks(.inbox)
        #expect(third.count == 3 && third.filter { $0.state == .open }.map(\.due) == [.day(LocalDate(year: 2026, month: 12, day: 5)!)])
        #expect(f.items("inbox").count == 3)
    }

    @Test func completedInTickAndAdvancedOnThePhoneBeforeASyncMakesOneNextOccurrence() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let a = Self.weekly("Bins", due: Self.nov21)
        try f.put(.inbox, name: nil, [a])
        _ = try f.bridge(at: Self.at(1)).reconcile()
        let name = a.id.lowercased + ".ics"
        try f.edit(.inbox, at: Self.at(5)) { file in _ = try? file.complete(taskID: a.id, at: Self.at(5), timeZone: Zone(named: "UTC")!) }
        try f.putItem("inbox", name, Self.advanced(try #require(f.item("inbox", name)), from: Self.nov21, to: Self.nov28, lastModified: "20261121T090700Z", modifiedBefore: "20261121T090100Z"))
        _ = try f.bridge(at: Self.at(10)).reconcile()
        _ = try f.bridge(at: Self.at(11)).reconcile()
        let tasks = try f.tasks(.inbox)
        #expect(tasks.count == 2 && tasks.filter { $0.state == .open }.map(\.due) == [.day(Self.nov28)], "\(tasks)")
        #expect(f.items("inbox").count == 2)
        #expect(f.item("inbox", name)?.contains("DUE;VALUE=DATE:20261121") == true)
    }

    /// Random histories: tick completes, the phone completes (STATUS) or moves DUE forward, passes at
    /// random. After every settled pass each series has exactly one open occurrence, no two of its
    /// occurrences share a date, each task has one item, and item and task agree.
    @Test(arguments: 0..<40) func repeatsCompletedOnEitherSideInAnyOrderGiveOneOpenOccurrence(seed: UInt64) throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        var rng = MergeRandom(seed: seed + 3_400)
        var a = Self.weekly("Bins", due: Self.nov21)
        a.scheduled = Self.nov21
        var b = DavBridgeTests.task("Review", due: .day(LocalDate(year: 2026, month: 11, day: 23)!))
        b.repeatRule = "mon,thu"
        try f.put(.inbox, name: nil, [a, b])
        var minute = 1.0
        _ = try f.bridge(at: Self.at(minute)).reconcile()
        func stamp() -> String { ICalendarCodec.stamp(Self.at(minute)) }
        func openItem(_ title: String) throws -> (name: String, text: String)? {
            for name in f.items("inbox") {
                let text = try #require(f.item("inbox", name))
                if text.contains("SUMMARY:\(title)\r\n"), text.contains("STATUS:NEEDS-ACTION") { return (name, text) }
            }
            return nil
        }
        for step in 0..<30 {
            minute += 1
            let title = rng.next() % 2 == 0 ? "Bins" : "Review"
            switch rng.next() % 4 {
            case 0:
                try f.edit(.inbox, at: Self.at(minute)) { file in
                    guard let open = file.tasks.first(where: { $0.title == title && $0.state != .done }) else { return }
                    _ = try? file.complete(taskID: open.id, at: Self.at(minute), timeZone: Zone(named: "UTC")!)
                }
            case 1:
                guard let (name, text) = try openItem(title) else { continue }
                let lm = try #require(icsValue(text, "LAST-MODIFIED"))
                try f.putItem("inbox", name, text.replacingOccurrences(of: "STATUS:NEEDS-ACTION", with: "STATUS:COMPLETED\r\nCOMPLETED:" + stamp())
                    .replacingOccurrences(of: "LAST-MODIFIED:" + lm, with: "LAST-MODIFIED:" + stamp()))
            case 2:
                guard let (name, text) = try openItem(title) else { continue }
                let lm = try #require(icsValue(text, "LAST-MODIFIED"))
                let due = try #require(icsValue(text, "DUE;VALUE=DATE").flatMap { LocalDate(iso: String($0.prefix(4)) + "-" + String($0.dropFirst(4).prefix(2)) + "-" + String($0.suffix(2))) })
                let rule = try RecurrenceRule.parse(title == "Bins" ? "weekly" : "mon,thu")
                let next = rule.nextDay(after: due, completed: due)
                try f.putItem("inbox", name, Self.advanced(text, from: due, to: next, lastModified: stamp(), modifiedBefore: lm))
            default:
                _ = try f.bridge(at: Self.at(minute)).reconcile()
                minute += 1
                _ = try f.bridge(at: Self.at(minute)).reconcile()
                let tasks = try f.tasks(.inbox)
                let where_ = "seed \(seed) step \(step)"
                for series in ["Bins", "Review"] {
                    let mine = tasks.filter { $0.title == series }
                    #expect(mine.filter { $0.state != .done }.count == 1, "\(where_): \(series) \(mine.map { ($0.state, $0.due) })")
                    #expect(Set(mine.map(\.due)).count == mine.count, "\(where_): \(series) dates \(mine.map { ($0.state, $0.due, $0.id.lowercased.prefix(4), $0.completedAt) })")
                    // Each occurrence but the first follows one of the series.
                    for t in mine where t.id != a.id && t.id != b.id {
                        #expect(mine.contains { TaskFile.nextOccurrenceID(after: $0.id) == t.id }, "\(where_)")
                    }
                }
                #expect(f.items("inbox").count == tasks.count, "\(where_): \(f.items("inbox").count) items, \(tasks.count) tasks")
                for t in tasks {
                    let item = try #require(f.item("inbox", t.id.lowercased + ".ics"), "\(where_)")
                    let back = try DavItem(bytes: Array(item.utf8), path: "x").task(path: "x", now: Self.at(minute), timeZone: utc)
                    #expect(back.state == t.state && back.due == t.due, "\(where_): \(t.title) \(t.state) \(String(describing: t.due)) vs item \(back.state) \(String(describing: back.due))")
                }
            }
        }
    }

    @Test func aSecondMachineMakesTheSameNextOccurrenceAndTheTwoStoresAgree() throws {
        // Two machines with the same store and vdir; each sees the phone's advance itself.
        let one = try Fixture(), two = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: one.dir); try? FileManager.default.removeItem(atPath: two.dir) }
        let a = Self.weekly("Bins", due: Self.nov21)
        for f in [one, two] {
            try f.put(.inbox, name: nil, [a])
            _ = try f.bridge(at: Self.at(1)).reconcile()
        }
        let name = a.id.lowercased + ".ics"
        let moved = Self.advanced(try #require(one.item("inbox", name)), from: Self.nov21, to: Self.nov28, lastModified: "20261121T090700Z", modifiedBefore: "20261121T090100Z")
        for f in [one, two] {
            try f.putItem("inbox", name, moved)
            _ = try f.bridge(at: Self.at(10)).reconcile()
        }
        let a1 = try one.tasks(.inbox), a2 = try two.tasks(.inbox)
        #expect(a1 == a2 && a1.count == 2)
        #expect(one.item("inbox", a1[1].id.lowercased + ".ics") == two.item("inbox", a2[1].id.lowercased + ".ics"))
    }

    @Test func aRescheduleThatIsNoDayOfTheRuleOrOfARuleTickCannotReadStaysAReschedule() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let a = Self.weekly("Bins", due: Self.nov21)
        var b = DavBridgeTests.task("Count", due: .day(Self.nov21))
        b.repeatRule = "FREQ=WEEKLY;COUNT=3"
        try f.put(.inbox, name: nil, [a, b])
        #expect(try f.bridge(at: Self.at(1)).reconcile().problems.isEmpty)
        // Read from the vdir: said once.
        let first = try f.bridge(at: Self.at(2)).reconcile()
        #expect(first.problems.count == 1 && first.problems[0].contains("has no tick rule"), "\(first)")
        for t in [a, b] {
            let name = t.id.lowercased + ".ics"
            let to = t.id == a.id ? LocalDate(year: 2026, month: 11, day: 25)! : Self.nov28
            try f.putItem("inbox", name, Self.advanced(try #require(f.item("inbox", name)), from: Self.nov21, to: to, lastModified: "20261121T090700Z", modifiedBefore: "20261121T090100Z"))
        }
        let report = try f.bridge(at: Self.at(10)).reconcile()
        #expect(report.merged == 2)
        // Said once: the unread rule is not reported again.
        #expect(report.problems.isEmpty, "\(report)")
        let tasks = try f.tasks(.inbox)
        #expect(tasks.count == 2 && tasks.allSatisfy { $0.state == .open })
        #expect(tasks.map(\.due) == [.day(LocalDate(year: 2026, month: 11, day: 25)!), .day(Self.nov28)])
    }

    @Test func completedOnThePhoneWithARuleTickCannotReadIsDoneAndSaysSo() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        var b = DavBridgeTests.task("Count", due: .day(Self.nov21))
        b.repeatRule = "FREQ=WEEKLY;UNTIL=20261231T000000Z"
        try f.put(.inbox, name: nil, [b])
        _ = try f.bridge(at: Self.at(1)).reconcile()
        let name = b.id.lowercased + ".ics"
        let text = try #require(f.item("inbox", name)).replacingOccurrences(of: "STATUS:NEEDS-ACTION", with: "STATUS:COMPLETED\r\nCOMPLETED:20261121T090700Z")
            .replacingOccurrences(of: "LAST-MODIFIED:20261121T090100Z", with: "LAST-MODIFIED:20261121T090700Z")
        try f.putItem("inbox", name, text)
        let report = try f.bridge(at: Self.at(10)).reconcile()
        #expect(try f.tasks(.inbox).map(\.state) == [.done])
        #expect(report.problems.filter { $0.contains("no next occurrence in tick") && $0.contains(name) }.count == 1, "\(report)")
    }

    @Test func controlAndBidiCharactersFromThePhoneComeInAndAnUnreadableItemIsSaidOnceUntilItChanges() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        try f.put(.inbox, name: nil, [])
        let hostile = DavBridgeTests.appleItem.replacingOccurrences(of: "SUMMARY:Buy milk", with: "SUMMARY:Buy \u{9B}31m\u{202E}klim")
        try f.putItem("inbox", "hostile.ics", hostile)
        try f.putItem("inbox", "broken.ics", "BEGIN:VCALENDAR\r\nBROKEN\r\n")
        let first = try f.bridge(at: Self.at(1)).reconcile()
        #expect(first.added == 1 && first.problems.count == 1 && first.problems[0].contains("broken.ics"), "\(first)")
        #expect(try f.tasks(.inbox).first?.title == "Buy \u{9B}31m\u{202E}klim")
        #expect(f.item("inbox", "hostile.ics") == hostile)
        for minute in 2...4 {
            #expect(try f.bridge(at: Self.at(Double(minute))).reconcile().problems.isEmpty)
        }
        // Mended, then broken again: said again.
        try f.removeItem("inbox", "broken.ics")
        _ = try f.bridge(at: Self.at(5)).reconcile()
        try f.putItem("inbox", "broken.ics", "BEGIN:VCALENDAR\r\nBROKEN\r\n")
        #expect(try f.bridge(at: Self.at(6)).reconcile().problems.count == 1)
    }

    @Test func anItemWithAHiddenFileNameIsAdded() throws {
        // vdirsyncer names an item after a UID that is safe as a file name: `..` is `...ics`.
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        try f.put(.inbox, name: nil, [])
        let item = DavBridgeTests.appleItem.replacingOccurrences(of: "UID:7D1B5C3E-0F4A-4C1B-9E63-1A2B3C4D5E6F", with: "UID:..")
        try f.putItem("inbox", "...ics", item)
        let report = try f.bridge(at: Self.at(1)).reconcile()
        #expect(report.added == 1, "\(report)")
        let task = try #require(try f.tasks(.inbox).first)
        #expect(task.id == UUID(name: "ical:.."))
        #expect(try f.bridge(at: Self.at(2)).reconcile() == DavReport())
        try f.edit(.inbox, at: Self.at(3)) { $0.tasks[0].title = "Renamed" }
        _ = try f.bridge(at: Self.at(4)).reconcile()
        #expect(f.item("inbox", "...ics")?.contains("SUMMARY:Renamed\r\n") == true)
        #expect(f.items("inbox") == ["...ics"])
    }

    @Test func aReminderChangedInTickKeepsTheAlarmsUIDLines() throws {
        let text = DavBridgeTests.appleItem.replacingOccurrences(of: "X-WR-ALARMUID:11111111-2222-3333-4444-555555555555",
                                                                 with: "UID:AAAA-1\r\nX-WR-ALARMUID:AAAA-1\r\nACKNOWLEDGED:20261124T080100Z\r\nX-APPLE-DEFAULT-ALARM:FALSE")
        let item = try DavItem(bytes: Array(text.utf8), path: "a.ics")
        let old = try item.task(path: "a.ics", now: DavBridgeTests.t0, timeZone: utc)
        var new = old
        new.remind = Timestamp.parse("2026-11-25T07:00:00Z")
        let patched = String(decoding: DavMapping.patch(item, from: old, to: new, now: Self.at(5)), as: UTF8.self)
        #expect(patched.contains("BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Reminder\r\nTRIGGER;VALUE=DATE-TIME:20261125T070000Z\r\nUID:AAAA-1\r\nX-WR-ALARMUID:AAAA-1\r\nX-APPLE-DEFAULT-ALARM:FALSE\r\nEND:VALARM"), "\(patched)")
        #expect(patched.contains("ACTION:AUDIO\r\nTRIGGER:-PT1H\r\n"))
        // Removed in tick: the alarm goes.
        new.remind = nil
        let removed = String(decoding: DavMapping.patch(item, from: old, to: new, now: Self.at(5)), as: UTF8.self)
        #expect(!removed.contains("AAAA-1") && !removed.contains("20261124T080000Z"))
        // A relative trigger is replaced by tick's absolute one, the rest stays.
        let relative = text.replacingOccurrences(of: "TRIGGER;VALUE=DATE-TIME:20261124T080000Z", with: "TRIGGER;RELATED=START:-PT15M")
        let ritem = try DavItem(bytes: Array(relative.utf8), path: "r.ics")
        let rold = try ritem.task(path: "r.ics", now: DavBridgeTests.t0, timeZone: utc)
        var rnew = rold
        rnew.remind = Timestamp.parse("2026-11-25T07:00:00Z")
        let rpatched = String(decoding: DavMapping.patch(ritem, from: rold, to: rnew, now: Self.at(5)), as: UTF8.self)
        #expect(rpatched.contains("TRIGGER;VALUE=DATE-TIME:20261125T070000Z\r\nUID:AAAA-1\r\n") && !rpatched.contains("RELATED=START"))
    }
}

/// The value of the first content line named `name` in an item's text.
func icsValue(_ text: String, _ name: String) -> String? {
    for line in text.components(separatedBy: "\r\n") where line.hasPrefix(name + ":") { return String(line.dropFirst(name.count + 1)) }
    return nil
}
