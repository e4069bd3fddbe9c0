import Foundation

/// Parses the values of fields as typed on the command line, for both
/// quick-add tokens (`due:fri`) and flags (`--due fri`).
public struct FieldParser: Sendable {
    public let when: WhenParser
    public let timeZone: TimeZone
    /// The time of day used when a reminder is given as a day only.
    public let defaultRemindHour: Int

    public init(now: Date, timeZone: TimeZone, defaultRemindHour: Int = 9) {
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
        guard case .day(let d) = parsed else { throw .badDate(key: key, .timeNotAllowed(text)) }
        return d
    }

    /// A reminder instant; a day alone means that day at the default hour.
    public func remind(_ text: String, key: String = "remind") throws(InputError) -> Date {
        let parsed: TaskDate
        do { parsed = try when.parse(text) } catch { throw .badDate(key: key, error) }
        switch parsed {
        case .time(let t): return t
        case .day(let d): return d.at(hour: defaultRemindHour, minute: 0, timeZone: timeZone)
        }
    }

    /// `must` or `flexible` (unique prefixes such as `m` accepted).
    public func priority(_ text: String, key: String = "pri") throws(InputError) -> Priority {
        try enumValue(text, key: key)
    }

    /// `high`, `low` or `any` (unique prefixes accepted).
    public func energy(_ text: String, key: String = "energy") throws(InputError) -> Energy {
        try enumValue(text, key: key)
    }

    /// A `repeat:` rule: validated (see ``RecurrenceRule``), returned as typed.
    public func repeatRule(_ text: String, key: String = "repeat") throws(InputError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        _ = try RecurrenceRule.parse(trimmed, key: key)
        return trimmed
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
