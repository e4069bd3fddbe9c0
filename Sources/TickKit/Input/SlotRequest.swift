import FoundationEssentials

/// A slot as typed (`at:14:00`, `at:2026-11-24@14:00`), before it is resolved
/// against a task: without a day it goes on the task's scheduled day, else today.
public struct SlotRequest: Sendable, Equatable {
    /// The day given with the time, if any.
    public var day: LocalDate?
    /// The day used when neither the request nor the task names one.
    public var today: LocalDate
    /// The wall-clock start.
    public var start: ClockTime

    public init(day: LocalDate?, today: LocalDate, start: ClockTime) {
        self.day = day
        self.today = today
        self.start = start
    }

    /// The default length of a slot when neither `for:` nor an estimate gives one.
    public static let defaultMinutes = 30
}

/// What an edit does to a task's slot.
public enum SlotOutcome: Sendable, Equatable {
    case unchanged
    case set(TaskSlot)
    case cleared
}
