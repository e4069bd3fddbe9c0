import ArgumentParser
import TickKit

extension Tick {
    struct Start: TickCommand {
        static let facts = CommandFacts(takesIDs: true, takesFilter: true, writes: true)
        static let configuration = CommandConfiguration(
            commandName: "start",
            abstract: "Mark tasks active (in progress).",
            discussion: """
            Each ID is a short id from a listing or a UUID prefix (8 hex digits, or 4 \
            with a digit and a letter). \
            Every change bumps the task's modifiedAt.

            EXAMPLE
              tick start 3
            """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var tasks: TaskIDs

        func run() throws {
            try tasks.setState(.active, global: global, verb: "Started", unchanged: "was already active")
        }
    }
}
