import ArgumentParser
import FoundationEssentials
import TickKit

extension Tick {
    struct BlockAdd: TickCommand {
        static let facts = CommandFacts.writesStore
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "add",
            abstract: "Add a fixed commitment.",
            discussion: """
            WHEN is a time range, `09:00-09:15` (then --days is required), or a day \
            and a time range joined by @: `2026-11-24@14:00-15:00`, \
            `tomorrow@14:00-15:00`, `fri@9am-10am` (a one-off block; any WHEN that \
            names a day works).

            --days takes `weekdays` (Mon-Fri), `weekends`, `daily` (or `every day`), \
            or weekday names: `mon,wed,fri`.

            Blocks may overlap each other. When a new block overlaps tasks already \
            placed on its day, they are kept and a warning names them; move them \
            with `tick edit ID at:TIME`.

            EXAMPLES
              tick block add "Standup" 09:00-09:15 --days weekdays
              tick block add "Lunch" 12:30-13:15 --days daily
              tick block add "Dentist" 2026-11-24@14:00-15:00
              tick block add "Call with Kim" tomorrow@16:00-16:30
            """))

        @OptionGroup var global: GlobalOptions

        @Option(name: .long, help: ArgumentHelp("Repeat weekly on these days: weekdays, weekends, daily, or mon,wed,fri.", valueName: "days"))
        var days: String?

        @Flag(name: .long, help: "Print the new block as JSON.")
        var json = false

        @Argument(help: "What the commitment is.")
        var title: String

        @Argument(help: ArgumentHelp("HH:MM-HH:MM (with --days) or DAY@HH:MM-HH:MM.", valueName: "when"))
        var when: String

        func run() throws {
            let context = try Context(global)
            guard title.contains(where: { !$0.isWhitespace }) else { throw InputError.invalid("a block needs a title, e.g. tick block add \"Standup\" 09:00-09:15 --days weekdays") }
            let (recurrence, range) = try parse(context)
            let now = context.now
            let block = Commitment(id: UUID(), title: title, recurrence: recurrence, start: range.start, end: range.end,
                                   createdAt: now, modifiedAt: now)
            let (number, overlapping) = try BlockEditing(context: context).add(block)
            let t = context.terminal
            if json {
                t.outRaw(JSONOutput.string(BlockJSON.node(block, number: number)))
            } else {
                t.out("Added block \(t.bold(String(number))): \(block.title)  \(block.start)-\(block.end)  \(block.daysText)")
            }
            if !overlapping.isEmpty {
                let ids = try context.resyncIDs()
                let names = overlapping.map { task in
                    let slot = task.slot.map { " \($0.day.iso) \($0.start)-\($0.end)" } ?? ""
                    return (ids.shortID(of: task.id).map(String.init) ?? String(task.id.lowercased.prefix(8))) + slot
                }
                t.warn("\(overlapping.count) placed task(s) overlap this block: \(names.joined(separator: ", ")); move them with `tick edit ID at:TIME`")
            }
        }

        /// The block's days and times from WHEN and --days.
        func parse(_ context: Context) throws -> (Commitment.Recurrence, TimeRange) {
            let text = when.trimmingWhitespace()
            var dayText: String?
            var rangeText = text
            if let at = text.lastIndex(of: "@") {
                dayText = String(text[..<at])
                rangeText = String(text[text.index(after: at)...])
            }
            guard let range = TimeRange(parsing: rangeText) else {
                throw InputError.invalid("\"\(rangeText)\" is not a time range; use HH:MM-HH:MM with the end after the start, e.g. 09:00-09:15")
            }
            if let dayText {
                if days != nil {
                    throw InputError.invalid("--days is for weekly blocks; \(when) is a one-off block on one day. Give one or the other")
                }
                let day: LocalDate
                do { day = try WhenParser(now: context.now, timeZone: context.timeZone).parseDay(dayText) } catch {
                    throw InputError.badDate(key: "WHEN", error)
                }
                return (.once(day), range)
            }
            guard let days else {
                throw InputError.invalid("give --days for a weekly block (e.g. --days weekdays), or a day for a one-off block (e.g. tomorrow@\(rangeText))")
            }
            guard let weekdays = Commitment.parseDays(days) else {
                throw InputError.invalid("--days: \"\(days)\" is not understood; use weekdays, weekends, daily, or weekday names like mon,wed,fri")
            }
            return (.weekly(weekdays), range)
        }
    }
}

/// JSON for blocks: the file's object with its number (`n`) in front and
/// `schedule` ("weekdays", "mon,wed", "2026-11-24") at the end.
enum BlockJSON {
    static func node(_ block: Commitment, number: Int) -> JSONNode {
        guard case .object(let members) = CommitmentFileCodec.node(for: block).kind else { return .object([]) }
        return .object([JSONMember("n", JSONOutput.number(number))] + members + [JSONMember("schedule", .string(block.daysText))])
    }
}
