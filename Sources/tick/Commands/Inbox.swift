import ArgumentParser
import TickKit

extension Tick {
    struct Inbox: TickCommand {
        static let facts = CommandFacts(takesFilter: true)
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "inbox",
            abstract: "List the tasks in no list (inbox.json).",
            discussion: "Same as `tick list inbox`.\n\nEXAMPLE\n  tick inbox --json"))

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
                .list(.inbox), filter: try filters.filter(), matching: try filterWords.parsed(context), order: order, json: output.json, grouped: true,
                emptyMessage: "Inbox is empty.")
        }
    }
}
