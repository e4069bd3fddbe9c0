import ArgumentParser
import Foundation
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
            let t = context.terminal
            let config = try context.config()
            let root = config.dav.resolvedPath(environment: context.environment)
            let bridge = DavBridge(store: context.store, settings: config.dav, root: root, now: context.now, timeZone: context.timeZone)
            let sync = DavSync(bridge: bridge, configPath: DavSetup.configPath(environment: context.environment),
                               environment: context.environment, clock: context.clock)
            guard FileManager.default.fileExists(atPath: sync.configPath) else { throw DavError.notSetUp(configPath: sync.configPath) }
            let report = try sync.restore(collections, waiting: { t.errLine("tick: another CalDAV sync is running (\(root)); waiting for it to finish") })
            for line in DavReportText.lines(report) { t.out(line) }
            for problem in report.problems { t.warn(problem) }
            if DavState.load(root: root)?.lastError != nil { throw ExitCode(1) }
        }
    }
}
