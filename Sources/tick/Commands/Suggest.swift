import ArgumentParser
import FoundationEssentials
import TickKit

extension Tick {
    struct Suggest: TickCommand {
        static let facts = CommandFacts.reads
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "suggest",
            abstract: "Suggest which open tasks fit a free block, and say why.",
            discussion: """
            Ranks open tasks (not done, not already placed in a slot, not scheduled \
            after today): tasks that fit the block and the energy first (no \
            estimate longer than the block, not the other energy), then must-do, \
            then the energy match, then due soon, then an estimate that fits the \
            block; ties keep the listing order. Each \
            suggestion is explained in a few words, e.g. \
            "must-do · high energy · due tomorrow · 30m fits".

            Without --minutes, the block is the free time from now to the next \
            commitment or placed task (or the next free block today, within working \
            hours; --hours, $TICK_WORK_HOURS or [plan] hours in config.toml).

            --mood picks the energy:
              focused, energetic, fresh, motivated, sharp, great  -> high
              tired, low, drained, sleepy, exhausted, meh         -> low
              ok, okay, neutral, fine                             -> any (no preference)

            EXAMPLES
              tick suggest
              tick suggest --minutes 30 --mood tired
              tick suggest --energy high --limit 3 --json
            """))

        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: JSONOption
        @OptionGroup var workingHours: WorkingHoursOption

        @Option(name: .long, help: ArgumentHelp("The free block's length in minutes (or 45m, 1h30m).", valueName: "n"))
        var minutes: String?

        @Option(name: .long, help: ArgumentHelp("The energy you have: high, low or any.", valueName: "energy"), completion: .list(["high", "low", "any"]))
        var energy: String?

        @Option(name: .long, help: ArgumentHelp("Your mood, mapped to an energy (see above).", valueName: "mood"), completion: .list(Mood.names))
        var mood: String?

        @Option(name: .long, help: ArgumentHelp("At most this many suggestions (default 5).", valueName: "n"))
        var limit: Int = 5

        func validate() throws {
            guard limit >= 1 else { throw ValidationError("--limit must be 1 or more") }
            if energy != nil && mood != nil { throw ValidationError("give --energy or --mood, not both") }
        }

        func run() throws {
            let context = try Context(global)
            let fields = context.fields
            var wanted: Energy?
            if let energy { wanted = try fields.energy(energy, key: "--energy") }
            if let mood {
                guard let e = Mood.energy(for: mood) else {
                    throw InputError.badValue(key: "--mood", value: mood, allowed: Mood.names)
                }
                wanted = e
            }
            let hours = try workingHours.resolve(context)
            let p = try PlanningContext(context)
            // Ranking projections (no titles): only the suggestions are read in full.
            let candidates = try p.loaded.index.pendingForRanking(query: context.query)
            var length: Int?
            var block: TimeRange?
            if let minutes {
                length = try fields.slotLength(minutes, key: "--minutes")
            } else {
                let planner = DayPlanner(day: p.today, hours: hours, commitments: try p.commitments().blocks, tasks: try p.placed(on: p.today).map(\.task))
                block = planner.nextFreeBlock(at: p.clock)
                length = block?.minutes
            }
            let ranker = TaskRanker(today: p.today, timeZone: context.timeZone, minutes: length, energy: wanted)
            let ranked = ranker.rank(candidates, limit: limit)
            let full = try p.loaded.index.tasks(ids: ranked.map(\.task.id))
            let byID = Dictionary(full.map { ($0.task.id, $0) }, uniquingKeysWith: { a, _ in a })
            let suggestions = ranked.map { s in
                var s = s
                if let item = byID[s.task.id] { s.task = item.task }
                return s
            }
            let t = context.terminal
            if output.json {
                let rows: [JSONNode] = suggestions.enumerated().compactMap { i, s in
                    guard let item = byID[s.task.id], case .object(var m) = JSONOutput.node(for: item).kind else { return nil }
                    m.insert(JSONMember("rank", JSONOutput.number(i + 1)), at: 0)
                    m.insert(JSONMember("reasons", .array(s.reasons.map { .string($0) })), at: 1)
                    return .object(m)
                }
                t.outRaw(JSONOutput.string(.object([
                    JSONMember("minutes", length.map(JSONOutput.number) ?? JSONNode(.null)),
                    JSONMember("energy", wanted.map { .string($0.rawValue) } ?? JSONNode(.null)),
                    JSONMember("suggestions", .array(rows)),
                ])))
                return
            }
            var header = "For "
            if let block {
                header += "the free block \(block.start)-\(block.end) (\(DurationText.format(block.minutes)))"
            } else if let length {
                header += "a \(DurationText.format(length)) block"
            } else {
                header += "any time (no free time left today within \(hours))"
            }
            if let wanted { header += ", \(wanted.rawValue) energy" + (mood.map { " (\($0.lowercased()))" } ?? "") }
            t.out(t.bold(header + ":"))
            if suggestions.isEmpty {
                t.out("  nothing to suggest: no open tasks that are not placed or scheduled later")
                return
            }
            let ids = suggestions.map { s in byID[s.task.id]?.shortID.map(String.init) ?? String(s.task.id.lowercased.prefix(8)) }
            let idWidth = ids.map(\.count).max() ?? 1
            let titleWidth = min(suggestions.map(\.task.title.count).max() ?? 0, 40)
            for (i, s) in suggestions.enumerated() {
                let id = ids[i].leftPadded(to: idWidth)
                let title = s.reasons.isEmpty ? s.task.title : s.task.title.fitted(to: titleWidth)
                t.out("  \(i + 1). " + t.bold(id) + "  \(title)" + (s.reasons.isEmpty ? "" : t.dim("  " + s.explanation)))
            }
        }
    }
}
