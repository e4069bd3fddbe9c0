import Foundation
import Testing
@testable import TickKit

/// The filter language's grammar: terms, combinations, and errors that point at the bad term.
@Suite struct FilterParserTests {
    let berlin = Zone(named: "Europe/Berlin")!
    let now = Timestamp.parse("2026-11-21T09:00:00Z")!  // Saturday, 10:00 in Berlin
    var parser: FilterParser { FilterParser(now: now, timeZone: berlin) }
    let pri = FilterTerm.WordField(rawValue: "pri")!
    let energy = FilterTerm.WordField(rawValue: "energy")!

    func kinds(_ words: [String]) throws -> [FilterTerm.Kind] {
        try parser.parse(words).expression.terms.map(\.kind)
    }

    func error(_ words: [String]) -> FilterError? {
        do {
            _ = try parser.parse(words)
            return nil
        } catch {
            return error
        }
    }

    @Test func termsOfEveryKind() throws {
        let k = try kinds(["+work", "list:Home", "state:done,active", "pri:must", "energy:none", "tags:any", "is:overdue", "milk", "/re.ort/", "3-5,9", "6f1c2a3b"])
        #expect(k[0] == .tag("work"))
        #expect(k[1] == .list("Home"))
        #expect(k[2] == .state([.done, .active]))
        #expect(k[3] == .word(pri, "must"))
        #expect(k[4] == .word(energy, nil))
        #expect(k[5] == .hasTags(true))
        #expect(k[6] == .virtual(.overdue))
        #expect(k[7] == .words(try SearchQuery("milk")))
        #expect(k[8] == .regex("re.ort"))
        #expect(k[9] == .ids([.short(3...5), .short(9...9)]))
        #expect(k[10] == .ids([.uuidPrefix("6f1c2a3b")]))
    }

    @Test func datesUseTheOneDateGrammar() throws {
        let saturday = LocalDate(year: 2026, month: 11, day: 21)!
        #expect(try kinds(["due:today"]) == [.date(.due, .on(.day(saturday)))])
        #expect(try kinds(["due.before:mon"]) == [.date(.due, .before(.day(LocalDate(year: 2026, month: 11, day: 23)!)))])
        #expect(try kinds(["sched.by:eow"]) == [.date(.sched, .by(.day(LocalDate(year: 2026, month: 11, day: 22)!)))])
        #expect(try kinds(["due:none", "remind.any", "completed.none", "due.after:tomorrow"]) == [
            .date(.due, .none), .date(.remind, .any), .date(.completed, .none), .date(.due, .after(.day(saturday.adding(days: 1)))),
        ])
        // Taskwarrior's names are accepted as aliases.
        #expect(try kinds(["project:Work", "scheduled:today", "priority:none"]) == [.list("Work"), .date(.sched, .on(.day(saturday))), .word(pri, nil)])
        // Taskwarrior's priorities, as tick add reads them (Priority.taskwarrior).
        #expect(try kinds(["pri:H", "priority:low", "pri:M"]) == [.word(pri, "must"), .word(pri, "flexible"), .word(pri, "must")])
    }

    @Test func andIsTheDefaultOrAndParenthesesGroupNotAndMinusNegate() throws {
        let e = try parser.parse(["+a", "(+b", "or", "-c)", "not", "+d"]).expression
        guard case .and(let parts) = e, parts.count == 3 else { Issue.record("\(e)"); return }
        guard case .or(let alternatives) = parts[1], alternatives.count == 2, case .not = alternatives[1] else { Issue.record("\(parts[1])"); return }
        guard case .not(.term(let d)) = parts[2] else { Issue.record("\(parts[2])"); return }
        #expect(d.kind == .tag("d"))
        // One shell word may hold several terms; a key word with spaces and no other term is one value.
        #expect(try kinds(["list:Wo or +errand"]) == [.list("Wo"), .tag("errand")])
        #expect(try kinds(["list:Side projects"]) == [.list("Side projects")])
        #expect(try kinds(["list:\"Side projects\"", "-due:none"]) == [.list("Side projects"), .date(.due, .none)])
        // An explicit `and` reads the same as none.
        #expect(try kinds(["+a", "and", "+b"]) == kinds(["+a", "+b"]))
        guard case .and(let both) = try parser.parse(["+a", "and", "+b"]).expression else { Issue.record("not an and"); return }
        #expect(both.count == 2)
    }

    @Test func idsAndWordsAreToldApart() throws {
        #expect(try kinds(["cafe"]) == [.words(try SearchQuery("cafe"))])       // hex letters only: a word
        #expect(try kinds(["1a2b"]) == [.ids([.uuidPrefix("1a2b")])])          // a digit and a letter
        #expect(try kinds(["deadbeef"]) == [.ids([.uuidPrefix("deadbeef")])])  // 8 hex digits
        #expect(try kinds(["\"deadbeef\""]) == [.words(try SearchQuery("deadbeef"))])
        #expect(try parser.parse(["3,9"]).expression.isOnlyIDs)
        #expect(try !parser.parse(["3", "+a"]).expression.isOnlyIDs)
    }

    @Test func stateChoosingFiltersAreRecognised() throws {
        #expect(try parser.parse(["state:done"]).expression.choosesStates)
        #expect(try parser.parse(["completed.after:mon"]).expression.choosesStates)
        #expect(try !parser.parse(["+a", "due:today"]).expression.choosesStates)
    }

    @Test func errorsNameTheTermAndPointAtIt() throws {
        let unknown = try #require(error(["+work", "shced:today"]))
        #expect(unknown.message.contains("unknown filter key \"shced\""))
        #expect(unknown.message.contains("did you mean sched:?"))
        #expect(unknown.line == "+work shced:today")
        #expect(unknown.range == 6..<17)
        #expect(unknown.report.hasSuffix("\n  +work shced:today\n        ^^^^^^^^^^^"))
        let date = try #require(error(["due.before:someday"]))
        #expect(date.range == 0..<18)
        #expect(date.message.contains("due.before:someday"))
        let open = try #require(error(["(+a", "or", "+b"]))
        #expect(open.message.contains("not closed"))
        #expect(open.range == 0..<1)
        #expect(try #require(error(["+a", "or"])).message.contains("\"or\" needs a term after it"))
        #expect(try #require(error(["+b", ")"])).message.contains("no matching"))
        #expect(try #require(error(["pri:urgent"])).message.contains("or Taskwarrior's H, M, L"))
        #expect(try #require(error(["/[/"])).message.contains("not a regular expression"))
        #expect(try #require(error(["state:later"])).message.contains("not a state"))
        #expect(try #require(error(["due.soon:fri"])).message.contains("unknown modifier .soon"))
        #expect(try #require(error(["-3"])).message.contains("not 3"))
    }

    @Test func dateTestsCompareDaysByDayAndInstantsByTheMoment() {
        let eval = DateTestEvaluator(timeZone: berlin)
        let sat = LocalDate(year: 2026, month: 11, day: 21)!
        // 23:30 UTC on Saturday is already Sunday in Berlin.
        let lateSaturdayUTC = Timestamp.parse("2026-11-21T23:30:00Z")!
        #expect(eval.holds(.on(.day(sat.adding(days: 1))), for: .instant(lateSaturdayUTC)))
        #expect(!eval.holds(.on(.day(sat)), for: .instant(lateSaturdayUTC)))
        #expect(eval.holds(.before(.day(sat)), for: .day(sat.adding(days: -1))))
        #expect(!eval.holds(.before(.day(sat)), for: .day(sat)))
        #expect(eval.holds(.by(.day(sat)), for: .day(sat)))
        // An all-day date before an instant compares by the instant's local day, as overdue does.
        #expect(!eval.holds(.before(.time(now)), for: .day(sat)))
        #expect(eval.holds(.before(.time(now)), for: .instant(now.addingTimeInterval(-1))))
        #expect(!eval.holds(.after(.time(now)), for: .instant(now)))
        #expect(eval.holds(.none, for: nil))
        #expect(!eval.holds(.any, for: nil))
        #expect(!eval.holds(.on(.day(sat)), for: nil))
    }

    @Test func sortKeysParseAndOrderWithMissingValuesLast() throws {
        #expect(throws: InputError.self) { try TaskSort("dew") }
        let sort = try TaskSort("pri,title-")
        let q = TaskQuery(now: now, timeZone: berlin)
        func item(_ title: String, _ p: Priority?) -> ListedTask {
            ListedTask(task: TaskItem(id: UUID(), title: title, priority: p, createdAt: now, modifiedAt: now), kind: .inbox, listName: "Inbox", shortID: nil)
        }
        let sorted = sort.sorted([item("a", nil), item("b", .flexible), item("c", .must), item("d", .must)], query: q, listRank: [:])
        #expect(sorted.map(\.task.title) == ["d", "c", "b", "a"])
    }

    /// Random tasks sorted by due (all-day dates at the end of their day) and
    /// then title descending, against a sort written out by hand: missing
    /// values last either way, ties in the given order.
    @Test func sortAgreesWithAHandWrittenOrder() throws {
        let q = TaskQuery(now: now, timeZone: berlin)
        let day = LocalDate(date: now, timeZone: berlin)
        for descending in [false, true] {
            let sort = try TaskSort(descending ? "due-,title-" : "due,title-")
            var items: [ListedTask] = []
            for i in 0..<200 {
                let due: TaskDate? = switch i % 4 {
                case 0: nil
                case 1: .day(day.adding(days: i % 7 - 3))
                default: .time(now.addingTimeInterval(Double(i % 9 - 4) * 43_200))
                }
                let task = TaskItem(id: UUID(), title: ["b", "A", "c", "a"][i % 4] + "\(i % 3)", due: due, createdAt: now, modifiedAt: now)
                items.append(ListedTask(task: task, kind: .inbox, listName: "Inbox", shortID: i))
            }
            func moment(_ d: TaskDate?) -> Double? {
                switch d {
                case .day(let x)?: x.startOfDay(in: berlin).timeIntervalSinceReferenceDate + 86_399
                case .time(let t)?: t.timeIntervalSinceReferenceDate
                case nil: nil
                }
            }
            let expected = items.enumerated().sorted { a, b in
                let (x, y) = (moment(a.element.task.due), moment(b.element.task.due))
                if x != y {
                    guard let x else { return false }
                    guard let y else { return true }
                    return descending ? x > y : x < y
                }
                let (s, t) = (a.element.task.title.lowercased(), b.element.task.title.lowercased())
                if s != t { return s > t }
                return a.offset < b.offset
            }.map(\.element.shortID)
            #expect(sort.sorted(items, query: q, listRank: [:]).map(\.shortID) == expected)
        }
    }
}
