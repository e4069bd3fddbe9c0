import ArgumentParser
import FoundationEssentials
import Glibc
import TickKit

extension Tick {
    struct Report: TickCommand {
        static let facts = CommandFacts(takesFilter: true)
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "report",
            abstract: "Run a saved listing from config.toml ([reports.NAME]); `tick NAME` does the same.",
            discussion: """
            A report is a filter with an order and a length, saved in config.toml:

              [reports.next]
              filter = "pri:must or due.by:tomorrow"
              sort = "due,pri"
              limit = 10
              columns = ["id", "title", "due", "list"]
              description = "What to do next"

            `tick next` (or `tick report next`) then lists those tasks; more FILTER \
            words narrow it further, and --sort/--limit given here win. With no NAME, \
            lists the reports. The active context applies, as to every listing.

            EXAMPLES
              tick next
              tick next +work --json
              tick report
            """))

        @OptionGroup var global: GlobalOptions
        @OptionGroup var filters: FilterOptions
        @OptionGroup var output: JSONOption
        @OptionGroup var order: OrderOptions

        @Argument(help: ArgumentHelp("The report's name.", valueName: "name"))
        var name: String?

        @OptionGroup var filterWords: FilterArguments

        func run() throws {
            let context = try Context(global)
            let pager = context.startPager()
            defer { pager?.finish() }
            let config = try context.config()
            guard let name else {
                let t = context.terminal
                if config.reports.isEmpty { t.out("No reports. Define one in config.toml as [reports.NAME] with filter = \"…\" (see tick help report).") }
                for (name, report) in config.reports.sorted(by: { $0.key < $1.key }) {
                    t.out(t.bold(name) + "  " + (report.description ?? report.filter))
                }
                return
            }
            guard let report = config.reports[name] else {
                var message = "no report named \(name) in config.toml"
                if let guess = Spelling.closest(to: name, among: Array(config.reports.keys)) { message += " (did you mean \(guess)?)" }
                throw CLIError(message + "; see tick report", status: .notFound)
            }
            let parser = try context.filterParser()
            let saved: ParsedFilter
            do {
                saved = try parser.parse([report.filter])
            } catch {
                throw CLIError("reports.\(name).filter in config.toml: \(error.report)", status: .usage)
            }
            if let columns = report.columns { try ColumnRenderer.check(columns, report: name, userFields: config.fields) }
            var order = order
            if order.sort == nil { order.sort = report.sort }
            if order.limit == nil { order.limit = report.limit }
            try ViewPrinter(context: context).print(
                .list(nil), filter: try filters.filter(), matching: try filterWords.parsed(context).and(saved, label: "report \(name)"),
                order: order, json: output.json, grouped: order.sort == nil,
                emptyMessage: "No tasks in report \(name).", columns: report.columns)
        }

        /// `tick NAME` for a report NAME that is not a command: `tick report NAME`.
        static func rewriting(_ args: [String], environment: [String: String]) -> [String] {
            guard let word = args.first, !word.hasPrefix("-"), word != "help",
                  !CommandSuggestion.names(of: Tick.self).contains(word),
                  let config = try? TickConfig.load(environment: environment), config.reports[word] != nil
            else { return args }
            return ["report"] + args
        }
    }
}
