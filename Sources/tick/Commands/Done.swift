import ArgumentParser
import TickKit

extension Tick {
    struct Done: TickCommand {
        static let facts = CommandFacts(takesIDs: true, takesFilter: true, writes: true)
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "done",
            abstract: "Mark tasks done; sets completedAt.",
            discussion: """
            Each ID is a short id from a listing (3, 3-7, 3,9) or a UUID prefix (8 hex \
            digits, or 4 with a digit and a letter). Instead of ids, a filter selects the tasks (Docs/CLI.md "Filters"); \
            more than 3 ask first on a terminal and need --yes in a script. Every \
            change bumps the task's modifiedAt; one command is one undo entry.

            EXAMPLES
              tick done 3 7 6f1c
              tick done +errand list:Home
            """))

        @OptionGroup var global: GlobalOptions
        @OptionGroup var tasks: TaskIDs

        func run() throws {
            try tasks.setState(.done, global: global, verb: "Completed", unchanged: "was already done")
        }
    }
}
