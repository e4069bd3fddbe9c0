import FoundationEssentials

/// An annotation: a dated line at the end of a task's notes
/// (`2026-11-28 10:00 Called, left a message`), as Taskwarrior's
/// annotations read. `tick annotate` appends one; the Taskwarrior codec maps
/// such lines to annotations with their time and back.
public struct Annotation: Sendable, Equatable {
    /// When it was made (to the minute in the notes).
    public var at: Date
    public var text: String

    public init(at: Date, text: String) {
        self.at = at
        self.text = text
    }

    /// Its line in the notes: the local day and time, a space, the text.
    public func line(in timeZone: Zone) -> String {
        ClockTime.dayAndTime(at, in: timeZone) + " " + text
    }

    /// The annotation a notes line holds (`YYYY-MM-DD HH:MM TEXT`, read in
    /// `timeZone`), or nil for any other line.
    public init?(line: Substring, in timeZone: Zone) {
        let bytes = Array(line.utf8)
        guard bytes.count > 17, bytes[10] == UInt8(ascii: " "), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: " "),
              let day = LocalDate(iso: String(decoding: bytes[0..<10], as: UTF8.self)),
              let hour = Int(String(decoding: bytes[11..<13], as: UTF8.self)), let minute = Int(String(decoding: bytes[14..<16], as: UTF8.self)),
              (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
        let text = String(decoding: bytes[17...], as: UTF8.self)
        guard !text.trimmingWhitespace().isEmpty else { return nil }
        self.init(at: day.at(hour: hour, minute: minute, timeZone: timeZone), text: text)
    }

    /// `notes` with `lines` appended, one per line.
    public static func appending(_ lines: [String], to notes: String?) -> String? {
        guard !lines.isEmpty else { return notes }
        let base = notes.map { $0.hasSuffix("\n") || $0.isEmpty ? $0 : $0 + "\n" } ?? ""
        return base + lines.joined(separator: "\n")
    }
}
