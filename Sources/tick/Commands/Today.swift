import ArgumentParser
import TickKit

extension Tick {
    struct Today: TickCommand {
        static let facts = CommandFacts(takesFilter: true)
        static let configuration = CommandConfiguration(
            commandName: "today",
            abstract: "What needs you today: due, scheduled, reminding, started or overdue.",
            discussion: """
            Shows pending tasks that are due today, scheduled for today or earlier, \
            reminding today, started (active), or overdue. tick never \
            moves a date by itself: an overdue task stays here, marked `!` and \
            "Nd overdue", until you decide. `tick` with no command shows this view.

            ORDER
            As the day runs: each task sorts by its earliest moment (its due time, \
            the end of its due or scheduled day, today's reminder); a placed task \
            (`tick plan --auto`, `at:`) at its slot's start. So unplaced overdue work \
            comes first, then placed tasks in slot order among timed tasks, then the \
            rest of today, then undated started tasks; ties keep list order.

            EXAMPLES
              tick today
              tick today --tag work --json
            """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var filters: FilterOptions
        @OptionGroup var output: JSONOption
        @OptionGroup var order: OrderOptions
        @OptionGroup var filterWords: FilterArguments

        func run() throws {
            let context = try Context(global)
            let pager = context.startPager()
            defer { pager?.finish() }
            try ViewPrinter(context: context).print(
                .today, filter: try filters.filter(), matching: try filterWords.parsed(context), order: order, json: output.json, grouped: false,
                emptyMessage: "Nothing due today.")
        }
    }
}
