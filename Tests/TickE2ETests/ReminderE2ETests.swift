import Foundation
import Testing

/// `tick watch` fires reminders through a fake `notify-send` on PATH
/// (``FakePrograms``) that records its argv and answers with an action. The watcher's clock starts at the pinned 09:00:00Z (10:00 in
/// Berlin) and runs, so a reminder at 09:00:03Z fires three seconds in.
@Suite struct ReminderE2ETests {
    /// A sandbox with the fake notifier installed.
    final class World {
        let s: Sandbox
        let fakes: FakePrograms
        init() throws {
            s = try Sandbox()
            fakes = try FakePrograms(in: s)
            try fakes.install("notify-send")
        }

        var env: [String: String?] {
            ["PATH": fakes.path(), "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/tick-test-bus"]
        }

        func answer(_ action: String) throws { try fakes.answer("notify-send", action) }

        /// Every notification shown so far: its argv (without the program name), oldest first.
        var shown: [[String]] { fakes.argv("notify-send") }

        /// The summaries (titles) of the notifications shown so far.
        var summaries: [String] { shown.map { argv in argv.firstIndex(of: "--").map { argv[$0 + 1] } ?? "?" } }

        func watch(_ args: [String] = []) throws -> Watcher { try s.startWatcher(args, env: env) }

        func inboxTask(_ title: String) throws -> [String: Any]? { try s.tasks("inbox.json").task(title) }
    }

    @Test func firesOnTimeWithTitleDueAndActions_andNeverForDoneOrDeletedTasks() throws {
        let w = try World()
        // Snoozed at the click: the new remind is the watcher's clock at the
        // answer plus 10 minutes, so it tells when (on that clock) each fired.
        try w.answer("snooze")
        try w.s.ok("add", "Pay rent", "due:today", "remind:10:00:03")
        let done = try w.s.add("Already paid", "remind:10:00:02")
        try w.s.ok("done", done)
        let deleted = try w.s.add("Cancelled", "remind:10:00:02")
        try w.s.ok("rm", deleted)
        // Due after the others: once it has fired, they would have fired too.
        try w.s.ok("add", "Later one", "remind:10:00:05")
        let watcher = try w.watch()
        defer { watcher.stop() }
        #expect(eventually(timeout: 60) { (try? w.inboxTask("Later one"))?.string("remind") != "2026-11-21T09:00:05Z" })
        let argv = try #require(w.shown.first)
        #expect(Array(argv.prefix(6)) == ["--app-name=tick", "--wait", "--action=done=Mark done",
                                          "--action=snooze=Snooze", "--action=tomorrow=Tomorrow", "--"])
        #expect(argv[6] == "Pay rent")
        #expect(argv[7] == "Due today · Inbox")
        // Nothing else fired, and nothing twice.
        #expect(w.summaries == ["Pay rent", "Later one"])
        // On time by the watcher's clock (TICK_NOW, running): not before it
        // (snoozed from 09:00:03 or later), and not late (within a minute).
        let rent = try #require(try w.inboxTask("Pay rent"))
        #expect((rent.string("remind") ?? "") >= "2026-11-21T09:10:03Z", "\(rent)")
        let id8 = String((rent.string("id") ?? "").prefix(8))
        #expect(watcher.waitFor("reminder \(id8): snooze") != nil, "\(watcher.log)")
        #expect(watcher.messages.contains("reminder \(id8) fired"), "fired, not late: \(watcher.log)")
        #expect(!watcher.log.contains("Pay rent"), "the log never carries titles")
    }

    @Test func markDoneCompletesTheTaskInTheFile() throws {
        let w = try World()
        try w.answer("done")
        try w.s.ok("add", "Water plants", "remind:10:00:01")
        let watcher = try w.watch()
        defer { watcher.stop() }
        #expect(eventually(timeout: 10) { (try? w.inboxTask("Water plants"))?.string("state") == "done" })
        let task = try #require(try w.inboxTask("Water plants"))
        #expect(task.string("completedAt")?.hasPrefix("2026-11-21T09:00:0") == true)
        #expect(w.shown.count == 1)
    }

    @Test func markDoneOnARecurringTaskCreatesTheNextOccurrence() throws {
        let w = try World()
        try w.answer("done")
        try w.s.ok("add", "Weekly review", "due:today", "repeat:weekly", "remind:10:00:01")
        let watcher = try w.watch()
        defer { watcher.stop() }
        #expect(eventually(timeout: 10) { ((try? w.s.tasks("inbox.json")) ?? []).count == 2 })
        let tasks = try w.s.tasks("inbox.json")
        #expect(tasks.map { $0.string("state") } == ["done", "open"])
        #expect(tasks[1].string("due") == "2026-11-28")
        #expect(tasks[1].string("remind") == "2026-11-28T09:00:01Z")
        #expect(tasks[1].string("title") == "Weekly review")
    }

    @Test("a notification's Mark done is an undo entry of its own: tick undo reopens the task and takes its next occurrence back")
    func markDoneFromANotificationIsUndone() throws {
        let w = try World()
        try w.answer("done")
        try w.s.ok("add", "Weekly review", "due:today", "repeat:weekly", "remind:10:00:01")
        let watcher = try w.watch()
        #expect(eventually(timeout: 10) { ((try? w.s.tasks("inbox.json")) ?? []).count == 2 })
        watcher.stop()
        let listed = try w.s.ok("undo", "--list")
        #expect(listed.contains("reminder done"), "\(listed)")
        let undone = try w.s.tick("undo")
        #expect(undone.status == 0 && undone.stdout.contains("reminder done"), "\(undone)")
        let tasks = try w.s.tasks("inbox.json")
        #expect(tasks.count == 1 && tasks.first?.string("state") == "open" && tasks.first?.string("due") == "2026-11-21", "\(tasks)")
    }

    @Test func snoozeMovesRemindTenMinutesFromTheClick() throws {
        let w = try World()
        try w.answer("snooze")
        try w.s.ok("add", "Call Ann", "remind:10:00:01")
        let watcher = try w.watch()
        defer { watcher.stop() }
        #expect(eventually(timeout: 10) { (try? w.inboxTask("Call Ann"))?.string("remind") != "2026-11-21T09:00:01Z" })
        let remind = try #require(try w.inboxTask("Call Ann")?.string("remind"))
        // Snoozed at about 09:00:01Z (+ the run time): 10 minutes later.
        #expect(remind >= "2026-11-21T09:10:01Z" && remind <= "2026-11-21T09:10:09Z", "\(remind)")
        #expect(w.shown.count == 1)
    }

    @Test func snoozeLengthComesFromConfig() throws {
        let w = try World()
        try w.answer("snooze")
        try FileManager.default.createDirectory(atPath: w.s.home + "/.config/tick", withIntermediateDirectories: true)
        try Data("[reminders]\nsnooze = \"1h\"\n".utf8).write(to: URL(fileURLWithPath: w.s.home + "/.config/tick/config.toml"))
        try w.s.ok("add", "Stretch", "remind:10:00:01")
        let watcher = try w.watch()
        defer { watcher.stop() }
        #expect(eventually(timeout: 10) { (try? w.inboxTask("Stretch"))?.string("remind")?.hasPrefix("2026-11-21T10:00:0") == true })
    }

    @Test func tomorrowMovesDueAndRemindKeepingTheTime() throws {
        let w = try World()
        try w.answer("tomorrow")
        try w.s.ok("add", "Report", "due:today@17:00", "remind:10:00:01")
        let watcher = try w.watch()
        defer { watcher.stop() }
        #expect(eventually(timeout: 10) { (try? w.inboxTask("Report"))?.string("remind") == "2026-11-22T09:00:01Z" })
        #expect(try w.inboxTask("Report")?.string("due") == "2026-11-22T16:00:00Z")
    }

    @Test func aHandEditOfRemindReschedulesAtOnce() throws {
        let w = try World()
        try w.s.ok("add", "Dentist", "remind:18:00")
        let watcher = try w.watch()
        defer { watcher.stop() }
        // Started, and its first look at the store done: nothing is due before 18:00.
        #expect(watcher.waitFor("watch established") != nil, "\(watcher.log)")
        #expect(w.shown.isEmpty)
        // Like an editor or a git pull: rewrite the file with an earlier remind.
        let text = try w.s.text("inbox.json").replacingOccurrences(of: "\"remind\": \"2026-11-21T17:00:00Z\"",
                                                                     with: "\"remind\": \"2026-11-21T09:00:03Z\"")
        #expect(text.contains("09:00:03Z"))
        try w.s.write("inbox.json", text)
        #expect(eventually(timeout: 10) { w.summaries == ["Dentist"] })
    }

    @Test func missedRemindersFireOnceAfterARestartMarkedLate_oldOnesDoNot() throws {
        let w = try World()
        try w.s.ok("add", "Missed this morning", "remind:08:30")
        try w.s.ok("add", "Missed last week", "remind:2026-11-14@08:30")
        let first = try w.watch()
        #expect(eventually(timeout: 10) { w.shown.count == 1 })
        #expect(w.summaries == ["Late: Missed this morning"])
        #expect(w.shown.first?.last?.contains("reminder was for today 08:30") == true)
        first.stop()
        let second = try w.watch()
        defer { second.stop() }
        second.waitUntilQuiet(1, timeout: 4)
        #expect(w.summaries == ["Late: Missed this morning"], "a restart must not fire it again")
        // The record lives outside the store.
        #expect(FileManager.default.fileExists(atPath: w.s.stateHome + "/tick/" + w.s.storeKey + "/reminders.json"))
        #expect(!w.s.storeFiles().contains { $0.contains("remind") })
    }

    @Test func titlesReachTheNotifierAsOneArgumentAndRunNothing() throws {
        let w = try World()
        let title = "\"; touch pwned; echo $(touch pwned2) `touch pwned3`"
        try w.s.ok("add", "--", title, stdin: nil)
        let id = try w.s.uuidPrefix(title)
        try w.s.ok("edit", id, "remind:10:00:01")
        let watcher = try w.watch()
        defer { watcher.stop() }
        #expect(eventually(timeout: 10) { w.shown.count == 1 })
        #expect(w.summaries == [title])
        for dir in [w.s.root, w.s.store, w.s.home, FileManager.default.currentDirectoryPath] {
            for name in ["pwned", "pwned2", "pwned3"] {
                #expect(!FileManager.default.fileExists(atPath: dir + "/" + name))
            }
        }
    }

    @Test func withoutANotifierTheReminderIsALineOnStderrWithABell() throws {
        let w = try World()
        try FileManager.default.createDirectory(atPath: w.s.home + "/.config/tick", withIntermediateDirectories: true)
        try Data("[reminders]\ncommand = [\"no-such-notifier-for-tick\", \"{summary}\"]\n".utf8)
            .write(to: URL(fileURLWithPath: w.s.home + "/.config/tick/config.toml"))
        try w.s.ok("add", "Take out bins", "due:today", "remind:10:00:01")
        let watcher = try w.watch()
        defer { watcher.stop() }
        let line = watcher.waitForMessage(timeout: 10) { $0.hasPrefix("reminder for task") }
        // stderr is a pipe here (a log, as under systemd): the task's id, never its title.
        let id = try w.s.uuidPrefix("Take out bins")
        #expect(line?.hasPrefix("reminder for task \(id) [no notification:") == true, "\(line ?? "none")")
        #expect(line?.contains("Take out bins") == false)
        #expect(line?.hasSuffix("\u{07}") == true)
    }

    @Test func withoutASessionBusNotifySendIsNotStartedAndTheFallbackShows() throws {
        let w = try World()
        try w.s.ok("add", "Headless", "remind:10:00:01")
        let watcher = try w.s.startWatcher(env: w.env.merging(["DBUS_SESSION_BUS_ADDRESS": nil, "XDG_RUNTIME_DIR": nil]) { $1 })
        defer { watcher.stop() }
        let line = watcher.waitForMessage(timeout: 10) { $0.hasPrefix("reminder for task") }
        #expect(line?.contains("for task \(try w.s.uuidPrefix("Headless"))") == true)
        #expect(line?.contains("no D-Bus session bus") == true)
        #expect(w.shown.isEmpty, "notify-send --wait would hang without a bus; it must not be started")
    }

    @Test func statusShowsTheNextReminderAndThatItNeedsAWatcher() throws {
        let w = try World()
        try w.s.ok("add", "Later", "remind:18:00")
        try w.s.ok("add", "Sooner", "remind:12:30")
        let done = try w.s.add("Done already", "remind:11:00")
        try w.s.ok("done", done)
        let text = try w.s.ok("status")
        #expect(text.contains("reminders next today 12:30 (fires only while `tick watch` runs)"))
        #expect(try w.s.statusJSON()["nextReminder"] as? String == "2026-11-21T11:30:00Z")
    }

    @Test func aBrokenConfigStopsTheWatcherWithFileLineAndColumn() throws {
        let w = try World()
        try FileManager.default.createDirectory(atPath: w.s.home + "/.config/tick", withIntermediateDirectories: true)
        try Data("[reminders]\nsnooze = \"10m\nfallback = true\n".utf8)
            .write(to: URL(fileURLWithPath: w.s.home + "/.config/tick/config.toml"))
        let r = try w.s.tick(["watch"], env: w.env)
        #expect(r.status == 4)
        #expect(r.stderr.contains(w.s.home + "/.config/tick/config.toml:2:"), "\(r.stderr)")
        #expect(r.stderr.contains("^"))
    }
}
