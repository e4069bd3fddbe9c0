import ArgumentParser
import FoundationEssentials
import TickKit

extension Tick {
    struct Resolve: TickCommand {
        static let facts = CommandFacts(writes: true, journaled: false, runsHooks: false)
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "resolve",
            abstract: "Merge Syncthing conflict copies and git conflict markers into the store.",
            discussion: """
            Finds, in the store:

              - store files with git conflict markers (<<<<<<<, =======, >>>>>>>,
                and the ||||||| base section of merge.conflictStyle=diff3). Both
                versions are merged task by task (three-way when the base section
                is there, two-way otherwise) and the file is written back as
                valid, canonical JSON. Handled first.
              - Syncthing conflict copies, NAME.sync-conflict-YYYYMMDD-HHMMSS-DEVICE.json
                next to NAME.json (inbox.json in the store, lists in lists/). Each is
                merged two-way into its file (several copies of one file one by one,
                oldest first); tasks deleted on purpose (the file's "deleted"
                entries) are not brought back. The file is written atomically, and
                only then is the copy removed.
              - the same for blocks.json (fixed commitments): markers and
                blocks.sync-conflict-*.json copies are merged block by block.
              - then the whole store: a task found in more than one list (moved
                on one machine, edited on another) is merged into one copy, in
                the list it was moved to last; a copy of a task deleted later in
                another list is removed.

            Each field merges by when it was changed (the tasks' "changed" times): \
            a field changed on one machine only keeps that change; changed on \
            both, the later change wins, and the fields where that happened are \
            listed (task id prefix and field name) so you can check them.

            Prints what was merged, in counts per file. A version that cannot be \
            parsed is reported (path:line:column) and left alone; the exit status \
            is then 4. `tick status` lists pending conflicts.

            EXAMPLES
              tick resolve --dry-run
              tick resolve
            """))

        @OptionGroup var global: GlobalOptions

        @Flag(name: .long, help: "Show what would be merged; change nothing.")
        var dryRun = false

        @Flag(name: .shortAndLong, help: "Print nothing but problems (for git hooks and scripts).")
        var quiet = false

        func run() throws {
            let context = try Context(global)
            let t = context.terminal
            let blocks = CommitmentConflicts(context: context, dryRun: dryRun)
            let blocksPending = blocks.pending
            var resolver = ConflictResolver(store: context.store, dryRun: dryRun)
            let steps = try resolver.run()
            let printer = ResolvePrinter(context: context, dryRun: dryRun, quiet: quiet)
            var failures = printer.print(steps)
            if steps.contains(where: { if case .unreadable = $0 { return false } else { return true } }), !dryRun {
                _ = try? context.resyncIDs()
            }
            if blocksPending { failures += try blocks.resolve(printingTo: t) }
            if steps.isEmpty && !blocksPending && !quiet { t.out("No conflicts to resolve") }
            if dryRun && !quiet && !(steps.isEmpty && !blocksPending) { t.out("Dry run: nothing was changed") }
            if failures > 0 {
                throw CLIError("\(failures) version\(failures == 1 ? "" : "s") could not be read and \(failures == 1 ? "was" : "were") left alone; fix \(failures == 1 ? "it" : "them") by hand and run `tick resolve` again", status: .badData)
            }
        }
    }
}

/// Prints the steps of a resolve: counts per file, and the fields where a
/// later change won (ids and field names, so the user can look).
struct ResolvePrinter {
    let context: Context
    let dryRun: Bool
    let quiet: Bool

    var t: Terminal { context.terminal }
    var store: Store { context.store }

    /// Prints every step; returns the number of versions that could not be read.
    func print(_ steps: [ResolveStep]) -> Int {
        var failures = 0
        let would = dryRun ? "Would merge" : "Merged"
        for step in steps {
            switch step {
            case let .markersMerged(kind, conflicts, threeWay, report):
                say("\(would) \(store.displayPath(kind)) (\(conflicts) git conflict\(conflicts == 1 ? "" : "s"), \(threeWay ? "three-way" : "two-way")): \(Self.describe(report))")
                overrides(report.overrides)
            case let .copiesMerged(kind, copies, report):
                let what = copies.count == 1
                    ? "the Syncthing conflict copy \(store.shownPath(store.location.path(copies[0])))"
                    : "\(copies.count) Syncthing conflict copies"
                say("\(would) \(what) into \(store.displayPath(kind)) (two-way): \(Self.describe(report))")
                overrides(report.overrides)
                if !dryRun {
                    if copies.count == 1 {
                        say("  removed the copy")
                    } else {
                        for c in copies { say("  removed \(store.shownPath(store.location.path(c)))") }
                    }
                }
            case .unreadable(let error):
                failures += 1
                Diagnostics.error(error)
            case let .copiesWaiting(kind, count):
                t.err("tick: \(store.displayPath(kind)) still has conflict markers; its \(count) conflict cop\(count == 1 ? "y waits" : "ies wait")")
            case .fileUnreadable(let kind):
                t.err("tick: \(store.displayPath(kind)) cannot be read, so its conflict copies were left alone")
            case .reconciled(let r):
                if !r.merged.isEmpty {
                    say("\(dryRun ? "Would join" : "Joined") \(r.merged.count) task\(r.merged.count == 1 ? "" : "s") found in more than one list (moved on one machine, edited on another): \(Self.ids(r.merged))")
                }
                if !r.removed.isEmpty {
                    say("\(dryRun ? "Would remove" : "Removed") \(r.removed.count) stale cop\(r.removed.count == 1 ? "y" : "ies") of tasks deleted in another list: \(Self.ids(r.removed))")
                }
                if !r.withdrawn.isEmpty {
                    say("\(dryRun ? "Would remove" : "Removed") \(r.withdrawn.count) untouched next occurrence\(r.withdrawn.count == 1 ? "" : "s") of repeating tasks reopened on another machine: \(Self.ids(r.withdrawn))")
                }
                overrides(r.overrides)
            }
        }
        return failures
    }

    private func say(_ line: String) {
        if !quiet { t.out(line) }
    }

    /// `  kept the later change: 1a2b3c4d title, +home; 5e6f7a8b due`
    private func overrides(_ list: [FieldOverride]) {
        guard !list.isEmpty else { return }
        var fields: [UUID: [String]] = [:]
        var order: [UUID] = []
        for o in list {
            if fields[o.task] == nil { order.append(o.task) }
            if fields[o.task]?.contains(o.field) != true { fields[o.task, default: []].append(o.field) }
        }
        let parts = order.map { id in "\(id.lowercased.prefix(8)) \((fields[id] ?? []).joined(separator: ", "))" }
        say("  both machines changed these fields; the later change was kept: \(parts.joined(separator: "; "))")
        if !dryRun { say("  the versions merged away are kept in \(ResolvedArchive(store: store).directory)") }
    }

    static func ids(_ list: [UUID]) -> String {
        let shown = list.prefix(10).map { String($0.lowercased.prefix(8)) }.joined(separator: ", ")
        return list.count > 10 ? shown + ", …" : shown
    }

    static func describe(_ r: MergeReport) -> String {
        "\(r.added) task\(r.added == 1 ? "" : "s") added, \(r.updated) updated, \(r.deleted) deleted, \(r.conflictsResolved) conflict\(r.conflictsResolved == 1 ? "" : "s") resolved"
    }
}
