import ArgumentParser
import Foundation
import Testing
import TickKit
@testable import tick

/// Issue 35, "the habits users bring", on the built binary: a context applies
/// to what you add; reminders say what they need (one-time hints, missed
/// reminders); an empty `tick` says what to do first.
@Suite struct FirstDayTests {
    /// Hints on (the harness turns them off for every other suite).
    let hintsOn: [String: String?] = ["TICK_HINTS": nil]

    func stderrLines(_ r: RunResult) -> [String] {
        r.stderr.split(separator: "\n").map(String.init)
    }

    // MARK: 1. Contexts apply to what you add

    @Test("tick add under +work gets +work and stays visible; no warning")
    func tagContextIsWritten() throws {
        let s = try Sandbox()
        try s.ok("context", "define", "work", "+work")
        try s.ok("context", "work")
        let r = try s.tick("add", "Write", "report")
        #expect(r.status == 0 && r.stdout == "1\n", "\(r)")
        #expect(r.stderr == "", "\(r)")
        #expect(try s.showJSON("1")["tags"] as? [String] == ["work"])
        #expect(try s.ok("list").contains("Write report"))
        #expect(try s.ok("today", now: nil).contains("context work is active"))
    }

    @Test("list:Work sends the task to Work; a typed list: wins and is said to be outside")
    func listContextIsWrittenAndTypedListWins() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.ok("lists", "add", "Home")
        try s.ok("context", "define", "office", "list:Work")
        try s.ok("context", "office")
        let r = try s.tick("add", "Plan", "Q1")
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        #expect(try s.tasks("lists/work.json").map { $0.string("title") } == ["Plan Q1"])
        let home = try s.tick("add", "Fix", "tap", "list:Home")
        #expect(home.status == 0, "\(home)")
        #expect(try s.tasks("lists/home.json").map { $0.string("title") } == ["Fix tap"])
        #expect(stderrLines(home).count == 1, "\(home)")
        #expect(home.stderr.contains("2 is outside the active context office (list:Work)"), "\(home)")
        #expect(home.stderr.contains("tick show 2") && home.stderr.contains("tick context none"), "\(home)")
    }

    @Test("a context with `or` adds as typed and says, in one line, the task is outside it")
    func unwritableContextWarns() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.ok("context", "define", "either", "+work or list:Work")
        try s.ok("context", "either")
        let plain = try s.tick("add", "Plain", "thing")
        #expect(plain.status == 0 && plain.stdout == "1\n", "\(plain)")
        #expect(try s.tasks("inbox.json").map { $0.string("title") } == ["Plain thing"])
        #expect(stderrLines(plain).count == 1, "\(plain)")
        #expect(plain.stderr.hasPrefix("tick: warning: 1 is outside the active context either (+work or list:Work)"), "\(plain)")
        // A task the filter matches as typed: nothing to say.
        let tagged = try s.tick("add", "Tagged", "+work")
        #expect(tagged.status == 0 && tagged.stderr == "", "\(tagged)")
        // --json keeps stdout clean; the warning still goes to stderr.
        let json = try s.tick("add", "Other", "--json")
        #expect(json.status == 0 && json.stdout.hasPrefix("["), "\(json)")
        #expect(json.stderr.contains("outside the active context"), "\(json)")
    }

    @Test("tick capture and tick ui's add line take the context too (one rule)")
    func captureAndUIUnderContext() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.ok("context", "define", "office", "list:Work +work")
        try s.ok("context", "office")
        let captured = try s.tick(["capture", "--prompt", "tty", "--no-notify"], stdin: "Plan Q1\n")
        #expect(captured.status == 0, "\(captured)")
        #expect(try s.tasks("lists/work.json").task("Plan Q1")?["tags"] as? [String] == ["work"])

        // tick ui's writer, in process, as `tick ui` builds it: Today adds to the context's list.
        let process = try ProcessEnvironment(variables: s.environment(), currentDirectory: s.root, realNow: Date())
        let writer = UIWriter(base: try Context(try GlobalOptions.parse([]), process: process))
        let added = try #require(writer.perform(.add(text: "Review budget", view: .today), suspend: {}, resume: {}))
        #expect(added.succeeded && added.message.contains("to Work: Review budget"), "\(added.message)")
        #expect(try s.tasks("lists/work.json").task("Review budget")?["tags"] as? [String] == ["work"])
        // An add the context does not match says so on the status line.
        let inbox = try #require(writer.perform(.add(text: "Elsewhere list:inbox", view: .today), suspend: {}, resume: {}))
        #expect(inbox.succeeded && inbox.message.contains("outside the active context office"), "\(inbox.message)")
    }

    // MARK: 2. Reminders say what they need

    @Test("the first reminder without a watcher names tick watch, once; the first task names tick ui and the status line")
    func hintsOncePerStore() throws {
        let s = try Sandbox()
        let first = try s.tick(["add", "Call", "the", "bank", "remind:tomorrow@9am"], env: hintsOn)
        #expect(first.status == 0 && first.stdout == "1\n", "\(first)")
        let lines = stderrLines(first)
        #expect(lines.count == 2, "\(first)")
        #expect(lines.first?.hasPrefix("hint: reminders pop up only while tick's watcher runs") == true, "\(first)")
        #expect(lines.first?.contains("start it with: tick watch") == true, "\(first)")
        #expect(lines.last?.hasPrefix("hint: ") == true && lines.last?.contains("tick ui") == true, "\(first)")
        #expect(lines.last?.contains("status-line") == true, "\(first)")
        // Once per store.
        let second = try s.tick(["add", "Pay", "rent", "remind:mon"], env: hintsOn)
        #expect(second.status == 0 && second.stderr == "", "\(second)")
    }

    @Test("the first reminder set by tick edit, on one task or by filter, names the watcher too, once")
    func editsEarnTheReminderHint() throws {
        let s = try Sandbox()
        let added = try s.tick(["add", "Call", "the", "bank"], env: hintsOn)
        #expect(!added.stderr.contains("reminders pop up"), "no reminder yet: \(added)")
        let edited = try s.tick(["edit", "1", "remind:tomorrow@9am"], env: hintsOn)
        #expect(edited.status == 0, "\(edited)")
        #expect(stderrLines(edited).filter { $0.hasPrefix("hint: reminders pop up only while tick's watcher runs") }.count == 1, "\(edited)")
        let again = try s.tick(["edit", "1", "due:fri@17:00"], env: hintsOn)
        #expect(again.status == 0 && again.stderr == "", "once per store: \(again)")
        // A second store: an edit by filter earns it there.
        let t = try Sandbox()
        try t.add("Pay rent")
        let bulk = try t.tick(["edit", "--yes", "Pay", "--", "due:mon@9:00"], env: hintsOn)
        #expect(bulk.status == 0 && bulk.stderr.contains("hint: reminders pop up only while tick's watcher runs"), "\(bulk)")
    }

    @Test("with the systemd unit installed, the hint is systemctl --user enable --now tick-watch")
    func hintNamesTheUnit() throws {
        let s = try Sandbox()
        let units = s.home + "/.config/systemd/user"
        try FileManager.default.createDirectory(atPath: units, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: units + "/tick-watch.service", contents: Data("[Unit]\n".utf8))
        let r = try s.tick(["add", "Stand-up", "due:tomorrow@9:30"], env: hintsOn)
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr.contains("start it with: systemctl --user enable --now tick-watch\n"), "\(r)")
    }

    @Test("no hints with --json (and they are not used up), nor with hints = false")
    func hintsOff() throws {
        let s = try Sandbox()
        let json = try s.tick(["add", "A", "remind:mon", "--json"], env: hintsOn)
        #expect(json.status == 0 && json.stderr == "", "\(json)")
        let plain = try s.tick(["add", "B", "remind:mon"], env: hintsOn)
        #expect(stderrLines(plain).count == 2, "\(plain)")

        let quiet = try Sandbox()
        let config = quiet.home + "/.config/tick"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try "hints = false\n".write(toFile: config + "/config.toml", atomically: true, encoding: .utf8)
        let r = try quiet.tick(["add", "C", "remind:mon"], env: hintsOn)
        #expect(r.status == 0 && r.stderr == "", "\(r)")
    }

    @Test("a reminder no watcher fired shows as missed in today and status until the task changes")
    func missedReminders() throws {
        let s = try Sandbox()
        try s.add("Call the bank", "remind:tomorrow@9am")
        try s.add("Unrelated")
        let later = "2026-11-24T09:00:00Z"
        let today = try s.tick(["today"], now: later)
        #expect(today.status == 0, "\(today)")
        #expect(today.stdout.contains("Missed reminders (no watcher is running: tick watch shows reminders as they come):"), "\(today)")
        let block = today.stdout.components(separatedBy: "Missed reminders").last ?? ""
        #expect(block.contains("1 [ ] Call the bank") && !block.contains("Unrelated"), "\(today)")
        let status = try s.tick(["status"], now: later)
        #expect(status.stdout.contains("missed    1 reminder(s) no watcher showed: 1"), "\(status)")
        let statusJSON = try s.tick(["status", "--json"], now: later)
        let object = try #require(try JSONSerialization.jsonObject(with: statusJSON.stdoutData) as? [String: Any])
        #expect((object["missedReminders"] as? [String])?.count == 1)
        // --json listings stay clean.
        let json = try s.tick(["today", "--json"], now: later)
        #expect(!json.stdout.contains("Missed"), "\(json)")
        // Before its time it is not missed.
        #expect(!(try s.ok("today")).contains("Missed"))
        // Once the task changes, it is no longer missed.
        try s.ok("start", "1", now: later)
        #expect(!(try s.ok("today", now: later)).contains("Missed"))
        #expect(!(try s.ok("status", now: later)).contains("missed"))
    }

    // MARK: 3. An empty tick says what to do

    @Test("tick on an empty store suggests tick add with an example; with tasks it counts them")
    func emptyTick() throws {
        let s = try Sandbox()
        let r = try s.tick([])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "Nothing due today: no tasks yet. Add one with: tick add Call the bank due:fri remind:9am\n", "\(r)")
        try s.add("Someday", "+later")
        #expect(try s.ok() == "Nothing due today. 1 open task: tick list\n")
    }

    @Test("under a context that hides everything, tick names the context and how to leave it, not tick add")
    func emptyTickUnderContext() throws {
        let s = try Sandbox()
        try s.add("Home thing")
        try s.ok("context", "define", "work", "+work")
        try s.ok("context", "work")
        let out = try s.ok()
        #expect(!out.contains("tick add"), "\(out)")
        #expect(out.contains("Nothing due today in context work."), "\(out)")
        #expect(out.contains("tick context none shows everything"), "\(out)")
    }
}
