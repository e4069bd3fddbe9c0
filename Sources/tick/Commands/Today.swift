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
}
