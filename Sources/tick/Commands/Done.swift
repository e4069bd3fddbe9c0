import ArgumentParser
import TickKit

extension Tick {
    struct Done: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mark tasks done; sets completedAt.",
            discussion: """
            Each ID is a short id from a listing or 4+ hex digits of a UUID. \
            Every change bumps the task's modifiedAt.

            EXAMPLE
              tick done 3 7 6f1c
            """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var tasks: TaskIDs

        func run() throws {
            try tasks.setState(.done, global: global, verb: "Completed", unchanged: "was already done")
        }
    }
}
