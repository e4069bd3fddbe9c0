import ArgumentParser
import TickKit

extension Tick {
    struct Today: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Tasks due or scheduled today, plus everything overdue.",
            discussion: """
            Shows pending tasks that are due today, scheduled for today or earlier, \
            or overdue, soonest first. tick never moves a date by itself: an overdue \
            task stays here, marked `!` and "Nd overdue", until you decide.

            EXAMPLES
              tick today
              tick today --tag work --json
            """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var filters: FilterOptions
        @OptionGroup var output: JSONOption

        func run() throws {
            let context = try Context(global)
            try ViewPrinter(context: context).print(
                .today, filter: try filters.filter(), json: output.json, grouped: false,
                emptyMessage: "Nothing due today.")
        }
    }

    struct Upcoming: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Tasks due or scheduled in the next days (after today).",
            discussion: "EXAMPLES\n  tick upcoming\n  tick upcoming --days 30 --json")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var filters: FilterOptions
        @OptionGroup var output: JSONOption

        @Option(name: .long, help: "How many days ahead to look.")
        var days = 7

        func validate() throws {
            guard days >= 1 else { throw ValidationError("--days must be at least 1") }
        }

        func run() throws {
            let context = try Context(global)
            try ViewPrinter(context: context).print(
                .upcoming(days: days), filter: try filters.filter(), json: output.json, grouped: false,
                emptyMessage: "Nothing due in the next \(days) days.")
        }
    }

    struct Overdue: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Pending tasks whose due date has passed.",
            discussion: "EXAMPLE\n  tick overdue --json | jq length")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var filters: FilterOptions
        @OptionGroup var output: JSONOption

        func run() throws {
            let context = try Context(global)
            try ViewPrinter(context: context).print(
                .overdue, filter: try filters.filter(), json: output.json, grouped: false,
                emptyMessage: "Nothing overdue.")
        }
    }
}
