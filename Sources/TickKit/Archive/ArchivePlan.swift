import FoundationEssentials

/// Which done tasks `tick archive` moves, from which file, into which
/// `archive/<year>.json` (Docs/FORMAT.md section 16). Pure: made from files
/// already read, applied by ``edits(now:)`` through ``MultiFileWrite``.
public struct ArchivePlan: Sendable {
    /// The task key that names the file an archived task came from
    /// (`"inbox.json"`, `"lists/work.json"`).
    public static let fromKey = "archivedFrom"

    /// One task to move.
    public struct Move: Sendable {
        /// The task as its file has it now.
        public var task: TaskItem
        /// The task as the archive file will have it.
        public var archived: TaskItem
        public var from: FileKind
        /// The local year of its completion: the archive file it goes to.
        public var year: Int
    }

    /// In file order, then task order.
    public var moves: [Move] = []

    public init(moves: [Move] = []) {
        self.moves = moves
    }

    /// Done tasks of `files` (inbox and lists; archive files are ignored)
    /// completed before `cutoff`. A done task without a completion time is
    /// left alone (its year is unknown).
    public static func make(files: [TaskFile], before cutoff: Date, timeZone: Zone, now: Date) -> ArchivePlan {
        var plan = ArchivePlan()
        for file in files where !file.kind.isArchive {
            for task in file.tasks {
                guard task.state == .done, let completed = task.completedAt, completed < cutoff else { continue }
                plan.moves.append(Move(task: task, archived: archived(task, from: file.kind, now: now),
                                       from: file.kind, year: LocalDate(date: completed, timeZone: timeZone).year))
            }
        }
        return plan
    }

    /// `task` as it is archived: `archivedFrom` names its file, and the move is
    /// recorded as one (`changed.list`, as `tick mv` does), so that a store
    /// merge knows which copy was placed last (Docs/MERGE.md section 14).
    /// `changed.archivedFrom` keeps when the task was placed in that file, so
    /// that a later move made elsewhere before the archive was seen beats it
    /// (§14a).
    public static func archived(_ task: TaskItem, from kind: FileKind, now: Date) -> TaskItem {
        var t = withOrigin(task, kind, placedAt: task.listTime)
        t.stamp("list", at: now)
        t.changed["order"] = nil   // its place was in the old list
        t.modifiedAt = max(t.modifiedAt, now)
        return t
    }

    /// The file an archived task came from (its `archivedFrom`), when it names one.
    public static func origin(of task: TaskItem) -> FileKind? {
        guard let member = task.extra.last(where: { $0.key == fromKey }), case .string(let path) = member.value.kind else { return nil }
        return FileKind(relativePath: path).flatMap { $0.isArchive ? nil : $0 }
    }

    /// `task` without its `archivedFrom` key (back in a list).
    public static func unarchived(_ task: TaskItem) -> TaskItem {
        var t = task
        t.extra.removeAll { $0.key == fromKey }
        t.changed[fromKey] = nil
        return t
    }

    /// `task` with `archivedFrom` naming `kind`, placed there at `placedAt`
    /// (unchanged when it already names `kind`).
    static func withOrigin(_ task: TaskItem, _ kind: FileKind, placedAt: Date) -> TaskItem {
        if origin(of: task) == kind, task.extra.count(where: { $0.key == fromKey }) == 1 { return task }
        var t = task
        t.extra.removeAll { $0.key == fromKey }
        t.extra.append(JSONMember(fromKey, .string(kind.relativePath)))
        t.changed[fromKey] = placedAt
        return t
    }

    /// A new archive file: the same id on every machine (as a file without an
    /// id would get), so two machines that create it merge as one file.
    public static func newArchiveFile(year: Int, now: Date) -> TaskFile {
        let kind = FileKind.archive(year: year)
        return TaskFile(kind: kind, id: UUID(name: "tick-list:\(kind.idSeed)"), name: "Archive \(year)", createdAt: now, modifiedAt: now)
    }

    /// True when there is nothing to move.
    public var isEmpty: Bool { moves.isEmpty }

    /// The files tasks leave, in store order.
    public var sources: [FileKind] { Set(moves.map(\.from)).sorted() }

    /// The archive files tasks go to, oldest first.
    public var targets: [FileKind] { Set(moves.map(\.year)).sorted().map { .archive(year: $0) } }

    /// Tasks moved per source file.
    public var countsBySource: [(kind: FileKind, count: Int)] {
        var counts: [FileKind: Int] = [:]
        for m in moves { counts[m.from, default: 0] += 1 }
        return counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Tasks moved per archive year.
    public var countsByYear: [(year: Int, count: Int)] {
        var counts: [Int: Int] = [:]
        for m in moves { counts[m.year, default: 0] += 1 }
        return counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The edits for ``StoreWriter/updateAll(_:progress:)``: the archive
    /// files first, then the files the tasks leave (no tombstones: archiving
    /// is a move, not a deletion). A source whose task changed since the plan
    /// was made stops the write (``ArchiveError/changedMeanwhile(path:)``), so
    /// the archived copy is never older than the task it replaces.
    public func edits(now: Date) -> [FileEdit] {
        var out: [FileEdit] = []
        for target in targets {
            guard case .archive(let year) = target else { continue }
            let tasks = moves.filter { $0.year == year }.map(\.archived)
            out.append(FileEdit(kind: target, create: { Self.newArchiveFile(year: year, now: now) }) { file in
                for task in tasks {
                    if let i = file.index(of: task.id) { file.tasks[i] = task } else { file.tasks.append(task) }
                    file.deleted.removeAll { $0.id == task.id }
                }
            })
        }
        for source in sources {
            let planned = Dictionary(moves.filter { $0.from == source }.map { ($0.task.id, $0.task) }, uniquingKeysWith: { a, _ in a })
            out.append(FileEdit(kind: source) { file in
                for task in file.tasks {
                    if let p = planned[task.id], !p.sameContent(as: task) {
                        throw ArchiveError.changedMeanwhile(path: source.relativePath)
                    }
                }
                file.tasks.removeAll { planned[$0.id] != nil }
            })
        }
        return out
    }
}
