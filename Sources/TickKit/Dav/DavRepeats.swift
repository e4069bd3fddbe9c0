import FoundationEssentials

/// Repeating tasks across the bridge (Docs/DAV.md, "Repeats"): the phone's
/// ways of completing an occurrence, the next occurrence tick makes for it,
/// and the rules tick cannot read.
///
/// A phone completes an occurrence of a repeating item in one of two shapes:
/// - `STATUS:COMPLETED` on the item (Thunderbird, todoman, jtx Board): an
///   ordinary completion;
/// - the same UID with `DUE` (and `DTSTART`) moved forward to a later date
///   of the rule and `STATUS` still `NEEDS-ACTION` (Tasks.org, Apple
///   Reminders): ``completedOccurrence(phone:base:store:at:timeZone:)`` reads
///   it as the completion of the occurrence the base copy holds.
///
/// Either way the task is completed in tick and gets its next occurrence
/// through ``TaskFile/insertNextOccurrence(of:now:timeZone:existsElsewhere:)``
/// (its id derived from the completed task's, so a second machine makes the
/// same one, once); the item goes back to the phone completed, with the
/// occurrence's dates, and the next occurrence goes out as a new item.
public enum DavRepeats {
    /// The phone's task `phone` read as a completion, when it is the moved-forward
    /// shape: the task's last agreed version `base` repeats by a calendar rule
    /// tick reads and is not done, `phone` has the same rule, tick did not move
    /// the dates since (`store`), and the phone moved the series' day (due, else
    /// start) forward to a day the rule gives. Returns `phone` done at `at`
    /// (or at its own completion time when the phone also completed it: moved
    /// and then completed before a sync counts as one completion), with
    /// `base`'s dates (the occurrence that was completed); nil otherwise.
    ///
    /// A rule tick cannot read (an RRULE kept as it is) or an after-completion
    /// rule (`+3d`, which phones do not see as a rule) is never read so: the
    /// phone's new date is then a reschedule of the one task.
    public static func completedOccurrence(phone: TaskItem, base: TaskItem, store: TaskItem, at: Date, timeZone: Zone) -> TaskItem? {
        func day(_ t: TaskItem) -> LocalDate? { t.due?.localDay(in: timeZone) ?? t.scheduled }
        guard let text = base.repeatRule, RRuleMapping.sameRule(phone.repeatRule, text),
              let rule = RRuleMapping.recurrence(text, anchor: day(base)), !rule.isAfterCompletion,
              base.state != .done,
              store.due == base.due, store.scheduled == base.scheduled
        else { return nil }
        guard let old = day(base), (base.due == nil) == (phone.due == nil), let new = day(phone), new > old,
              isOccurrence(new, of: rule, after: old, stored: base)
        else { return nil }
        var done = phone
        done.due = base.due
        done.scheduled = base.scheduled
        done.remind = base.remind
        done.wait = base.wait
        if done.state != .done {
            done.state = .done
            done.completedAt = at
        }
        return done
    }

    /// True when `day` is one of the days `rule` gives after `anchor` (the
    /// series' original day of `task` counts for month and year steps).
    static func isOccurrence(_ day: LocalDate, of rule: RecurrenceRule, after anchor: LocalDate, stored task: TaskItem) -> Bool {
        let stored = task.extra.first { $0.key == TaskFile.repeatAnchorKey }.flatMap { member -> LocalDate? in
            if case .string(let s) = member.value.kind { return LocalDate(iso: s) }
            return nil
        }
        let start = rule.seriesStart(stored: stored, current: anchor) ?? (rule.stepsByMonths ? anchor : nil)
        var current = anchor
        // A phone moves one step; a few hundred cover one that skipped missed ones.
        for _ in 0..<400 {
            let next = rule.nextDay(after: current, seriesStart: start, completed: current)
            if next == day { return true }
            if next > day || next <= current { return false }
            current = next
        }
        return false
    }

    /// Inserts the next occurrence of each task of `ids` completed from the
    /// phone into `file`. Returns the occurrences created (to go out as new
    /// items) and, for a task whose rule tick cannot read, a problem naming
    /// the item (`paths`: the vdir path by task id), so the end of a series is
    /// never silent.
    public static func insertNext(
        into file: inout TaskFile, ids: [UUID], paths: [UUID: String], now: Date, timeZone: Zone,
        existsElsewhere: (UUID) -> Bool
    ) -> (created: [TaskItem], problems: [String]) {
        var created: [TaskItem] = []
        var problems: [String] = []
        for id in ids {
            do {
                let (next, made) = try file.insertNextOccurrence(of: id, now: now, timeZone: timeZone, existsElsewhere: existsElsewhere)
                if made, let next { created.append(next) }
            } catch {
                let rule = file.tasks.first { $0.id == id }?.repeatRule ?? ""
                problems.append("\(paths[id] ?? id.lowercased): completed on the phone; no next occurrence in tick: "
                    + (RRuleMapping.isRRule(rule) ? "its RRULE has no tick rule (the phone continues its series, if it does)" : (error.errorDescription ?? "the rule cannot be read")))
            }
        }
        return (created, problems)
    }

    /// A notice for each item whose repeat rule tick keeps without reading it
    /// (an RRULE with COUNT, UNTIL, BYSETPOS, ...): `items` are (vdir path,
    /// task) pairs.
    public static func unreadRules(_ items: [(path: String, task: TaskItem)], timeZone: Zone) -> [String] {
        items.compactMap { item in
            guard let rule = item.task.repeatRule, RRuleMapping.isRRule(rule),
                  RRuleMapping.recurrence(rule, anchor: item.task.due?.localDay(in: timeZone) ?? item.task.scheduled) == nil else { return nil }
            return "\(item.path): its RRULE \(TextRules.visible(rule)) has no tick rule; kept as it is (tick done completes the task without a next occurrence)"
        }.sorted()
    }
}
