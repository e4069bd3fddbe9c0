import ArgumentParser
import TickKit

extension Tick {
    struct Search: TickCommand {
        static let facts = CommandFacts.reads
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "search",
            abstract: "Full-text search over titles, notes and tags.",
            discussion: """
            Every term must match, case-insensitively, somewhere in a task's title,
            notes or tags. A plain word matches anywhere, even inside another word,
            as `grep -i` would; `"a phrase"` matches those words together; `mil*`
            matches words that start with "mil". Results are ranked (title matches
            first) and include done tasks unless --state says otherwise. Waiting tasks
            (wait: in the future) are left out unless --all is given. --archived also
            searches the archive (after the live tasks; JSON "file" is archive/YYYY.json).

            Exit status, as grep: 0 when something matched, 1 when nothing did \
            (`No matches.`, or `[]` with --json), 2 for a bad query.

            EXAMPLES
              tick search milk
              tick search '"expense report"' --list Work
              tick search 'deploy*' --state open,active --json
              tick search --archived passport
            """))

        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: JSONOption

        @Option(name: .long, help: ArgumentHelp("Only tasks in this list (or `inbox`).", valueName: "name"),
                completion: ShellCompletion.listsOrInbox)
        var list: String?

        @Option(name: .long, help: ArgumentHelp("Only tasks in these states (open, active, done; comma-separated). Default: all.", valueName: "states"),
                completion: .list(["open", "active", "done", "open,active"]))
        var state: String?

        @Option(name: .long, help: ArgumentHelp("Only tasks with this tag (repeatable).", valueName: "tag"),
                completion: ShellCompletion.tags)
        var tag: [String] = []

        @Flag(name: .long, help: "Include waiting tasks (wait: in the future).")
        var all = false

        @Option(name: .long, help: ArgumentHelp("At most this many results.", valueName: "n"))
        var limit: Int?

        @Flag(name: .long, help: "Also search the archive (archive/*.json, see `tick archive`).")
        var archived = false

        @Argument(help: "Words, \"phrases\" and prefix* terms.")
        var query: [String]

        func validate() throws {
            if let limit, limit < 1 { throw ValidationError("--limit must be 1 or more") }
        }

        func run() throws {
            let context = try Context(global)
            let pager = context.startPager()
            defer { pager?.finish() }
            let search = try SearchQuery(query.joined(separator: " "))
            var filter = try FilterOptions.filter(all: true, state: state, tags: tag)
            filter.showWaiting = all
            let loaded = try context.load()
            let kind = try list.map { try loaded.lists.resolve($0) }
            context.warnUnreadable(loaded.broken)
            let t = context.terminal
            if !archived, limit == nil, output.json || t.width == nil {
                // Streamed: rows go from the index to stdout without a task array (PERFORMANCE.md, "Streaming").
                let printer = StreamPrinter(terminal: t, renderer: TaskRenderer(terminal: t, dates: context.dates, query: context.query))
                let printed = try printer.print(json: output.json, grouped: false, emptyMessage: "No matches.") { render in
                    try loaded.index.streamSearch(search, filter: filter, list: kind, query: context.query, render: render)
                }
                if printed == 0 { throw ExitCode(1) }
                return
            }
            var items = try loaded.index.search(search, filter: filter, list: kind, limit: limit, query: context.query)
            if archived {
                // Decoded on demand: archive files are not indexed (Docs/DECISIONS.md, Archive).
                let snapshot = try context.store.archiveSnapshot()
                context.warnUnreadable(snapshot.broken)
                let found = ArchivedTasks(files: snapshot.files).search(search, filter: filter, origin: kind)
                for hit in found {
                    let origin = ArchivePlan.origin(of: hit.task)
                    items.append(ListedTask(task: hit.task, kind: hit.kind, listName: origin.map { loaded.name(of: $0) } ?? "Archive", shortID: nil))
                }
                if let limit { items = Array(items.prefix(limit)) }
            }
            if output.json {
                t.outRaw(JSONOutput.tasks(items))
            } else if items.isEmpty {
                t.out(t.dim("No matches."))
            } else {
                // Archived tasks show their list as "Work, archived".
                let shown = items.map { item -> ListedTask in
                    guard item.kind.isArchive else { return item }
                    var copy = item
                    copy.listName += ", archived"
                    return copy
                }
                t.outLines(TaskRenderer(terminal: t, dates: context.dates, query: context.query).flat(shown))
            }
            // As grep does: no match is exit 1 (with --json too), so `tick search x && ...` works.
            if items.isEmpty { throw ExitCode(1) }
        }
    }
}
