import ArgumentParser
import TickKit

extension Tick {
    struct Start: TickCommand {
        static let facts = CommandFacts(takesIDs: true, takesFilter: true, writes: true)
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "start",
            abstract: "Mark tasks active (in progress).",
            discussion: """
            Each ID is a short id from a listing or a UUID prefix (8 hex digits, or 4 \
            with a digit and a letter). \
            Every change bumps the task's modifiedAt.

            A done task is not started: a done task keeps its short id for a day,             so `tick 3 start` typed for another task would reopen it. tick says so             and changes nothing (exit 1); --reopen reopens and starts it. `tick stop`             sets an active task back to open.

            EXAMPLES
              tick start 3
              tick start --reopen 3
            """))

        @OptionGroup var global: GlobalOptions
        @OptionGroup var tasks: TaskIDs

        @Flag(name: .long, help: "Reopen a done task and start it (a done task is refused without it).")
        var reopen = false

        func run() throws {
            try tasks.setState(.active, global: global, verb: "Started", unchanged: "was already active", reopening: reopen)
        }
    }
}
