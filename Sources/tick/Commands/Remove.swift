import ArgumentParser
import FoundationEssentials
import TickKit

extension Tick {
    struct Remove: TickCommand {
        static let facts = CommandFacts(takesIDs: true, takesFilter: true, writes: true)
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "rm",
            abstract: "Delete tasks.",
            discussion: """
            Removes the tasks from their files. With git or Syncthing versioning the \
            old lines remain in history. Tasks that depended on a removed task lose \
            that dependency in the same change, with one warning each.

            EXAMPLE
              tick rm 4 9
              tick rm +spam state:open --yes
            """,
            aliases: ["delete"]))

        @OptionGroup var global: GlobalOptions

        @OptionGroup var tasks: TaskIDs

        func run() throws {
            let context = try Context(global)
            let refs = try tasks.refs(context, verb: "Delete")
            let removal = try TaskMutation(context: context).remove(refs)
            let items = removal.removed
            TaskMutation.warnings(removal).forEach(context.terminal.warn)
            TaskMutation.report(to: context.terminal, items.map { .init(item: $0, changed: true) }, verb: "Deleted", unchanged: "")
            _ = try context.resyncIDs()
        }
    }
}
