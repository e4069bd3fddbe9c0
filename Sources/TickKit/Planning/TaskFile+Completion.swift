import FoundationEssentials
import Glibc

/// What completing a task did.
public struct CompletionOutcome: Sendable, Equatable {
    /// The task as it is now (done).
    public var task: TaskItem
    /// False when it was already done (nothing was written for it).
    public var changed: Bool
    /// The next occurrence of a recurring task: created now, or found already there.
    public var next: TaskItem?
    /// True when `next` was created by this call.
    public var nextCreated: Bool
    /// Set when the task's `repeat` rule cannot be read (a hand-edited file): the
    /// task is completed and no next occurrence is made.
    public var ruleProblem: String?
}

extension TaskFile {
    /// The unknown-key name under which a month/year series keeps its original day
    /// while an occurrence is clamped (Jan 31 -> Feb 28); see Docs/RECURRENCE.md.
    public static let repeatAnchorKey = "repeatAnchor"

    /// The unknown-key name under which an occurrence whose time a DST gap moved keeps
    /// the series' wall-clock times (`{"due": "02:30"}`); see Docs/RECURRENCE.md.
    public static let repeatTimesKey = "repeatTimes"

    /// Unknown keys that belong to one occurrence, not copied to the next: the
    /// series' anchor and wall-clock times (set again below), and the
    /// Taskwarrior instance the occurrence came with (``TaskwarriorChain``: the
    /// next occurrence is another instance of the series).
    static let perOccurrenceKeys: Set<String> = [
        repeatAnchorKey, repeatTimesKey, TaskwarriorRecurrence.extraKey,
    ]

    /// The id of the occurrence that follows `id`: a UUIDv5 of the predecessor's id,
    /// so every machine that completes the same occurrence makes the same next task.
    public static func nextOccurrenceID(after id: UUID) -> UUID {
        UUID(name: "next-occurrence:" + id.lowercased)
    }

    /// Marks a task done and, when it repeats, inserts its next occurrence right
    /// after it in this file: the one completion path for every command.
    ///
    /// Nothing is created when a task with the next occurrence's id already exists
    /// here, was deleted here (a tombstone: a deleted occurrence never comes
    /// back; a reopen removes an untouched occurrence without one), or
    /// `existsElsewhere` reports it (a task moved to another list, or archived).
    /// Completing a task that is already done changes nothing.
    @discardableResult
    public mutating func complete(
        taskID: UUID, at now: Date, timeZone: Zone,
        existsElsewhere: (UUID) -> Bool = { _ in false }
    ) throws -> CompletionOutcome {
        guard let i = index(of: taskID) else { throw LookupError.taskNotFound(taskID.lowercased) }
        guard tasks[i].state != .done else {
            return CompletionOutcome(task: tasks[i], changed: false, next: nil, nextCreated: false, ruleProblem: nil)
        }
        tasks[i].setState(.done, at: now)
        tasks[i].modifiedAt = now
        var outcome = CompletionOutcome(task: tasks[i], changed: true, next: nil, nextCreated: false, ruleProblem: nil)
        do {
            let (next, created) = try insertNextOccurrence(of: taskID, now: now, timeZone: timeZone, existsElsewhere: existsElsewhere)
            outcome.next = next
            outcome.nextCreated = created
        } catch {
            outcome.ruleProblem = error.errorDescription
        }
        return outcome
    }

    /// Inserts the next occurrence of the (done) recurring task `taskID` right after
    /// it, unless it already exists. Returns the next task (nil when the task does
    /// not repeat) and whether it was created. For completion paths that set the
    /// state themselves (editing the JSON).
    @discardableResult
    public mutating func insertNextOccurrence(
        of taskID: UUID, now: Date, timeZone: Zone,
        existsElsewhere: (UUID) -> Bool = { _ in false }
    ) throws(InputError) -> (next: TaskItem?, created: Bool) {
        guard let i = index(of: taskID), tasks[i].repeatRule != nil else { return (nil, false) }
        let nextID = Self.nextOccurrenceID(after: taskID)
        if let existing = tasks.first(where: { $0.id == nextID }) { return (existing, false) }
        // A tombstone is a deletion of this very occurrence (a reopen leaves none):
        // completing the series again does not bring it back (Docs/RECURRENCE.md).
        if deleted.contains(where: { $0.id == nextID }) || existsElsewhere(nextID) { return (nil, false) }
        guard let next = try tasks[i].nextOccurrence(completedAt: tasks[i].completedAt ?? now, now: now, timeZone: timeZone) else {
            return (nil, false)
        }
        tasks.insert(next, at: i + 1)
        return (next, true)
    }
}

extension TaskItem {
    /// The next occurrence of this task, or nil when it does not repeat.
    ///
    /// Copies what the field table marks ``TaskField/OnRepeat/copied`` (title,
    /// tags, dependencies, notes, priority, energy, estimate, rule, unknown keys
    /// but those of one occurrence), starts the ``TaskField/OnRepeat/fresh``
    /// ones over (open, no slot), gives it the deterministic id and
    /// this task's `createdAt` as its `createdAt` and `modifiedAt` (so the
    /// occurrence made by completing the series again is the same task with
    /// the same times, and every change, completion, archiving or deletion of
    /// it made anywhere is later: Docs/RECURRENCE.md), and shifts the dates:
    /// due moves to the next day keeping the series' wall-clock time in `timeZone`
    /// (a time a DST gap moved comes back: ``SeriesWallTimes``);
    /// scheduled, remind and wait move by the same number of days (remind keeps its
    /// wall-clock offset from due). A rule with no dates to move schedules the
    /// next occurrence on its day. Throws when a date of the next occurrence would
    /// fall outside ``DateRange`` (the series ends).
    public func nextOccurrence(completedAt: Date, now: Date, timeZone: Zone) throws(InputError) -> TaskItem? {
        guard let text = repeatRule else { return nil }
        let completedDay = LocalDate(date: completedAt, timeZone: timeZone)
        // The series' wall-clock times: a time a gap moved stands for the time it was moved from.
        let times = SeriesWallTimes(extra: extra)
        let dueClock: (day: LocalDate, second: Int)?
        if case .time(let t)? = due { dueClock = times.wallClock(of: t, field: "due", timeZone: timeZone) } else { dueClock = nil }
        let dueDay = dueClock?.day ?? due?.localDay(in: timeZone)
        let anchor = dueDay ?? scheduled ?? completedDay
        let rule: RecurrenceRule
        if RRuleMapping.isRRule(text) {
            // A phone's RRULE (Docs/RECURRENCE.md, "iCalendar and phones"): read where tick has
            // the rule; otherwise (COUNT, UNTIL, ...) the task is done and the series ends in tick.
            guard let mapped = RRuleMapping.recurrence(text, anchor: dueDay ?? scheduled) else {
                throw .invalid("its rule is an iCalendar RRULE tick has no rule for (Docs/RECURRENCE.md); "
                    + "add the next task by hand, or give the series a tick rule with tick edit ID repeat:RULE")
            }
            rule = mapped
        } else {
            rule = try RecurrenceRule.parse(text)
        }
        let stored = extra.first { $0.key == TaskFile.repeatAnchorKey }.flatMap { member -> LocalDate? in
            if case .string(let s) = member.value.kind { return LocalDate(iso: s) }
            return nil
        }
        let start = rule.seriesStart(stored: stored, current: anchor)
        let day = rule.nextDay(after: anchor, seriesStart: start, completed: completedDay)
        let delta = anchor.days(until: day)

        // What the field table says each field does on a repeat (``TaskField/onRepeat``):
        // copied as it is, or started over as on a new task; the dates are then placed below.
        let nextID = TaskFile.nextOccurrenceID(after: id)
        let blank = TaskItem(id: nextID, title: title, createdAt: createdAt, modifiedAt: createdAt)
        var next = self
        next.id = nextID
        next.changed = [:]
        next.needsFill = false
        for field in TaskField.all where field.onRepeat != .copied {
            field.applyChange(&next, self, blank)
        }
        next.extra = extra.filter { !TaskFile.perOccurrenceKeys.contains($0.key) }
        // Each timed date goes to the series' wall-clock time on its new day; one a gap
        // moves again remembers that time for the occurrence after it.
        var moved = SeriesWallTimes()
        func place(_ field: String, _ instant: Date, on day: (LocalDate) -> LocalDate) -> Date {
            let clock = times.wallClock(of: instant, field: field, timeZone: timeZone)
            let target = day(clock.day)
            // On its own day at its own time (a +N rule can give the same day): unchanged.
            if target == clock.day, SeriesWallTimes.shows(instant, day: target, second: clock.second, timeZone: timeZone) {
                return instant
            }
            let seconds = instant.timeIntervalSince1970
            let placed = SeriesWallTimes.place(day: target, second: clock.second, timeZone: timeZone)
                .addingTimeInterval(seconds - seconds.rounded(.down))
            if !SeriesWallTimes.shows(placed, day: target, second: clock.second, timeZone: timeZone) {
                moved.seconds[field] = clock.second
            }
            return placed
        }
        switch due {
        case .day?: next.due = .day(day)
        case .time(let t)?: next.due = .time(place("due", t) { _ in day })
        case nil: break
        }
        if let s = scheduled { next.scheduled = due == nil ? day : s.adding(days: delta) }
        if let r = remind {
            if due != nil || scheduled != nil {
                next.remind = place("remind", r) { $0.adding(days: delta) }
            } else {
                next.remind = place("remind", r) { _ in day }
            }
        }
        if due == nil && scheduled == nil && remind == nil { next.scheduled = day }
        // A wait keeps its distance from the occurrence, as in Taskwarrior.
        switch wait {
        case .day(let w)?: next.wait = .day(w.adding(days: delta))
        case .time(let t)?: next.wait = .time(place("wait", t) { $0.adding(days: delta) })
        case nil: break
        }
        // A series that would run past the dates tick can store ends here rather than
        // write a file the reader refuses.
        guard next.due.map({ DateRange.contains($0) }) ?? true,
              next.scheduled.map({ DateRange.contains($0) }) ?? true,
              next.remind.map({ DateRange.contains($0) }) ?? true,
              next.wait.map({ DateRange.contains($0) }) ?? true
        else {
            throw .invalid("the next occurrence would fall on \(day.iso), outside the dates tick can store "
                + "(\(DateRange.text)); the series ends here")
        }
        // A clamped month/year occurrence remembers the series' day (Jan 31 -> Feb 28 -> Mar 31).
        if rule.stepsByMonths {
            let series = start ?? anchor
            if series.day != day.day {
                next.extra.append(JSONMember(TaskFile.repeatAnchorKey, .string(series.iso)))
            }
        }
        if let member = moved.member { next.extra.append(member) }
        return next
    }

    /// `instant` moved by `days` calendar days, keeping its wall-clock time in
    /// `timeZone` (09:00 stays 09:00 across a DST change).
    static func move(_ instant: Date, by days: Int, timeZone: Zone) -> Date {
        guard days != 0 else { return instant }
        let secondOfDay = LocalDate.floorMod(timeZone.localSeconds(for: instant), 86_400)
        let day = LocalDate(date: instant, timeZone: timeZone).adding(days: days)
        let seconds = instant.timeIntervalSince1970
        let fraction = Double(secondOfDay % 60) + (seconds - seconds.rounded(.down))
        return day.at(hour: secondOfDay / 3_600, minute: secondOfDay % 3_600 / 60, timeZone: timeZone).addingTimeInterval(fraction)
    }
}
