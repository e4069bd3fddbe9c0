import ArgumentParser
import TickKit

extension Tick {
    struct Reorder: TickCommand {
        static let facts = CommandFacts(takesIDs: true, writes: true)
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "reorder",
            abstract: "Move a task within its list's manual order.",
            discussion: """
            The order of the `tasks` array is the manual order, so this moves the \
            task's lines in the file. The anchor of --before/--after must be in the same list.

            EXAMPLES
              tick reorder 5 --top
              tick reorder 5 --after 2
            """))

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The task to move.", completion: ShellCompletion.tasks)
        var id: String

        @Flag(name: .long, help: "Move to the top of its list.")
        var top = false

        @Flag(name: .long, help: "Move to the bottom of its list.")
        var bottom = false

        @Option(name: .long, help: ArgumentHelp("Put it just before this task.", valueName: "id"), completion: ShellCompletion.tasks)
        var before: String?

        @Option(name: .long, help: ArgumentHelp("Put it just after this task.", valueName: "id"), completion: ShellCompletion.tasks)
        var after: String?

        func validate() throws {
            let chosen = [top, bottom, before != nil, after != nil].filter { $0 }.count
            guard chosen == 1 else { throw ValidationError("give exactly one of --top, --bottom, --before ID, --after ID") }
        }

        func run() throws {
            let context = try Context(global)
            let target: TaskMutation.ReorderTarget = try top ? .top : bottom ? .bottom
                : before.map { .before(try TaskReference.task($0)) } ?? .after(try TaskReference.task(after ?? ""))
            let outcome = try TaskMutation(context: context).reorder(try TaskReference.task(id), to: target)
            TaskMutation.report(to: context.terminal, [outcome], verb: "Reordered", unchanged: "is already there",
                                                   place: { "in " + $0.listName })
        }
    }
}
