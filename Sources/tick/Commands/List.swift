import ArgumentParser
import TickKit

extension Tick {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List tasks, grouped by list, in manual order.",
            discussion: """
            With no LIST, shows every pending (open or active) task, the inbox first, \
            then each list by name. With LIST (a name, a slug, or `inbox`) shows that \
            list only. Overdue tasks are marked with `!` and "overdue"; done tasks \
            (with --all) show [x].

            EXAMPLES
              tick list
              tick list Work --tag urgent
              tick list --all --json | jq '.[] | select(.state == "done") | .title'
            """,
            aliases: ["ls"]
        )

        @OptionGroup var global: GlobalOptions
        @OptionGroup var filters: FilterOptions
        @OptionGroup var output: JSONOption

        @Argument(help: "A list name or slug, or `inbox`.")
        var list: String?

        func run() throws {
            let context = try Context(global)
            var kind: FileKind?
            if let list {
                kind = try context.load().lists.resolve(list)
            }
            try ViewPrinter(context: context).print(
                .list(kind), filter: try filters.filter(), json: output.json, grouped: true,
                emptyMessage: "No tasks. Add one with: tick add Something to do")
        }
    }
}
