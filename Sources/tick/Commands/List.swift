import ArgumentParser
import TickKit

extension Tick {
    struct List: TickCommand {
        static let facts = CommandFacts(takesFilter: true)
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List tasks, grouped by list, in manual order.",
            discussion: """
            With no FILTER, shows every pending (open or active) task, the inbox first, \
            then each list by name. A FILTER narrows it: +tag, -tag, list:NAME, \
            state:done, pri:must, due.before:fri, sched:none, words, /regex/, ids \
            (3, 3-7, 3,9), combined with and (the default), or, not and ( ); see \
            Docs/CLI.md "Filters". One bare word is a list (a name, a slug, or \
            `inbox`), as before filters; to match one word of text, quote it as \
            a phrase ('"milk"') or use tick search. Overdue tasks are marked with `!` and \
            "overdue"; done tasks (with --all or state:done) show [x]. --sort \
            prints one flat list in that order.

            EXAMPLES
              tick list
              tick list Work --tag urgent
              tick list +work due.before:eow
              tick list list:Home or +errand --sort due
              tick list state:done completed.after:mon --sort completed-
              tick list --all --json | jq '.[] | select(.state == "done") | .title'
            """,
            aliases: ["ls"]
        )

        @OptionGroup var global: GlobalOptions
        @OptionGroup var filters: FilterOptions
        @OptionGroup var output: JSONOption

        @OptionGroup var order: OrderOptions
        @OptionGroup var filterWords: FilterArguments

        func run() throws {
            let context = try Context(global)
            let pager = context.startPager()
            defer { pager?.finish() }
            let words = filterWords.typed
            let parsed = try filterWords.parsed(context)
            // One bare word is a list, as before filters (`tick list Work`), with
            // the same errors: an unknown list is exit 3, never a text search.
            if words.count == 1, case .term(let term) = parsed.expression, case .words = term.kind, !words[0].hasPrefix("\"") {
                let kind = try context.load().lists.resolve(words[0])
                try ViewPrinter(context: context).print(
                    .list(kind), filter: try filters.filter(), order: order, json: output.json, grouped: true,
                    emptyMessage: "No tasks. Add one with: tick add Something to do")
                return
            }
            var empty = "No tasks. Add one with: tick add Something to do"
            if case .all = parsed.expression {} else { empty = "No tasks match \(parsed.line)." }
            try ViewPrinter(context: context).print(
                .list(nil), filter: try filters.filter(), matching: parsed, order: order, json: output.json, grouped: true,
                emptyMessage: empty)
        }
    }
}
