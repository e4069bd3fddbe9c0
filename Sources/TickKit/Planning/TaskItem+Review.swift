import FoundationEssentials
import Glibc

extension TaskItem {
    /// Moves the dates that put this task in today's view to `target`, as `tick review`
    /// does for "tomorrow" and "pick a date". Pure: `today` and `timeZone` are given.
    ///
    /// - `due`, when on or before today (or overdue): to `target`'s day. A timed due keeps
    ///   its wall-clock time unless `target` itself has a time, which then wins.
    /// - `scheduled`, when on or before today: to `target`'s day; a slot on or
    ///   before today moves to that day too, at the same time and length.
    /// - `remind`: moves by as many days as the due date did (keeping its offset and
    ///   wall-clock time); without a moved due, a reminder on or before today moves to
    ///   `target`'s day at its time. Later dates are left alone.
    ///
    /// Returns true when anything changed; `modifiedAt` is then set to `now`.
    @discardableResult
    public mutating func reschedule(to target: TaskDate, today: LocalDate, now: Date, timeZone: Zone) -> Bool {
        let before = self
        let day = target.localDay(in: timeZone)
        var dueShift: Int?
        if let due, due.localDay(in: timeZone) <= today {
            let oldDay = due.localDay(in: timeZone)
            switch (due, target) {
            case (_, .time(let instant)): self.due = .time(instant)
            case (.day, .day): self.due = .day(day)
            case (.time(let t), .day): self.due = .time(Self.move(t, by: oldDay.days(until: day), timeZone: timeZone))
            }
            dueShift = oldDay.days(until: day)
        }
        if let s = scheduled, s <= today { scheduled = day }
        // A slot is a place on the scheduled day: it moves with it (same time and length).
        if var placed = slot, placed.day <= today {
            placed.day = day
            slot = placed
            scheduled = day
        }
        if let r = remind {
            let remindDay = LocalDate(date: r, timeZone: timeZone)
            if let shift = dueShift {
                remind = Self.move(r, by: shift, timeZone: timeZone)
            } else if remindDay <= today {
                remind = Self.move(r, by: remindDay.days(until: day), timeZone: timeZone)
            }
        }
        guard !sameContent(as: before) else { return false }
        modifiedAt = now
        return true
    }

    /// Clears due, scheduled and remind (for "back to inbox"). Returns true when anything changed.
    @discardableResult
    public mutating func clearDates(now: Date) -> Bool {
        guard due != nil || scheduled != nil || remind != nil else { return false }
        due = nil
        scheduled = nil
        remind = nil
        modifiedAt = now
        return true
    }
}
