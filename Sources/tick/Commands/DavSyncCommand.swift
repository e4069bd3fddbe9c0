import ArgumentParser
import FoundationEssentials
import Glibc
import TickKit

extension Tick {
    struct DavSyncCommand: TickCommand {
        static let facts = CommandFacts.writesStore
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "sync",
            abstract: "Sync the store with the CalDAV account (vdir, vdirsyncer, merge).",
            discussion: """
            Runs `vdirsyncer sync`, merges what came down with what changed \
            in the store field by field (the later change of a field wins), \
            completions, deletions and moves included, writes the result into \
            the vdir and runs `vdirsyncer sync` again to send it. Prints counts: \
            items sent and received, tasks merged, fields overridden (with task \
            ids and field names). When the server cannot be reached the store is \
            unchanged by it and tick works as before; `tick status` shows the \
            last success and the last error.

            Calendar by calendar: one that fails never stops the others. A \
            calendar emptied on the phone is applied as the deletes it is; one \
            that vanished from the server (or was wiped there) is reported \
            with `tick dav restore`, which sends tick's copy again; so are \
            several calendars emptied on the server at once (a wiped server: \
            nothing is deleted in tick; `--accept-empty` confirms). A dropped \
            connection is tried again after a short pause. A second sync while \
            one runs waits for it.

            The server is asked for its calendars (a calendar made on the \
            phone or by another machine becomes a list) when a list was added \
            or removed in tick, and otherwise every `[dav] discover` (default \
            5m); `--discover` asks now.
            """))

        @OptionGroup var global: GlobalOptions

        @Option(name: .customLong("accept-empty"), help: ArgumentHelp(
            "A calendar tick reported as emptied on the server with others: delete its tasks in tick too (repeatable).",
            valueName: "collection"))
        var acceptEmpty: [String] = []

        @Flag(help: "Ask the server for its calendars now (a calendar made on the phone becomes a list), not at the next `[dav] discover` interval.")
        var discover = false

        func run() throws {
            let context = try Context(global)
            let sync = context.davSync(try context.config())
            let report = try sync.run(accepting: Set(acceptEmpty), discovering: discover, waiting: DavReportText.waiting(sync, context.terminal))
            try DavReportText.show(report, of: sync, on: context.terminal)
        }
    }
}

/// How `tick dav sync` and `tick watch` print a report: counts, then the
/// overridden fields by task id (never titles).
enum DavReportText {
    /// What a sync says while another one holds the bridge's lock.
    static func waiting(_ sync: DavSync, _ t: Terminal) -> () -> Void {
        { t.errLine("tick: another CalDAV sync is running (\(sync.bridge.root)); waiting for it to finish") }
    }

    /// Prints a finished sync's counts and problems; a calendar that did not
    /// sync (the others did) is exit status 1.
    static func show(_ report: DavReport, of sync: DavSync, on t: Terminal) throws {
        for line in lines(report) { t.out(line) }
        for problem in report.problems { t.warn(problem) }
        if DavState.load(root: sync.bridge.root)?.lastError != nil { throw ExitCode(1) }
    }

    static func lines(_ report: DavReport) -> [String] {
        var lines = ["CalDAV: \(report.sent) sent, \(report.received) received, \(report.merged) merged, \(report.overridden.count) overridden"
            + (report.added + report.deleted + report.moved > 0 ? " (\(report.added) added, \(report.deleted) deleted, \(report.moved) moved)" : "")]
        for o in report.overridden {
            lines.append("  overridden: \(String(o.task.uuidString.lowercased().prefix(8))) \(o.field)")
        }
        for c in report.renamedLists {
            lines.append("  renamed on another end: the list of calendar \(c)")
        }
        for c in report.removedElsewhere {
            lines.append("  removed on another end: the list of calendar \(c) (it was empty here)")
        }
        for id in report.kept {
            lines.append("  kept \(String(id.lowercased.prefix(8))): changed here after it was deleted elsewhere; sent again")
        }
        return lines
    }
}

extension Context {
    /// The CalDAV sync of this store, as the user's configuration sets it up.
    func davSync(_ config: TickConfig) -> DavSync {
        let root = config.dav.resolvedPath(environment: environment)
        let bridge = DavBridge(store: store, settings: config.dav, root: root, now: now, timeZone: timeZone, fields: config.fields)
        return DavSync(bridge: bridge, configPath: DavSetup.configPath(environment: environment), environment: environment, clock: clock)
    }
}
