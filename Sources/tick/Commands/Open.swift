import ArgumentParser
import TickKit

extension Tick {
    struct Open: TickCommand {
        static let facts = CommandFacts(takesIDs: true)
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "open",
            abstract: "Show a task, or open it in $VISUAL/$EDITOR (a click target for status bars).",
            discussion: """
            Without --edit this prints the task as `tick show ID` does; with --edit \
            it opens the task's JSON in $VISUAL or $EDITOR as `tick edit ID` does.

            EXAMPLES
              tick open 3
              tick open 3 --edit
            """))

        @OptionGroup var global: GlobalOptions

        @Flag(name: .long, help: "Open the task in $VISUAL or $EDITOR, like `tick edit ID`.")
        var edit = false

        @Argument(help: "The task: a short id or a prefix of its UUID (8 hex digits, or 4 with a digit and a letter).", completion: ShellCompletion.tasks)
        var id: String

        func run() throws {
            if edit {
                let context = try Context(global)
                let loaded = try context.load()
                let item = try loaded.tasks.resolve(id)
                try EditorSession(context: context, item: item).run(context: context)
                return
            }
            var args: [String] = []
            if let store = global.store { args += ["--store", store] }
            if global.noColor { args.append("--no-color") }
            let show = try Show.parse(args + ["--", id])
            try show.run()
        }
    }
}
