import Foundation
import Testing

/// `tick add`: tokens, flags, WHEN expressions, stdin, the canonical file it writes, bad input.
@Suite("tick add")
struct AddTests {
    // Now is Saturday 2026-11-21 10:00 in Berlin (09:00Z); Berlin is UTC+1 in November.
    @Test("WHEN expressions are stored as dates or UTC timestamps", arguments: [
        ("today", "2026-11-21"),
        ("tomorrow", "2026-11-22"),
        ("yesterday", "2026-11-20"),
        ("mon", "2026-11-23"),
        ("sat", "2026-11-28"),          // strictly after today (a Saturday)
        ("sun", "2026-11-22"),
        ("next-week", "2026-11-23"),
        ("in 3d", "2026-11-24"),
        ("3d", "2026-11-24"),
        ("2w", "2026-12-05"),
        ("1mo", "2026-12-21"),
        ("eom", "2026-11-30"),
        ("eow", "2026-11-22"),
        ("2026-11-24", "2026-11-24"),
        ("2026-11-24T17:00", "2026-11-24T16:00:00Z"),
        ("17:00", "2026-11-21T16:00:00Z"),
        ("5pm", "2026-11-21T16:00:00Z"),
        ("tomorrow@17:00", "2026-11-22T16:00:00Z"),
        ("fri@9am", "2026-11-27T08:00:00Z"),
        ("2027-03-28T12:00", "2027-03-28T10:00:00Z"),   // after the switch to summer time (UTC+2)
    ])
    func whenExpressions(when: String, stored: String) throws {
        let s = try Sandbox()
        let id = try s.add("Task", "due:\(when)")
        #expect(id == "1")
        let tasks = try s.tasks("inbox.json")
        #expect(tasks.count == 1)
        #expect(tasks.first?.string("due") == stored)
        // The flag form gives the same value.
        try s.ok("add", "Flag form", "--due", when)
        #expect(try s.tasks("inbox.json").task("Flag form")?.string("due") == stored)
    }

    @Test("WHEN is relative to the local day and DST-correct", arguments: [
        // (now, token, key, stored)
        ("2026-11-21T23:30:00Z", "due:today", "due", "2026-11-22"),              // already Sunday in Berlin
        ("2026-11-21T23:30:00Z", "due:17:00", "due", "2026-11-22T16:00:00Z"),
        ("2027-03-27T12:00:00Z", "due:tomorrow@17:00", "due", "2027-03-28T15:00:00Z"),  // across the switch to CEST
        ("2027-03-27T12:00:00Z", "remind:tomorrow", "remind", "2027-03-28T07:00:00Z"),
        ("2027-01-31T09:00:00Z", "due:1mo", "due", "2027-02-28"),                // clamped to the month's end
        ("2028-02-10T09:00:00Z", "due:eom", "due", "2028-02-29"),
        ("2026-11-27T09:00:00Z", "due:fri@9am", "due", "2026-12-04T08:00:00Z"), // a Friday: the next one
        ("2026-11-22T09:00:00Z", "due:eow", "due", "2026-11-22"),               // a Sunday
        ("2026-11-22T09:00:00Z", "due:next-week", "due", "2026-11-23"),
        ("2026-11-21T09:00:00Z", "due:12am", "due", "2026-11-20T23:00:00Z"),
        ("2026-11-21T09:00:00Z", "due:12pm", "due", "2026-11-21T11:00:00Z"),
        ("2026-11-21T09:00:00Z", "due:2026-11-24T17:00+05:00", "due", "2026-11-24T12:00:00Z"),
        ("2026-11-21T09:00:00Z", "sched:in 2w", "scheduled", "2026-12-05"),
    ])
    func whenInContext(now: String, token: String, key: String, stored: String) throws {
        let s = try Sandbox()
        try s.add("Task", token, now: now)
        #expect(try s.tasks("inbox.json").first?.string(key) == stored)
    }

    @Test("all tokens set their fields; the file is canonical")
    func allTokensCanonicalFile() throws {
        let s = try Sandbox()
        #expect(s.storeFiles().isEmpty, "the store must be empty before the first write")
        let out = try s.tick("add", "Buy", "milk", "due:tomorrow@17:00", "remind:mon", "sched:tue", "+errand", "+home",
                             "pri:must", "energy:low", "repeat:weekly", "--note", "line one\nline two")
        #expect(out.status == 0)
        #expect(out.stdout == "1\n")
        #expect(out.stderr == "")
        let file = try s.file("inbox.json")
        let fileID = try #require(file.string("id"))
        let task = try #require(try s.tasks("inbox.json").first)
        let taskID = try #require(task.string("id"))
        #expect(isLowercaseUUID(fileID))
        #expect(isLowercaseUUID(taskID))
        let expected = """
        {
          "version": 1,
          "id": "\(fileID)",
          "createdAt": "2026-11-21T09:00:00Z",
          "modifiedAt": "2026-11-21T09:00:00Z",
          "tasks": [
            {
              "id": "\(taskID)",
              "title": "Buy milk",
              "state": "open",
              "due": "2026-11-22T16:00:00Z",
              "scheduled": "2026-11-24",
              "remind": "2026-11-23T08:00:00Z",
              "repeat": "weekly",
              "priority": "must",
              "energy": "low",
              "tags": ["errand", "home"],
              "notes": "line one\\nline two",
              "createdAt": "2026-11-21T09:00:00Z",
              "modifiedAt": "2026-11-21T09:00:00Z"
            }
          ]
        }

        """
        #expect(try s.text("inbox.json") == expected)
        // Only store data in the store: no lock, no id table.
        #expect(s.storeFiles() == ["inbox.json"])
    }

    @Test("flags set the same fields as tokens, into the list given with --list")
    func flags() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        let id = try s.add("--due", "2026-11-24", "--remind", "tomorrow@7am", "--sched", "fri", "--list", "Work",
                           "--tag", "a", "--tag", "+b", "--pri", "flexible", "--energy", "high",
                           "--repeat", "every day", "--note", "n", "Write", "report")
        #expect(id == "1")
        #expect(!s.exists("inbox.json"))
        let task = try #require(try s.tasks("lists/work.json").first)
        #expect(task.string("title") == "Write report")
        #expect(task.string("due") == "2026-11-24")
        #expect(task.string("remind") == "2026-11-22T06:00:00Z")
        #expect(task.string("scheduled") == "2026-11-27")
        #expect(task.tagList == ["a", "b"])
        #expect(task.string("priority") == "flexible")
        #expect(task.string("energy") == "high")
        #expect(task.string("repeat") == "every day")
        #expect(task.string("notes") == "n")
        #expect(task.string("state") == "open")
        #expect(task.string("completedAt") == nil)
    }

    @Test("remind with a day only means 09:00 local time")
    func remindDayOnly() throws {
        let s = try Sandbox()
        try s.add("A", "remind:tomorrow")
        try s.add("B", "remind:2027-07-01")   // summer time: 09:00 CEST = 07:00Z
        let tasks = try s.tasks("inbox.json")
        #expect(tasks.task("A")?.string("remind") == "2026-11-22T08:00:00Z")
        #expect(tasks.task("B")?.string("remind") == "2027-07-01T07:00:00Z")
    }

    @Test("a backslash keeps a token-like word in the title; -- allows words starting with a dash")
    func literalTitleWords() throws {
        let s = try Sandbox()
        try s.add("Review", "\\due:", "dates", "\\+tag")
        try s.add("--", "-x", "is", "a", "title")
        let tasks = try s.tasks("inbox.json")
        #expect(tasks.titles == ["Review due: dates +tag", "-x is a title"])
        #expect(tasks.allSatisfy { $0["due"] == nil && $0["tags"] == nil })
    }

    @Test("words after -- are title text (the `tick add --help` example)")
    func doubleDashMakesTokensLiteral() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        let r = try s.tick("add", "--list", "Work", "--due", "2026-12-01", "--", "Review", "due:", "dates", "in", "report")
        #expect(r.status == 0)
        #expect(r.stderr == "")
        let task = try #require(try s.tasks("lists/work.json").first)
        #expect(task.string("title") == "Review due: dates in report")
        #expect(task.string("due") == "2026-12-01")
    }

    @Test("add - reads one task per line; blank and # lines are skipped; flags apply to every line")
    func addFromStdin() throws {
        let s = try Sandbox()
        let r = try s.tick("add", "-", "--pri", "must", "--tag", "bulk",
                           stdin: "One due:tomorrow\n\n# a comment\n  Two +t  \nThree\n")
        #expect(r.status == 0)
        #expect(r.stdout == "1\n2\n3\n")
        let tasks = try s.tasks("inbox.json")
        #expect(tasks.titles == ["One", "Two", "Three"])
        #expect(tasks.map { $0.string("priority") } == ["must", "must", "must"])
        #expect(tasks.map { $0.tagList ?? [] } == [["bulk"], ["bulk", "t"], ["bulk"]])
        #expect(tasks[0].string("due") == "2026-11-22")

        let empty = try s.tick("add", "-", stdin: "\n# nothing\n")
        #expect(empty.status == 2)
        #expect(empty.stderr == "tick: error: no tasks on stdin\n")
    }

    @Test("add - is all or nothing: one bad line adds nothing")
    func addFromStdinAllOrNothing() throws {
        let s = try Sandbox()
        try s.add("Existing")
        let before = try s.fingerprint()
        let r = try s.tick("add", "-", stdin: "Good one\nBad one due:someday\nAnother\n")
        #expect(r.status == 2)
        #expect(r.stdout == "")
        #expect(r.stderr.hasPrefix("tick: error: "))
        #expect(r.stderr.contains("\"someday\""))
        #expect(try s.fingerprint() == before)
    }

    @Test("add - with a list: token applies to every line (documented in `tick add --help`)")
    func addFromStdinWithListToken() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Reading")
        let r = try s.tick("add", "-", "list:Reading", stdin: "Dune\nHyperion\n")
        #expect(r.status == 0)
        #expect(r.stdout == "1\n2\n")
        #expect(try s.tasks("lists/reading.json").titles == ["Dune", "Hyperion"])
        #expect(!s.exists("inbox.json"))
    }

    @Test("--json prints the new task with shortId, list and file")
    func addJSON() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        let r = try s.tick("add", "--json", "Plan", "list:work", "+q1")
        #expect(r.status == 0)
        let array = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [[String: Any]])
        #expect(array.count == 1)
        let t = try #require(array.first)
        #expect(t.int("shortId") == 1)
        #expect(t.string("title") == "Plan")
        #expect(t.string("list") == "Work")
        #expect(t.string("file") == "lists/work.json")
        #expect(t.tagList == ["q1"])
        #expect(t.string("id") == (try s.tasks("lists/work.json").first?.string("id")))
    }

    // MARK: Bad input

    @Test("an unknown date word is a usage error naming the word")
    func badDateWord() throws {
        let s = try Sandbox()
        let r = try s.tick("add", "Thing", "due:someday")
        #expect(r.status == 2)
        #expect(r.stdout == "")
        #expect(r.stderr.hasPrefix("tick: error: due: unrecognized date word \"someday\""))
        #expect(s.storeFiles().isEmpty, "a failed add must write nothing")

        let flag = try s.tick("add", "Thing", "--remind", "blursday@9am")
        #expect(flag.status == 2)
        #expect(flag.stderr.contains("\"blursday\""))
    }

    @Test("impossible dates and times are usage errors", arguments: [
        ("due:2026-02-30", "invalid date \"2026-02-30\""),
        ("due:25:00", "invalid time \"25:00\""),
        ("due:13pm", "invalid time \"13pm\""),
        ("sched:17:00", "a time is not allowed here"),
        ("sched:tomorrow@9am", "a time is not allowed here"),
        ("due:", "due: needs a value"),
    ])
    func badDates(token: String, message: String) throws {
        let s = try Sandbox()
        let r = try s.tick("add", "Thing", token)
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("tick: error: "))
        #expect(r.stderr.contains(message))
        #expect(!s.exists("inbox.json"))
    }

    @Test("bad field values are usage errors", arguments: [
        (["pri:urgent"], "tick: error: pri: \"urgent\" is not one of must, flexible; if \"pri:urgent\" is title text, put it after `--` or write \\pri:urgent\n"),
        (["--pri", "urgent"], "tick: error: --pri: \"urgent\" is not one of must, flexible\n"),
        (["energy:medium"], "tick: error: energy: \"medium\" is not one of high, low, any; if \"energy:medium\" is title text, put it after `--` or write \\energy:medium\n"),
        (["+bad,tag"], "tick: error: bad tag \"+bad,tag\": a tag must not contain spaces or commas (found \"bad,tag\"); if \"+bad,tag\" is title text, put it after `--` or write \\+bad,tag\n"),
    ])
    func badValues(extra: [String], stderr: String) throws {
        let s = try Sandbox()
        let r = try s.tick(["add", "Thing"] + extra)
        #expect(r.status == 2)
        #expect(r.stderr == stderr)
        #expect(r.stdout == "")
        #expect(!s.exists("inbox.json"))
    }

    @Test("an empty title is a usage error")
    func emptyTitle() throws {
        let s = try Sandbox()
        for args in [["add"], ["add", "due:today", "+x"]] {
            let r = try s.tick(args)
            #expect(r.status == 2, "\(args)")
            #expect(r.stderr == "tick: error: a task needs a title; e.g. tick add Buy milk due:tomorrow +errand\n")
        }
        #expect(s.storeFiles().isEmpty)
    }

    @Test("adding to a missing list makes it (said once, one undo); a name one letter from a list's is refused and writes nothing")
    func missingList() throws {
        let s = try Sandbox()
        let r = try s.tick("add", "Thing", "list:Nope")
        #expect(r.status == 0 && r.stdout == "1\n" && r.stderr == "Created list Nope\n", "\(r)")
        #expect(s.storeFiles() == ["inbox.json", "lists/nope.json"] || s.storeFiles() == ["lists/nope.json"], "\(s.storeFiles())")
        let two = try s.tick("add", "--list", "Later", "Other", stdin: nil)
        #expect(two.status == 0 && two.stderr == "Created list Later\n", "\(two)")
        let before = try s.fingerprint()
        let r2 = try s.tick("add", "Thing", "--list", "Nop")
        #expect(r2.status == 3)
        #expect(r2.stderr == "tick: error: no list named \"Nop\" (did you mean \"Nope\"?); a new list of that name is made with `tick lists add Nop`\n")
        #expect(try s.fingerprint() == before)
        try s.ok("undo")
        #expect(!s.storeFiles().contains("lists/later.json"), "one undo takes back the task and the list it made")
    }

    @Test("a list can be named by its name in any case or by its slug")
    func listReferences() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Café Ideas")
        try s.add("A", "list:café ideas")
        try s.add("B", "list:CAFÉ IDEAS")
        try s.add("C", "list:café-ideas")
        try s.add("D", "list:inbox")
        #expect(try s.tasks("lists/café-ideas.json").titles == ["A", "B", "C"])
        #expect(try s.tasks("inbox.json").titles == ["D"])
    }
}
