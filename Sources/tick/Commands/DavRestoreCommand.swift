import ArgumentParser
import FoundationEssentials
import TickKit

extension Tick {
    struct DavRestoreCommand: TickCommand {
        static let facts = CommandFacts.writesStore
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "restore",
            abstract: "Send a list's calendar to the server again from tick's copy (after it vanished or was wiped there).",
            discussion: """
            When a calendar is gone from the server (deleted there, or the \
            server lost its data), `tick dav sync` reports it and leaves it \
            alone; the other lists keep syncing. This creates it again and \
            sends every task of the list; where the server holds items \
            again (another machine restored it first), they are merged field \
            by field, the later change winning. To confirm the removal \
            instead, delete the list: `tick lists rm NAME` (the inbox: \
            `tick dav sync --accept-empty inbox`). Of several names, those \
            that are no bridged list's calendar are named and the others \
            restored.

            EXAMPLE
              tick dav restore work
            """))

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The calendar's collection, as `tick dav sync` names it (a list's slug; the inbox is `inbox`).")
        var collections: [String]

        func run() throws {
            let context = try Context(global)
            let sync = context.davSync(try context.config())
            guard FileManager.default.fileExists(atPath: sync.configPath) else { throw DavError.notSetUp(configPath: sync.configPath) }
            let report = try sync.restore(collections, waiting: DavReportText.waiting(sync, context.terminal))
            try DavReportText.show(report, of: sync, on: context.terminal)
            // A name that was refused (the others were restored) is a failure too.
            if !report.refused.isEmpty { throw ExitCode(1) }
        }
    }
}
