import FoundationEssentials
import TickKit

/// The printing side of TickKit's ``CommitmentConflicts`` (`tick resolve`
/// for blocks.json).
extension CommitmentConflicts {
    /// The command's store.
    init(context: Context, dryRun: Bool) {
        self.init(store: context.store, dryRun: dryRun)
    }

    /// Resolves everything and prints what was merged; returns the number of
    /// versions that could not be read.
    func resolve(printingTo t: Terminal) throws -> Int {
        let shown = store.commitmentsDisplayPath
        let would = dryRun ? "Would merge" : "Merged"
        if let markers = try resolveMarkers() {
            switch markers {
            case let .merged(threeWay, report):
                t.out("\(would) \(shown) (\(threeWay ? "three-way" : "two-way")): \(Self.describe(report))")
            case .unreadable(let error):
                Diagnostics.error(error)
                t.err("tick: \(shown) was left alone (and its conflict copies, if any)")
            case .unsplittable(let error):
                Diagnostics.error("cannot split the git conflict: \(error.message)", at: FileLocation(path: shown, line: error.line))
            }
            if markers.failed { return 1 }
        }
        guard let copies = try resolveCopies() else { return 0 }
        for error in copies.unreadable { Diagnostics.error(error) }
        guard copies.merged > 0 else { return copies.unreadable.count }
        let what = copies.merged == 1 ? "the Syncthing conflict copy of \(shown)" : "\(copies.merged) Syncthing conflict copies of \(shown)"
        t.out("\(would) \(what) (two-way): \(Self.describe(copies.report))")
        if !dryRun { t.out(copies.merged == 1 ? "  removed the copy" : "  removed \(copies.merged) copies") }
        return copies.unreadable.count
    }

    /// `2 blocks added, 0 updated, 0 deleted, 1 conflict resolved`.
    static func describe(_ r: CommitmentMerge.Report) -> String {
        "\(r.added) block\(r.added == 1 ? "" : "s") added, \(r.updated) updated, \(r.deleted) deleted, \(r.conflictsResolved) conflict\(r.conflictsResolved == 1 ? "" : "s") resolved"
    }
}
