import ArgumentParser
import TickKit

extension Tick {
    struct Git: TickCommand {
        static let facts = CommandFacts.outsideTheJournal
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "git",
            abstract: "Use git to sync the store (merge driver setup).",
            discussion: """
            With `tick git setup`, git merges task files task by task and field by \
            field (`tick merge-driver`) instead of line by line, so edits made on two \
            machines merge without conflict markers. Then `tick sync` commits, pulls \
            and pushes in one step.

            EXAMPLES
              tick git setup
              tick init --git ~/tasks
            """,
            subcommands: [GitSetup.self]
        ))
    }
}
