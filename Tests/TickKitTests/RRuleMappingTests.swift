import Foundation
import Testing
@testable import TickKit

/// tick's repeat rules and iCalendar RRULEs, both ways (Docs/RECURRENCE.md, "iCalendar and phones").
@Suite struct RRuleMappingTests {
    let utc = Zone(named: "UTC")!

    @Test func everyTickRuleRFC5545CanSayGoesOutAsAnRRULEAndComesBackAsTyped() throws {
        let cases: [(String, String?)] = [
            ("daily", "FREQ=DAILY"), ("every 3 days", "FREQ=DAILY;INTERVAL=3"), ("weekly", "FREQ=WEEKLY"),
            ("every 2w", "FREQ=WEEKLY;INTERVAL=2"), ("monthly", "FREQ=MONTHLY"), ("every 3mo", "FREQ=MONTHLY;INTERVAL=3"),
            ("yearly", "FREQ=YEARLY"), ("every 2y", "FREQ=YEARLY;INTERVAL=2"), ("weekdays", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
            ("fri,mon", "FREQ=WEEKLY;BYDAY=MO,FR"), ("every friday", "FREQ=WEEKLY;BYDAY=FR"), ("+3d", nil), ("+1mo", nil),
        ]
        for (rule, rrule) in cases {
            #expect(RRuleMapping.rrule(forTickRule: rule) == rrule, "\(rule)")
            // Written and read back: the rule exactly as typed.
            var task = TaskItem(id: UUID(name: "r:" + rule), title: "T", createdAt: Date(timeIntervalSince1970: 0), modifiedAt: Date(timeIntervalSince1970: 0))
            task.repeatRule = rule
            let bytes = DavMapping.newItem(for: task, now: Date(timeIntervalSince1970: 0))
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.contains("RRULE:" + (rrule ?? "")) == (rrule != nil), "\(text)")
            #expect(text.contains("X-TICK-REPEAT"))
            let back = try DavItem(bytes: bytes, path: "x.ics").task(path: "x.ics", now: Date(timeIntervalSince1970: 0), timeZone: utc)
            #expect(back.repeatRule == rule)
        }
    }

    @Test func aPhonesRRULEBecomesTicksRuleWhereTickHasOne() {
        let friday = LocalDate(year: 2026, month: 11, day: 27)!
        let cases: [(String, LocalDate?, String?)] = [
            ("FREQ=DAILY", nil, "daily"), ("FREQ=DAILY;INTERVAL=1", nil, "daily"), ("freq=daily;interval=4", nil, "every 4d"),
            ("FREQ=WEEKLY;INTERVAL=1;WKST=SU", nil, "weekly"), ("FREQ=WEEKLY;INTERVAL=2", nil, "every 2w"),
            ("FREQ=WEEKLY;BYDAY=MO,WE,FR", nil, "mon,wed,fri"), ("FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR", nil, "weekdays"),
            ("FREQ=WEEKLY;BYDAY=FR", friday, "weekly"), ("FREQ=WEEKLY;INTERVAL=2;BYDAY=FR", friday, "every 2w"),
            ("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO", friday, nil), ("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR", friday, nil),
            ("FREQ=MONTHLY", nil, "monthly"), ("FREQ=MONTHLY;BYMONTHDAY=27", friday, "monthly"), ("FREQ=MONTHLY;BYMONTHDAY=1", friday, nil),
            ("FREQ=MONTHLY;BYMONTHDAY=27", nil, nil), ("FREQ=MONTHLY;BYDAY=-1FR", friday, nil), ("FREQ=MONTHLY;INTERVAL=6", nil, "every 6mo"),
            ("FREQ=YEARLY;BYMONTH=11;BYMONTHDAY=27", friday, "yearly"), ("FREQ=YEARLY;BYMONTH=12", friday, nil),
            ("FREQ=WEEKLY;COUNT=5", nil, nil), ("FREQ=DAILY;UNTIL=20261231T000000Z", nil, nil), ("FREQ=HOURLY", nil, nil),
            ("FREQ=DAILY;INTERVAL=1000", nil, nil), ("FREQ=WEEKLY;BYDAY=XX", nil, nil), ("INTERVAL=2", nil, nil), ("garbage", nil, nil),
        ]
        for (rrule, anchor, rule) in cases {
            #expect(RRuleMapping.tickRule(forRRule: rrule, anchor: anchor) == rule, "\(rrule)")
            if let rule { #expect((try? RecurrenceRule.parse(rule)) != nil, "\(rule) is a tick rule") }
        }
    }

    @Test func xTickRepeatCountsOnlyWhileTheRRULEItWasWrittenWithIsThere() {
        // As tick wrote it.
        #expect(RRuleMapping.rule(rrule: "FREQ=WEEKLY", tickRepeat: "every 1w", writtenWith: "FREQ=WEEKLY") == "every 1w")
        // Re-serialised by a server (order, a default interval).
        #expect(RRuleMapping.rule(rrule: "INTERVAL=2;FREQ=WEEKLY", tickRepeat: "every 2w", writtenWith: "FREQ=WEEKLY;INTERVAL=2") == "every 2w")
        // The phone changed the rule: its RRULE wins.
        #expect(RRuleMapping.rule(rrule: "FREQ=MONTHLY", tickRepeat: "every 1w", writtenWith: "FREQ=WEEKLY") == "monthly")
        #expect(RRuleMapping.rule(rrule: "FREQ=WEEKLY;COUNT=3", tickRepeat: "weekly", writtenWith: "FREQ=WEEKLY") == "FREQ=WEEKLY;COUNT=3")
        // The phone removed the rule (and kept the unknown X-TICK-REPEAT line): no rule.
        #expect(RRuleMapping.rule(rrule: nil, tickRepeat: "weekly", writtenWith: "FREQ=WEEKLY") == nil)
        // tick's own (after completion) and older items without the parameter.
        #expect(RRuleMapping.rule(rrule: nil, tickRepeat: "+3d") == "+3d")
        #expect(RRuleMapping.rule(rrule: nil, tickRepeat: "weekly") == "weekly")
        // A phone that added an RRULE to an item with X-TICK-REPEAT alone.
        #expect(RRuleMapping.rule(rrule: "FREQ=DAILY", tickRepeat: "+3d") == "daily")
        #expect(RRuleMapping.rule(rrule: nil, tickRepeat: nil) == nil)
    }

    @Test func rulesAreTheSameWhenTickReadsThemAlike() {
        #expect(RRuleMapping.sameRule("weekly", "every 1w"))
        #expect(RRuleMapping.sameRule("FREQ=WEEKLY;BYDAY=MO", "mon"))
        #expect(!RRuleMapping.sameRule("weekly", "every 2w"))
        #expect(!RRuleMapping.sameRule("weekly", nil))
        #expect(RRuleMapping.sameRule(nil, nil))
        #expect(!RRuleMapping.sameRule("FREQ=WEEKLY;COUNT=2", "FREQ=WEEKLY;COUNT=3"))
    }

    @Test func anRRULETickCannotReadIsKeptVerbatimAndDoneEndsTheSeriesWithAClearNote() throws {
        let rrule = "FREQ=WEEKLY;COUNT=4"
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        var task = TaskItem(id: UUID(name: "x"), title: "T", due: .day(LocalDate(year: 2026, month: 11, day: 27)!), createdAt: now, modifiedAt: now)
        task.repeatRule = rrule
        let text = String(decoding: DavMapping.newItem(for: task, now: now), as: UTF8.self)
        #expect(text.contains("RRULE:FREQ=WEEKLY;COUNT=4\r\n") && !text.contains("X-TICK-REPEAT"))
        var file = TaskFile.empty(.inbox, name: nil, now: now)
        file.tasks = [task]
        let outcome = try file.complete(taskID: task.id, at: now, timeZone: utc)
        #expect(outcome.changed && outcome.task.state == .done && outcome.next == nil)
        #expect(outcome.ruleProblem?.contains("RRULE tick has no rule for") == true, "\(outcome)")
        // A phone's rule stored as it came before this mapping is read where tick has the rule.
        task.repeatRule = "FREQ=WEEKLY;BYDAY=FR"
        file.tasks = [task]
        let weekly = try file.complete(taskID: task.id, at: now, timeZone: utc)
        #expect(weekly.ruleProblem == nil && weekly.next?.due == .day(LocalDate(year: 2026, month: 12, day: 4)!))
    }

    @Test func interchangeExportAndImportUseTheSameMapping() throws {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        var file = TaskFile.empty(.inbox, name: nil, now: now)
        for (i, rule) in ["every 2w", "+3d", "FREQ=DAILY;COUNT=3"].enumerated() {
            var t = TaskItem(id: UUID(name: "i\(i)"), title: "T\(i)", createdAt: now, modifiedAt: now)
            t.repeatRule = rule
            file.tasks.append(t)
        }
        let context = InterchangeContext(path: "x.ics", now: now, timeZone: utc)
        let bytes = ICalendarCodec.encode([file], context: context)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("RRULE:FREQ=WEEKLY;INTERVAL=2\r\n"))
        #expect(text.contains("X-TICK-REPEAT;X-TICK-RRULE=\"FREQ=WEEKLY;INTERVAL=2\":every 2w\r\n"))
        #expect(text.contains("X-TICK-REPEAT:+3d\r\n"))
        #expect(text.contains("RRULE:FREQ=DAILY;COUNT=3\r\n"))
        let back = try ICalendarCodec.decode(bytes, context: context).flatMap(\.tasks)
        #expect(back.map(\.repeatRule) == ["every 2w", "+3d", "FREQ=DAILY;COUNT=3"])
        // A phone's export (Thunderbird) with a plain RRULE comes in as tick's rule.
        let phone = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:p1\r\nSUMMARY:Bins\r\nDUE;VALUE=DATE:20261127\r\nRRULE:FREQ=WEEKLY;BYDAY=FR\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        #expect(try ICalendarCodec.decode(Array(phone.utf8), context: context).flatMap(\.tasks).first?.repeatRule == "weekly")
    }
}
