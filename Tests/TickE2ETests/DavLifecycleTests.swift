import Foundation
import Testing

/// Issue 34 (davsync): no state leaves the CalDAV bridge stuck — emptied
/// calendars, removed lists, a lost vdir or status, calendars gone from the
/// server, an empty store — and its faults: dropped connections, a killed
/// sync, two syncs at once, a failed setup. Real Radicale and vdirsyncer on
/// loopback; the phone is curl.
@Suite("CalDAV lifecycle: emptied and removed calendars, repairs, faults", .serialized,
       .enabled(if: DavTools.available, DavTools.skipComment))
struct DavLifecycleTests {
    static func setUp() throws -> (Sandbox, RadicaleServer) { try DavTests.setUp() }

    static func sync(_ s: Sandbox, now: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try DavTests.sync(s, now: now, sourceLocation: sourceLocation)
    }

    static func davRoot(_ s: Sandbox) -> String { s.dataHome + "/tick-dav" }

    static func item(uid: String, summary: String) -> String {
        ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//phone//EN", "BEGIN:VTODO", "UID:\(uid)",
         "DTSTAMP:20261121T090000Z", "LAST-MODIFIED:20261121T090000Z", "SUMMARY:\(summary)", "STATUS:NEEDS-ACTION",
         "END:VTODO", "END:VCALENDAR"].joined(separator: "\r\n") + "\r\n"
    }

    @Test("the phone deletes the last task of a calendar: applied as a delete, and every list keeps syncing, three times over")
    func phoneEmptiesACalendar() throws {
        let (s, server) = try Self.setUp()
        try s.add("Only work task", "list:Work")
        try s.add("Inbox task")
        let first = try Self.sync(s)
        #expect(first.contains("2 sent"), "the first sync counts what it uploaded: \(first)")
        for round in 1...3 {
            let work = try #require(server.item("work", containing: "SUMMARY:") , "round \(round)")
            try server.delete("work", work.name)
            try s.add("Inbox \(round)")
            let out = try Self.sync(s, now: "2026-11-21T1\(round):00:00Z")
            #expect(out.contains("1 deleted"), "round \(round): \(out)")
            #expect(server.item("inbox", containing: "Inbox \(round)") != nil, "round \(round): the other list synced")
            let titles = try DavTests.titles(s)
            #expect(titles["Only work task"] == nil && titles["Work \(round - 1)"] == nil, "round \(round): deleted in tick")
            // A new task in the emptied calendar goes up as usual.
            try s.add("Work \(round)", "list:Work")
            let again = try Self.sync(s, now: "2026-11-21T1\(round):05:00Z")
            #expect(again.contains("1 sent"), "round \(round): \(again)")
            #expect(server.item("work", containing: "Work \(round)") != nil)
        }
    }

    @Test("tick lists rm of a bridged list: its calendar is emptied on the server and detached; the next syncs succeed")
    func listsRemoveDetaches() throws {
        let (s, server) = try Self.setUp()
        try s.ok("lists", "add", "Home")
        try s.add("Paint the fence", "list:Home")
        try s.add("Mow the lawn", "list:Home")
        try s.add("Inbox task")
        _ = try Self.sync(s)
        #expect(server.items("home").count == 2)
        try s.ok("lists", "rm", "Home", "--yes")
        let out = try Self.sync(s, now: "2026-11-21T10:00:00Z")
        #expect(out.contains("2 sent"), "the two deletes went up: \(out)")
        #expect(server.items("home").isEmpty, "the calendar is emptied on the server")
        #expect(!FileManager.default.fileExists(atPath: Self.davRoot(s) + "/vdir/home"), "detached: no vdir copy")
        for minute in 1...2 {
            try s.add("After \(minute)")
            let next = try Self.sync(s, now: "2026-11-21T10:0\(minute):00Z")
            #expect(next.contains("1 sent"), "\(next)")
            #expect(server.item("inbox", containing: "After \(minute)") != nil)
            // Every sync discovers the account's calendars: the empty one left
            // on the server is found again, and is no list again.
            #expect(!(try s.ok("lists")).contains("Home"), "sync \(minute): the removed list stays removed")
        }
        // A list of the same name made again gets a calendar again.
        try s.ok("lists", "add", "Home")
        try s.add("Back home", "list:Home")
        _ = try Self.sync(s, now: "2026-11-21T10:05:00Z")
        #expect(server.item("home", containing: "Back home") != nil)
        // Removed and made again before a sync: the old tasks go, the new one stays, and twice over.
        for round in 1...2 {
            try s.ok("lists", "rm", "Home", "--yes")
            try s.ok("lists", "add", "Home")
            try s.add("Home \(round)", "list:Home")
            _ = try Self.sync(s, now: "2026-11-21T10:1\(round):00Z")
            #expect(server.items("home").count == 1 && server.item("home", containing: "Home \(round)") != nil, "round \(round)")
            let state = try String(contentsOfFile: Self.davRoot(s) + "/state.json", encoding: .utf8)
            #expect(!state.contains("\"removed\""), "round \(round): \(state)")
        }
        _ = try Self.sync(s, now: "2026-11-21T10:20:00Z")
        #expect(server.item("home", containing: "Home 2") != nil)
    }

    @Test("a calendar deleted on the server is reported with `tick dav restore`, never blocks the others, and restore sends it again")
    func vanishedCalendar() throws {
        let (s, server) = try Self.setUp()
        try s.add("Report", "list:Work")
        try s.add("Inbox task")
        _ = try Self.sync(s)
        let gone = try server.phone(["-o", "/dev/null", "-w", "%{http_code}", "-X", "DELETE", server.url + "work/"])
        #expect(["200", "204"].contains(gone.stdout), "\(gone)")
        try s.add("Still syncing")
        for minute in 1...2 {
            let r = try s.tick(["dav", "sync"], now: "2026-11-21T10:0\(minute):00Z")
            // A calendar gone from the server is an error exit until dealt with (issue 44).
            #expect(r.status == 1, "\(r)")
            #expect(r.stderr.contains("tick dav restore work") && r.stderr.contains("tick lists rm Work"), "\(r)")
            #expect(!r.stderr.contains("vdirsyncer discover") && !r.stderr.contains("--force-delete"), "tick's words: \(r)")
        }
        #expect(server.item("inbox", containing: "Still syncing") != nil, "the inbox synced meanwhile")
        #expect(try DavTests.titles(s)["Report"] != nil, "nothing deleted in tick")
        // A calendar no list has: one error line naming it and the calendars, exit 3 (as an unknown list), nothing done.
        let unknown = try s.tick(["dav", "restore", "nosuch"], now: "2026-11-21T10:04:00Z")
        #expect(unknown.status == 3, "\(unknown)")
        #expect(unknown.stderr.split(separator: "\n").count == 1 && unknown.stderr.hasPrefix("tick: error: ")
            && unknown.stderr.contains("\"nosuch\"") && unknown.stderr.contains("work"), "\(unknown)")
        #expect(server.item("work", containing: "Report") == nil, "nothing restored by the refused command")
        let restored = try s.tick(["dav", "restore", "work"], now: "2026-11-21T10:05:00Z")
        #expect(restored.status == 0 && !restored.stderr.contains("tick dav restore"), "\(restored)")
        #expect(server.item("work", containing: "Report") != nil, "restored from tick's copy")
        let after = try Self.sync(s, now: "2026-11-21T10:06:00Z")
        #expect(after.hasPrefix("CalDAV: 0 sent, 0 received"), "\(after)")
    }

    @Test("several calendars emptied on the server at once (a wipe): nothing deleted in tick; --accept-empty confirms one, restore sends the other back")
    func wipedServerIsNotApplied() throws {
        let (s, server) = try Self.setUp()
        try s.add("Report", "list:Work")
        try s.add("Inbox task")
        _ = try Self.sync(s)
        for c in ["work", "inbox"] {
            for name in server.items(c).keys { try server.delete(c, name) }
        }
        for minute in 1...2 {
            let r = try s.tick(["dav", "sync"], now: "2026-11-21T10:0\(minute):00Z")
            // A wiped server is an error exit (issue 44).
            #expect(r.status == 1, "\(r)")
            #expect(r.stderr.contains("tick dav restore work") && r.stderr.contains("--accept-empty inbox"), "\(r)")
            #expect(try DavTests.titles(s).count == 2, "nothing deleted in tick")
        }
        let accepted = try s.tick(["dav", "sync", "--accept-empty", "work"], now: "2026-11-21T10:05:00Z")
        // The inbox is still set aside: still an error exit.
        #expect(accepted.status == 1 && accepted.stdout.contains("1 deleted") && !accepted.stderr.contains("(work)"), "\(accepted)")
        #expect(try DavTests.titles(s)["Report"] == nil && (try DavTests.titles(s))["Inbox task"] != nil)
        let restored = try s.tick(["dav", "restore", "inbox"], now: "2026-11-21T10:06:00Z")
        #expect(restored.status == 0 && !restored.stderr.contains("--accept-empty"), "\(restored)")
        #expect(server.item("inbox", containing: "Inbox task") != nil)
        try s.add("Work again", "list:Work")
        let after = try Self.sync(s, now: "2026-11-21T10:07:00Z")
        #expect(after.contains("1 sent"), "\(after)")
        #expect(server.item("work", containing: "Work again") != nil)
    }

    @Test("the vdir folder or vdirsyncer's status removed: the sync repairs itself without a question and deletes nothing")
    func lostVdirAndStatus() throws {
        let (s, server) = try Self.setUp()
        try s.add("Report", "list:Work")
        try s.add("Inbox task")
        _ = try Self.sync(s)
        try FileManager.default.removeItem(atPath: Self.davRoot(s) + "/vdir")
        let r = try s.tick(["dav", "sync"], now: "2026-11-21T10:00:00Z")
        #expect(r.status == 0 && !r.stderr.contains("[y/N]"), "\(r)")
        #expect(try DavTests.titles(s)["Report"] != nil && (try DavTests.titles(s))["Inbox task"] != nil, "nothing deleted")
        #expect(server.item("work", containing: "Report") != nil && server.item("inbox", containing: "Inbox task") != nil)
        try FileManager.default.removeItem(atPath: Self.davRoot(s) + "/status")
        try s.add("After the status went")
        let again = try s.tick(["dav", "sync"], now: "2026-11-21T10:01:00Z")
        #expect(again.status == 0 && !again.stderr.contains("vdirsyncer"), "\(again)")
        #expect(server.item("inbox", containing: "After the status went") != nil)
        #expect(try DavTests.titles(s).count == 3)
    }

    @Test("an empty store sets up and syncs; the phone's first task comes into the inbox")
    func emptyStoreSyncs() throws {
        let s = try Sandbox()
        let server = try RadicaleServer(s)
        try s.ok("dav", "setup", server.url, "--user", "me", "--password-command", "echo x")
        _ = try Self.sync(s)
        try server.put("inbox", "phone-1.ics", Self.item(uid: "phone-1", summary: "From the phone"))
        let out = try Self.sync(s, now: "2026-11-21T10:00:00Z")
        #expect(out.contains("1 received"), "\(out)")
        #expect(try DavTests.titles(s)["From the phone"] != nil)
    }

    @Test("a new list's calendar has its display name from the first sync; the first sync says what it sent")
    func displayNameAtCreation() throws {
        let (s, server) = try Self.setUp()
        func displayName(_ collection: String) -> String {
            let r = try? server.phone(["-X", "PROPFIND", "-H", "Depth: 0", "--data",
                                       "<propfind xmlns=\"DAV:\"><prop><displayname/></prop></propfind>", server.url + collection + "/"])
            return r?.stdout ?? ""
        }
        #expect(displayName("work").contains(">Work<"), "named at setup: \(displayName("work"))")
        try s.ok("lists", "add", "Garden Shed")
        try s.add("Oil the hinges", "list:Garden Shed")
        let out = try Self.sync(s)
        #expect(out.contains("1 sent"), "\(out)")
        let slug = try #require(try FileManager.default.contentsOfDirectory(atPath: Self.davRoot(s) + "/vdir").first { $0.hasPrefix("garden") })
        #expect(displayName(slug).contains(">Garden Shed<"), "named at creation: \(displayName(slug))")
    }

    @Test("a failed setup writes no configuration and leaves the previous one; vdirsyncer's advice is said in tick's words")
    func failedSetupKeepsConfig() throws {
        let s = try Sandbox()
        let dead = try Syncthing.freePorts(1)[0]
        let conf = s.home + "/.config/tick/vdirsyncer.conf"
        let r = try s.tick("dav", "setup", "http://127.0.0.1:\(dead)/me/", "--user", "me", "--password-command", "echo x")
        #expect(r.status != 0, "\(r)")
        #expect(!FileManager.default.fileExists(atPath: conf), "no configuration after a failed setup")
        #expect(!r.stderr.contains("run vdirsyncer") && !r.stderr.contains("`vdirsyncer "), "\(r)")
        let server = try RadicaleServer(s)
        try s.ok("dav", "setup", server.url, "--user", "me", "--password-command", "echo x")
        let good = try String(contentsOfFile: conf, encoding: .utf8)
        let again = try s.tick("dav", "setup", "http://127.0.0.1:\(dead)/me/", "--user", "other", "--password-command", "echo x")
        #expect(again.status != 0)
        #expect(try String(contentsOfFile: conf, encoding: .utf8) == good, "the working configuration stays")
        #expect(try s.tick("dav", "sync").status == 0)
    }

    @Test("a dropped connection is tried again and the sync succeeds")
    func droppedConnectionRetried() throws {
        let (s, server) = try Self.setUp()
        let real = Syncthing.executable("vdirsyncer") ?? "vdirsyncer"
        let count = s.root + "/drops"
        // Drops the connection of the first sync run, then is vdirsyncer.
        let flaky = try s.script("flaky-vdirsyncer", """
            if [ "$3" = sync ] && [ ! -e \(count) ]; then
              touch \(count)
              echo "Syncing tick/inbox" >&2
              echo "error: Unknown error occurred for tick/inbox: Server disconnected" >&2
              echo "error: Use \\`-vdebug\\` to see the full traceback." >&2
              exit 1
            fi
            exec \(real) "$@"
            """)
        try "[dav]\nvdirsyncer = \"\(flaky)\"\n".write(toFile: s.home + "/.config/tick/config.toml", atomically: true, encoding: .utf8)
        try s.add("Through a flaky line")
        let out = try Self.sync(s)
        #expect(FileManager.default.fileExists(atPath: count), "the connection dropped once")
        #expect(out.contains("1 sent"), "\(out)")
        #expect(server.item("inbox", containing: "Through a flaky line") != nil)
    }

    /// A stand-in vdirsyncer that records its pid and waits for `release`.
    static func slowVdirsyncer(_ s: Sandbox) throws -> (path: String, pids: String, release: String) {
        let real = Syncthing.executable("vdirsyncer") ?? "vdirsyncer"
        let pids = s.root + "/pids"
        let release = s.root + "/release"
        let path = try s.script("slow-vdirsyncer", """
            if [ "$3" = sync ] && [ ! -e \(release) ]; then
              echo $$ >> \(pids)
              while [ ! -e \(release) ]; do sleep 0.1; done
            fi
            exec \(real) "$@"
            """)
        return (path, pids, release)
    }

    static func alive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        // "pid (comm) S ...": a zombie has exited.
        guard let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
    }

    @Test("killing tick dav sync (even with SIGKILL) stops its vdirsyncer; the next sync works")
    func killedSyncTakesVdirsyncerWithIt() throws {
        let (s, server) = try Self.setUp()
        let slow = try Self.slowVdirsyncer(s)
        try "[dav]\nvdirsyncer = \"\(slow.path)\"\n".write(toFile: s.home + "/.config/tick/config.toml", atomically: true, encoding: .utf8)
        try s.add("Sent after the kill")
        let running = try s.start(TickBinary.path, ["dav", "sync"])
        var pid: Int32 = 0
        #expect(eventually(timeout: 60) {
            pid = Int32((try? String(contentsOfFile: slow.pids, encoding: .utf8))?.split(separator: "\n").first.map(String.init) ?? "") ?? 0
            return pid > 0
        }, "vdirsyncer started")
        kill(running.process.processIdentifier, SIGKILL)
        _ = try running.wait(expectedSignal: SIGKILL)
        #expect(eventually(timeout: 30) { !Self.alive(pid) }, "vdirsyncer (pid \(pid)) died with tick")
        try Data().write(to: URL(fileURLWithPath: slow.release))
        let out = try Self.sync(s)
        #expect(out.contains("1 sent"), "\(out)")
        #expect(server.item("inbox", containing: "Sent after the kill") != nil)
    }

    @Test("a second tick dav sync while one runs says so, waits for it, and both succeed")
    func secondSyncWaits() throws {
        let (s, server) = try Self.setUp()
        let slow = try Self.slowVdirsyncer(s)
        try "[dav]\nvdirsyncer = \"\(slow.path)\"\n".write(toFile: s.home + "/.config/tick/config.toml", atomically: true, encoding: .utf8)
        try s.add("Both syncs")
        let first = try s.start(TickBinary.path, ["dav", "sync"])
        #expect(eventually(timeout: 60) { FileManager.default.fileExists(atPath: slow.pids) }, "the first sync is in vdirsyncer")
        let second = try s.start(TickBinary.path, ["dav", "sync"])
        #expect(eventually(timeout: 60) {
            String(decoding: FileManager.default.contents(atPath: second.errPath) ?? Data(), as: UTF8.self).contains("waiting")
        }, "the second says it waits")
        #expect(second.process.isRunning, "and waits")
        try Data().write(to: URL(fileURLWithPath: slow.release))
        let a = try first.wait()
        let b = try second.wait()
        #expect(a.status == 0 && b.status == 0, "\(a)\n\(b)")
        #expect(server.items("inbox").count == 1)
    }

    @Test("tick watch sends a tick add at once (within the debounce, not the interval), three times")
    func watcherSendsAtOnce() throws {
        let (s, server) = try Self.setUp()
        // Default debounce; an interval no test waits for.
        try "[dav]\ninterval = \"1h\"\n".write(toFile: s.home + "/.config/tick/config.toml", atomically: true, encoding: .utf8)
        let w = try s.startWatcher(["--no-reminders"])
        defer { _ = w.stop() }
        #expect(w.waitForMessage(timeout: 60, where: { $0.hasPrefix("CalDAV: ") }) != nil, "\(w.log)")
        for n in 1...3 {
            try s.add("Watched \(n)")
            // Waits on the event; the ceiling is generous (the interval is an hour).
            #expect(eventually(timeout: 120) { server.item("inbox", containing: "Watched \(n)") != nil }, "\(w.log)")
        }
        // An edit goes out too.
        let id = try s.uuidPrefix("Watched 1")
        try s.ok("edit", id, "--title", "Watched one")
        #expect(eventually(timeout: 120) { server.item("inbox", containing: "Watched one") != nil }, "\(w.log)")
    }
}
