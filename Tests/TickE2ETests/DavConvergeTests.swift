import Foundation
import Testing

/// Issue 34, items 5 and 7: every task calendar of the account, and two tick
/// machines (stores not otherwise synced, the second starting empty) with a
/// phone, against a real Radicale and vdirsyncer on 127.0.0.1.
@Suite("CalDAV: every calendar, two machines and a phone converge", .serialized,
       .enabled(if: DavTools.available, DavTools.skipComment))
struct DavConvergeTests {
    /// A second machine bridging the same account, its store empty.
    static func secondMachine(_ server: RadicaleServer) throws -> Sandbox {
        let b = try Sandbox()
        try b.ok("dav", "setup", server.url, "--user", "me", "--password-command", "echo x")
        return b
    }

    /// The phone makes a task calendar (MKCALENDAR) at `path` named `name`.
    static func makeCalendar(_ server: RadicaleServer, _ path: String, _ name: String) throws {
        let body = """
        <?xml version="1.0" encoding="utf-8"?><C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop>\
        <D:displayname>\(name)</D:displayname><C:supported-calendar-component-set><C:comp name="VTODO"/></C:supported-calendar-component-set>\
        </D:prop></D:set></C:mkcalendar>
        """
        let r = try server.phone(["-o", "/dev/null", "-w", "%{http_code}", "-X", "MKCALENDAR", "-H", "Content-Type: application/xml",
                                  "--data-binary", "@-", server.url + path + "/"], stdin: body)
        #expect(r.stdout == "201", "MKCALENDAR \(path): \(r)")
    }

    static func phoneItem(uid: String, title: String, lastModified: String, extra: [String] = []) -> String {
        ([
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Apple Inc.//iOS 17.0//EN", "BEGIN:VTODO",
            "UID:\(uid)", "CREATED:20261121T090000Z", "DTSTAMP:\(lastModified)", "LAST-MODIFIED:\(lastModified)",
            "SUMMARY:\(title)", "X-APPLE-SORT-ORDER:7",
        ] + extra + ["END:VTODO", "END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    }

    /// Lists by slug: name.
    static func lists(_ s: Sandbox) throws -> [String: String] {
        var out: [String: String] = [:]
        for list in try s.json("lists") {
            guard let file = list.string("file"), file.hasPrefix("lists/"), let name = list.string("name") else { continue }
            out[String(file.dropFirst(6).dropLast(5))] = name
        }
        return out
    }

    /// Tasks by title: list.
    static func tasks(_ s: Sandbox) throws -> [String: String] {
        Dictionary(try s.json("list", "--all").map { ($0.string("title") ?? "", $0.string("list") ?? "Inbox") }, uniquingKeysWith: { a, _ in a })
    }

    /// The display name Radicale keeps for a collection.
    static func displayName(_ server: RadicaleServer, _ collection: String) -> String? {
        let path = server.storage + "/collection-root/me/" + collection + "/.Radicale.props"
        guard let data = FileManager.default.contents(atPath: path),
              let props = try? JSONSerialization.jsonObject(with: data) as? [String: String] else { return nil }
        return props["D:displayname"]
    }

    @Test("a calendar made on the phone becomes a list, by its path; a second machine with an empty store receives every list and its tasks")
    func everyCalendarOfTheAccount() throws {
        let (a, server) = try DavTests.setUp()
        try a.add("Call the bank")
        try a.add("Report", "list:Work")
        _ = try DavTests.sync(a)
        // The phone makes "Groceries" at a path of its own, with one item.
        try Self.makeCalendar(server, "a1b2c3-groceries", "Groceries")
        try server.put("a1b2c3-groceries", "oat.ics", Self.phoneItem(uid: "1D7C2A9E-0000-4000-8000-000000000001", title: "Oat milk", lastModified: "20261121T090200Z"))

        // A second machine, its store empty: every list and every task.
        let b = try Self.secondMachine(server)
        let out = try DavTests.sync(b, now: "2026-11-21T09:05:00Z")
        #expect(out.contains("3 merged"), "\(out)")
        #expect(try Self.lists(b) == ["work": "Work", "a1b2c3-groceries": "Groceries"])
        #expect(try Self.tasks(b) == ["Call the bank": "Inbox", "Report": "Work", "Oat milk": "Groceries"])

        // The first machine finds the new calendar at its next discovery (`tick dav setup` runs one).
        try a.ok("dav", "setup", server.url, "--user", "me", "--password-command", "echo x")
        _ = try DavTests.sync(a, now: "2026-11-21T09:06:00Z")
        #expect(try Self.lists(a)["a1b2c3-groceries"] == "Groceries")
        #expect(try Self.tasks(a)["Oat milk"] == "Groceries")

        // b adds to the new list; a receives it in the same list.
        try b.add("Bread", "list:Groceries", now: "2026-11-21T09:07:00Z")
        _ = try DavTests.sync(b, now: "2026-11-21T09:08:00Z")
        _ = try DavTests.sync(a, now: "2026-11-21T09:09:00Z")
        #expect(try Self.tasks(a)["Bread"] == "Groceries")
        #expect(server.items("a1b2c3-groceries").count == 2 && server.items("inbox").count == 1 && server.items("work").count == 1)
        // Nothing left to do on either machine.
        for (machine, now) in [(a, "2026-11-21T09:10:00Z"), (b, "2026-11-21T09:11:00Z")] {
            let idle = try DavTests.sync(machine, now: now)
            #expect(idle.hasPrefix("CalDAV: 0 sent, 0 received"), "\(idle)")
        }
    }

    @Test("a list renamed in tick renames its calendar; a new list with the old name is a calendar of its own, on both machines")
    func renamedListsKeepTheirCalendars() throws {
        let (a, server) = try DavTests.setUp()
        try a.add("Report", "list:Work")
        _ = try DavTests.sync(a)
        let b = try Self.secondMachine(server)
        _ = try DavTests.sync(b, now: "2026-11-21T09:02:00Z")
        try a.ok("lists", "rename", "Work", "Job", now: "2026-11-21T09:03:00Z")
        try a.ok("lists", "add", "Work", now: "2026-11-21T09:03:00Z")
        try a.add("Plan", "list:Work", now: "2026-11-21T09:04:00Z")
        _ = try DavTests.sync(a, now: "2026-11-21T09:05:00Z")
        // A new list's calendar gets its display name one sync late (issue 34 item 8, DavSync's discover).
        _ = try DavTests.sync(a, now: "2026-11-21T09:05:30Z")
        #expect(Self.displayName(server, "work") == "Job")
        #expect(Self.displayName(server, "work-2") == "Work")
        #expect(server.item("work", containing: "SUMMARY:Report") != nil && server.item("work-2", containing: "SUMMARY:Plan") != nil)
        _ = try DavTests.sync(b, now: "2026-11-21T09:06:00Z")
        // b matched its list by path: it keeps its own name ("Work"); the new calendar is a new list.
        let lists = try Self.lists(b)
        #expect(lists["work-2"] != nil && lists["work"] != nil, "\(lists)")
        #expect(try Self.tasks(b)["Plan"] == lists["work-2"] && Self.tasks(b)["Report"] == lists["work"])
    }

    @Test("a delete on one machine is not undone by the other's older edit (kept and sent again, then deleted again); a phone's reopen later than a completion wins on both")
    func twoMachinesAndAPhoneConverge() throws {
        let (a, server) = try DavTests.setUp()
        try a.add("Old idea")
        try a.add("Call the bank")
        _ = try DavTests.sync(a)
        let b = try Self.secondMachine(server)
        _ = try DavTests.sync(b, now: "2026-11-21T09:01:00Z")
        let idea = try b.uuidPrefix("Old idea")
        // b edits "Old idea" at 09:02 and does not sync; a deletes it at 09:03 and syncs.
        try b.ok("edit", idea, "--title", "Old idea (b)", now: "2026-11-21T09:02:00Z")
        try a.ok("rm", try a.uuidPrefix("Old idea"), "--yes", now: "2026-11-21T09:03:00Z")
        _ = try DavTests.sync(a, now: "2026-11-21T09:04:00Z")
        // b changed it since its last sync: the delete's time is unknown to b,
        // so b keeps it and sends it again (issue 44); a's delete is later than
        // b's edit, so a deletes it again, and b follows.
        let kept = try DavTests.sync(b, now: "2026-11-21T09:05:00Z")
        #expect(kept.contains("changed here after it was deleted elsewhere"), "\(kept)")
        _ = try DavTests.sync(a, now: "2026-11-21T09:05:30Z")
        _ = try DavTests.sync(b, now: "2026-11-21T09:05:40Z")
        _ = try DavTests.sync(a, now: "2026-11-21T09:06:00Z")
        #expect(server.item("inbox", containing: "Old idea") == nil)
        for machine in [a, b] { #expect(try Self.tasks(machine)["Old idea"] == nil && Self.tasks(machine)["Old idea (b)"] == nil) }

        // a completes the bank call at 09:07 and syncs; the phone reopens it at 09:09.
        try a.ok("done", try a.uuidPrefix("Call the bank"), now: "2026-11-21T09:07:00Z")
        _ = try DavTests.sync(a, now: "2026-11-21T09:08:00Z")
        let bank = try #require(server.item("inbox", containing: "SUMMARY:Call the bank"))
        #expect(bank.text.contains("STATUS:COMPLETED"))
        let reopened = icsLines(bank.text).filter { !$0.hasPrefix("STATUS:") && !$0.hasPrefix("COMPLETED:") && !$0.hasPrefix("LAST-MODIFIED:") && !$0.hasPrefix("PERCENT-COMPLETE:") }
            .flatMap { $0 == "END:VTODO" ? ["STATUS:NEEDS-ACTION", "LAST-MODIFIED:20261121T090900Z", $0] : [$0] }
        try server.put("inbox", bank.name, reopened.joined(separator: "\r\n") + "\r\n")
        _ = try DavTests.sync(a, now: "2026-11-21T09:10:00Z")
        _ = try DavTests.sync(b, now: "2026-11-21T09:11:00Z")
        _ = try DavTests.sync(a, now: "2026-11-21T09:12:00Z")
        for (name, machine) in [("a", a), ("b", b)] {
            let task = try machine.showJSON(try machine.uuidPrefix("Call the bank"))
            #expect(task.string("state") == "open", "\(name): \(task)\n\((try? String(contentsOfFile: machine.dataHome + "/tick-dav/state.json", encoding: .utf8)) ?? "")")
        }
        #expect(server.item("inbox", containing: "SUMMARY:Call the bank")?.text.contains("STATUS:COMPLETED") == false)
    }

    @Test("a sync with nothing changed starts vdirsyncer once; the phone's new calendar is found at the discovery interval or with --discover; a renamed list is sent at once")
    func vdirsyncerStartsOnlyForWhatChanged() throws {
        let (a, server) = try DavTests.setUp()
        // vdirsyncer, recording each verb it runs.
        let real = Syncthing.executable("vdirsyncer") ?? "vdirsyncer"
        let log = a.root + "/vdirsyncer.log"
        let logging = try a.script("logging-vdirsyncer", "echo \"$3\" >>\(log)\nexec \(real) \"$@\"")
        try "[dav]\nvdirsyncer = \"\(logging)\"\n".write(toFile: a.home + "/.config/tick/config.toml", atomically: true, encoding: .utf8)
        func verbs() throws -> [String] {
            defer { try? FileManager.default.removeItem(atPath: log) }
            return (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
        }
        try a.add("Call the bank")
        // The first sync after setup (which discovered): no discovery again.
        _ = try DavTests.sync(a, now: "2026-11-21T09:01:00Z")
        #expect(try verbs() == ["sync", "sync"], "down, then up")
        // Nothing changed, three times: one vdirsyncer run each.
        for minute in 2...4 {
            let idle = try DavTests.sync(a, now: "2026-11-21T09:0\(minute):00Z")
            #expect(idle.hasPrefix("CalDAV: 0 sent, 0 received"), "\(idle)")
            #expect(try verbs() == ["sync"])
        }
        // The phone makes a calendar; before the interval a plain sync does not look for it...
        try Self.makeCalendar(server, "f00d-errands", "Errands")
        try server.put("f00d-errands", "stamps.ics", Self.phoneItem(uid: "1D7C2A9E-0000-4000-8000-000000000009", title: "Stamps", lastModified: "20261121T090400Z"))
        // (TICK_NOW pins the clock: setup discovered at 09:00:00, so 09:04:30 is 30 s before the interval.)
        _ = try DavTests.sync(a, now: "2026-11-21T09:04:30Z")
        #expect(try verbs() == ["sync"])
        #expect(try Self.lists(a)["f00d-errands"] == nil)
        // ...`--discover` does, at once.
        let asked = try a.tick(["dav", "sync", "--discover"], now: "2026-11-21T09:04:40Z")
        #expect(asked.status == 0, "\(asked)")
        #expect(try verbs().prefix(2) == ["discover", "metasync"])
        #expect(try Self.lists(a)["f00d-errands"] == "Errands" && Self.tasks(a)["Stamps"] == "Errands")
        // The calendar, now a list, is no change of tick's lists to discover
        // again; the colour tick gave the new list goes out (metasync), once.
        _ = try DavTests.sync(a, now: "2026-11-21T09:06:00Z")
        #expect(try verbs() == ["metasync", "sync"])
        _ = try DavTests.sync(a, now: "2026-11-21T09:06:30Z")
        #expect(try verbs() == ["sync"])
        // Another calendar: found by the first sync five minutes after the last discovery.
        try Self.makeCalendar(server, "f00d-books", "Books")
        try server.put("f00d-books", "dune.ics", Self.phoneItem(uid: "1D7C2A9E-0000-4000-8000-00000000000a", title: "Dune", lastModified: "20261121T090600Z"))
        _ = try DavTests.sync(a, now: "2026-11-21T09:09:00Z")
        #expect(try verbs() == ["sync"], "4m20s after --discover")
        _ = try DavTests.sync(a, now: "2026-11-21T09:10:00Z")
        #expect(try verbs().prefix(2) == ["discover", "metasync"])
        #expect(try Self.tasks(a)["Dune"] == "Books")
        // A list renamed in tick: its name goes out at the next sync, which does not discover.
        try a.ok("lists", "rename", "Work", "Job", now: "2026-11-21T09:11:00Z")
        _ = try DavTests.sync(a, now: "2026-11-21T09:12:00Z")
        #expect(try verbs() == ["metasync", "sync"])
        #expect(Self.displayName(server, "work") == "Job")
        // A new list: discovered (its calendar made) at once.
        try a.ok("lists", "add", "Garden", now: "2026-11-21T09:13:00Z")
        try a.add("Plan", "list:Garden", now: "2026-11-21T09:13:00Z")
        _ = try DavTests.sync(a, now: "2026-11-21T09:14:00Z")
        #expect(try verbs().first == "discover")
        #expect(server.item("garden", containing: "SUMMARY:Plan") != nil)
    }
}
