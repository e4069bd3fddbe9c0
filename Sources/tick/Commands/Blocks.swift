import ArgumentParser
import TickKit

extension Tick {
    struct Blocks: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List fixed commitments (same as `tick block ls`).",
            discussion: """
            Every block in blocks.json, numbered by position, or with DAY only the \
            blocks on that day. See `tick block --help`.

            EXAMPLES
              tick blocks
              tick blocks mon
              tick blocks --json
            """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: JSONOption

        @Argument(help: ArgumentHelp("Only blocks on this day.", valueName: "day"))
        var day: String?

        func run() throws {
            try BlockListing.run(global: global, json: output.json, day: day)
        }
    }
}
