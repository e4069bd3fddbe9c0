import FoundationEssentials
import Glibc

/// Parses the values of fields as typed on the command line, for both
/// quick-add tokens (`due:fri`) and flags (`--due fri`).
public struct FieldParser: Sendable {
    public let when: WhenParser
    public let timeZone: Zone
    /// The time of day used when a reminder is given as a day only.
    public let defaultRemindHour: Int

    public init(now: Date, timeZone: Zone, defaultRemindHour: Int = 9) {
        self.when = WhenParser(now: now, timeZone: timeZone)
        self.timeZone = timeZone
        self.defaultRemindHour = defaultRemindHour
    }

    /// A due date: a day or a day and time.
    public func due(_ text: String, key: String = "due") throws(InputError) -> TaskDate {
        do { return try when.parse(text) } catch { throw .badDate(key: key, error) }
    }

    /// A scheduled day; a time is refused.
    public func scheduled(_ text: String, key: String = "sched") throws(InputError) -> LocalDate {
        let parsed: TaskDate
        do { parsed = try when.parse(text) } catch { throw .badDate(key: key, error) }
        guard case .day(let d) = parsed else { throw .badDate(key: key, WhenParser.dayOnlyError(text)) }
        return d
    }

    /// A reminder instant; a day alone means that day at the default hour.
    public func remind(_ text: String, key: String = "remind") throws(InputError) -> Date {
        let parsed: TaskDate
        do { parsed = try when.parse(text) } catch { throw .badDate(key: key, error) }
        switch parsed {
        case .time(let t): return t
        case .day(let d):
            let instant = d.at(hour: defaultRemindHour, minute: 0, timeZone: timeZone)
            // The default hour can cross the range's edge in UTC (1970-01-01 east of UTC).
            guard DateRange.contains(instant) else {
                throw .badDate(key: key, .outOfRange(input: text.trimmingWhitespaceAndNewlines(), day: nil))
            }
            return instant
        }
    }

    /// `must` or `flexible` (unique prefixes such as `m` accepted), or
    /// Taskwarrior's `H`, `M`, `L`, `high`, `medium`, `low` (``Priority/taskwarrior(_:)``).
    public func priority(_ text: String, key: String = "pri") throws(InputError) -> Priority {
        if let exact = Priority(rawValue: text.lowercased()) { return exact }
        if let mapped = Priority.taskwarrior(text) { return mapped }
        return try enumValue(text, key: key)
    }

    /// `high`, `low` or `any` (unique prefixes accepted).
    public func energy(_ text: String, key: String = "energy") throws(InputError) -> Energy {
        try enumValue(text, key: key)
    }

    /// An estimate: `45m`, `1h30m`, `2h`, `90` (minutes).
    public func estimate(_ text: String, key: String = "estimate") throws(InputError) -> Int {
        try minutes(text, key: key, max: TaskEstimate.maxMinutes)
    }

    /// A slot length (`for:45m`), at most a day.
    public func slotLength(_ text: String, key: String = "for") throws(InputError) -> Int {
        try minutes(text, key: key, max: 1440)
    }

    private func minutes(_ text: String, key: String, max: Int) throws(InputError) -> Int {
        guard let m = DurationText.parse(text) else {
            if let (amount, unit) = DurationText.single(text), !unit.isTimeOfDay {
                throw .invalid("\(key): \"\(text)\" is \(amount) \(unit.spelled(amount)); \(key): takes minutes or hours, e.g. 45m, 90min, 2h, 1h30m")
            }
            throw .invalid("\(key): \"\(text)\" is not a duration; use minutes like 45m, 90 or hours like 1h30m")
        }
        guard m <= max else { throw .invalid("\(key): \(text) is too long (at most \(DurationText.format(max)))") }
        return m
    }

    /// A slot start: `14:00`, `2pm`, `2026-11-24@14:00`, `tomorrow@9am`, `2026-11-24T14:00`.
    public func slotStart(_ text: String, key: String = "at") throws(InputError) -> SlotRequest {
        let trimmed = text.trimmingWhitespace()
        var day: LocalDate?
        var timeText = trimmed
        if let at = trimmed.firstIndex(of: "@") {
            let dayText = String(trimmed[..<at])
            timeText = String(trimmed[trimmed.index(after: at)...])
            do { day = try when.parseDay(dayText) } catch { throw .badDate(key: key, error) }
        } else if trimmed.lowercased() == "noon", let noon = ClockTime(hour: 12, minute: 0) {
            return SlotRequest(day: nil, today: when.today, start: noon)
        } else if let (d, time) = TaskSlot.parseStart(trimmed) {
            guard DateRange.contains(d) else { throw .badDate(key: key, .outOfRange(input: trimmed, day: d)) }
            return SlotRequest(day: d, today: when.today, start: time)
        }
        // After `@`, `noon` and an hour alone (`fri@17`) work as in WHEN.
        if day != nil, timeText.lowercased() == "noon" { timeText = "12:00" }
        if day != nil, (1...2).contains(timeText.count), timeText.allSatisfy({ $0.isASCII && $0.isNumber }) { timeText += ":00" }
        guard let time = ClockTime(parsing: timeText), time.minutes < 1440 else {
            throw .invalid("\(key): \"\(text)\" is not a start time; use at:14:00, at:2pm or at:2026-11-24@14:00")
        }
        return SlotRequest(day: day, today: when.today, start: time)
    }

    /// A `repeat:` rule: validated (see ``RecurrenceRule``), returned as typed.
    public func repeatRule(_ text: String, key: String = "repeat") throws(InputError) -> String {
        let trimmed = text.trimmingWhitespace()
        // In tick's duration grammar `m` is minutes; a rule never steps by minutes, and
        // files written before kept `+1m` meaning months, so new input must say `mo`.
        let lower = trimmed.lowercased()
        if lower.hasSuffix("m"), let before = lower.dropLast().last, before.isNumber || before == " " || before == "+" {
            let fixed = String(trimmed.dropLast()) + "mo"
            throw .invalid("\(key): \"\(trimmed)\" is ambiguous: m means minutes in tick, and a rule cannot repeat by minutes; for months write \(key):\(fixed)")
        }
        _ = try RecurrenceRule.parse(trimmed, key: key)
        return trimmed
    }

    /// The task references of `depends:ID[,ID]`, as typed (a leading `-`
    /// marks a removal); each is one task in the one id grammar
    /// (``TaskReference/single(_:)``), resolved as `tick done` resolves it.
    public func dependencies(_ text: String, key: String = "depends") throws(InputError) -> [String] {
        let refs = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
        for ref in refs {
            let bare = ref.hasPrefix("-") ? String(ref.dropFirst()) : ref
            guard TaskReference.single(bare) != nil else {
                throw .invalid("\(key): \"\(ref)\" is not a task id; give short ids or UUID prefixes, e.g. \(key):3,7 (see tick list)")
            }
        }
        return refs
    }

    /// A tag, with or without its leading `+`.
    public func tag(_ text: String) throws(InputError) -> String {
        let tag = text.hasPrefix("+") ? String(text.dropFirst()) : text
        if let problem = TagRules.problem(with: tag) { throw .badTag(text, reason: problem) }
        return tag
    }

    private func enumValue<E: RawRepresentable & CaseIterable>(_ text: String, key: String) throws(InputError) -> E where E.RawValue == String {
        let lower = text.lowercased()
        if let exact = E(rawValue: lower) { return exact }
        let matches = E.allCases.filter { !lower.isEmpty && $0.rawValue.hasPrefix(lower) }
        if matches.count == 1, let only = matches.first { return only }
        throw .badValue(key: key, value: text, allowed: E.allCases.map(\.rawValue))
    }
}
