import FoundationEssentials

/// A field's value as the screens show it (``TaskField/shown``): what kind
/// of value it is decides how `tick show`, report columns and `tick ui`'s
/// details write it, so a field added to the table is shown everywhere with
/// no list of fields kept by a screen.
public enum FieldValue: Sendable, Equatable {
    /// Text as it is (a repeat rule, the title, the notes).
    case text(String)
    /// One word of a closed set (state, priority, energy), with its place
    /// in the set's order (how `--sort` orders it).
    case word(String, rank: Int)
    /// A day or an instant (`due`, `wait`).
    case date(TaskDate)
    /// A day (`scheduled`).
    case day(LocalDate)
    /// An instant (`remind`, the timestamps).
    case instant(Date)
    /// Whole minutes (`estimate`).
    case minutes(Int)
    /// A time block on a day.
    case slot(TaskSlot)
    /// Other tasks, by id (`depends`).
    case tasks([UUID])
    /// Tags, in their order.
    case tags([String])
}

extension FieldValue {
    /// The value as one line of text: dates by their relative label, minutes
    /// as a duration (`1h30m`), a slot with its day, times and length, tasks
    /// by their UUID prefix, tags as `+tag`. Text is as stored (the caller
    /// makes control characters visible where it writes to a terminal).
    public func text(dates: RelativeDateFormatter) -> String {
        switch self {
        case .text(let s), .word(let s, _): return s
        case .date(let d): return dates.label(d)
        case .day(let d): return dates.label(.day(d))
        case .instant(let t): return dates.label(.time(t))
        case .minutes(let m): return DurationText.format(m)
        case .slot(let s): return "\(dates.label(.day(s.day))) \(s.start)-\(s.end) (\(DurationText.format(s.minutes)))"
        case .tasks(let ids): return ids.map { String($0.lowercased.prefix(8)) }.joined(separator: ", ")
        case .tags(let tags): return tags.map { "+" + $0 }.joined(separator: " ")
        }
    }

    /// The value as the task file stores it, for a date or time shown by its
    /// relative label (`tick show` writes both); nil for the others.
    public var stored: String? {
        switch self {
        case .date(let d): return d.fileString
        case .day(let d): return d.iso
        case .instant(let t): return Timestamp.format(t)
        case .slot(let s): return s.startString
        case .text, .word, .minutes, .tasks, .tags: return nil
        }
    }
}
