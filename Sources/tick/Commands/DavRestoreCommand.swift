import ArgumentParser
import FoundationEssentials
import TickKit

extension Tick {
    struct DavRestoreCommand: TickCommand {
        static let facts = CommandFacts.writesStore
        static let configuration = CommandConfiguration(
            commandName: "restore",
            abstract: "Send a list's calendar to the server again from tick's copy (after it vanished or was wiped there).",
            discussion: """
            When a calendar is gone from the server (deleted there, or the \\
            server lost its data), `tick dav sync` reports it and leaves it \\
            alone; the other lists keep syncing. This creates it again and \\
            sends every task of the list. To confirm the removal instead, \\
            delete the list: `tick lists rm NAME`.

            EXAMPLE
              tick dav restore work
            """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The calendar's collection, as `tick dav sync` names it (a list's slug; the inbox is `inbox`).")
        var collections: [String]

        func run() throws {
            let context = try Context(global)
            let sync = context.davSync(try context.config())
            guard FileManager.default.fileExists(atPath: sync.configPath) else { throw DavError.notSetUp(configPath: sync.configPath) }
            let report = try sync.restore(collections, waiting: DavReportText.waiting(sync, context.terminal))
            try DavReportText.show(report, of: sync, on: context.terminal)
        }
    }
}
