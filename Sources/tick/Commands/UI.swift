import ArgumentParser
import FoundationEssentials
import Glibc
import TickKit

extension Tick {
    struct UI: TickCommand {
        static let facts = CommandFacts(takesFilter: true, writes: true)
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "ui",
            abstract: "A full-screen terminal UI: views, a capture line, live over the files.",
            discussion: """
            Opens the store on one screen: the views (Inbox, Today, Upcoming, each \
            list) as tabs, the tasks of the current view marked as listings mark them, \
            a details pane (Enter), a status line and an input line that has the focus: \
            type quick-add words and press Enter to add a task (to the list shown, the \
            inbox in date views, due today in Today). Tab or Esc moves to the rows; a \
            or Tab comes back. Changes made anywhere else (another tick, an editor, git \
            pull, Syncthing) show at once. Every write goes through the same code as \
            the commands and is undone with u (or `tick undo`). ? lists every key; \
            Docs/UI.md has the screen.

            A FILTER (as `tick list` takes it) is every tab's starting filter; / \
            changes the current tab's (typed first on the input line too: // types \
            a slash).

            EXAMPLES
              tick ui
              tick ui +work
            """))

        @OptionGroup var global: GlobalOptions
        @OptionGroup var filterWords: FilterArguments

        func run() throws {
            let context = try Context(global)
            guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
                throw CLIError("tick ui needs a terminal on stdin and stdout; in scripts use tick list, today or --json", status: .usage)
            }
            // A bad filter is refused before the screen opens.
            _ = try filterWords.parsed(context)
            let session = try UISession(context: context, global: global, filter: filterWords.typed.joined(separator: " "))
            session.run()
        }
    }
}
