import ArgumentParser
import TickKit

extension Tick {
    struct Reopen: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set tasks back to open; clears completedAt.",
            discussion: """
            Each ID is a short id from a listing or 4+ hex digits of a UUID. \
            Every change bumps the task's modifiedAt.

            EXAMPLE
              tick reopen 6f1c2a
            """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var tasks: TaskIDs

        func run() throws {
            try tasks.setState(.open, global: global, verb: "Reopened", unchanged: "was already open")
        }
    }
}
