import ArgumentParser
import FoundationEssentials
import Glibc
import TickKit

extension Tick {
    struct Plan: TickCommand {
        static let facts = CommandFacts.writesStore
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "plan",
            abstract: "Show a day as a timeline, or propose a plan for it (--auto).",
            discussion: """
            Prints DAY (default today; any WHEN naming a day) as a timeline: \
            commitments (`tick blocks`), tasks placed in time slots (`at:` on add or \
            edit) and the free time between them within working hours (default \
            09:00-18:00; --hours, $TICK_WORK_HOURS or [plan] hours in config.toml). On today, free time starts now.

            --auto proposes slots for open tasks in the free time: tasks scheduled \
            on or before DAY, due within 7 days (or overdue) and must-do tasks (--all: \
            every open task not scheduled later). Must-do first, then by due date, \
            each at the earliest free time that holds its estimate (30 minutes when \
            it has none). It prints the proposal and asks "Write this plan? [y/N]" \
            on stderr, reading the answer from stdin (a pipe works); anything but \
            y/yes, or end of input, writes nothing. --yes writes without asking. \
            With --json the proposal is printed as JSON and written only with --yes.

            EXAMPLES
              tick plan
              tick plan tomorrow --hours 08:30-17:00
              tick plan --auto
              tick plan --auto mon --yes
              echo y | tick plan --auto
            """))

        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: JSONOption
        @OptionGroup var workingHours: WorkingHoursOption

        @Flag(name: .long, help: "Propose slots for open tasks in the free time.")
        var auto = false

        @Flag(name: .long, help: "With --auto: consider every open task, not only those due, scheduled or must-do.")
        var all = false

        @Flag(name: [.short, .long], help: "With --auto: write the plan without asking.")
        var yes = false

        @Argument(help: ArgumentHelp("The day (default today).", valueName: "day"))
        var day: String?

        func validate() throws {
            if all && !auto { throw ValidationError("--all goes with --auto") }
            if yes && !auto { throw ValidationError("--yes goes with --auto") }
        }

        func run() throws {
            let context = try Context(global)
            let hours = try workingHours.resolve(context)
            let p = try PlanningContext(context)
            let day = try p.day(self.day)
            let listed = try p.placed(on: day)
            let commitments = try p.commitments().blocks
            let planner = DayPlanner(day: day, hours: hours, commitments: commitments, tasks: listed.map(\.task))
            if auto {
                try runAuto(p, context: context, planner: planner, placed: listed)
                return
            }
            let from = p.from(for: day)
            let entries = planner.timeline(from: from)
            let shortIDs = Dictionary(listed.compactMap { item in item.shortID.map { (item.task.id, $0) } }, uniquingKeysWith: { a, _ in a })
            let t = context.terminal
            if output.json {
                t.outRaw(JSONOutput.string(PlanJSON.timeline(day: day, hours: hours, entries: entries, listed: listed, free: planner.freeMinutes(from: from))))
                return
            }
            t.out(t.bold(SlotGuard.dayName(day)) + t.dim("  working hours \(hours)" + (from != nil ? " · now \(p.clock)" : "")))
            if entries.isEmpty {
                t.out("  no free time left today within working hours, and nothing placed")
            }
            for e in entries {
                let time = "\(e.start)-\(e.end)"
                let length = DurationText.format(e.minutes).leftPadded(to: 6)
                switch e.kind {
                case .commitment(let c):
                    t.out("  \(time) \(length)  " + t.magenta("block") + "  \(c.title)")
                case .task(let task):
                    let id = shortIDs[task.id].map { "\($0)" } ?? String(task.id.lowercased.prefix(8))
                    var line = "  \(time) \(length)  " + t.cyan("task ") + "  " + t.bold(id) + " " + (task.state == .done ? t.strike(task.title) : task.title)
                    if task.state == .done { line += t.dim("  done") }
                    if let c = e.overlaps.first { line += "  " + t.boldRed("! overlaps \(c.title)") }
                    t.out(line)
                case .free:
                    t.out(t.dim("  \(time) \(length)  free"))
                }
            }
            let placedCount = planner.placed.count
            t.out(t.dim("  free \(DurationText.format(planner.freeMinutes(from: from))) · \(planner.commitments.count) block\(planner.commitments.count == 1 ? "" : "s") · \(placedCount) task\(placedCount == 1 ? "" : "s") placed"))
        }

        /// How many unplaced tasks the text output names.
        static let unplacedShown = 10

        func runAuto(_ p: PlanningContext, context: Context, planner: DayPlanner, placed: [ListedTask]) throws {
            let t = context.terminal
            if planner.day < p.today {
                throw InputError.invalid("\(planner.day.iso) is in the past; plan today or a later day")
            }
            // SQL narrows the candidates down; AutoPlacer decides exactly.
            let window = AutoPlacer.dueWindow
            // Ranking projections (no titles): only the tasks shown are read in full.
            let index = p.loaded.index
            // Blocked and waiting tasks are never proposed.
            let candidates = all ? try index.pendingForRanking(query: context.query) : try index.planCandidates(
                day: planner.day, dueWithinDays: window,
                dueBefore: planner.day.adding(days: window + 2).startOfDay(in: context.timeZone), query: context.query)
            let placer = AutoPlacer(planner: planner, timeZone: context.timeZone, from: p.from(for: planner.day), includeAll: all)
            var proposal = placer.propose(candidates)
            let unplacedShown = output.json ? proposal.unplaced[...] : proposal.unplaced.prefix(Self.unplacedShown)
            let shown = proposal.placements.map(\.task.id) + unplacedShown.map(\.task.id)
            let full = try index.tasks(ids: shown)
            let byID = Dictionary((full + placed).map { ($0.task.id, $0) }, uniquingKeysWith: { a, _ in a })
            proposal.hydrate { byID[$0]?.task }
            let ranker = TaskRanker(today: planner.day, timeZone: context.timeZone, minutes: nil, energy: nil)
            if output.json {
                t.outRaw(JSONOutput.string(PlanJSON.proposal(proposal, day: planner.day, byID: byID, written: yes && !proposal.placements.isEmpty)))
            } else {
                t.out(t.bold("Proposed plan for \(SlotGuard.dayName(planner.day))") + t.dim("  working hours \(planner.hours)"))
                if proposal.placements.isEmpty {
                    t.out("  nothing to place" + (proposal.unplaced.isEmpty ? ": no open tasks are due, scheduled or must-do (try --all)" : ""))
                }
                let ids = proposal.placements.map { byID[$0.task.id]?.shortID.map(String.init) ?? String($0.task.id.lowercased.prefix(8)) }
                let idWidth = ids.map(\.count).max() ?? 1
                let titleWidth = min(proposal.placements.map(\.task.title.count).max() ?? 0, 40)
                for (i, placement) in proposal.placements.enumerated() {
                    var reasons = ranker.suggestion(for: placement.task, position: 0).reasons
                    if placement.usedDefaultLength { reasons.append("no estimate: \(DurationText.format(AutoPlacer.defaultMinutes))") }
                    let title = reasons.isEmpty ? placement.task.title : placement.task.title.fitted(to: titleWidth)
                    t.out("  \(placement.slot.start)-\(placement.slot.end) \(DurationText.format(placement.slot.minutes).leftPadded(to: 6))  "
                          + t.bold(ids[i].leftPadded(to: idWidth)) + " \(title)" + (reasons.isEmpty ? "" : t.dim("  " + reasons.joined(separator: " · "))))
                }
                for (task, minutes) in proposal.unplaced.prefix(Self.unplacedShown) {
                    let id = byID[task.id]?.shortID.map(String.init) ?? String(task.id.lowercased.prefix(8))
                    t.out(t.dim("  not placed: ") + t.bold(id) + " \(task.title)" + t.dim("  needs \(DurationText.format(minutes)), no free block that long"))
                }
                if proposal.unplaced.count > Self.unplacedShown {
                    t.out(t.dim("  … and \(proposal.unplaced.count - Self.unplacedShown) more not placed (the day is full)"))
                }
            }
            guard !proposal.placements.isEmpty else { return }
            if !yes {
                guard !output.json else { return }
                guard askYesNo("Write this plan?") else {
                    t.out("Nothing was written.")
                    return
                }
            }
            let written = try p.write(proposal, kinds: byID.mapValues(\.kind))
            _ = try context.resyncIDs()
            if !output.json {
                t.out("Placed \(written) task\(written == 1 ? "" : "s") on \(SlotGuard.dayName(planner.day)).")
            }
        }
    }
}

/// `--json` of `tick plan`.
enum PlanJSON {
    static func timeline(day: LocalDate, hours: WorkingHours, entries: [TimelineEntry], listed: [ListedTask], free: Int) -> JSONNode {
        let byID = Dictionary(listed.map { ($0.task.id, $0) }, uniquingKeysWith: { a, _ in a })
        let rows: [JSONNode] = entries.map { e in
            var m = [
                JSONMember("start", .string(e.start.description)),
                JSONMember("end", .string(e.end.description)),
                JSONMember("minutes", JSONOutput.number(e.minutes)),
            ]
            switch e.kind {
            case .commitment(let c):
                m.insert(JSONMember("kind", .string("block")), at: 0)
                m.append(JSONMember("title", .string(c.title)))
                m.append(JSONMember("blockId", .string(c.id.lowercased)))
            case .task(let task):
                m.insert(JSONMember("kind", .string("task")), at: 0)
                m.append(JSONMember("title", .string(task.title)))
                if let item = byID[task.id] { m.append(JSONMember("task", JSONOutput.node(for: item))) }
                if !e.overlaps.isEmpty { m.append(JSONMember("overlaps", .array(e.overlaps.map { .string($0.title) }))) }
            case .free:
                m.insert(JSONMember("kind", .string("free")), at: 0)
            }
            return .object(m)
        }
        return .object([
            JSONMember("day", .string(day.iso)),
            JSONMember("hours", .string(hours.description)),
            JSONMember("freeMinutes", JSONOutput.number(free)),
            JSONMember("entries", .array(rows)),
        ])
    }

    static func proposal(_ plan: AutoPlan, day: LocalDate, byID: [UUID: ListedTask], written: Bool) -> JSONNode {
        func task(_ t: TaskItem) -> JSONNode {
            byID[t.id].map(JSONOutput.node(for:)) ?? TaskFileEncoder.node(for: t)
        }
        return .object([
            JSONMember("day", .string(day.iso)),
            JSONMember("written", JSONNode(.bool(written))),
            JSONMember("placements", .array(plan.placements.map { p in
                .object([
                    JSONMember("start", .string(p.slot.start.description)),
                    JSONMember("end", .string(p.slot.end.description)),
                    JSONMember("minutes", JSONOutput.number(p.slot.minutes)),
                    JSONMember("defaultLength", JSONNode(.bool(p.usedDefaultLength))),
                    JSONMember("task", task(p.task)),
                ])
            })),
            JSONMember("unplaced", .array(plan.unplaced.map { u in
                .object([JSONMember("minutes", JSONOutput.number(u.minutes)), JSONMember("task", task(u.task))])
            })),
        ])
    }
}

extension String {
    /// Cut to `width` terminal cells (ending in …) or padded with spaces to it.
    func fitted(to width: Int) -> String {
        guard width > 0 else { return self }
        return CellWidth.padded(CellWidth.truncated(TextRules.visible(self), to: width), to: width)
    }

    /// Right-aligned in `width` terminal cells.
    func leftPadded(to width: Int) -> String {
        CellWidth.leftPadded(self, to: width)
    }
}
