import FoundationEssentials

/// A value a task file holds under a field's key (Docs/FORMAT.md §4): how it
/// is written and how it is read back. The file codec of a field of the
/// table (``TaskField/file``) is its value type's conformance, so a new
/// field whose type already conforms needs nothing here.
protocol FileValue: Sendable {
    /// The JSON the file holds; nil leaves the key out.
    var fileNode: JSONNode? { get }
    /// True for a value a file leaves out and reads as unset (empty text).
    var isEmptyInFile: Bool { get }
    /// Reads the value of `key`; a wrong one is an error at its place.
    static func read(_ node: JSONNode, key: String, _ reader: JSONFieldReader) throws(FormatError) -> Self
}

extension FileValue {
    var isEmptyInFile: Bool { false }
}

/// Unset is left out, and so is an empty value (`"notes": ""` reads as none).
extension Optional: FileValue where Wrapped: FileValue {
    var fileNode: JSONNode? {
        guard let self, !self.isEmptyInFile else { return nil }
        return self.fileNode
    }

    var isEmptyInFile: Bool { self?.isEmptyInFile ?? true }

    static func read(_ node: JSONNode, key: String, _ reader: JSONFieldReader) throws(FormatError) -> Wrapped? {
        let value = try Wrapped.read(node, key: key, reader)
        return value.isEmptyInFile ? nil : value
    }
}

extension String: FileValue {
    var fileNode: JSONNode? { .string(self) }
    var isEmptyInFile: Bool { isEmpty }

    static func read(_ node: JSONNode, key: String, _ reader: JSONFieldReader) throws(FormatError) -> String {
        try reader.string(node, key: key)
    }
}

/// Whole minutes, `1...` ``TaskEstimate/maxMinutes``: the one integer a task holds.
extension Int: FileValue {
    var fileNode: JSONNode? { JSONNode(.number(String(self))) }

    static func read(_ node: JSONNode, key: String, _ reader: JSONFieldReader) throws(FormatError) -> Int {
        try reader.minutes(node, key: key, max: TaskEstimate.maxMinutes)
    }
}

/// An instant, as an ISO 8601 timestamp in UTC.
extension Date: FileValue {
    var fileNode: JSONNode? { .string(Timestamp.format(self)) }

    static func read(_ node: JSONNode, key: String, _ reader: JSONFieldReader) throws(FormatError) -> Date {
        try reader.timestamp(node, key: key)
    }
}

/// A day (`2026-11-24`) or an instant (`2026-11-24T16:00:00Z`).
extension TaskDate: FileValue {
    var fileNode: JSONNode? { .string(fileString) }

    static func read(_ node: JSONNode, key: String, _ reader: JSONFieldReader) throws(FormatError) -> TaskDate {
        try reader.parsed(node, key: key, TaskDate.init(fileString:),
                          or: "a date like \"2026-11-24\" or a timestamp like \"2026-11-24T16:00:00Z\"")
    }
}

extension LocalDate: FileValue {
    var fileNode: JSONNode? { .string(iso) }

    static func read(_ node: JSONNode, key: String, _ reader: JSONFieldReader) throws(FormatError) -> LocalDate {
        try reader.parsed(node, key: key, LocalDate.init(iso:), or: "a date like \"2026-11-24\"")
    }
}

/// A word of a closed set, by its raw value.
extension FileValue where Self: RawRepresentable & CaseIterable, RawValue == String {
    var fileNode: JSONNode? { .string(rawValue) }

    static func read(_ node: JSONNode, key: String, _ reader: JSONFieldReader) throws(FormatError) -> Self {
        try reader.enumValue(node, key: key)
    }
}

extension TaskState: FileValue {}
extension Priority: FileValue {}
extension Energy: FileValue {}

/// `{"start": "YYYY-MM-DDTHH:MM", "minutes": N}`; other keys are kept.
extension TaskSlot: FileValue {
    var fileNode: JSONNode? { node }

    static func read(_ v: JSONNode, key: String, _ reader: JSONFieldReader) throws(FormatError) -> TaskSlot {
        let members = try reader.members(of: v, what: "\"\(key)\"")
        var start: (LocalDate, ClockTime)?
        var length: Int?
        var extra: [JSONMember] = []
        for m in members {
            switch m.key {
            case "start":
                let s = try reader.string(m.value, key: "\(key).start")
                guard let parsed = TaskSlot.parseStart(s) else {
                    throw reader.error(at: m.value.offset, "\"\(key).start\" must be a local date and time like \"2026-11-24T10:00\" (found \"\(s)\")")
                }
                start = parsed
            case "minutes": length = try reader.minutes(m.value, key: "\(key).minutes", max: 1440)
            default: extra.append(m)
            }
        }
        guard let start else { throw reader.error(at: v.offset, "\"\(key)\" needs a \"start\" like \"2026-11-24T10:00\"") }
        guard let length else { throw reader.error(at: v.offset, "\"\(key)\" needs \"minutes\", its length, like 45") }
        guard TaskSlot.isValid(start: start.1, minutes: length) else {
            throw reader.error(at: v.offset, "the slot starting at \(start.1) with \(length) minutes runs past midnight; a slot must end by 24:00")
        }
        return TaskSlot(day: start.0, start: start.1, minutes: length, extra: extra)
    }
}
