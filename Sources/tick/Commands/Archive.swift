import ArgumentParser
import FoundationEssentials
import Glibc
import TickKit

extension Tick {
    struct Archive: TickCommand {
        static let facts = CommandFacts.writesStore
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "archive",
            abstract: "Move done tasks out of the lists into archive/YYYY.json.",
            discussion: """
            Moves every done task completed before WHEN (default: before the start of \
            today, so today's completions stay in view) from inbox.json and lists/*.json \
            into archive/YYYY.json in the store, YYYY being the local year of its \
            completion. Archive files have the list file format; each archived task \
            keeps the file it came from in "archivedFrom". Archived tasks leave every \
            view and listing; `tick search --archived` finds them, `tick stats` still \
            counts them, and `tick undo` puts them all back.

            All or nothing, like an import: every file is written or none. A store \
            file that cannot be parsed stops it before anything is written.

            Asks for confirmation on a terminal; --yes skips the question. Without a \
            terminal to ask on, and without --yes, tick refuses (exit status 1).

            EXAMPLES
              tick archive --dry-run
              tick archive --yes
              tick archive --before 2026-01-01 --yes
              tick archive --before yesterday --yes
            """))

        @OptionGroup var global: GlobalOptions

        @Option(name: .long, help: ArgumentHelp("Archive tasks completed before this (any WHEN; a day means its start). Default: today.", valueName: "when"))
        var before: String?

        @Flag(name: .long, help: "Show what would be archived; write nothing.")
        var dryRun = false

        @Flag(name: [.short, .long], help: "Do not ask for confirmation.")
        var yes = false

        func run() throws {
            let context = try Context(global)
            let t = context.terminal
            let zone = context.timeZone
            let now = context.now
            let cutoff: Date
            if let before {
                switch try context.fields.due(before, key: "--before") {
                case .day(let day): cutoff = day.startOfDay(in: zone)
                case .time(let instant): cutoff = instant
                }
            } else {
                cutoff = context.query.today.startOfDay(in: zone)
            }
            let cutoffText = Self.describe(cutoff, in: zone)
            // A first plan, made without the lock, for the question.
            let archiving = ArchiveRun(store: context.store, before: cutoff, timeZone: zone, now: now)
            let first = try archiving.plan()
            if first.isEmpty {
                t.out("Nothing to archive: no done tasks completed before \(cutoffText).")
                return
            }
            let loaded = try context.load()
            if dryRun {
                t.out("Would archive \(first.moves.count) task\(first.moves.count == 1 ? "" : "s") completed before \(cutoffText):")
                printSummary(first, loaded: loaded, terminal: t, titles: true)
                return
            }
            if !yes {
                guard t.stdinIsTTY else {
                    throw CLIError("refusing to archive \(first.moves.count) task(s) without confirmation; pass --yes (or see them first with --dry-run)")
                }
                printSummary(first, loaded: loaded, terminal: t, titles: false)
                guard askYesNo("Archive \(first.moves.count) done task(s)?") else { throw CLIError("cancelled; nothing was archived") }
            }
            let done = try archiving.run(asked: yes ? nil : first)
            _ = try context.resyncIDs()
            if done.isEmpty {
                t.out("Nothing to archive: no done tasks completed before \(cutoffText).")
                return
            }
            t.out("Archived \(done.moves.count) task\(done.moves.count == 1 ? "" : "s") completed before \(cutoffText):")
            printSummary(done, loaded: loaded, terminal: t, titles: false)
            // The journal keeps task images only up to its entry size (MultiFileWrite's rule).
            let maxImages = (context.store.journal?.maxEntryBytes ?? 0) / 100
            if 2 * done.moves.count <= maxImages {
                t.out(t.dim("`tick undo` puts them back."))
            } else {
                t.out(t.dim("Too many tasks for `tick undo` to keep; they are in archive/ (move a task back with `tick import`, or archive in steps with --before)."))
            }
        }

        /// `2026-11-21` for a local midnight, else `2026-11-20 12:00`, in the local zone.
        static func describe(_ instant: Date, in zone: Zone) -> String {
            let day = LocalDate(date: instant, timeZone: zone)
            if day.startOfDay(in: zone) == instant { return day.iso }
            return ClockTime.dayAndTime(instant, in: zone)
        }

        /// Reads the inbox and lists (hand edits stamped, as the write reads
        /// them) and plans; a file that cannot be parsed stops everything.
        /// Counts per file left and per archive file written; with `titles`, each task.
        private func printSummary(_ plan: ArchivePlan, loaded: Context.Loaded, terminal t: Terminal, titles: Bool) {
            for (kind, count) in plan.countsBySource {
                t.out("  from \(loaded.name(of: kind)) (\(kind.relativePath)): \(count)")
                if titles {
                    for move in plan.moves where move.from == kind {
                        t.out("    \(String(move.task.id.lowercased.prefix(8))) → \(FileKind.archive(year: move.year).relativePath): \(move.task.title)")
                    }
                }
            }
            for (year, count) in plan.countsByYear {
                t.out("  to \(FileKind.archive(year: year).relativePath): \(count)")
            }
        }
    }
}
