import Foundation
import Testing

/// Issue 44: nothing lost at the phone or a second machine, against a real
/// Radicale and vdirsyncer on 127.0.0.1. Each test is one of the issue's
/// reproductions: moving a calendar's last task, `tick lists rm` racing the
/// phone's edits, a delete racing an edit, a server that is down, restores
/// on two machines.
@Suite("CalDAV boundaries: moves, list removals, late deletes, restores", .serialized,
       .enabled(if: DavTools.available, DavTools.skipComment))
struct DavBoundaryTests {
    static func sync(_ s: Sandbox, _ now: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try DavTests.sync(s, now: now, sourceLocation: sourceLocation)
    }

    /// Machine A with Report in Work and a task in the inbox, synced, and
    /// machine B joined to the same account (synced once).
    static func twoMachines() throws -> (a: Sandbox, b: Sandbox, server: RadicaleServer) {
        let (a, server) = try DavTests.setUp()
        try a.add("Report", "list:Work", now: "2026-11-21T09:00:00Z")
        try a.add("Inbox task", now: "2026-11-21T09:00:00Z")
        _ = try sync(a, "2026-11-21T09:01:00Z")
        let b = try DavConvergeTests.secondMachine(server)
        _ = try sync(b, "2026-11-21T09:02:00Z")
        return (a, b, server)
    }

    /// The server loses every item of Work and the inbox (a wipe).
    static func wipe(_ server: RadicaleServer) throws {
        for c in ["work", "inbox"] {
            for name in server.items(c).keys { try server.delete(c, name) }
        }
    }

    /// Tasks by title: list (Inbox for none).
    static func tasks(_ s: Sandbox) throws -> [String: String] { try DavConvergeTests.tasks(s) }

    /// The titles of every item on the server, by collection.
    static func server(_ server: RadicaleServer, _ collections: [String]) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for c in collections {
            out[c] = server.items(c).values.compactMap { data in
                icsLines(String(decoding: data, as: UTF8.self)).first { $0.hasPrefix("SUMMARY:") }.map { String($0.dropFirst(8)) }
            }.sorted()
        }
        return out
    }

    @Test("moving a calendar's last task to another calendar loses it nowhere, on either machine, three times over")
    func movingACalendarsLastTask() throws {
        let (a, server) = try DavTests.setUp()
        try a.add("Report", "list:Work", now: "2026-11-21T09:00:00Z")
        _ = try Self.sync(a, "2026-11-21T09:01:00Z")
        let b = try DavConvergeTests.secondMachine(server)
        _ = try Self.sync(b, "2026-11-21T09:02:00Z")
        #expect(try Self.tasks(b) == ["Report": "Work"])
        // Back and forth: B moves it to the inbox, A moves it back to Work, B again.
        let moves: [(Sandbox, String, String)] = [(b, "inbox", "Inbox"), (a, "Work", "Work"), (b, "inbox", "Inbox")]
        for (round, (mover, target, shown)) in moves.enumerated() {
            let minute = 10 + round * 10
            try mover.ok("mv", try mover.uuidPrefix("Report"), target, now: "2026-11-21T09:\(minute):00Z")
            _ = try Self.sync(mover, "2026-11-21T09:\(minute + 1):00Z")
            for (i, machine) in [a, b, a, b].enumerated() {
                _ = try Self.sync(machine, "2026-11-21T09:\(minute + 2 + i):00Z")
            }
            for (name, machine) in [("A", a), ("B", b)] {
                let held = try Self.tasks(machine)
                #expect(held == ["Report": shown], "round \(round + 1), \(name): \(held)")
            }
            let held = Self.server(server, ["inbox", "work"])
            #expect(held == (shown == "Inbox" ? ["inbox": ["Report"], "work": []] : ["inbox": [], "work": ["Report"]]), "round \(round + 1): \(held)")
        }
    }

    @Test("the phone moving a calendar's last task to the inbox loses it nowhere: both machines and the server keep it, in the inbox")
    func phoneMovesACalendarsLastTask() throws {
        let (a, server) = try DavTests.setUp()
        try a.add("Report", "list:Work", now: "2026-11-21T09:00:00Z")
        _ = try Self.sync(a, "2026-11-21T09:01:00Z")
        let b = try DavConvergeTests.secondMachine(server)
        _ = try Self.sync(b, "2026-11-21T09:02:00Z")
        // The phone moves it: the item leaves work and arrives in the inbox, same UID.
        let item = try #require(server.item("work", containing: "SUMMARY:Report"))
        try server.delete("work", item.name)
        try server.put("inbox", item.name, icsLines(item.text).map { line in
            line.hasPrefix("LAST-MODIFIED:") ? "LAST-MODIFIED:20261121T091000Z" : line
        }.joined(separator: "\r\n") + "\r\n")
        for (i, machine) in [b, a, b, a, b].enumerated() {
            _ = try Self.sync(machine, "2026-11-21T09:1\(1 + i):00Z")
        }
        for (name, machine) in [("A", a), ("B", b)] {
            #expect(try Self.tasks(machine) == ["Report": "Inbox"], "\(name)")
        }
        #expect(Self.server(server, ["inbox", "work"]) == ["inbox": ["Report"], "work": []])
    }

    @Test("tick lists rm keeps what the phone changed after it: the list comes back with that task, the unchanged ones go; a task the store holds elsewhere is merged field by field")
    func listRemovalKeepsLaterPhoneEdits() throws {
        let (s, server) = try DavTests.setUp()
        try s.add("Report", "list:Work", now: "2026-11-21T09:00:00Z")
        try s.add("Plan", "list:Work", now: "2026-11-21T09:00:00Z")
        try s.add("Call the bank", now: "2026-11-21T09:00:00Z")
        _ = try Self.sync(s, "2026-11-21T09:01:00Z")
        // The phone moves the bank call into Work, retitles and completes it (09:03).
        let call = try #require(server.item("inbox", containing: "SUMMARY:Call the bank"))
        let edited = icsLines(call.text).map { line -> String in
            if line.hasPrefix("SUMMARY:") { return "SUMMARY:Call the bank today" }
            if line.hasPrefix("LAST-MODIFIED:") { return "LAST-MODIFIED:20261121T090300Z" }
            if line.hasPrefix("STATUS:") { return "STATUS:COMPLETED\r\nCOMPLETED:20261121T090300Z" }
            return line
        }
        try server.delete("inbox", call.name)
        try server.put("work", call.name, edited.joined(separator: "\r\n") + "\r\n")
        // tick removes Work at 09:05; the phone retitles Report at 09:10; tick syncs at 09:30.
        try s.ok("lists", "rm", "Work", "--yes", now: "2026-11-21T09:05:00Z")
        let report = try #require(server.item("work", containing: "SUMMARY:Report"))
        try server.put("work", report.name, icsLines(report.text).map { line in
            line.hasPrefix("SUMMARY:") ? "SUMMARY:Report v2" : line.hasPrefix("LAST-MODIFIED:") ? "LAST-MODIFIED:20261121T091000Z" : line
        }.joined(separator: "\r\n") + "\r\n")
        _ = try Self.sync(s, "2026-11-21T09:30:00Z")
        _ = try Self.sync(s, "2026-11-21T09:31:00Z")
        let tasks = try Self.tasks(s)
        // Changed on the phone after the removal: it survives, its list back.
        #expect(tasks["Report v2"] == "Work", "\(tasks)")
        // Unchanged since the removal: gone, as `tick lists rm` said.
        #expect(tasks["Plan"] == nil, "\(tasks)")
        // The bank call (the store holds it in the inbox): the phone's title
        // and completion are kept; it stays where the store has it.
        #expect(tasks["Call the bank today"] == "Inbox", "\(tasks)")
        let bank = try s.showJSON(try s.uuidPrefix("Call the bank today"))
        #expect(bank.string("state") == "done", "\(bank)")
        let held = Self.server(server, ["inbox", "work"])
        #expect(held == ["inbox": ["Call the bank today"], "work": ["Report v2"]], "\(held)")
        // And it stays so.
        let idle = try Self.sync(s, "2026-11-21T09:32:00Z")
        #expect(idle.hasPrefix("CalDAV: 0 sent, 0 received"), "\(idle)")
    }

    @Test("a delete seen through the server keeps a task changed here after it (said, and sent again); one changed before the delete goes on both machines")
    func deletesRacingEdits() throws {
        let (a, server) = try DavTests.setUp()
        try a.add("Old idea", now: "2026-11-21T09:00:00Z")
        try a.add("Older idea", now: "2026-11-21T09:00:00Z")
        _ = try Self.sync(a, "2026-11-21T09:01:00Z")
        let b = try DavConvergeTests.secondMachine(server)
        _ = try Self.sync(b, "2026-11-21T09:02:00Z")
        // A deletes both at 09:10 and syncs. B edited "Older idea" at 09:05
        // (before the delete) and edits "Old idea" at 09:20 (after it).
        try b.ok("edit", try b.uuidPrefix("Older idea"), "--title", "Older idea (b)", now: "2026-11-21T09:05:00Z")
        try a.ok("rm", try a.uuidPrefix("Old idea"), try a.uuidPrefix("Older idea"), "--yes", now: "2026-11-21T09:10:00Z")
        _ = try Self.sync(a, "2026-11-21T09:11:00Z")
        try b.ok("edit", try b.uuidPrefix("Old idea"), "--title", "Old idea still", now: "2026-11-21T09:20:00Z")
        let kept = try b.tick(["dav", "sync"], now: "2026-11-21T09:21:00Z")
        #expect(kept.status == 0, "\(kept)")
        #expect(kept.stdout.contains("changed here after it was deleted elsewhere"), "B says what it kept: \(kept)")
        #expect(kept.stdout.split(separator: "\n").filter { $0.contains("kept ") }.count == 2, "both were changed since B's last sync: \(kept)")
        for (i, machine) in [a, b, a, b].enumerated() {
            _ = try Self.sync(machine, "2026-11-21T09:2\(2 + i):00Z")
        }
        // The edit after the delete wins; the delete after the edit wins.
        for (name, machine) in [("A", a), ("B", b)] {
            let held = try Self.tasks(machine)
            #expect(held == ["Old idea still": "Inbox"], "\(name): \(held)")
        }
        #expect(Self.server(server, ["inbox"]) == ["inbox": ["Old idea still"]])
    }

    @Test("a server that is down fails once, fast, in tick's words, with no counts; a calendar that fails alone names the ones that synced; a port of 401xx is no refused login")
    func serverDownFailsOnce() throws {
        let (s, server) = try DavTests.setUp(ports: 40100...40199)
        try s.ok("lists", "add", "Home")
        try s.add("Report", "list:Work")
        try s.add("Paint", "list:Home")
        _ = try Self.sync(s, "2026-11-21T09:01:00Z")
        try server.stop(holdingPort: true)
        try s.add("Offline task")
        let r = try s.tick(["dav", "sync"], now: "2026-11-21T09:02:00Z")
        #expect(r.status == 1, "\(r)")
        #expect(r.stdout.isEmpty, "no counts when nothing synced: \(r)")
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("cannot be reached") && lines[0].contains("127.0.0.1"), "one line, once: \(r)")
        #expect(!r.stderr.contains("the other lists synced") && !r.stderr.contains("synced: "), "\(r)")
        try server.start()
        _ = try Self.sync(s, "2026-11-21T09:03:00Z")
        #expect(server.item("inbox", containing: "Offline task") != nil)
    }

    @Test("a wiped server: an error exit and `tick status` says so; restore on one machine, and the other joins it with no command, its newer edit kept")
    func wipedServerRestoredOnTwoMachines() throws {
        let (a, b, server) = try Self.twoMachines()
        try Self.wipe(server)
        for (name, machine, minute) in [("A", a, "10"), ("B", b, "11")] {
            let r = try machine.tick(["dav", "sync"], now: "2026-11-21T09:\(minute):00Z")
            #expect(r.status == 1, "\(name): a wiped server is an error exit: \(r)")
            #expect(r.stderr.contains("tick dav restore work") && r.stderr.contains("--accept-empty inbox"), "\(name): \(r)")
            let status = try machine.ok("status", now: "2026-11-21T09:\(minute):30Z")
            #expect(status.contains("last failure") && status.contains("wiped"), "\(name): \(status)")
        }
        // B edits while the server is wiped; A restores later with its older copy.
        try b.ok("edit", try b.uuidPrefix("Report"), "--title", "Report (b)", now: "2026-11-21T09:12:00Z")
        _ = try b.tick(["dav", "sync"], now: "2026-11-21T09:13:00Z")
        let restored = try a.tick(["dav", "restore", "work", "inbox"], now: "2026-11-21T09:20:00Z")
        #expect(restored.status == 0, "\(restored)")
        #expect(Self.server(server, ["inbox", "work"]) == ["inbox": ["Inbox task"], "work": ["Report"]])
        // B needs no command: its next syncs join the restored calendars, its newer edit wins.
        for (i, machine) in [b, a, b].enumerated() {
            let r = try machine.tick(["dav", "sync"], now: "2026-11-21T09:2\(1 + i):00Z")
            #expect(r.status == 0 && !r.stderr.contains("wiped") && !r.stderr.contains("gone from the server"), "sync \(i + 1): \(r)")
        }
        #expect(Self.server(server, ["inbox", "work"]) == ["inbox": ["Inbox task"], "work": ["Report (b)"]])
        for (name, machine) in [("A", a), ("B", b)] {
            #expect(try Self.tasks(machine) == ["Report (b)": "Work", "Inbox task": "Inbox"], "\(name)")
        }
    }

    @Test("a wiped calendar this machine emptied and then moved a task into stays aside: its sync sends nothing there, so the other machine still sees the wipe and loses nothing")
    func wipedCalendarStaysAsideAfterAMoveIntoIt() throws {
        // Found by DavTwoMachineHistoryTests (seeds 7916, 9872): the probe of a
        // calendar set aside synced it whole; once vdirsyncer had forgotten
        // the wiped items (empty on both sides) it uploaded the task moved
        // there, and the other machine, seeing only the inbox emptied, took
        // the wipe for the phone's deletes and deleted its only copy.
        let (a, b, server) = try Self.twoMachines()
        try b.add("Only on B", now: "2026-11-21T09:03:00Z")
        _ = try Self.sync(b, "2026-11-21T09:04:00Z")
        try Self.wipe(server)
        let first = try a.tick(["dav", "sync"], now: "2026-11-21T09:10:00Z")
        #expect(first.status == 1 && first.stderr.contains("wiped"), "\(first)")
        // A empties Work itself, syncs, then moves its inbox task there and syncs twice.
        try a.ok("rm", try a.uuidPrefix("Report"), "--yes", now: "2026-11-21T09:11:00Z")
        _ = try a.tick(["dav", "sync"], now: "2026-11-21T09:12:00Z")
        try a.ok("mv", try a.uuidPrefix("Inbox task"), "Work", now: "2026-11-21T09:13:00Z")
        for minute in 14...15 {
            let r = try a.tick(["dav", "sync"], now: "2026-11-21T09:\(minute):00Z")
            #expect(r.status == 1 && r.stderr.contains("wiped"), "still set aside: \(r)")
        }
        #expect(Self.server(server, ["inbox", "work"]) == ["inbox": [], "work": []], "nothing sent to a calendar set aside")
        // B sees both calendars emptied: a wipe, nothing deleted.
        let seen = try b.tick(["dav", "sync"], now: "2026-11-21T09:20:00Z")
        #expect(seen.status == 1 && seen.stderr.contains("wiped"), "\(seen)")
        #expect(try Self.tasks(b)["Only on B"] == "Inbox", "B's only copy is kept")
        // B restores; A joins with no command, its move kept and B's task received.
        let restored = try b.tick(["dav", "restore", "work", "inbox"], now: "2026-11-21T09:21:00Z")
        #expect(restored.status == 0, "\(restored)")
        for (i, machine) in [a, b, a].enumerated() {
            let r = try machine.tick(["dav", "sync"], now: "2026-11-21T09:2\(2 + i):00Z")
            #expect(r.status == 0 && !r.stderr.contains("wiped"), "sync \(i + 1): \(r)")
        }
        for (name, machine) in [("A", a), ("B", b)] {
            let held = try Self.tasks(machine)
            #expect(held["Only on B"] == "Inbox" && held["Inbox task"] == "Work", "\(name): \(held)")
        }
    }

    @Test("another machine's `tick lists rm` and its last inbox delete, synced together, are no wiped server: applied at once, nothing set aside, the inbox syncs on")
    func removalIsNoWipe() throws {
        let (a, server) = try DavTests.setUp()
        try a.add("Report", "list:Work", now: "2026-11-21T09:00:00Z")
        try a.add("Only inbox task", now: "2026-11-21T09:00:00Z")
        _ = try Self.sync(a, "2026-11-21T09:01:00Z")
        let b = try DavConvergeTests.secondMachine(server)
        _ = try Self.sync(b, "2026-11-21T09:02:00Z")
        try b.ok("lists", "rm", "Work", "--yes", now: "2026-11-21T09:05:00Z")
        try b.ok("rm", try b.uuidPrefix("Only inbox task"), "--yes", now: "2026-11-21T09:06:00Z")
        _ = try Self.sync(b, "2026-11-21T09:07:00Z")
        #expect(Self.server(server, ["inbox", "work"]) == ["inbox": [], "work": []])
        // The phone sees why the calendar is empty; A reads the same mark.
        #expect(DavConvergeTests.displayName(server, "work") == "Work (removed in tick)")
        for minute in 10...11 {
            let r = try a.tick(["dav", "sync"], now: "2026-11-21T09:\(minute):00Z")
            #expect(r.status == 0 && !r.stderr.contains("wiped") && !r.stderr.contains("did not sync"), "\(r)")
            if minute == 10 { #expect(r.stdout.contains("removed on another end: the list of calendar work"), "\(r)") }
        }
        #expect(try Self.tasks(a) == [:], "B's deletes applied on A")
        let lists = try DavConvergeTests.lists(a)
        #expect(lists["work"] == nil, "the removal travelled: \(lists)")
        let status = try a.ok("status", now: "2026-11-21T09:11:30Z")
        #expect(!status.contains("wiped") && !status.contains("last failure"), "\(status)")
        // B's next inbox task reaches A, and nothing warns.
        try b.add("Later", now: "2026-11-21T09:12:00Z")
        _ = try Self.sync(b, "2026-11-21T09:13:00Z")
        let r = try a.tick(["dav", "sync"], now: "2026-11-21T09:14:00Z")
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r)")
        #expect(try Self.tasks(a) == ["Later": "Inbox"])
        // A list made again under that calendar names it again; a real wipe
        // of both calendars after that is still a wipe.
        try a.ok("lists", "add", "Work", now: "2026-11-21T09:15:00Z")
        try a.add("Report again", "list:Work", now: "2026-11-21T09:15:00Z")
        _ = try Self.sync(a, "2026-11-21T09:16:00Z")
        #expect(DavConvergeTests.displayName(server, "work") == "Work")
        try Self.wipe(server)
        let wiped = try a.tick(["dav", "sync"], now: "2026-11-21T09:17:00Z")
        #expect(wiped.status == 1 && wiped.stderr.contains("wiped"), "\(wiped)")
        #expect(try Self.tasks(a) == ["Later": "Inbox", "Report again": "Work"], "nothing deleted at a wipe")
    }

    @Test("a list removed on one machine whose task the other changed after the removal lives on: kept, its calendar named again, and back on the first machine")
    func removalRacingAnEdit() throws {
        let (a, server) = try DavTests.setUp()
        try a.add("Report", "list:Work", now: "2026-11-21T09:00:00Z")
        try a.add("Plan", "list:Work", now: "2026-11-21T09:00:00Z")
        _ = try Self.sync(a, "2026-11-21T09:01:00Z")
        let b = try DavConvergeTests.secondMachine(server)
        _ = try Self.sync(b, "2026-11-21T09:02:00Z")
        try b.ok("lists", "rm", "Work", "--yes", now: "2026-11-21T09:05:00Z")
        _ = try Self.sync(b, "2026-11-21T09:06:00Z")
        #expect(DavConvergeTests.displayName(server, "work") == "Work (removed in tick)")
        // A retitled Report after the removal, before it synced.
        try a.ok("edit", try a.uuidPrefix("Report"), "--title", "Report (a)", now: "2026-11-21T09:10:00Z")
        let r = try a.tick(["dav", "sync"], now: "2026-11-21T09:11:00Z")
        #expect(r.status == 0 && r.stdout.contains("kept ") && !r.stdout.contains("removed on another end"), "\(r)")
        #expect(try Self.tasks(a) == ["Report (a)": "Work"])
        #expect(DavConvergeTests.displayName(server, "work") == "Work", "the list lives on: its name goes back")
        for (i, machine) in [b, a, b].enumerated() {
            _ = try Self.sync(machine, "2026-11-21T09:1\(2 + i):00Z")
        }
        for (name, machine) in [("A", a), ("B", b)] {
            #expect(try Self.tasks(machine) == ["Report (a)": "Work"], "\(name)")
        }
        #expect(Self.server(server, ["work"]) == ["work": ["Report (a)"]])
    }

    @Test("a list renamed on one machine is renamed on the other and on the server, and stays so; then the other way round")
    func renamesConverge() throws {
        let (a, server) = try DavTests.setUp()
        try a.ok("lists", "add", "Errands", now: "2026-11-21T09:00:00Z")
        try a.add("Stamps", "list:Errands", now: "2026-11-21T09:00:00Z")
        _ = try Self.sync(a, "2026-11-21T09:01:00Z")
        let b = try DavConvergeTests.secondMachine(server)
        _ = try Self.sync(b, "2026-11-21T09:02:00Z")
        #expect(try DavConvergeTests.lists(b)["errands"] == "Errands")
        let renames: [(Sandbox, Sandbox, String, Int)] = [(a, b, "Chores", 10), (b, a, "Jobs", 30)]
        for (renamer, other, name, minute) in renames {
            try renamer.ok("lists", "rename", try DavConvergeTests.lists(renamer)["errands"] ?? "", name, now: "2026-11-21T09:\(minute):00Z")
            _ = try Self.sync(renamer, "2026-11-21T09:\(minute + 1):00Z")
            #expect(DavConvergeTests.displayName(server, "errands") == name)
            // The other machine finds it at its next discovery (every 5 minutes).
            let out = try Self.sync(other, "2026-11-21T09:\(minute + 7):00Z")
            #expect(out.contains("renamed on another end"), "\(out)")
            for (i, machine) in [renamer, other, renamer, other].enumerated() {
                _ = try machine.tick(["dav", "sync", "--discover"], now: "2026-11-21T09:\(minute + 8 + i):00Z")
            }
            for (label, machine) in [("renamer", renamer), ("other", other)] {
                let lists = try DavConvergeTests.lists(machine)
                #expect(lists["errands"] == name, "\(label): \(lists)")
                #expect(try Self.tasks(machine)["Stamps"] == name, "\(label)")
            }
            #expect(DavConvergeTests.displayName(server, "errands") == name)
        }
    }

    @Test("tick dav restore of several calendars restores those it can and names the one it cannot (exit 1); its help has no stray backslashes")
    func restoreDoesWhatItCan() throws {
        let (s, server) = try DavTests.setUp()
        try s.add("Report", "list:Work")
        _ = try Self.sync(s, "2026-11-21T09:01:00Z")
        let gone = try server.phone(["-o", "/dev/null", "-w", "%{http_code}", "-X", "DELETE", server.url + "work/"])
        #expect(["200", "204"].contains(gone.stdout), "\(gone)")
        _ = try s.tick(["dav", "sync"], now: "2026-11-21T09:02:00Z")
        let r = try s.tick(["dav", "restore", "nosuch", "work"], now: "2026-11-21T09:03:00Z")
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.contains("\"nosuch\""), "\(r)")
        #expect(server.item("work", containing: "SUMMARY:Report") != nil, "work was restored anyway")
        let help = try s.ok("help", "dav", "restore")
        #expect(!help.contains("\\"), "\(help)")
    }
}
