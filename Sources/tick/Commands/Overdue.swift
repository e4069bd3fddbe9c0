import ArgumentParser
import TickKit

extension Tick {
    struct Overdue: TickCommand {
        static let facts = CommandFacts(takesFilter: true)
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "overdue",
            abstract: "Pending tasks whose due date has passed.",
            discussion: "EXAMPLE\n  tick overdue --json | jq length"))

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
                .overdue, filter: try filters.filter(), matching: try filterWords.parsed(context), order: order, json: output.json, grouped: false,
                emptyMessage: "Nothing overdue.")
        }
    }
}
