import ArgumentParser
import TickKit

extension Tick {
    struct Move: TickCommand {
        static let facts = CommandFacts(takesIDs: true, takesFilter: true, writes: true)
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "mv",
            abstract: "Move tasks to another list (or `inbox`).",
            discussion: """
            The tasks are appended to the end of LIST. The destination is written \
            before the source, so an interruption can leave a copy but never loses a task. \
            A LIST that does not exist is made first ("Created list Home"; one `tick undo` \
            takes back both), unless its name is one letter away from an existing \
            list's: then tick names that list and moves nothing.

            EXAMPLES
              tick mv 3 5 Work
              tick mv 7 inbox
              tick mv +reading Reading --yes
            """))

        @OptionGroup var global: GlobalOptions

        @Argument(help: ArgumentHelp("The tasks (ids or a filter), then the destination list.", valueName: "id|filter"), completion: ShellCompletion.filter)
        var arguments: [String]

        @Flag(name: [.customShort("y"), .long], help: "Move more than [bulk] confirm tasks selected by a filter without asking.")
        var yes = false

        func validate() throws {
            guard arguments.count >= 2 else { throw ValidationError("give one or more task IDs and a destination list, e.g. tick mv 3 Work") }
        }

        func run() throws {
            let context = try Context(global)
            let words = FilterArguments.unmarked(arguments.dropLast())
            let refs = try BulkSelection(context: context).refs(words, states: [.open, .active], verb: "Move", yes: yes, terminal: context.terminal)
            let (moved, name, created) = try TaskMutation(context: context).move(refs, to: arguments[arguments.count - 1])
            _ = try context.resyncIDs()
            if created { context.terminal.out(Self.createdLine(name)) }
            context.terminal.outLines(Self.lines(moved, to: name, terminal: context.terminal))
        }

        /// `Created list Home`: a list made on first use (`tick mv 3 Home`, `list:Home`).
        static func createdLine(_ name: String) -> String {
            "Created list " + TextRules.visible(name)
        }

        /// `Moved 19 (3f2a9c1e) to Home: title`, or `… is already in Home: title`, per task.
        static func lines(_ moved: [TaskMutation.Outcome], to name: String, terminal: Terminal) -> [String] {
            let confirm = Confirmation(terminal: terminal)
            return moved.map { outcome in
                outcome.changed
                    ? confirm.changed("Moved", outcome.item.task, shortID: outcome.item.shortID, place: "to " + name)
                    : confirm.unchanged(outcome.item.task, shortID: outcome.item.shortID, "is already in " + name)
            }
        }
    }
}
