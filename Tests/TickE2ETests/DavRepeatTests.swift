import Foundation
import Testing

/// Issue 34: repeats both ways, hostile items and alarm lines, against a real
/// Radicale and vdirsyncer with a "phone" (curl) writing to the server.
@Suite("CalDAV repeats and hostile items: real Radicale and vdirsyncer on loopback", .serialized,
       .enabled(if: DavTools.available, DavTools.skipComment))
struct DavRepeatTests {
    static func phoneItem(uid: String, summary: String, lines: [String], lastModified: String = "20261121T091000Z") -> String {
        ([
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:+//IDN tasks.org//android-130000//EN", "BEGIN:VTODO",
            "UID:\(uid)", "CREATED:20261121T090500Z", "DTSTAMP:20261121T090500Z", "LAST-MODIFIED:\(lastModified)",
            "SUMMARY:\(summary)", "STATUS:NEEDS-ACTION",
        ] + lines + ["END:VTODO", "END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    }

    /// The phone's edit of an item: `change` applied, LAST-MODIFIED set.
    static func edited(_ text: String, lastModified: String, _ change: (String) -> String) -> String {
        let lm = icsLines(text).first { $0.hasPrefix("LAST-MODIFIED:") } ?? "LAST-MODIFIED:"
        return change(text).replacingOccurrences(of: lm, with: "LAST-MODIFIED:" + lastModified)
    }

    static func tasks(_ s: Sandbox) throws -> [[String: Any]] { try s.json("list", "--all") }

    @Test("tick's rules reach the server as RRULE; the phone's RRULEs become tick's rules; one tick cannot read is kept, said once, and done still works")
    func rulesBothWays() throws {
        let (s, server) = try DavTests.setUp()
        try s.add("Bins", "due:2026-11-24", "repeat:weekly")
        try s.add("Standup", "list:Work", "due:2026-11-23", "repeat:weekdays")
        try s.add("Water", "due:2026-11-23", "repeat:+3d")
        try s.add("Payroll", "list:Work", "due:2026-11-30", "repeat:every 2mo")
        _ = try DavTests.sync(s)
        let bins = try #require(server.item("inbox", containing: "SUMMARY:Bins")?.text)
        #expect(icsLines(bins).contains("RRULE:FREQ=WEEKLY"), "\(bins)")
        // The server keeps the parameter that says which RRULE tick's spelling goes with (quoted where it must be).
        #expect(icsLines(bins).contains("X-TICK-REPEAT;X-TICK-RRULE=FREQ=WEEKLY:weekly"), "\(bins)")
        let pay = try #require(server.item("work", containing: "SUMMARY:Payroll")?.text)
        #expect(icsLines(pay).contains("X-TICK-REPEAT;X-TICK-RRULE=\"FREQ=MONTHLY;INTERVAL=2\":every 2mo"), "\(pay)")
        #expect(icsLines(try #require(server.item("work", containing: "Standup")?.text)).contains("RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"))
        let water = try #require(server.item("inbox", containing: "Water")?.text)
        #expect(!water.contains("RRULE") && icsLines(water).contains("X-TICK-REPEAT:+3d"))

        // The phone: two new items with RRULEs, and a changed rule on Bins.
        try server.put("inbox", "p1.ics", Self.phoneItem(uid: "p1", summary: "Gym", lines: ["DUE;VALUE=DATE:20261123", "RRULE:FREQ=WEEKLY;BYDAY=MO,TH"]))
        try server.put("inbox", "p2.ics", Self.phoneItem(uid: "p2", summary: "Pills", lines: ["DUE;VALUE=DATE:20261123", "RRULE:FREQ=DAILY;COUNT=10"]))
        let binsItem = try #require(server.item("inbox", containing: "SUMMARY:Bins"))
        try server.put("inbox", binsItem.name, Self.edited(binsItem.text, lastModified: "20261121T091000Z") {
            $0.replacingOccurrences(of: "RRULE:FREQ=WEEKLY\r\n", with: "RRULE:FREQ=WEEKLY;INTERVAL=2\r\n")
        })
        let first = try s.tick(["dav", "sync"], now: "2026-11-21T09:20:00Z")
        #expect(first.status == 0, "\(first)")
        #expect(first.stderr.components(separatedBy: "has no tick rule").count == 2, "said once: \(first)")
        var byTitle = Dictionary(try Self.tasks(s).map { ($0.string("title") ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byTitle["Gym"]?.string("repeat") == "mon,thu")
        #expect(byTitle["Pills"]?.string("repeat") == "FREQ=DAILY;COUNT=10")
        #expect(byTitle["Bins"]?.string("repeat") == "every 2w")
        // Said once, not at every sync.
        let second = try s.tick(["dav", "sync"], now: "2026-11-21T09:21:00Z")
        #expect(second.status == 0 && !second.stderr.contains("has no tick rule"), "\(second)")

        // tick done on the rule tick cannot read: done, no next occurrence, one line that says why.
        let done = try s.tick(["done", try s.uuidPrefix("Pills")], now: "2026-11-21T09:30:00Z")
        #expect(done.status == 0, "\(done)")
        #expect(done.stderr.contains("no next occurrence") && done.stderr.contains("RRULE"), "\(done)")
        #expect(done.stderr.split(separator: "\n").count == 1, "\(done)")
        // tick done on the phone's weekly rule: the next occurrence, on the phone too.
        let gym = try s.tick(["done", try s.uuidPrefix("Gym")], now: "2026-11-23T18:00:00Z")
        #expect(gym.status == 0 && gym.stdout.contains("Next:"), "\(gym)")
        _ = try DavTests.sync(s, now: "2026-11-23T18:01:00Z")
        byTitle = [:]
        let all = try Self.tasks(s)
        #expect(all.filter { $0.string("title") == "Pills" }.count == 1)
        let gyms = all.filter { $0.string("title") == "Gym" }
        #expect(gyms.count == 2 && gyms.contains { $0.string("state") == "open" && $0.string("due") == "2026-11-26" }, "\(gyms)")
        let onServer = server.items("inbox").values.map { String(decoding: $0, as: UTF8.self) }
        #expect(onServer.filter { $0.contains("SUMMARY:Gym") }.count == 2)
        #expect(onServer.filter { $0.contains("SUMMARY:Gym") && $0.contains("DUE;VALUE=DATE:20261126") && $0.contains("RRULE:FREQ=WEEKLY;BYDAY=MO,TH") }.count == 1)
        #expect(onServer.contains { $0.contains("SUMMARY:Pills") && $0.contains("STATUS:COMPLETED") && $0.contains("RRULE:FREQ=DAILY;COUNT=10") })
    }

    @Test("completed on the phone either way (STATUS:COMPLETED, or DUE moved forward as Tasks.org and Reminders do): one next occurrence on both sides, also after more syncs and on a second machine")
    func phoneCompletions() throws {
        let (a, server) = try DavTests.setUp()
        try a.add("Bins", "due:2026-11-24", "repeat:weekly")
        try a.add("Review", "list:Work", "due:2026-11-23", "repeat:mon,thu")
        _ = try DavTests.sync(a)
        // A second machine with the same store and account.
        let b = try Sandbox()
        try DavTests.carry(a, to: b)
        try b.ok("dav", "setup", server.url, "--user", "me", "--password-command", "echo x")
        _ = try DavTests.sync(b, now: "2026-11-21T09:05:00Z")

        // Tasks.org: Bins' DUE and DTSTART move a week on, STATUS stays. Thunderbird: Review is COMPLETED.
        let bins = try #require(server.item("inbox", containing: "SUMMARY:Bins"))
        try server.put("inbox", bins.name, Self.edited(bins.text, lastModified: "20261124T190000Z") {
            $0.replacingOccurrences(of: "DUE;VALUE=DATE:20261124", with: "DTSTART;VALUE=DATE:20261201\r\nDUE;VALUE=DATE:20261201")
        })
        let review = try #require(server.item("work", containing: "SUMMARY:Review"))
        try server.put("work", review.name, Self.edited(review.text, lastModified: "20261123T170000Z") {
            $0.replacingOccurrences(of: "STATUS:NEEDS-ACTION", with: "STATUS:COMPLETED\r\nCOMPLETED:20261123T170000Z")
        })
        for (machine, now) in [(a, "2026-11-24T19:05:00Z"), (b, "2026-11-24T19:06:00Z"), (a, "2026-11-24T19:07:00Z"), (b, "2026-11-24T19:08:00Z")] {
            _ = try DavTests.sync(machine, now: now)
        }
        for machine in [a, b] {
            let all = try Self.tasks(machine)
            let binsTasks = all.filter { $0.string("title") == "Bins" }
            #expect(binsTasks.count == 2, "\(binsTasks)")
            #expect(binsTasks.contains { $0.string("state") == "done" && $0.string("due") == "2026-11-24" && $0.string("completedAt") == "2026-11-24T19:00:00Z" })
            #expect(binsTasks.contains { $0.string("state") == "open" && $0.string("due") == "2026-12-01" })
            let reviews = all.filter { $0.string("title") == "Review" }
            #expect(reviews.count == 2 && reviews.contains { $0.string("state") == "open" && $0.string("due") == "2026-11-26" }, "\(reviews)")
        }
        // The same ids on both machines.
        let ids = { (s: Sandbox) in Set(try Self.tasks(s).compactMap { $0.string("id") }) }
        #expect(try ids(a) == ids(b))
        // The server: the completed occurrence back on its date, and one next item each.
        let inbox = server.items("inbox").values.map { String(decoding: $0, as: UTF8.self) }
        #expect(inbox.count == 2)
        #expect(inbox.contains { $0.contains("STATUS:COMPLETED") && $0.contains("DUE;VALUE=DATE:20261124") })
        #expect(inbox.contains { $0.contains("STATUS:NEEDS-ACTION") && $0.contains("DUE;VALUE=DATE:20261201") && $0.contains("RRULE:FREQ=WEEKLY") })
        #expect(server.items("work").count == 2)

        // tick completes the next one: one more on the server, and the phone advancing the new one gives one more again.
        let openBins = try #require(try Self.tasks(a).first { $0.string("title") == "Bins" && $0.string("state") == "open" }?.string("id"))
        try a.ok("done", String(openBins.prefix(8)), now: "2026-12-01T08:00:00Z")
        _ = try DavTests.sync(a, now: "2026-12-01T08:01:00Z")
        #expect(server.items("inbox").count == 3)
        let open = try #require(server.items("inbox").map { ($0.key, String(decoding: $0.value, as: UTF8.self)) }
            .first { $0.1.contains("STATUS:NEEDS-ACTION") && $0.1.contains("SUMMARY:Bins") })
        #expect(open.1.contains("DUE;VALUE=DATE:20261208"))
        try server.put("inbox", open.0, Self.edited(open.1, lastModified: "20261208T190000Z") {
            $0.replacingOccurrences(of: "DUE;VALUE=DATE:20261208", with: "DUE;VALUE=DATE:20261215")
                .replacingOccurrences(of: "DTSTART;VALUE=DATE:20261208", with: "DTSTART;VALUE=DATE:20261215")
        })
        _ = try DavTests.sync(a, now: "2026-12-08T19:05:00Z")
        _ = try DavTests.sync(a, now: "2026-12-08T19:06:00Z")
        let binsNow = try Self.tasks(a).filter { $0.string("title") == "Bins" }
        #expect(binsNow.count == 4 && binsNow.filter { $0.string("state") == "open" }.map { $0.string("due") } == ["2026-12-15"], "\(binsNow)")
        #expect(server.items("inbox").count == 4)
    }

    @Test("hostile items: UID `..` is imported, C1 and bidi controls come in and show visibly, an item tick cannot hold is named once")
    func hostileItems() throws {
        let (s, server) = try DavTests.setUp()
        // A task, so the inbox file exists (an empty store's first sync is another part of issue 34).
        try s.add("Seed")
        _ = try DavTests.sync(s)
        try server.put("inbox", "dots.ics", Self.phoneItem(uid: "..", summary: "Dots", lines: []))
        try server.put("inbox", "c1.ics", Self.phoneItem(uid: "c1", summary: "Pay \u{9B}31m\u{202E}0001 EUR", lines: ["DESCRIPTION:a\u{2066}b\u{85}c"]))
        try server.put("inbox", "bad.ics", Self.phoneItem(uid: "bad", summary: "two\\nlines", lines: []))
        let first = try s.tick(["dav", "sync"], now: "2026-11-21T09:20:00Z")
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout.contains("2 added"), "\(first)")
        #expect(first.stderr.components(separatedBy: "newline").count == 2, "bad.ics named once: \(first)")
        HostileTextTests.expectVisible(first, "sync")
        // vdirsyncer keeps the `..` item under a hidden name; tick read it.
        let vdir = s.dataHome + "/tick-dav/vdir/inbox"
        #expect(FileManager.default.fileExists(atPath: vdir + "/...ics"), "\(String(describing: try? FileManager.default.contentsOfDirectory(atPath: vdir)))")
        let titles = try Self.tasks(s).compactMap { $0.string("title") }
        #expect(titles.contains("Dots") && titles.contains("Pay \u{9B}31m\u{202E}0001 EUR"))
        for _ in 0..<2 {
            let again = try s.tick(["dav", "sync"], now: "2026-11-21T09:21:00Z")
            #expect(again.status == 0 && again.stderr.isEmpty, "said once: \(again)")
        }
        // Shown visibly.
        for args in [["list", "--all"], ["show", try s.uuidPrefix("Pay \u{9B}31m\u{202E}0001 EUR")], ["search", "EUR"]] {
            let r = try s.tick(args)
            #expect(r.status == 0, "\(r)")
            HostileTextTests.expectVisible(r, args[0])
            BidiTextTests.expectNoBidi(r, args[0])
            #expect(r.stdout.contains("\\u{202E}0001"), "\(args): \(r)")
        }
        // A change in tick reaches the `..` item on the server.
        try s.ok("edit", try s.uuidPrefix("Dots"), "--title", "Dots renamed", now: "2026-11-21T09:30:00Z")
        _ = try DavTests.sync(s, now: "2026-11-21T09:31:00Z")
        #expect(try server.get("inbox", "dots.ics").contains("SUMMARY:Dots renamed"))
    }

    @Test("a reminder changed in tick keeps the phone's alarm UID and X-WR-ALARMUID")
    func alarmLinesKept() throws {
        let (s, server) = try DavTests.setUp()
        // A task, so the inbox file exists (an empty store's first sync is another part of issue 34).
        try s.add("Seed")
        _ = try DavTests.sync(s)
        try server.put("inbox", "alarm.ics", Self.phoneItem(uid: "alarm-1", summary: "Dentist", lines: [
            "DUE:20261124T090000Z",
            "BEGIN:VALARM", "UID:5B2C1D4E-ALARM", "X-WR-ALARMUID:5B2C1D4E-ALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder",
            "TRIGGER;VALUE=DATE-TIME:20261124T080000Z", "X-APPLE-DEFAULT-ALARM:FALSE", "END:VALARM",
        ]))
        _ = try DavTests.sync(s, now: "2026-11-21T09:20:00Z")
        try s.ok("edit", try s.uuidPrefix("Dentist"), "remind:2026-11-24@08:30", now: "2026-11-21T09:30:00Z")
        let out = try DavTests.sync(s, now: "2026-11-21T09:31:00Z")
        #expect(out.contains("1 sent"), "\(out)")
        let lines = icsLines(try server.get("inbox", "alarm.ics"))
        for line in ["UID:5B2C1D4E-ALARM", "X-WR-ALARMUID:5B2C1D4E-ALARM", "X-APPLE-DEFAULT-ALARM:FALSE", "TRIGGER;VALUE=DATE-TIME:20261124T073000Z"] {
            #expect(lines.contains(line), "\(line) in \(lines)")
        }
        #expect(!lines.contains("TRIGGER;VALUE=DATE-TIME:20261124T080000Z"))
    }
}
