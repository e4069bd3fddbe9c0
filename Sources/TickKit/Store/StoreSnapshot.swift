/// Everything readable in a store at one moment, plus what could not be read.
public struct StoreSnapshot: Sendable {
    /// The inbox first (empty when the file does not exist), then lists by name.
    public var files: [TaskFile]
    /// Files that failed to parse, with why; their tasks are missing from ``files``.
    public var broken: [FileKind: FormatError]

    public init(files: [TaskFile], broken: [FileKind: FormatError] = [:]) {
        self.files = files
        self.broken = broken
    }

    /// The parse errors, in file order.
    public var problems: [FormatError] {
        broken.sorted { $0.key < $1.key }.map(\.value)
    }

    /// Kinds of the files that failed to parse.
    public var brokenKinds: Set<FileKind> { Set(broken.keys) }

    /// The file of a kind, when it was readable.
    public func file(_ kind: FileKind) -> TaskFile? {
        files.first { $0.kind == kind }
    }

    /// The lists (not the inbox).
    public var lists: [TaskFile] { files.filter { $0.kind != .inbox } }

    /// Every task with the file it is in, in display order.
    public var allTasks: [(file: TaskFile, task: TaskItem)] {
        files.flatMap { f in f.tasks.map { (f, $0) } }
    }
}
