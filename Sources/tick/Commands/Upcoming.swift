import ArgumentParser
import TickKit

extension Tick {
    struct Upcoming: TickCommand {
        static let facts = CommandFacts(takesFilter: true)
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "upcoming",
            abstract: "Tasks due or scheduled in the next days (after today).",
            discussion: "EXAMPLES\n  tick upcoming\n  tick upcoming --days 30 --json"))

        @OptionGroup var global: GlobalOptions
        @OptionGroup var filters: FilterOptions
        @OptionGroup var output: JSONOption
        @OptionGroup var order: OrderOptions
        @OptionGroup var filterWords: FilterArguments

        @Option(name: .long, help: "How many days ahead to look.")
        var days = 7

        func validate() throws {
            guard days >= 1 else { throw ValidationError("--days must be 1 or more") }
        }

        func run() throws {
            let context = try Context(global)
            let pager = context.startPager()
            defer { pager?.finish() }
            try ViewPrinter(context: context).print(
                .upcoming(days: days), filter: try filters.filter(), matching: try filterWords.parsed(context), order: order, json: output.json, grouped: false,
                emptyMessage: "Nothing due in the next \(days) days.")
        }
    }
}
