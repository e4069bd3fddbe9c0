import FoundationEssentials

/// The scheduling engine's view of one day: commitments, placed tasks and
/// the free time between them within working hours.
///
/// Pure and deterministic: no clock, no files. Times are wall-clock minutes
/// (a day is 00:00-24:00 on the clock, whatever DST does).
public struct DayPlanner: Sendable {
    public let day: LocalDate
    public let hours: WorkingHours
    /// The commitments that occur on ``day``, by start time.
    public let commitments: [Commitment]
    /// The tasks placed on ``day`` (any state), by start time.
    public let placed: [TaskItem]

    /// - Parameters:
    ///   - commitments: all commitments (those not on `day` are ignored).
    ///   - tasks: all tasks (those without a slot on `day` are ignored).
    public init(day: LocalDate, hours: WorkingHours, commitments: [Commitment], tasks: [TaskItem]) {
        self.day = day
        self.hours = hours
        self.commitments = CommitmentFile(blocks: commitments).blocks(on: day)
        self.placed = tasks.enumerated()
            .filter { $0.element.slot?.day == day }
            .sorted { a, b in
                let sa = a.element.slot?.start.minutes ?? 0, sb = b.element.slot?.start.minutes ?? 0
                return (sa, a.offset) < (sb, b.offset)
            }
            .map(\.element)
    }

    /// Whether two half-open ranges `[a0, a1)` and `[b0, b1)` overlap.
    public static func overlaps(_ a0: ClockTime, _ a1: ClockTime, _ b0: ClockTime, _ b1: ClockTime) -> Bool {
        a0 < b1 && b0 < a1
    }

    /// The commitments on the slot's day that the slot overlaps.
    public static func commitments(overlapping slot: TaskSlot, in all: [Commitment]) -> [Commitment] {
        CommitmentFile(blocks: all).blocks(on: slot.day).filter { overlaps(slot.start, slot.end, $0.start, $0.end) }
    }

    /// The other pending tasks whose slots overlap `slot`.
    public static func tasks(overlapping slot: TaskSlot, in all: [TaskItem], excluding id: UUID) -> [TaskItem] {
        all.filter { t in
            guard t.id != id, t.state != .done, let s = t.slot, s.day == slot.day else { return false }
            return overlaps(slot.start, slot.end, s.start, s.end)
        }
    }

    /// Free ranges within working hours, not covered by a commitment or a
    /// placed task, starting no earlier than `from` (e.g. now, for today).
    public func freeSlots(from: ClockTime? = nil) -> [TimeRange] {
        var busy: [(Int, Int)] = commitments.map { ($0.start.minutes, $0.end.minutes) }
        busy += placed.compactMap { t in t.slot.map { ($0.start.minutes, $0.end.minutes) } }
        busy.sort { $0 < $1 }
        var cursor = max(hours.start.minutes, from?.minutes ?? 0)
        let limit = hours.end.minutes
        var free: [TimeRange] = []
        for (s, e) in busy {
            if s > cursor, let a = ClockTime(minutes: cursor), let b = ClockTime(minutes: min(s, limit)), let r = TimeRange(start: a, end: b) {
                free.append(r)
            }
            cursor = max(cursor, e)
            if cursor >= limit { break }
        }
        if cursor < limit, let a = ClockTime(minutes: cursor), let r = TimeRange(start: a, end: hours.end) {
            free.append(r)
        }
        return free
    }

    /// The day as a timeline: commitments (even outside working hours), placed
    /// tasks and free time, by start; at equal starts commitments come first,
    /// then tasks, then free time, then by title and id.
    public func timeline(from: ClockTime? = nil) -> [TimelineEntry] {
        var entries: [TimelineEntry] = commitments.map { TimelineEntry(kind: .commitment($0), start: $0.start, end: $0.end) }
        for task in placed {
            guard let slot = task.slot else { continue }
            let hits = commitments.filter { Self.overlaps(slot.start, slot.end, $0.start, $0.end) }
            entries.append(TimelineEntry(kind: .task(task), start: slot.start, end: slot.end, overlaps: hits))
        }
        entries += freeSlots(from: from).map { TimelineEntry(kind: .free, start: $0.start, end: $0.end) }
        return entries.sorted {
            ($0.start.minutes, $0.kindRank, $0.end.minutes, $0.sortTitle, $0.sortID)
                < ($1.start.minutes, $1.kindRank, $1.end.minutes, $1.sortTitle, $1.sortID)
        }
    }

    /// Minutes of free time in working hours (from `from`).
    public func freeMinutes(from: ClockTime? = nil) -> Int {
        freeSlots(from: from).reduce(0) { $0 + $1.minutes }
    }

    /// Minutes of a free block at `time`: the rest of the free slot containing
    /// it, else the whole next free slot; nil when no free time is left.
    public func nextFreeBlock(at time: ClockTime) -> TimeRange? {
        freeSlots(from: time).first
    }

    /// `time` rounded up to a multiple of `step` minutes (at most 24:00).
    public static func roundUp(_ time: ClockTime, step: Int = 5) -> ClockTime {
        let m = (time.minutes + step - 1) / step * step
        return ClockTime(minutes: min(m, 1440)) ?? .endOfDay
    }
}
