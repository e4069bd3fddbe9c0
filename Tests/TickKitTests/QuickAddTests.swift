import Foundation
import Testing
@testable import TickKit

@Suite struct QuickAddTests {
    let berlin = Zone(named: "Europe/Berlin")!
    let now = Timestamp.parse("2026-11-21T09:00:00Z")!  // Saturday
    var parser: QuickAddParser { QuickAddParser(fields: FieldParser(now: now, timeZone: berlin)) }

    @Test func tokensBecomeFieldsAndTheRestIsTheTitle() throws {
        let (title, edit) = try parser.parse(["Call", "bank", "due:tomorrow@17:00", "+phone", "pri:m", "energy:low", "list:Work", "sched:mon", "remind:fri", "repeat:weekly"])
        #expect(title == "Call bank")
        #expect(edit[\.due] == .set(.time(Timestamp.parse("2026-11-22T16:00:00Z")!)))
        #expect(edit[\.scheduled] == .set(LocalDate(iso: "2026-11-23")!))
        #expect(edit[\.remind] == .set(Timestamp.parse("2026-11-27T08:00:00Z")!))
        #expect(edit[\.priority] == .set(.must))
        #expect(edit[\.energy] == .set(.low))
        #expect(edit.addTags == ["phone"])
        #expect(edit.list == "Work")
        #expect(edit[\.repeatRule] == .set("weekly"))
    }

    @Test func unknownKeysAndEscapedTokensStayInTheTitle() throws {
        let (title, edit) = try parser.parse(["Note:", "read", "http://x.org", "\\due:soon", "ratio", "3:1"])
        #expect(title == "Note: read http://x.org due:soon ratio 3:1")
        #expect(edit.isEmpty)
    }

    @Test func removalFormsOnlyInEdit() throws {
        let (_, edit) = try parser.parse(["due:", "-home", "pri:"], allowRemoval: true)
        #expect(edit[\.due] == .clear)
        #expect(edit[\.priority] == .clear)
        #expect(edit.removeTags == ["home"])
        #expect(throws: InputError.self) { try parser.parse(["x", "due:"]) }
    }

    @Test func badValuesAreUsageErrorsNamingTheWord() throws {
        #expect(throws: InputError.inToken(word: "pri:urgent", .badValue(key: "pri", value: "urgent", allowed: ["must", "flexible"]))) {
            try parser.parse(["x", "pri:urgent"])
        }
        do {
            _ = try parser.parse(["x", "due:frday"])
            Issue.record("expected an error")
        } catch {
            #expect(error.errorDescription?.contains("\"frday\"") == true)
        }
        #expect(throws: InputError.inToken(word: "sched:fri@9am", .badDate(key: "sched", .timeNotAllowed("fri@9am")))) { try parser.parse(["x", "sched:fri@9am"]) }
        #expect(throws: InputError.self) { try parser.parse(["x", "+bad,tag"]) }
    }

    @Test func editBumpsModifiedAtOnlyWhenSomethingChanges() {
        var task = TaskItem(id: UUID(), title: "x", tags: ["a"], createdAt: now, modifiedAt: now)
        let later = now.addingTimeInterval(60)
        var edit = TaskEdit()
        edit.addTags = ["a"]
        #expect(!edit.apply(to: &task, now: later))
        #expect(task.modifiedAt == now)
        edit.removeTags = ["a"]
        edit.addTags = []
        #expect(edit.apply(to: &task, now: later))
        #expect(task.tags.isEmpty)
        #expect(task.modifiedAt == later)
    }
}

/// Issue 13: literal titles, multi-word WHEN values, `due: fri`, and the repeat `m`.
@Suite struct QuickAddGrammarTests {
    let berlin = Zone(named: "Europe/Berlin")!
    let now = Timestamp.parse("2026-11-21T09:00:00Z")!  // Saturday 10:00 in Berlin
    var parser: QuickAddParser { QuickAddParser(fields: FieldParser(now: now, timeZone: berlin)) }

    @Test func proseWithColonsAndPlusesStaysText() throws {
        for words in [["Remind: Sam about keys"], ["Remind:", "Sam", "about", "keys"], ["Email", "Anna", "at:home"],
                      ["Meet", "+1", "today"], ["Raise", "+15%"], ["Pay", "+$5"], ["Due:", "see", "notes"]] {
            let (title, edit) = try parser.parse(words)
            #expect(title == words.joined(separator: " "))
            #expect(edit.isEmpty, "\(words)")
        }
    }

    @Test func tokensStillWork() throws {
        let (title, edit) = try parser.parse(["Lunch", "at:noon", "+food", "+é", "+🔥", "+_x", "Due:fri"])
        #expect(title == "Lunch")
        #expect(edit.addTags == ["food", "é", "🔥", "_x"])
        #expect(edit[\.due] == .set(.day(LocalDate(iso: "2026-11-27")!)))
        #expect(edit.slot == .set(SlotRequest(day: nil, today: LocalDate(iso: "2026-11-21")!, start: ClockTime(hour: 12, minute: 0)!)))
    }

    @Test func multiWordValuesJoinOnlyTheirShapes() throws {
        let cases: [([String], String, String)] = [
            (["X", "due:next", "monday", "soon"], "X soon", "2026-11-23"),
            (["X", "due:dec", "24", "gift"], "X gift", "2026-12-24"),
            (["X", "due:24", "dec", "gift"], "X gift", "2026-12-24"),
            (["X", "due:dec", "24", "2027"], "X", "2027-12-24"),
            (["X", "due:in", "3", "days", "ok"], "X ok", "2026-11-24"),
            (["X", "due:next monday"], "X", "2026-11-23"),
            (["X", "due:dec 24", "2027"], "X 2027", "2026-12-24"),
            // The past: "ago" and "last" belong to the date, never to the title.
            (["Call", "Bob", "due:2d", "ago"], "Call Bob", "2026-11-19"),
            (["X", "due:3", "days", "ago", "ok"], "X ok", "2026-11-18"),
            (["X", "due:last", "fri"], "X", "2026-11-20"),
        ]
        for (words, title, due) in cases {
            let (t, edit) = try parser.parse(words)
            #expect(t == title, "\(words)")
            #expect(edit[\.due] == .set(.day(LocalDate(iso: due)!)), "\(words)")
        }
        let (t, edit) = try parser.parse(["X", "remind:in", "2h"])
        #expect(t == "X")
        #expect(edit[\.remind] == .set(now.addingTimeInterval(7_200)))
    }

    @Test func todoTxtsPriorityFirstIsThePriority() throws {
        for (words, priority) in [(["(A)", "Call", "mum"], Priority.must), (["(A) Call mum"], .must), (["(C)", "Call", "mum"], .flexible)] {
            let (title, edit) = try parser.parse(words)
            #expect(title == "Call mum", "\(words)")
            #expect(edit[\.priority] == .set(priority), "\(words)")
        }
        // Only first, only a capital letter: text otherwise.
        #expect(try parser.parse(["Call", "(A)"]).title == "Call (A)")
        #expect(try parser.parse(["(a)", "x"]).title == "(a) x")
        #expect(try parser.parse(["(AB)", "x"]).title == "(AB) x")
    }

    @Test func agoAfterADateThatCannotTakeItIsAnErrorNotTitleText() {
        #expect(throws: (any Error).self) { try parser.parse(["X", "due:fri", "ago"]) }
    }

    @Test func aKeyFollowedByASeparateWordIsAnError() throws {
        #expect(throws: InputError.separatedValue(key: "due", next: "fri", clearing: true)) {
            try parser.parse(["due:", "fri"], allowRemoval: true)
        }
        #expect(throws: InputError.separatedValue(key: "due", next: "fri", clearing: false)) {
            try parser.parse(["X", "due:", "fri"])
        }
        // Before another token or at the end it clears; `none` clears too.
        let (_, edit) = try parser.parse(["due:", "+x", "remind:none", "pri:"], allowRemoval: true)
        #expect(edit[\.due] == .clear && edit[\.remind] == .clear && edit[\.priority] == .clear)
        let (_, added) = try parser.parse(["X", "due:none"])
        #expect(added[\.due] == .keep)
    }

    @Test func badValuesSayHowToWriteALiteralTitle() throws {
        do {
            _ = try parser.parse(["X", "due:fribay"])
            Issue.record("expected an error")
        } catch {
            let message = error.errorDescription ?? ""
            #expect(message.contains("\"fribay\"") && message.contains("`--`") && message.contains("\\due:fribay"))
        }
        do {
            _ = try parser.parse(["X", "due:"])
            Issue.record("expected an error")
        } catch {
            #expect(error.errorDescription?.contains("`--`") == true)
        }
    }

    @Test func repeatByMIsRefusedAsAmbiguous() throws {
        for rule in ["+1m", "every 2m", "every 2 m"] {
            #expect(throws: InputError.self) { try parser.parse(["X", "repeat:\(rule)"]) }
        }
        let (_, edit) = try parser.parse(["X", "repeat:+1mo"])
        #expect(edit[\.repeatRule] == .set("+1mo"))
    }
}
