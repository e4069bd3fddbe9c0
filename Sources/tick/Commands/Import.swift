import ArgumentParser
import FoundationEssentials
import Glibc
import TickKit

extension Tick {
    struct Import: TickCommand {
        static let facts = CommandFacts.writesStore
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "import",
            abstract: "Import tasks: a tick export or list file, Taskwarrior, todo.txt, iCalendar or CSV.",
            discussion: """
            The whole file is checked first. A bad todo.txt line or CSV row is \
            reported with file:line and skipped; the rest is imported and tick exits
            4. With --strict (and always in the JSON, Taskwarrior and iCalendar
            formats) a bad record stops the import before anything is written. Lists are
            matched by id, then by name, and created when missing. A task whose id
            already exists is updated in place when it differs and the imported copy
            is newer (by modifiedAt); a newer copy in the store is kept. Importing
            the same export twice changes nothing.

            EXAMPLES
              tick import backup.json
              tick export | tick --store /tmp/copy import -
              tick import backup.json --dry-run
            """))

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The file, or - for stdin.", completion: .file(extensions: ["json"]))
        var file: String

        @Option(name: .long, help: ArgumentHelp(
            "json, taskwarrior (tw), todotxt (todo.txt), ics (ical, icalendar) or csv.",
            discussion: "Default: from the file's extension (.txt, .ics, .csv), else from the content (also for .json and stdin).",
            valueName: "format"))
        var format: InterchangeFormat?

        @Flag(name: .long, help: "Show what would be added and updated; write nothing.")
        var dryRun = false

        @Flag(name: .long, help: ArgumentHelp(
            "Import nothing when any todo.txt line or CSV row is bad (default: skip it, import the rest, exit 4).",
            discussion: "JSON, Taskwarrior and iCalendar imports are always all or nothing."))
        var strict = false

        /// Task rows `--dry-run` lists before it summarises (about a screenful).
        static let dryRunRows = 20

        func run() throws {
            let context = try Context(global)
            let reader: ImportReader
            if file == "-" {
                reader = ImportReader(descriptor: STDIN_FILENO, path: "<stdin>")
            } else {
                let opened: ImportReader?
                do {
                    opened = try ImportReader.open(path: file)
                } catch {
                    // Permission denied, a directory: an I/O failure (exit 1), not a bad record.
                    throw CLIError("cannot read \(file): \(error.message)")
                }
                guard let opened else { throw CLIError("cannot read \(file): no such file") }
                reader = opened
            }
            let path = file == "-" ? "<stdin>" : file
            // The file name decides (.txt, .ics, .csv); else, or for a .json file (tick's or
            // Taskwarrior's), the content does.
            let named = file == "-" ? nil : InterchangeFormat.infer(fromPath: file)
            var chosen: InterchangeFormat
            if let format {
                chosen = format
            } else if let named, named != .json {
                chosen = named
            } else {
                chosen = try InterchangeFormat.detect(try reader.peek(InterchangeFormat.detectBytes), path: path)
                // A .json name with text that is not JSON: read it as JSON, whose error says where.
                if named == .json, chosen != .json, chosen != .taskwarrior { chosen = .json }
            }
            // Bad lines are skipped (each reported, and the exit status 4) unless --strict.
            var skipped: [ImportError] = []
            let strict = self.strict
            var files = try chosen.decode(from: reader, context: InterchangeContext(path: path, now: context.now, timeZone: context.timeZone, fields: try context.userFields())) {
                (error: ImportError) throws(ImportError) in
                if strict { throw error }
                skipped.append(error)
            }
            let showProgress = context.terminal.stderrIsTTY
            let plan = try ImportRun(store: context.store, now: context.now, timeZone: context.timeZone, fields: try context.userFields())
                .run(&files, from: chosen, apply: !dryRun) { plan in
                    showProgress && plan.addedCount + plan.updatedCount > 1_000 ? { ProgressBar.draw(done: $0, total: $1, unit: "files") } : nil
                }
            // The index catches up on the next command (an import prints no short ids).
            let verb = dryRun ? "Would import" : "Imported"
            let t = context.terminal
            let record = chosen == .csv ? "row" : "line"
            let skippedNote = skipped.isEmpty ? "" : ", \(skipped.count) skipped (bad \(record)\(skipped.count == 1 ? "" : "s"))"
            t.out("\(verb): \(plan.addedCount) added, \(plan.updatedCount) updated, \(plan.unchanged) unchanged, \(plan.keptNewer.count) kept (newer here)" + skippedNote)
            if dryRun { printDryRun(plan, terminal: t) }
            guard skipped.isEmpty else {
                for error in skipped {
                    Diagnostics.error(error.message + "; the \(record) was skipped", at: FileLocation(path: error.path, line: error.line))
                }
                // Something was left out: exit 4 (invalid import input), as a refused import does.
                throw ExitCode(ExitStatus.badData.rawValue)
            }
        }

        /// Lists what an import would do: every task when they fit on a screen,
        /// else counts per list and per state and the first tasks.
        private func printDryRun(_ plan: ImportPlan, terminal t: Terminal) {
            func fileLine(_ change: ImportPlan.FileChange) -> String {
                "  \(change.kind.relativePath)\(change.newFile != nil ? " (new list)" : ""): \(change.added.count) added, \(change.updated.count) updated"
            }
            let total = plan.addedCount + plan.updatedCount + plan.keptNewer.count
            if total + plan.changes.count <= Self.dryRunRows {
                for change in plan.changes {
                    t.out(fileLine(change))
                    change.added.forEach { t.out("    + \($0.title)") }
                    change.updated.forEach { t.out("    ~ \($0.title)") }
                }
                plan.keptNewer.forEach { t.out("  = \($0.title) (the store's copy is newer)") }
                return
            }
            let half = Self.dryRunRows / 2
            for change in plan.changes.prefix(half) { t.out(fileLine(change)) }
            if plan.changes.count > half { t.out("  … and \(plan.changes.count - half) more lists") }
            var states: [TaskState: Int] = [:]
            for change in plan.changes {
                for task in change.added { states[task.state, default: 0] += 1 }
                for task in change.updated { states[task.state, default: 0] += 1 }
            }
            let byState = TaskState.allCases.compactMap { state in states[state].map { "\($0) \(state.rawValue)" } }
            if !byState.isEmpty { t.out("  by state: " + byState.joined(separator: ", ")) }
            var rows: [String] = []
            outer: for change in plan.changes {
                for (mark, tasks) in [("+", change.added), ("~", change.updated)] {
                    for task in tasks {
                        if rows.count == half { break outer }
                        rows.append("  \(mark) \(task.title) (\(change.kind.relativePath))")
                    }
                }
            }
            for task in plan.keptNewer where rows.count < half { rows.append("  = \(task.title) (the store's copy is newer)") }
            rows.forEach { t.out($0) }
            if total > rows.count { t.out("  … and \(total - rows.count) more tasks") }
        }
    }
}
