/// One field after a task's title on a `tick ui` row (`due Thu 19 Nov`,
/// `+bills`, `@Home`), with what it is, which decides when it gives way on a
/// narrow row (``UIRowLayout``), and a shorter form for dates.
public struct UIRowField: Sendable, Equatable {
    /// What a field shows.
    public enum Kind: Sendable, Equatable {
        case list, due, slot, scheduled, remind, blocked, wait, repeatRule
        case priority, energy, estimate, tag, note, completed
        /// `pri:flexible`, which gives way with the minor fields (`pri:must` stays).
        case flexible
    }

    /// What the field shows.
    public var kind: Kind
    /// The field as written on a wide row (plain text: no escape sequences).
    public var text: String
    /// A shorter form (dates without the weekday and time), when there is one.
    public var short: String?
    /// Follows the previous field after one space instead of two (the tags of a task).
    public var tight: Bool

    /// A field of `kind` showing `text`.
    public init(kind: Kind, text: String, short: String? = nil, tight: Bool = false) {
        self.kind = kind
        self.text = text
        self.short = short
        self.tight = tight
    }
}
