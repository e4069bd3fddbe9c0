import ArgumentParser
import Foundation
import TickKit

extension Tick {
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import a tick JSON export (or a single list file).",
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

        @Flag(name: .long, help: "Show what would be added and updated; write nothing.")
        var dryRun = false

        func run() throws {
            let context = try Context(global)
            let bytes: [UInt8]
            if file == "-" {
                bytes = Array(FileHandle.standardInput.readDataToEndOfFile())
            } else {
                guard let read = try AtomicFile.read(path: file) else {
                    throw CLIError("cannot read \(file): no such file")
                }
                bytes = read.bytes
            }
            let files = try JSONExport.decode(bytes, path: file == "-" ? "<stdin>" : file, fallbackDate: context.now)
            let now = context.now
            var plan = ImportPlan()
            let apply = !dryRun
            try context.store.withLock { writer in
                let snapshot = try context.snapshot()
                if let broken = snapshot.problems.first { throw StoreError.invalidFile(broken) }
                plan = ImportPlan.make(importing: files, into: snapshot, existingSlugs: Set(try context.store.kinds().compactMap(\.slug)),
                                       inboxExists: try context.store.kinds().contains(.inbox))
                guard apply else { return }
                for change in plan.changes {
                    let fresh = change.newFile ?? TaskFile.empty(change.kind, name: nil, now: now)
                    try writer.update(change.kind, create: { fresh }) { file in
                        ImportPlan.apply(change, to: &file)
                    }
                }
            }
            if apply { _ = try context.resyncIDs() }
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
