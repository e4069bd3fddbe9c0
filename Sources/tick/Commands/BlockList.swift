import ArgumentParser
import FoundationEssentials
import TickKit

extension Tick {
    struct BlockList: TickCommand {
        static let facts = CommandFacts.reads
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "ls",
            abstract: "List fixed commitments (all, or those on DAY).",
            discussion: """
            Without DAY, every block in blocks.json, numbered by position (the \
            number `tick block rm` takes). With DAY (any WHEN naming a day), only \
            the blocks on that day, by start time, with the same numbers. \
            `tick blocks` is the same command.

            EXAMPLES
              tick blocks
              tick blocks tomorrow
              tick block ls 2026-11-24 --json
            """))

        @OptionGroup var global: GlobalOptions
        @OptionGroup var listing: BlockListing

        func run() throws {
            try listing.run(global: global)
        }
    }
}

/// The arguments and the work of `tick block ls` and `tick blocks`.
struct BlockListing: ParsableArguments {
    @OptionGroup var output: JSONOption

    @Argument(help: ArgumentHelp("Only blocks on this day.", valueName: "day"))
    var day: String?

    func run(global: GlobalOptions) throws {
        let json = output.json
        let dayText = day
        let context = try Context(global)
        let file = try context.store.commitments()
        var numbered = Array(file.blocks.enumerated().map { (number: $0.offset + 1, block: $0.element) })
        var day: LocalDate?
        if let dayText {
            do { day = try WhenParser(now: context.now, timeZone: context.timeZone).parseDay(dayText) } catch {
                throw InputError.badDate(key: "DAY", error)
            }
        }
        if let day {
            numbered = numbered.filter { $0.block.occurs(on: day) }
                .sorted { ($0.block.start, $0.block.end, $0.number) < ($1.block.start, $1.block.end, $1.number) }
        }
        let t = context.terminal
        if json {
            t.outRaw(JSONOutput.string(.array(numbered.map { BlockJSON.node($0.block, number: $0.number) })))
            return
        }
        if numbered.isEmpty {
            if let day {
                t.out("No blocks on \(SlotGuard.dayName(day)).")
            } else {
                t.out("No blocks yet. Add one: tick block add \"Standup\" 09:00-09:15 --days weekdays")
            }
            return
        }
        if let day { t.out(t.bold(SlotGuard.dayName(day))) }
        let numberWidth = numbered.map { String($0.number).count }.max() ?? 1
        let titleWidth = min(numbered.map { CellWidth.of(TextRules.visible($0.block.title)) }.max() ?? 0, 40)
        let today = LocalDate(date: context.now, timeZone: context.timeZone)
        for (number, block) in numbered {
            let n = String(number)
            var when = block.daysText
            if case .once(let d) = block.recurrence {
                when = SlotGuard.dayName(d) + (d < today ? " (past)" : "")
            }
            let title = CellWidth.truncated(TextRules.visible(block.title), to: titleWidth)
            t.out(String(repeating: " ", count: numberWidth - n.count) + t.bold(n) + "  "
                  + "\(block.start)-\(block.end)  "
                  + CellWidth.padded(title, to: titleWidth) + "  " + t.dim(when))
        }
    }
}
