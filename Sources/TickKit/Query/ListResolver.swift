import FoundationEssentials

/// Finds a list by what a user typed: its exact name (any case, after NFC
/// normalization), its exact slug, or `inbox`. Never by the slug of the text.
public struct ListResolver: Sendable {
    /// Readable lists (the inbox may be among them).
    public let lists: [ListInfo]
    /// Slugs of list files present on disk, including unreadable ones.
    public let existingSlugs: Set<String>
    /// Files that cannot be parsed right now.
    public let problems: [FormatError]

    public init(lists: [ListInfo], existingSlugs: Set<String>, problems: [FormatError]) {
        self.lists = lists.filter { $0.kind != .inbox }
        self.existingSlugs = existingSlugs
        self.problems = problems
    }

    /// Convenience: the lists of a snapshot.
    public init(snapshot: StoreSnapshot, existingSlugs: Set<String>) {
        self.init(lists: snapshot.listInfos, existingSlugs: existingSlugs, problems: snapshot.problems)
    }

    private static func fold(_ s: String) -> String { TextFolding.nfc(s).lowercased() }

    /// The file kind for a list reference. `inbox` always resolves.
    public func resolve(_ text: String) throws(LookupError) -> FileKind {
        let name = text.trimmingWhitespace()
        if name.lowercased() == "inbox" { return .inbox }
        // An exact slug wins: it is unique by construction.
        if existingSlugs.contains(name) { return .list(slug: name) }
        let folded = Self.fold(name)
        let matches = lists.filter { Self.fold($0.name) == folded }
        if matches.count > 1 {
            throw .ambiguousList(name, files: matches.map(\.kind.relativePath))
        }
        if let match = matches.first { return match.kind }
        // Never slugify what was typed: `W!!!` must not find the list `w`.
        if !problems.isEmpty {
            throw .listInBrokenFile(name, problems: problems.map(\.summary))
        }
        throw .listNotFound(name, known: lists.map(\.name))
    }

    /// Where `list:NAME` puts a task (`add`, `mv`, `edit`, `context define`):
    /// an existing list, or a new one made on first use, as Taskwarrior
    /// makes a project (issue 46).
    public enum Target: Sendable, Equatable {
        case existing(FileKind)
        /// A list to create: its name (as typed, trimmed) and the slug its file gets.
        case new(name: String, slug: String)

        /// The file the task goes to.
        public var kind: FileKind {
            switch self {
            case .existing(let kind): return kind
            case .new(_, let slug): return .list(slug: slug)
            }
        }
    }

    /// The list `text` names, or a new one when it names none. A name within
    /// one edit of an existing list's (`Hme` for `Home`) is refused with that
    /// name rather than made as a typo; so is one when a list file cannot be
    /// read (it may carry the name).
    public func target(_ text: String) throws(LookupError) -> Target {
        do {
            return .existing(try resolve(text))
        } catch .listNotFound(let name, _) {
            let folded = Self.fold(name)
            if let near = lists.first(where: { Spelling.editDistance(Self.fold($0.name), folded) <= 1 }) {
                throw .nearList(name, near: near.name)
            }
            return .new(name: name, slug: try slugForNewList(named: name))
        }
    }

    /// Checks a name for a new list and returns the slug its file will get.
    public func slugForNewList(named name: String) throws(LookupError) -> String {
        let trimmed = name.trimmingWhitespaceAndNewlines()
        guard !trimmed.isEmpty else { throw .invalidListName(name, reason: "the name is empty") }
        if let problem = TextRules.listNameProblem(trimmed) { throw .invalidListName(name, reason: problem) }
        guard trimmed.lowercased() != "inbox" else {
            throw .invalidListName(name, reason: "\"inbox\" is reserved for tasks in no list")
        }
        let folded = Self.fold(trimmed)
        if lists.contains(where: { Self.fold($0.name) == folded }) {
            throw .listExists(trimmed)
        }
        // `inbox` is reserved as a slug too, so no list shares the inbox's derived ids.
        return Slug.unique(Slug.make(from: trimmed), taken: existingSlugs.union(["inbox"]))
    }
}
