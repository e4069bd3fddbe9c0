import ArgumentParser
import Foundation
import TickKit

extension Tick {
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import tasks: a tick export or list file, Taskwarrior, todo.txt, iCalendar or CSV.",
            discussion: """
            All or nothing: the whole file is checked first, and a bad record is \
            reported with file:line:column before anything is written. Lists are
            matched by id, then by name, and created when missing. A task whose id
            already exists is updated in place when it differs and the imported copy
            is newer (by modifiedAt); a newer copy in the store is kept. Importing
            the same export twice changes nothing.

            EXAMPLES
              tick import backup.json
              tick export | tick --store /tmp/copy import -
              tick import backup.json --dry-run
            """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The file, or - for stdin.", completion: .file(extensions: ["json"]))
        var file: String

        @Option(name: .long, help: ArgumentHelp(
            "json, taskwarrior, todotxt, ics or csv.",
            discussion: "Default: from the file's extension (.json, .txt, .ics, .csv); stdin is json.",
            valueName: "format"))
        var format: InterchangeFormat?

        @Flag(name: .long, help: "Show what would be added and updated; write nothing.")
        var dryRun = false

        func run() throws {
            let context = try Context(global)
            let bytes: [UInt8]
            if file == "-" {
                bytes = Array(FileHandle.standardInput.readDataToEndOfFile())
            } else {
                guard let read = try AtomicFile.read(path: file, allowSpecial: true) else {
                    throw CLIError("cannot read \(file): no such file")
                }
                bytes = read.bytes
            }
            var chosen = format ?? (file == "-" ? nil : InterchangeFormat.infer(fromPath: file)) ?? .json
            // `task export > tasks.json` is JSON too: an array, or one object per line.
            if format == nil, chosen == .json, let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }),
               first == UInt8(ascii: "[") || bytes.starts(with: Array("{\"".utf8)) && bytes.contains(0x0A) && String(decoding: bytes.prefix(4096), as: UTF8.self).contains("\"description\"") {
                chosen = .taskwarrior
            }
            let files = try chosen.decode(bytes, context: InterchangeContext(path: file == "-" ? "<stdin>" : file, now: context.now, timeZone: context.timeZone))
            let now = context.now
            var plan = ImportPlan()
            let apply = !dryRun
            try context.store.withLock { writer in
                let snapshot = try context.snapshot()
                if let broken = snapshot.problems.first { throw StoreError.invalidFile(broken) }
                // todo.txt lines hold fewer fields than tick: keep what the line cannot say.
                let files = chosen == .todotxt ? TodoTxtCodec.reconcile(files, with: snapshot, timeZone: context.timeZone) : files
                plan = ImportPlan.make(importing: files, into: snapshot, existingSlugs: Set(try context.store.kinds().compactMap(\.slug)),
                                       inboxExists: try context.store.kinds().contains(.inbox))
                guard apply else { return }
                let showProgress = context.terminal.stderrIsTTY && plan.addedCount + plan.updatedCount > 1_000
                for (i, change) in plan.changes.enumerated() {
                    if showProgress { ProgressBar.draw(done: i, total: plan.changes.count, unit: "files") }
                    let fresh = change.newFile ?? TaskFile.empty(change.kind, name: nil, now: now)
                    try writer.update(change.kind, create: { fresh }) { file in
                        ImportPlan.apply(change, to: &file)
                    }
                }
                if showProgress { ProgressBar.draw(done: plan.changes.count, total: plan.changes.count, unit: "files") }
            }
            // The index catches up on the next command (an import prints no short ids).
            let verb = dryRun ? "Would import" : "Imported"
            let t = context.terminal
            t.out("\(verb): \(plan.addedCount) added, \(plan.updatedCount) updated, \(plan.unchanged) unchanged, \(plan.keptNewer.count) kept (newer here)")
            if dryRun {
                for change in plan.changes {
                    t.out("  \(change.kind.relativePath)\(change.newFile != nil ? " (new list)" : ""): \(change.added.count) added, \(change.updated.count) updated")
                    change.added.forEach { t.out("    + \($0.title)") }
                    change.updated.forEach { t.out("    ~ \($0.title)") }
                }
                plan.keptNewer.forEach { t.out("  = \($0.title) (the store's copy is newer)") }
            }
        }
    }
}
