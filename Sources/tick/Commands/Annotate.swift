import ArgumentParser
import TickKit

extension Tick {
    struct Annotate: TickCommand {
        static let facts = CommandFacts(takesIDs: true, writes: true)
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "annotate",
            abstract: "Append a dated line to a task's notes (Taskwarrior's annotate).",
            discussion: """
            Appends `YYYY-MM-DD HH:MM TEXT` (now, local time) as a new last line of the \
            notes; what the notes held stays. The words after the id are the text, \
            joined by spaces. `tick ID annotate TEXT` works too. Exported to Taskwarrior, \
            such lines are annotations with their time, and Taskwarrior's annotations \
            import as such lines. To replace the notes: `tick edit ID --note TEXT`.

            EXAMPLES
              tick annotate 3 Called, left a message
              tick 3 annotate "waiting for the quote"
            """))

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The task (a short id or UUID prefix).", completion: ShellCompletion.tasks)
        var id: String

        @Argument(help: "The text of the line.")
        var text: [String] = []

        func validate() throws {
            guard !text.joined().trimmingWhitespace().isEmpty else { throw ValidationError("give the text to append: tick annotate ID TEXT") }
        }

        func run() throws {
            let context = try Context(global)
            var edit = TaskEdit()
            edit.appendNotes = [Annotation(at: context.now, text: text.joined(separator: " ")).line(in: context.timeZone)]
            if let problem = edit.textProblem { throw InputError.invalid(problem) }
            let edited = try TaskMutation(context: context).edit(try TaskReference.task(id), with: edit)
            context.terminal.out(TaskMutation.line(edited, terminal: context.terminal))
        }
    }
}
