import ArgumentParser
import TickKit

extension Tick {
    struct Blocks: TickCommand {
        static let facts = CommandFacts.reads
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "blocks",
            abstract: "List fixed commitments (same as `tick block ls`).",
            discussion: """
            Every block in blocks.json, numbered by position, or with DAY only the \
            blocks on that day. See `tick block --help`.

            EXAMPLES
              tick blocks
              tick blocks mon
              tick blocks --json
            """))

        @OptionGroup var global: GlobalOptions
        @OptionGroup var listing: BlockListing

        func run() throws {
            try listing.run(global: global)
        }
    }
}
