import ArgumentParser
import TickKit

extension Tick {
    struct List: TickCommand {
        static let facts = CommandFacts(takesFilter: true)
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "list",
            abstract: "List tasks, grouped by list, in manual order.",
            discussion: """
            With no FILTER, shows every pending (open or active) task, the inbox first, \
            then each list by name. A FILTER narrows it: +tag, -tag, list:NAME, \
            state:done, pri:must, due.before:fri, sched:none, words, /regex/, ids \
            (3, 3-7, 3,9), combined with and (the default), or, not and ( ); see \
            Docs/CLI.md "Filters". One bare word is a list (a name, a slug, or \
            `inbox`), as before filters; a word that names no list matches the \
            text instead (said on stderr), and is an error (exit 3) when no task matches. Overdue tasks are marked with `!` and \
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
        ))

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
            // One bare word is a list, as before filters (`tick list Work`). A word
            // that names no list is the text search it is in a filter (Taskwarrior's
            // `task milk list`) when some task matches, said on stderr so a mistyped
            // list name is noticed; when none does, it is the unknown list (exit 3).
            var empty = "No tasks. Add one with: tick add Something to do"
            if case .all = parsed.expression {} else { empty = "No tasks match \(parsed.line)." }
            if words.count == 1, case .term(let term) = parsed.expression, case .words = term.kind, !words[0].hasPrefix("\"") {
                let lists = try context.load().lists
                do {
                    let kind = try lists.resolve(words[0])
                    try ViewPrinter(context: context).print(
                        .list(kind), filter: try filters.filter(), order: order, json: output.json, grouped: true,
                        emptyMessage: "No tasks. Add one with: tick add Something to do")
                    return
                } catch {
                    guard case .listNotFound(let name, _) = error as? LookupError else { throw error }
                    // Neither a list nor any task's text: the error stays (exit 3), so a typo never looks like "nothing to do".
                    let loaded = try context.load()
                    guard try !loaded.index.run(.list(nil), filter: try filters.filter(), matching: parsed, query: context.query).isEmpty else { throw error }
                    context.terminal.warn("no list named \"\(name)\"; showing tasks whose text matches \"\(name)\" (tick lists shows the lists)")
                }
            }
            try ViewPrinter(context: context).print(
                .list(nil), filter: try filters.filter(), matching: parsed, order: order, json: output.json, grouped: true,
                emptyMessage: empty)
        }
    }
}
