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

        @Argument(help: "The tasks.")
        var ids: [String]

        func validate() throws {
            guard !ids.isEmpty else { throw ValidationError("give at least one task ID") }
        }

        func run() throws {
            let context = try Context(global)
            let mutation = TaskMutation(context: context)
            let results = try mutation.apply(ids) { task, now in
                guard task.setState(.done, at: now) else { return false }
                task.modifiedAt = now
                return true
            }
            let ids = try context.resyncIDs()
            mutation.report(results, verb: "Completed", unchanged: "was already done", ids: nil)
        }
    }
}
