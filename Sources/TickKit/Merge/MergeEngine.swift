import Foundation

/// What a merge did, in counts only (never titles).
public struct MergeReport: Sendable, Equatable {
    /// Tasks in the result that `ours` did not have.
    public var added = 0
    /// Tasks present on both sides whose fields were combined or taken from `theirs`.
    public var updated = 0
    /// Tasks removed because a side deleted them (and the other did not edit them).
    public var deleted = 0
    /// Fields changed differently on both sides, decided by the policy.
    public var conflictsResolved = 0

    public init() {}
}

/// A merged file and what the merge did.
public struct MergeOutcome: Sendable {
    public var file: TaskFile
    public var report: MergeReport

    public init(file: TaskFile, report: MergeReport) {
        self.file = file
        self.report = report
    }
}

/// Merges two versions of one store file, task by task and field by field
/// (Docs/MERGE.md). STUB: being implemented.
public enum MergeEngine {
    /// Three-way when `base` is given, two-way when nil. Symmetric:
    /// `merge(base, a, b).file == merge(base, b, a).file`.
    public static func merge(base: TaskFile?, ours: TaskFile, theirs: TaskFile) -> MergeOutcome {
        MergeOutcome(file: ours, report: MergeReport())
    }
}
