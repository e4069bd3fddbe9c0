import ArgumentParser
import FoundationEssentials
import TickKit

extension Tick {
    struct BlockRemove: TickCommand {
        static let facts = CommandFacts.writesStore
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "rm",
            abstract: "Remove fixed commitments.",
            discussion: """
            ID is the block's number in `tick blocks` (its position in blocks.json) \
            or 4+ hex digits of its id. Several may be given; all are resolved \
            before anything is removed, so numbers do not shift under you.

            EXAMPLES
              tick block rm 2
              tick block rm 1 3
              tick block rm 6f1c
            """))

        @OptionGroup var global: GlobalOptions

        @Argument(help: ArgumentHelp("Block numbers or id prefixes.", valueName: "id"))
        var ids: [String] = []

        func validate() throws {
            guard !ids.isEmpty else { throw ValidationError("give the block to remove: its number in `tick blocks` or an id prefix") }
        }

        func run() throws {
            let context = try Context(global)
            let removed = try BlockEditing(context: context).remove(ids)
            let t = context.terminal
            for block in removed {
                t.out("Removed block \(t.bold(String(block.id.lowercased.prefix(8)))): \(block.title)  \(block.start)-\(block.end)  \(block.daysText)")
            }
        }
    }
}
