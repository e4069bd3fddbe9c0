import ArgumentParser
import TickKit

extension Tick {
    struct Block: TickCommand {
        static let facts = CommandFacts.reads
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "block",
            abstract: "Fixed commitments (time blocks): add, list and remove them.",
            discussion: """
            Commitments are the parts of a day that are not yours to plan: a daily \
            standup, a dentist visit. They live in the store, in blocks.json (see \
            Docs/FORMAT.md), so they sync with your tasks. `tick plan` shows them, \
            `tick plan --auto` and `tick suggest` plan around them, and placing a \
            task over one (`tick edit ID at:TIME`) is refused.

            A block is weekly (`09:00-09:15 --days weekdays`) or one-off \
            (`2026-11-24@14:00-15:00`, `tomorrow@14:00-15:00`). Blocks are numbered \
            by their position in blocks.json, as `tick blocks` shows; `tick block rm` \
            takes that number or 4+ hex digits of the block's id.

            EXAMPLES
              tick block add "Standup" 09:00-09:15 --days weekdays
              tick block add "Gym" 18:00-19:30 --days mon,wed,fri
              tick block add "Dentist" 2026-11-24@14:00-15:00
              tick block ls
              tick blocks tomorrow
              tick block rm 2
            """,
            subcommands: [BlockAdd.self, BlockList.self, BlockRemove.self],
            defaultSubcommand: BlockList.self
        ))
    }
}
