import ArgumentParser
import FoundationEssentials
import Glibc
import TickKit

extension Tick {
    struct Status: TickCommand {
        static let facts = CommandFacts.reads
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "status",
            abstract: "Show the store, the index, the watcher and unreadable files.",
            discussion: """
            Reports the store path and its task and list counts, whether the index
            was fresh (no file changed since it was last updated), whether a watcher
            is running (and its pid), which files cannot be parsed right now, and
            pending conflicts (Syncthing conflict copies, files with git conflict
            markers) that `tick resolve` would merge (the text line appears only
            when there are some; the --json key "conflicts" is always there).
            Exits 0 even when files are unreadable; scripts can read --json.

            EXAMPLE
              tick status --json | jq .unreadable
            """))

        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: JSONOption

        func run() throws {
            let context = try Context(global)
            let stale = try context.index.staleFiles()
            let loaded = try context.load()
            let (tasks, lists) = try context.index.totals()
            let watcher = WatchLock.runningPID(for: context.store.location)
            let broken = loaded.broken.sorted { $0.key < $1.key }.map(\.value)
            let indexPath = context.index.path ?? "(in memory)"
            // A file with conflict markers never parses, so only unreadable files can have them.
            // The archive is not indexed: its files are read here (Docs/FORMAT.md section 16).
            let archive = try context.store.archiveSnapshot()
            let archivedCount = ArchivedTasks(files: archive.files).count
            let archiveFiles = archive.files.count + archive.broken.count
            let brokenArchive = archive.problems
            let conflicts = context.store.pendingConflicts(markerCandidates: loaded.broken.keys.sorted() + archive.broken.keys.sorted())
            // blocks.json (commitments) is not a list file: its conflicts are listed separately.
            let blocks = CommitmentConflicts(context: context, dryRun: true)
            let blockConflicts = (blocks.hasMarkers ? [(CommitmentFile.relativePath, "git-conflict-markers")] : [])
                + blocks.copies.map { ((PathString.lastComponent($0.path)), "sync-conflict-copy") }
            let nextReminder = try context.index.nextReminder(after: context.now)
            // Reminders whose time passed while no watcher showed them (until the task changes).
            let missed = try MissedReminders(index: loaded.index, fired: FiredReminders(location: context.store.location)).find(now: context.now)
            // Tasks in more than one file: shown as one (the newer copy) until joined.
            let split = try context.index.tasksInSeveralFiles()
            let exchange = context.store.exchangeSupport()
            // The CalDAV bridge's machine-local record, when it was ever run.
            let davRoot = ((try? TickConfig.load(environment: context.environment))?.dav ?? DavSettings()).resolvedPath(environment: context.environment)
            let dav = DavState.load(root: davRoot)
            let t = context.terminal
            if output.json {
                var members: [JSONMember] = [

                    JSONMember("store", .string(context.store.location.root)),
                    JSONMember("tasks", JSONOutput.number(tasks)),
                    JSONMember("lists", JSONOutput.number(lists)),
                    JSONMember("archivedTasks", JSONOutput.number(archivedCount)),
                    JSONMember("archiveFiles", JSONOutput.number(archiveFiles)),
                    JSONMember("index", .string(indexPath)),
                    JSONMember("indexWasFresh", JSONNode(.bool(stale.isEmpty))),
                    JSONMember("staleFiles", .array(stale.map { .string($0) })),
                    JSONMember("watcherPid", watcher.map { JSONOutput.number(Int($0)) } ?? JSONNode(.null)),
                    JSONMember("nextReminder", nextReminder.map { .string(Timestamp.format($0)) } ?? JSONNode(.null)),
                    JSONMember("missedReminders", .array(missed.map { .string($0.task.id.lowercased) })),
                    JSONMember("unreadable", .array((broken + brokenArchive).map { .string($0.summary) })),
                    JSONMember("inSeveralLists", .array(split.map { .string($0.lowercased) })),
                    JSONMember("atomicExchange", exchange.jsonValue),
                ]
                if let dav {
                    members.append(JSONMember("dav", .object([
                        JSONMember("lastSuccess", dav.lastSuccess.map { .string(Timestamp.format($0)) } ?? JSONNode(.null)),
                        JSONMember("lastFailure", dav.lastFailure.map { .string(Timestamp.format($0)) } ?? JSONNode(.null)),
                        JSONMember("lastError", dav.lastError.map { .string($0) } ?? JSONNode(.null)),
                    ])))
                }
                do {
                    members.append(JSONMember("conflicts", .array(conflicts.map { c in
                        switch c {
                        case .copy(let copy):
                            return .object([JSONMember("path", .string(copy.relativePath)), JSONMember("type", .string("sync-conflict-copy")), JSONMember("file", .string(copy.kind.relativePath))])
                        case .markers(let kind):
                            return .object([JSONMember("path", .string(kind.relativePath)), JSONMember("type", .string("git-conflict-markers")), JSONMember("file", .string(kind.relativePath))])
                        }
                    } + blockConflicts.map { path, type in
                        .object([JSONMember("path", .string(path)), JSONMember("type", .string(type)), JSONMember("file", .string(CommitmentFile.relativePath))])
                    })))
                }
                t.outRaw(JSONOutput.string(.object(members)))
                return
            }
            let created = PathStat.isDirectory(context.store.location.root) == true
            t.out("store     \(context.store.location.root)" + (created ? "" : " (not made yet: the first `tick add` makes it)"))
            t.out("tasks     \(tasks) in \(lists) list(s) and the inbox")
            if archiveFiles > 0 {
                t.out("archive   \(archivedCount) done task(s) in \(archiveFiles) file(s) under archive/ (`tick search --archived` finds them)")
            }
            t.out("index     \(indexPath)")
            t.out("          " + (stale.isEmpty ? "was fresh" : "was stale (\(stale.count) file(s) changed); updated now: " + stale.prefix(5).joined(separator: ", ")))
            t.out("writes    " + exchange.line(t))
            t.out("watcher   " + (watcher.map { "running (pid \($0))" } ?? "not running (commands still check the files themselves)"))
            if let nextReminder {
                let when = context.dates.label(.time(nextReminder))
                t.out("reminders next \(when)" + (watcher == nil ? t.yellow(" (fires only while `tick watch` runs)") : ""))
            }
            if !missed.isEmpty {
                let ids = missed.prefix(10).map(\.reference)
                t.out("missed    " + t.yellow("\(missed.count) reminder(s) no watcher showed: ") + ids.joined(separator: ", ")
                      + (missed.count > 10 ? ", …" : "") + " (tick today lists them)")
            }
            if let dav {
                let success = dav.lastSuccess.map { "last sync \(context.dates.label(.time($0)))" } ?? "never synced"
                t.out("caldav    " + success)
                if let error = dav.lastError, let failed = dav.lastFailure {
                    t.out("          " + t.yellow("last failure \(context.dates.label(.time(failed))): ") + (error.split(separator: "\n").first.map(String.init) ?? error))
                }
            }
            let unreadable = broken + brokenArchive
            if unreadable.isEmpty {
                t.out("files     all readable")
            } else {
                t.out("files     " + t.boldRed("\(unreadable.count) unreadable:"))
                unreadable.forEach { t.out("          " + $0.summary) }
            }
            if !split.isEmpty {
                t.out("tasks     " + t.boldRed("\(split.count) in more than one list (an interrupted move, or moved on one machine and edited on another); run `tick resolve` to join them:"))
                split.prefix(10).forEach { t.out("          \($0.lowercased.prefix(8))") }
            }
            if !conflicts.isEmpty || !blockConflicts.isEmpty {
                t.out("conflicts " + t.boldRed("\(conflicts.count + blockConflicts.count) pending (run `tick resolve`):"))
                for c in conflicts {
                    switch c {
                    case .copy(let copy): t.out("          \(copy.relativePath) (Syncthing conflict copy of \(copy.kind.relativePath))")
                    case .markers(let kind): t.out("          \(kind.relativePath) (git conflict markers)")
                    }
                }
                for (path, type) in blockConflicts {
                    t.out("          \(path) (" + (type == "sync-conflict-copy" ? "Syncthing conflict copy of \(CommitmentFile.relativePath)" : "git conflict markers") + ")")
                }
            }
        }
    }
}

private extension ExchangeSupport {
    /// `true`, `false`, or `null` when the probe could not tell.
    var jsonValue: JSONNode {
        switch self {
        case .available: JSONNode(.bool(true))
        case .unsupported: JSONNode(.bool(false))
        case .unknown: JSONNode(.null)
        }
    }

    func line(_ t: Terminal) -> String {
        switch self {
        case .available:
            "atomic exchange (renameat2): saves never overwrite an editor's save unseen"
        case .unsupported(let reason):
            t.yellow("no atomic exchange on this filesystem (\(reason)): saves check, then rename; imports and archiving across files are refused (Docs/FORMAT.md section 10)")
        case .unknown(let reason):
            t.yellow("atomic exchange unknown: the probe failed (\(reason))")
        }
    }
}
