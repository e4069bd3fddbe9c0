import Foundation
import Testing
@testable import TickKit

/// The scheduling engine (Sources/TickKit/Planning), under a fixed clock and zone.
@Suite struct PlanningTests {
    let berlin = Zone(named: "Europe/Berlin")!
    let created = Timestamp.parse("2026-11-21T09:00:00Z")!
    /// Tuesday.
    let tuesday = LocalDate(iso: "2026-11-24")!

    func t(_ hhmm: String) -> ClockTime { ClockTime(parsing: hhmm)! }

    func block(_ title: String, _ range: String, days: [Int]? = nil, on date: String? = nil) -> Commitment {
        let r = TimeRange(parsing: range)!
        let recurrence: Commitment.Recurrence = date.map { .once(LocalDate(iso: $0)!) } ?? .weekly(days ?? [1, 2, 3, 4, 5])
        return Commitment(id: UUID(name: "test-block:\(title)"), title: title, recurrence: recurrence, start: r.start, end: r.end,
                          createdAt: created, modifiedAt: created)
    }

    func task(_ title: String, pri: Priority? = nil, energy: Energy? = nil, estimate: Int? = nil, due: String? = nil,
              sched: String? = nil, slot: (String, String, Int)? = nil, state: TaskState = .open) -> TaskItem {
        TaskItem(id: UUID(name: "test-task:\(title)"), title: title, state: state, due: due.flatMap(TaskDate.init(fileString:)),
                 scheduled: sched.flatMap(LocalDate.init(iso:)), priority: pri, energy: energy, estimate: estimate,
                 slot: slot.map { TaskSlot(day: LocalDate(iso: $0.0)!, start: t($0.1), minutes: $0.2) },
                 createdAt: created, modifiedAt: created)
    }

    func ranges(_ r: [TimeRange]) -> [String] { r.map { "\($0.start)-\($0.end)" } }

    // MARK: - Free slots

    @Test func freeSlotsAroundOverlappingCommitments() {
        let planner = DayPlanner(day: tuesday, hours: .standard, commitments: [
            block("Standup", "09:00-09:15"),
            block("Review", "10:00-11:00"),
            block("Overlapping", "10:30-11:30"),   // overlaps Review
            block("Inside", "10:15-10:45"),        // inside Review
        ], tasks: [])
        #expect(ranges(planner.freeSlots()) == ["09:15-10:00", "11:30-18:00"])
        #expect(planner.freeMinutes() == 45 + 390)
    }

    @Test func recurringWeekdayCommitmentsOnlyOnTheirDays() {
        let blocks = [block("Gym", "17:00-18:00", days: [1, 3, 5]), block("Dentist", "14:00-15:00", on: "2026-11-24")]
        let tue = DayPlanner(day: tuesday, hours: .standard, commitments: blocks, tasks: [])
        #expect(tue.commitments.map(\.title) == ["Dentist"])
        let wed = DayPlanner(day: tuesday.adding(days: 1), hours: .standard, commitments: blocks, tasks: [])
        #expect(wed.commitments.map(\.title) == ["Gym"])
        #expect(ranges(wed.freeSlots()) == ["09:00-17:00"])
        let sat = DayPlanner(day: tuesday.adding(days: 4), hours: .standard, commitments: blocks, tasks: [])
        #expect(sat.commitments.isEmpty)
    }

    @Test func workingHourEdges() {
        let hours = WorkingHours(parsing: "08:30-17:00")!
        let planner = DayPlanner(day: tuesday, hours: hours, commitments: [
            block("Early", "07:00-08:45"),   // starts before the day, ends inside
            block("Late", "16:30-19:00"),    // runs past the end
            block("Evening", "20:00-21:00"), // outside entirely
        ], tasks: [])
        #expect(ranges(planner.freeSlots()) == ["08:45-16:30"])
        // From a time inside the day; from after the end: nothing.
        #expect(ranges(planner.freeSlots(from: t("12:10"))) == ["12:10-16:30"])
        #expect(planner.freeSlots(from: t("17:30")).isEmpty)
        // A block ending exactly where the day starts leaves the whole day.
        let touching = DayPlanner(day: tuesday, hours: hours, commitments: [block("Before", "08:00-08:30")], tasks: [])
        #expect(ranges(touching.freeSlots()) == ["08:30-17:00"])
        // The timeline still shows commitments outside working hours.
        #expect(planner.timeline().map(\.start.description) == ["07:00", "08:45", "16:30", "20:00"])
    }

    @Test func placedTasksAreBusyAndTheTimelineIsOrdered() {
        let planner = DayPlanner(day: tuesday, hours: .standard, commitments: [block("Standup", "09:00-09:15")], tasks: [
            task("Report", slot: ("2026-11-24", "09:00", 60)),   // overlaps Standup
            task("Other day", slot: ("2026-11-25", "11:00", 60)),
            task("Mail", slot: ("2026-11-24", "13:00", 15), state: .done),
        ])
        #expect(ranges(planner.freeSlots()) == ["10:00-13:00", "13:15-18:00"])
        let entries = planner.timeline()
        let kinds = entries.map { e -> String in
            switch e.kind {
            case .commitment(let c): return "block:" + c.title
            case .task(let task): return "task:" + task.title
            case .free: return "free"
            }
        }
        #expect(kinds == ["block:Standup", "task:Report", "free", "task:Mail", "free"])
        #expect(entries[1].overlaps.map(\.title) == ["Standup"])
    }

    @Test func overlapChecks() {
        let blocks = [block("Standup", "09:00-09:15"), block("Dentist", "14:00-15:00", on: "2026-11-24")]
        let at = { (time: String, minutes: Int) in TaskSlot(day: self.tuesday, start: self.t(time), minutes: minutes) }
        #expect(DayPlanner.commitments(overlapping: at("14:30", 30), in: blocks).map(\.title) == ["Dentist"])
        #expect(DayPlanner.commitments(overlapping: at("08:30", 31), in: blocks).map(\.title) == ["Standup"])
        #expect(DayPlanner.commitments(overlapping: at("08:30", 30), in: blocks).isEmpty)   // ends as it starts
        #expect(DayPlanner.commitments(overlapping: at("15:00", 30), in: blocks).isEmpty)
        let other = task("Mail", slot: ("2026-11-24", "10:00", 30))
        #expect(DayPlanner.tasks(overlapping: at("10:15", 30), in: [other], excluding: UUID()).map(\.title) == ["Mail"])
        #expect(DayPlanner.tasks(overlapping: at("10:15", 30), in: [other], excluding: other.id).isEmpty)
    }

    // MARK: - Ranking

    @Test func rankingOrderMustThenEnergyThenDueThenFit() {
        let ranker = TaskRanker(today: LocalDate(iso: "2026-11-21")!, timeZone: berlin, minutes: 30, energy: .high)
        let tasks = [
            task("flexible fits", pri: .flexible, energy: .high, estimate: 20),
            task("must low energy", pri: .must, energy: .low, estimate: 20),
            task("must high due later", pri: .must, energy: .high, due: "2026-11-30"),
            task("must high due tomorrow too long", pri: .must, energy: .high, estimate: 60, due: "2026-11-22"),
            task("must high due tomorrow fits", pri: .must, energy: .high, estimate: 30, due: "2026-11-22"),
            task("must any energy", pri: .must, energy: .any),
            task("done", pri: .must, state: .done),
            task("placed", pri: .must, slot: ("2026-11-21", "15:00", 30)),
            task("scheduled later", pri: .must, sched: "2026-11-25"),
        ]
        let ranked = ranker.rank(tasks)
        // What fits the 30 minutes and the high energy first, then what does not.
        #expect(ranked.map(\.task.title) == [
            "must high due tomorrow fits", "must high due later", "must any energy", "flexible fits",
            "must high due tomorrow too long", "must low energy",
        ])
        #expect(ranked[0].explanation == "must-do · high energy · due tomorrow · 30m fits")
        #expect(ranked[4].explanation == "must-do · high energy · due tomorrow · 1h, longer than 30m")
        #expect(ranked[5].explanation == "must-do · needs low energy · 20m fits")
        #expect(ranked.map { ranker.fits($0.task) } == [true, true, true, true, false, false])
    }

    @Test func tiesKeepTheGivenOrderAndOverdueComesFirst() {
        let ranker = TaskRanker(today: LocalDate(iso: "2026-11-21")!, timeZone: berlin, minutes: nil, energy: nil)
        let tasks = [task("b"), task("a"), task("overdue", due: "2026-11-19"), task("timed today", due: "2026-11-21T16:00:00Z")]
        let ranked = ranker.rank(tasks)
        #expect(ranked.map(\.task.title) == ["overdue", "timed today", "b", "a"])
        #expect(ranked[0].explanation == "overdue 2d")
        #expect(ranked[1].explanation == "due today")
        // Same input, same output.
        #expect(ranker.rank(tasks) == ranked)
    }

    @Test func moodTable() {
        #expect(Mood.energy(for: "Focused") == .high)
        #expect(Mood.energy(for: "tired") == .low)
        #expect(Mood.energy(for: "neutral") == .any)
        #expect(Mood.energy(for: "happy") == nil)
    }

    // MARK: - Auto placement

    @Test func autoPlacementNeverOverlapsAndFollowsPriority() {
        let blocks = [block("Standup", "09:00-09:15"), block("Lunch", "12:30-13:15", days: [1, 2, 3, 4, 5, 6, 7])]
        let tasks = [
            task("flexible due today", estimate: 60, due: "2026-11-24"),
            task("must no estimate", pri: .must),
            task("big", estimate: 600, sched: "2026-11-24"),
            task("already placed", slot: ("2026-11-24", "10:00", 60)),
            task("not a candidate"),
            task("due in two days", estimate: 45, due: "2026-11-26"),
        ]
        let planner = DayPlanner(day: tuesday, hours: .standard, commitments: blocks, tasks: tasks)
        let plan = AutoPlacer(planner: planner, timeZone: berlin, from: nil).propose(tasks)
        let got = plan.placements.map { "\($0.slot.start)-\($0.slot.end) \($0.task.title)" }
        #expect(got == [
            "09:15-09:45 must no estimate",
            "11:00-12:00 flexible due today",
            "13:15-14:00 due in two days",
        ])
        #expect(plan.placements[0].usedDefaultLength)
        #expect(plan.unplaced.map(\.task.title) == ["big"])
        #expect(plan.unplaced.map(\.minutes) == [600])
        // No two busy ranges overlap: commitments, placed tasks, proposals.
        var busy = blocks.map { ($0.start.minutes, $0.end.minutes) } + [(600, 660)]
        busy += plan.placements.map { ($0.slot.start.minutes, $0.slot.end.minutes) }
        busy.sort { $0 < $1 }
        for (a, b) in zip(busy, busy.dropFirst()) { #expect(a.1 <= b.0) }
    }

    @Test func autoPlacementStartsAfterNowRoundedUp() {
        let tasks = [task("x", pri: .must, estimate: 30)]
        let planner = DayPlanner(day: tuesday, hours: .standard, commitments: [], tasks: tasks)
        let plan = AutoPlacer(planner: planner, timeZone: berlin, from: t("10:02")).propose(tasks)
        #expect(plan.placements.map(\.slot.start) == [t("10:05")])
        let all = AutoPlacer(planner: planner, timeZone: berlin, from: nil, includeAll: true).propose([task("y")])
        #expect(all.placements.map(\.slot.start) == [t("09:00")])
    }

    // MARK: - Parsing

    @Test func durationsAndTimes() {
        #expect(DurationText.parse("30m") == 30)
        #expect(DurationText.parse("1h30m") == 90)
        #expect(DurationText.parse("1h30") == 90)
        #expect(DurationText.parse("90") == 90)
        #expect(DurationText.parse("1.5h") == 90)
        #expect(DurationText.parse("2h") == 120)
        #expect(DurationText.parse("0") == nil)
        #expect(DurationText.parse("abc") == nil)
        #expect(DurationText.parse("30m1h") == nil)
        #expect(DurationText.format(90) == "1h30m")
        #expect(ClockTime(parsing: "9am") == t("09:00"))
        #expect(ClockTime(parsing: "12am") == t("00:00"))
        #expect(ClockTime(parsing: "5:30pm") == t("17:30"))
        #expect(ClockTime(parsing: "24:00") == .endOfDay)
        #expect(ClockTime(parsing: "24:30") == nil)
        #expect(ClockTime(parsing: "9") == nil)
        #expect(WorkingHours(parsing: "17:00-09:00") == nil)
        #expect(Commitment.parseDays("weekdays") == [1, 2, 3, 4, 5])
        #expect(Commitment.parseDays("mon,wed,fri") == [1, 3, 5])
        #expect(Commitment.parseDays("every day") == [1, 2, 3, 4, 5, 6, 7])
        #expect(Commitment.parseDays("tuesday, thu") == [2, 4])
        #expect(Commitment.parseDays("t") == nil)
        #expect(Commitment.parseDays("funday") == nil)
    }

    @Test func slotAndEstimateRoundTripThroughTheFile() throws {
        let json = """
        {"tasks": [{"title": "A", "estimate": 45, "slot": {"start": "2026-11-24T10:00", "minutes": 45, "x-pin": true}}]}
        """
        let file = try TaskFileDecoder(bytes: Array(json.utf8), path: "inbox.json", kind: .inbox, fallbackDate: created).decode()
        #expect(file.tasks[0].estimate == 45)
        #expect(file.tasks[0].slot == TaskSlot(day: tuesday, start: t("10:00"), minutes: 45, extra: [JSONMember("x-pin", JSONNode(.bool(true)))]))
        let text = String(decoding: TaskFileEncoder.encode(file), as: UTF8.self)
        #expect(text.contains("\"estimate\": 45,\n      \"slot\": {\n        \"start\": \"2026-11-24T10:00\",\n        \"minutes\": 45,\n        \"x-pin\": true\n      },"))
        let again = try TaskFileDecoder(bytes: TaskFileEncoder.encode(file), path: "inbox.json", kind: .inbox, fallbackDate: created).decode()
        #expect(again.tasks.count == 1 && again.tasks[0].sameContent(as: file.tasks[0]))
    }

    @Test func badSlotsAreRefusedWithLineAndColumn() {
        func error(_ task: String) -> String? {
            let json = "{\"tasks\": [\n{\"title\": \"A\", \(task)}]}"
            do {
                _ = try TaskFileDecoder(bytes: Array(json.utf8), path: "inbox.json", kind: .inbox, fallbackDate: created).decode()
                return nil
            } catch {
                return error.summary
            }
        }
        #expect(error("\"estimate\": 0") == "inbox.json:2:28: \"estimate\" must be a whole number of minutes from 1 to 99999, like 45")
        #expect(error("\"slot\": {\"start\": \"2026-11-24 10:00\", \"minutes\": 5}")?.hasPrefix("inbox.json:2:34: \"slot.start\" must be a local date and time") == true)
        #expect(error("\"slot\": {\"start\": \"2026-11-24T23:50\", \"minutes\": 15}")?.contains("runs past midnight") == true)
        #expect(error("\"slot\": {\"minutes\": 15}")?.contains("needs a \"start\"") == true)
    }

    @Test func commitmentFileRoundTripKeepsUnknownKeys() throws {
        let json = """
        {"x-owner": "sam", "blocks": [
          {"title": "Standup", "days": ["fri", "mon"], "start": "09:00", "end": "09:15", "x-room": "A"},
          {"title": "Dentist", "date": "2026-11-24", "start": "14:00", "end": "15:00"}
        ]}
        """
        let file = try CommitmentFileCodec.decode(Array(json.utf8), path: "blocks.json", fallbackDate: created)
        #expect(file.blocks.map(\.title) == ["Standup", "Dentist"])
        #expect(file.blocks[0].recurrence == .weekly([1, 5]))
        #expect(file.blocks[0].id == UUID(name: "tick-block:Standup\n0"))
        let text = String(decoding: CommitmentFileCodec.encode(file), as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"version\": 1,\n  \"x-owner\": \"sam\",\n  \"blocks\": ["))
        #expect(text.contains("\"days\": [\"mon\", \"fri\"],"))
        #expect(text.contains("\"x-room\": \"A\""))
        let again = try CommitmentFileCodec.decode(CommitmentFileCodec.encode(file), path: "blocks.json", fallbackDate: created)
        #expect(again == file)
        #expect(throws: FormatError.self) {
            try CommitmentFileCodec.decode(Array(#"{"blocks": [{"title": "X", "start": "10:00", "end": "09:00", "days": ["mon"]}]}"#.utf8), path: "blocks.json", fallbackDate: created)
        }
    }

    @Test func commitmentMergeByID() {
        let a = block("Standup", "09:00-09:15"), b = block("Gym", "18:00-19:00", days: [1, 3])
        let base = CommitmentFile(blocks: [a, b])
        var ours = base
        ours.blocks[0].end = t("09:30")
        ours.blocks[0].modifiedAt = created.addingTimeInterval(60)
        var theirs = base
        theirs.blocks.removeAll { $0.id == b.id }   // they deleted Gym
        let dentist = block("Dentist", "14:00-15:00", on: "2026-11-24")
        theirs.blocks.append(dentist)
        theirs.blocks[0].title = "Daily standup"
        theirs.blocks[0].modifiedAt = created.addingTimeInterval(30)
        let merged = CommitmentMerge.merge(base: base, ours: ours, theirs: theirs)
        #expect(merged.file.blocks.map(\.title) == ["Daily standup", "Dentist"])
        #expect(merged.file.blocks[0].end == t("09:30"))
        #expect(merged.report.deleted == 1)
        #expect(merged.report.added == 1)
        // Two-way keeps everything from both sides.
        let twoWay = CommitmentMerge.merge(base: nil, ours: ours, theirs: theirs)
        #expect(twoWay.file.blocks.map(\.title) == ["Standup", "Gym", "Dentist"])   // ours is later
    }

    @Test func autoPlacementNeverOverlapsOnRandomDays() {
        // A small deterministic LCG: the same 300 days every run.
        var state: UInt64 = 0x5eed
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        for round in 0..<300 {
            let startHour = 6 + next(4)
            let hours = WorkingHours(start: ClockTime(hour: startHour, minute: 0)!, end: ClockTime(hour: startHour + 6 + next(6), minute: 0)!)!
            var blocks: [Commitment] = []
            for i in 0..<next(5) {
                let s = next(22 * 60 / 5) * 5
                let range = TimeRange(start: ClockTime(minutes: s)!, end: ClockTime(minutes: min(s + 5 + next(24) * 5, 1440))!)!
                blocks.append(Commitment(id: UUID(name: "r\(round)b\(i)"), title: "b\(i)", recurrence: .once(tuesday),
                                         start: range.start, end: range.end, createdAt: created, modifiedAt: created))
            }
            var tasks: [TaskItem] = []
            for i in 0..<(1 + next(12)) {
                var t = TaskItem(id: UUID(name: "r\(round)t\(i)"), title: "t\(i)", createdAt: created, modifiedAt: created)
                if next(3) == 0 { t.estimate = 5 + next(36) * 5 }
                if next(2) == 0 { t.priority = .must } else { t.scheduled = tuesday }
                if next(5) == 0 {
                    let s = next(20 * 60 / 5) * 5
                    t.slot = TaskSlot(day: tuesday, start: ClockTime(minutes: s)!, minutes: 15 + next(8) * 5)
                }
                tasks.append(t)
            }
            let from = next(2) == 0 ? ClockTime(minutes: next(24 * 60)) : nil
            let planner = DayPlanner(day: tuesday, hours: hours, commitments: blocks, tasks: tasks)
            let plan = AutoPlacer(planner: planner, timeZone: berlin, from: from).propose(tasks)
            var busy = blocks.map { ($0.start.minutes, $0.end.minutes) }
            busy += tasks.compactMap { $0.slot.map { ($0.start.minutes, $0.end.minutes) } }
            for p in plan.placements {
                let a = p.slot.start.minutes, b = p.slot.end.minutes
                #expect(a >= hours.start.minutes && b <= hours.end.minutes, "round \(round): outside working hours")
                if let from { #expect(a >= from.minutes, "round \(round): before now") }
                #expect(p.slot.minutes == (p.task.estimate ?? AutoPlacer.defaultMinutes))
                for (c, d) in busy { #expect(b <= c || d <= a, "round \(round): \(a)-\(b) overlaps \(c)-\(d)") }
                busy.append((a, b))
            }
            // Every candidate is either placed or reported, never both.
            let placed = Set(plan.placements.map(\.task.id)), unplaced = Set(plan.unplaced.map(\.task.id))
            #expect(placed.isDisjoint(with: unplaced))
            #expect(placed.count + unplaced.count == tasks.filter { $0.slot == nil }.count)
        }
    }
}
