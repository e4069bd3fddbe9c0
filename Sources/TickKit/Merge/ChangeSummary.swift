import FoundationEssentials

/// Changes to several files, summarized in counts.
public struct ChangeSummary: Sendable, Equatable {
    public var files: [FileChange]

    public init(_ files: [FileChange]) { self.files = files.sorted { $0.path < $1.path } }

    /// Tasks that left one file and arrived in another.
    public var movedIDs: Set<UUID> {
        let added = files.reduce(into: Set<UUID>()) { $0.formUnion($1.addedIDs) }
        let removed = files.reduce(into: Set<UUID>()) { $0.formUnion($1.removedIDs) }
        return added.intersection(removed)
    }

    public var isEmpty: Bool { files.isEmpty }

    /// `3 tasks added, 1 completed, 2 changed in 2 files`.
    public var description: String {
        let moved = movedIDs
        let parts = Self.parts(files, moved: moved)
        let n = files.count
        let where_ = "in \(n) file" + (n == 1 ? "" : "s")
        return parts.isEmpty ? "\(n) file\(n == 1 ? "" : "s") changed" : parts.joined(separator: ", ") + " " + where_
    }

    /// `2 tasks added, 1 changed` for one file (moves count as added/removed there).
    public static func describe(_ file: FileChange, moved: Set<UUID> = []) -> String {
        let parts = parts([file], moved: moved)
        return parts.isEmpty ? "changed" : parts.joined(separator: ", ")
    }

    /// Per-file descriptions, `moved` being tasks moved between these files.
    public var perFile: [(path: String, description: String)] {
        let moved = movedIDs
        return files.map { ($0.path, Self.describe($0, moved: moved)) }
    }

    static func parts(_ files: [FileChange], moved: Set<UUID>) -> [String] {
        func sum(_ f: (FileChange) -> Int) -> Int { files.reduce(0) { $0 + f($1) } }
        let added = sum { $0.addedIDs.subtracting(moved).count }
        let completed = sum(\.completed)
        let changed = sum(\.changed)
        let movedCount = files.reduce(into: Set<UUID>()) { $0.formUnion($1.addedIDs.intersection(moved)) }.count
        let removed = sum { $0.removedIDs.subtracting(moved).count }
        var taskParts: [String] = []
        for (count, verb) in [(added, "added"), (completed, "completed"), (changed, "changed"), (movedCount, "moved"), (removed, "deleted")] where count > 0 {
            taskParts.append(taskParts.isEmpty ? "\(count) task\(count == 1 ? "" : "s") \(verb)" : "\(count) \(verb)")
        }
        let tickFiles = files.filter { $0.kind != nil }
        // The inbox file appearing or going is not a list being created or removed.
        let listsAdded = tickFiles.filter { $0.fileAdded && $0.kind != .inbox }.count
        let listsRemoved = tickFiles.filter { $0.fileRemoved && $0.kind != .inbox }.count
        let renamed = tickFiles.filter { $0.metadataChanged && !$0.fileAdded && !$0.fileRemoved }.count
        let reordered = tickFiles.filter { $0.reordered && !$0.metadataChanged }.count
        let unreadable = tickFiles.filter(\.unreadable).count
        let others = files.filter { $0.kind == nil }.count
        var fileParts: [String] = []
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        if listsAdded > 0 { fileParts.append(plural(listsAdded, "list") + " added") }
        if renamed > 0 { fileParts.append(plural(renamed, "list") + " renamed or recolored") }
        if listsRemoved > 0 { fileParts.append(plural(listsRemoved, "list") + " removed") }
        if reordered > 0 { fileParts.append(plural(reordered, "list") + " reordered") }
        if unreadable > 0 { fileParts.append(plural(unreadable, "unreadable file")) }
        if others > 0 { fileParts.append(plural(others, "other file")) }
        return taskParts + fileParts
    }
}
