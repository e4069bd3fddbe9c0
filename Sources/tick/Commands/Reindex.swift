import ArgumentParser
import FoundationEssentials
import Glibc
import TickKit

extension Tick {
    struct Reindex: TickCommand {
        static let facts = CommandFacts.reads
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "reindex",
            abstract: "Rebuild the index from the files, from scratch.",
            discussion: """
            The index ($XDG_CACHE_HOME/tick/<store-key>/index.sqlite) is only a cache:
            every command already brings it up to date by itself, and a damaged or
            outdated index is rebuilt silently. Use this after moving a store, or to
            measure. Short ids stay as they are. Shows a progress bar when stderr
            is a terminal.
            """))

        @OptionGroup var global: GlobalOptions

        func run() throws {
            // Opening a missing (or outdated) index builds it, so a cold
            // reindex is that build (shown with the same progress bar), not a
            // second one; the time reported is the whole command's.
            let showProgress = isatty(STDERR_FILENO) == 1
            let progress: (Int, Int) -> Void = { done, total in
                if showProgress { ProgressBar.draw(done: done, total: total, unit: "files") }
            }
            let context = try Context(global, indexProgress: progress)
            let t = context.terminal
            let report = try context.index.reindexFromScratch(progress: progress)
            let (tasks, lists) = try context.index.totals()
            let ms = CommandClock.elapsedMilliseconds
            t.out("Indexed \(tasks) tasks in \(lists) lists (\(report.files.count) files) in \(ms) ms")
            for file in report.files {
                if let error = file.error { t.warn(error.summary) }
            }
        }
    }
}
