import ArgumentParser
import TickKit

extension Tick {
    struct Lists: TickCommand {
        static let facts = CommandFacts.reads
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "lists",
            abstract: "Show lists with their counts, or add, rename and remove lists.",
            discussion: """
            Each list is one file, lists/<slug>.json; the slug comes from the name \
            when the list is created and stays the same when it is renamed, so that \
            git and Syncthing keep merging the same file.

            EXAMPLES
              tick lists
              tick lists add "Side project" --color "#8b5cf6"
              tick lists rename "Side project" Garden
              tick lists rm Garden --yes
            """,
            subcommands: [ListsShow.self, ListsAdd.self, ListsRename.self, ListsRemove.self],
            defaultSubcommand: ListsShow.self
        ))
    }
}
