import Foundation

/// Finds a list by what a user typed: its name (any case), its slug, or `inbox`.
public struct ListResolver: Sendable {
    public let snapshot: StoreSnapshot
    /// Slugs of list files present on disk, including unreadable ones.
    public let existingSlugs: Set<String>

    public init(snapshot: StoreSnapshot, existingSlugs: Set<String>) {
        self.snapshot = snapshot
        self.existingSlugs = existingSlugs
    }

    /// The file kind for a list reference. `inbox` always resolves.
    public func resolve(_ text: String) throws(LookupError) -> FileKind {
        let name = text.trimmingCharacters(in: .whitespaces)
        if name.lowercased() == "inbox" { return .inbox }
        let folded = name.precomposedStringWithCanonicalMapping.lowercased()
        // An exact slug wins: it is unique by construction.
        if existingSlugs.contains(name) { return .list(slug: name) }
        let matches = snapshot.lists.filter { $0.displayName.precomposedStringWithCanonicalMapping.lowercased() == folded }
        if matches.count > 1 {
            throw .ambiguousList(name, files: matches.map(\.kind.relativePath))
        }
        if let match = matches.first { return match.kind }
        let slug = Slug.make(from: name)
        if existingSlugs.contains(slug) { return .list(slug: slug) }
        if !snapshot.broken.isEmpty {
            throw .listInBrokenFile(name, problems: snapshot.problems.map(\.summary))
        }
        throw .listNotFound(name, known: snapshot.lists.map(\.displayName))
    }

    /// Checks a name for a new list and returns the slug its file will get.
    public func slugForNewList(named name: String) throws(LookupError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .invalidListName(name, reason: "the name is empty") }
        guard trimmed.lowercased() != "inbox" else {
            throw .invalidListName(name, reason: "\"inbox\" is reserved for tasks in no list")
        }
        let folded = trimmed.precomposedStringWithCanonicalMapping.lowercased()
        if snapshot.lists.contains(where: { $0.displayName.precomposedStringWithCanonicalMapping.lowercased() == folded }) {
            throw .listExists(trimmed)
        }
        // `inbox` is reserved as a slug too, so no list shares the inbox's derived ids.
        return Slug.unique(Slug.make(from: trimmed), taken: existingSlugs.union(["inbox"]))
    }
}
