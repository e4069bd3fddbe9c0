import ArgumentParser
import TickKit

extension Tick {
    struct Stop: TickCommand {
        static let facts = CommandFacts(takesIDs: true, takesFilter: true, writes: true)
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "stop",
            abstract: "Set active tasks back to open (Taskwarrior's stop).",
            discussion: """
            The opposite of `tick start`: an active task goes back to open. A task \
            that is not active is left as it is and reported ("was not active"); \
            a done task is never reopened (that is `tick reopen`). Each ID is a short \
            id from a listing or a UUID prefix, or give a filter (`tick stop +work`). \
            Every change bumps the task's modifiedAt.

            EXAMPLES
              tick stop 3
              tick 3 stop
              tick stop state:active
            """))

        @OptionGroup var global: GlobalOptions
        @OptionGroup var tasks: TaskIDs

        func run() throws {
            let context = try Context(global)
            let results = try TaskMutation(context: context).stop(try tasks.refs(context, states: [.active], verb: "Stop"))
            TaskMutation.report(to: context.terminal, results, verb: "Stopped", unchanged: "was not active", ids: try context.resyncIDs())
        }
    }
}
