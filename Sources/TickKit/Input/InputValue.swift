import FoundationEssentials

/// A value that `key:value` words type, as quick-add, the flags and the
/// UI's line read and write it (``FieldInputCoding``). A new field of one of
/// these types needs no code to be typed.
protocol InputValue: Sendable, Equatable {
    /// Reads `text`, typed after `key` (named in the error as the user typed it).
    static func parse(_ text: String, key: String, _ parser: FieldParser) throws(InputError) -> Self
    /// The word that types the value again, times in `zone`.
    func inputWord(_ zone: Zone) -> String
    /// A value to show in an error that asks for one (`due: needs a value, e.g. due:tomorrow`).
    static var inputExample: String { get }
}

/// A day or a day and time (`due:fri`, `wait:2026-12-01T09:00`).
extension TaskDate: InputValue {
    static var inputExample: String { "tomorrow" }

    static func parse(_ text: String, key: String, _ parser: FieldParser) throws(InputError) -> TaskDate {
        try parser.due(text, key: key)
    }

    func inputWord(_ zone: Zone) -> String {
        switch self {
        case .day(let d): return d.iso
        case .time(let t): return ClockTime.dayAndTime(t, in: zone, separator: "T")
        }
    }
}

/// A day; a time is refused (`sched:mon`).
extension LocalDate: InputValue {
    static var inputExample: String { "tomorrow" }

    static func parse(_ text: String, key: String, _ parser: FieldParser) throws(InputError) -> LocalDate {
        try parser.scheduled(text, key: key)
    }

    func inputWord(_ zone: Zone) -> String { iso }
}

/// An instant; a day alone is that day at the reminder hour (`remind:fri`).
extension Date: InputValue {
    static var inputExample: String { "tomorrow" }

    static func parse(_ text: String, key: String, _ parser: FieldParser) throws(InputError) -> Date {
        try parser.remind(text, key: key)
    }

    func inputWord(_ zone: Zone) -> String { TaskDate.time(self).inputWord(zone) }
}

/// Whole minutes, typed as a duration (`estimate:1h30m`).
extension Int: InputValue {
    static var inputExample: String { "45m" }

    static func parse(_ text: String, key: String, _ parser: FieldParser) throws(InputError) -> Int {
        try parser.estimate(text, key: key)
    }

    func inputWord(_ zone: Zone) -> String { DurationText.format(self) }
}

extension Priority: InputValue {
    static var inputExample: String { "must" }

    static func parse(_ text: String, key: String, _ parser: FieldParser) throws(InputError) -> Priority {
        try parser.priority(text, key: key)
    }

    func inputWord(_ zone: Zone) -> String { rawValue }
}

extension Energy: InputValue {
    static var inputExample: String { "low" }

    static func parse(_ text: String, key: String, _ parser: FieldParser) throws(InputError) -> Energy {
        try parser.energy(text, key: key)
    }

    func inputWord(_ zone: Zone) -> String { rawValue }
}

/// `repeat:RULE`, and `recur:` which also takes Taskwarrior's values
/// (`biweekly`, `2wks`), as `tick import` does.
enum RepeatInput {
    static let example = "weekly"

    static func parse(_ text: String, key: String, _ parser: FieldParser) throws(InputError) -> String {
        do {
            return try parser.repeatRule(text, key: key)
        } catch {
            guard key.lowercased() == "recur", let rule = TaskwarriorRecurrence.tickRule(forTaskwarrior: text) else { throw error }
            return rule
        }
    }
}
