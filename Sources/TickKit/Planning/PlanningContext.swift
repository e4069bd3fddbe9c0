import FoundationEssentials
import Glibc

/// What the planning commands (`tick plan`, `tick suggest`) share: today,
/// the wall-clock time, the tasks and the commitments.
public struct PlanningContext {
    let store: Store
    /// The store as the index sees it.
    public let loaded: StoreView
    let now: Date
    let timeZone: Zone

    /// `loaded` is the index brought up to date (``IndexSession/load()``).
    public init(store: Store, loaded: StoreView, now: Date, timeZone: Zone) {
        self.store = store
        self.loaded = loaded
        self.now = now
        self.timeZone = timeZone
    }

    /// Today, in the time zone.
    public var today: LocalDate { LocalDate(date: now, timeZone: timeZone) }
    /// The wall-clock time now.
    public var clock: ClockTime { ClockTime(date: now, timeZone: timeZone) }

    /// A DAY argument (any WHEN naming a day), else today.
    public func day(_ text: String?) throws(InputError) -> LocalDate {
        guard let text else { return today }
        do { return try WhenParser(now: now, timeZone: timeZone).parseDay(text) } catch {
            throw InputError.badDate(key: "DAY", error)
        }
    }

    /// No slot before now on today; nothing for other days.
    public func from(for day: LocalDate) -> ClockTime? { day == today ? clock : nil }

    /// Tasks placed on `day` (done ones too), in listing order.
    public func placed(on day: LocalDate) throws -> [ListedTask] { try loaded.index.placedTasks(on: day) }

    /// The commitments in `blocks.json`.
    public func commitments() throws -> CommitmentFile { try store.commitments() }

    /// Writes the proposed slots (and their days as the scheduled day) under
    /// the store lock; `kinds` gives each task's file (the inbox when
    /// missing). A task done or given another slot meanwhile, or a slot that
    /// now overlaps a commitment, is skipped; a read-only file stops the plan
    /// before any file is written. Returns how many tasks were placed.
    public func write(_ proposal: AutoPlan, kinds: [UUID: FileKind]) throws -> Int {
        let now = self.now
        var written = 0
        try store.withLock { writer in
            let commitments = try store.commitments().blocks
            let byKind = Dictionary(grouping: proposal.placements) { kinds[$0.task.id] ?? .inbox }
            try writer.requireWritable(byKind.keys.sorted())
            for kind in byKind.keys.sorted() {
                try writer.update(kind) { file in
                    for placement in byKind[kind] ?? [] {
                        guard let i = file.index(of: placement.task.id) else { continue }
                        var task = file.tasks[i]
                        guard task.state != .done, task.slot == placement.task.slot,
                              DayPlanner.commitments(overlapping: placement.slot, in: commitments).isEmpty else { continue }
                        task.slot = placement.slot
                        task.scheduled = placement.slot.day
                        task.modifiedAt = now
                        file.tasks[i] = task
                        written += 1
                    }
                }
            }
        }
        return written
    }
}
