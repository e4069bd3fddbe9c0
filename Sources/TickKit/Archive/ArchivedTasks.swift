import FoundationEssentials

/// The tasks of the archive files, decoded on demand (they are read rarely:
/// `search --archived`, `stats`, `status`), for search and statistics.
public struct ArchivedTasks: Sendable {
    /// The archive files that could be read, oldest year first.
    public var files: [TaskFile]

    public init(files: [TaskFile]) {
        self.files = files.filter { $0.kind.isArchive }
    }

    /// Every archived task with its archive file.
    public var all: [(kind: FileKind, task: TaskItem)] {
        files.flatMap { f in f.tasks.map { (f.kind, $0) } }
    }

    /// The number of archived tasks.
    public var count: Int { files.reduce(0) { $0 + $1.tasks.count } }

    /// Tasks matching `search` and `filter`, from `origin` only when given
    /// (by `archivedFrom`), best match first (title, then tags, then notes;
    /// ties in file order), as ``TaskIndex/search(_:filter:list:limit:)`` ranks.
    public func search(_ search: SearchQuery, filter: TaskFilter, origin: FileKind? = nil) -> [(kind: FileKind, task: TaskItem)] {
        all.filter { item in
            (origin == nil || ArchivePlan.origin(of: item.task) == origin) && search.matches(item.task) && filter.matches(item.task)
        }
        .enumerated().map { (score: search.score($0.element.task), offset: $0.offset, item: $0.element) }
        .sorted { ($1.score, $0.offset) < ($0.score, $1.offset) }
        .map(\.item)
    }

    /// One completion of an archived task: its local day and the file it came from.
    public struct Completion: Sendable, Equatable {
        public var day: LocalDate
        /// The store-relative path of the file it was archived from, when known.
        public var path: String?
    }

    /// The completions of archived done tasks, in `timeZone`; with `path`,
    /// only those archived from that file.
    public func completions(timeZone: Zone, path: String? = nil) -> [Completion] {
        all.compactMap { item in
            guard item.task.state == .done, let at = item.task.completedAt else { return nil }
            let from = ArchivePlan.origin(of: item.task)?.relativePath
            if let path, from != path { return nil }
            return Completion(day: LocalDate(date: at, timeZone: timeZone), path: from)
        }
    }
}

extension Array where Element == ArchivedTasks.Completion {
    /// Completions per day for `first ..< end`.
    public func perDay(first: LocalDate, end: LocalDate) -> [LocalDate: Int] {
        var out: [LocalDate: Int] = [:]
        for c in self where first <= c.day && c.day < end { out[c.day, default: 0] += 1 }
        return out
    }

    /// Completions per origin file for `first ..< end` (unknown origins under `archive`).
    public func perList(first: LocalDate, end: LocalDate) -> [String: Int] {
        var out: [String: Int] = [:]
        for c in self where first <= c.day && c.day < end { out[c.path ?? Store.archiveDirectory, default: 0] += 1 }
        return out
    }

    /// The days with at least one completion.
    public var activeDays: Set<LocalDate> { Set(map(\.day)) }
}
