import FoundationEssentials

/// The text of `tick edit ID`'s `$EDITOR` buffer: a header of `//` comment lines, then the
/// task's JSON.
///
/// Reading it back blanks every line that starts with `//` (so line numbers in errors still
/// match the buffer) and reads a time typed without a zone (`2026-11-24T17:00`) at a time key
/// (`due`, `wait`, `remind`, `createdAt`, `modifiedAt`, `completedAt`) in the local zone; a time
/// with `Z` or an offset keeps its exact instant. (Files on disk read such times as UTC:
/// Docs/FORMAT.md; the buffer is a person typing, whose clock is local.)
///
/// Fields declared in config.toml are keys of the JSON like any other; the
/// header names them, a date field's zone-less time is local too, a duration
/// may be typed as `"1h30m"` and one of a set of values in any case; they are
/// stored in their type's form (Docs/FIELDS.md "Setting").
public struct EditorBuffer: Sendable {
    /// The zone in which times without a zone are read.
    public let timeZone: Zone
    /// The fields declared in config.toml.
    public let fields: UserFields

    /// The members whose string values may be instants (from the field table: `due`, `wait`,
    /// `remind` and the timestamps).
    static let timeKeys = TaskField.timeKeys

    public init(timeZone: Zone, fields: UserFields = UserFields()) {
        self.timeZone = timeZone
        self.fields = fields
    }

    /// The header comment, one `//` line each.
    public var header: [String] {
        [
            "// tick edit: change the task's JSON below, save and quit to apply it; quit without saving to cancel.",
            "// Times ending in Z are UTC (2026-11-24T16:00:00Z), or give an offset (2026-11-24T17:00:00+01:00).",
            "// A time without a zone (2026-11-24T17:00) is read in your local zone, \(timeZone.identifier).",
            "// Lines starting with // are ignored.",
        ] + fieldsLine
    }

    /// The header line naming the declared fields and how each is typed.
    private var fieldsLine: [String] {
        guard !fields.isEmpty else { return [] }
        let each = fields.all.map { field -> String in
            switch field.kind {
            case .string: return "\"\(field.name)\": text"
            case .number: return "\"\(field.name)\": a number"
            case .date: return "\"\(field.name)\": a day (\"2026-12-01\") or a time"
            case .duration: return "\"\(field.name)\": minutes or \"1h30m\""
            case .values(let names): return "\"\(field.name)\": " + names.map { "\"\($0)\"" }.joined(separator: ", ")
            }
        }
        return ["// Your fields (config.toml): " + each.joined(separator: "; ") + ". Add a key to set one, remove it to clear it."]
    }

    /// The buffer for a task's JSON: the header, then the JSON.
    public func render(json: [UInt8]) -> [UInt8] {
        Array((header.joined(separator: "\n") + "\n").utf8) + json
    }

    /// The JSON to decode from a saved buffer: `//` lines blanked and zone-less times at
    /// time keys rewritten as UTC instants (same line, so error positions stay close).
    /// Text that is not valid JSON is returned with only the comments blanked, for the
    /// decoder to report.
    public func json(from buffer: [UInt8]) -> [UInt8] {
        var bytes = EditorBuffer.blankingComments(buffer)
        guard let root = try? JSONParser.parse(bytes), case .object(let members) = root.kind else { return bytes }
        var replacements: [(range: Range<Int>, text: String)] = []
        for member in members {
            guard case .string(let text) = member.value.kind, member.value.offset >= 0,
                  let replacement = replacement(key: member.key, text: text)
            else { continue }
            let start = member.value.offset
            let raw = Array(text.utf8)
            let end = start + 1 + raw.count
            // Only a plain literal (no escapes) is rewritten in place.
            guard end < bytes.count, bytes[start] == UInt8(ascii: "\""), Array(bytes[(start + 1)..<end]) == raw,
                  bytes[end] == UInt8(ascii: "\"")
            else { continue }
            replacements.append((start..<(end + 1), replacement))
        }
        for replacement in replacements.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            bytes.replaceSubrange(replacement.range, with: Array(replacement.text.utf8))
        }
        return bytes
    }

    /// The JSON text a string typed at `key` is read as, or nil to keep it:
    /// a zone-less time at a time key or a declared date field, UTC; a
    /// duration (`1h30m`) at a declared duration field, minutes; a value of
    /// a declared set in another case, as declared.
    private func replacement(key: String, text: String) -> String? {
        if let field = fields[key], field.name == key {
            switch field.kind {
            case .date: break
            case .duration:
                guard let minutes = DurationText.parse(text), minutes > 0 else { return nil }
                return String(minutes)
            case .values(let names):
                guard !names.contains(text), let match = names.first(where: { $0.lowercased() == text.lowercased() }) else { return nil }
                return "\"" + match + "\""
            case .string, .number: return nil
            }
        } else if !EditorBuffer.timeKeys.contains(key) {
            return nil
        }
        return localInstant(text).map { "\"" + Timestamp.format($0) + "\"" }
    }

    /// The instant of `YYYY-MM-DDTHH:MM[:SS[.fff]]` (or a space for `T`) with no zone, read
    /// as local wall time (DST-correct: a time in a spring-forward gap moves forward); nil
    /// for anything else, including a time with a zone.
    public func localInstant(_ text: String) -> Date? {
        let b = Array(text.utf8)
        guard b.count >= 16, b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: " "),
              let (year, month, dayOfMonth) = LocalDate.parseISO(b[0..<10]),
              let day = LocalDate(year: year, month: month, day: dayOfMonth)
        else { return nil }
        func two(_ i: Int) -> Int? {
            guard i + 1 < b.count, (48...57).contains(b[i]), (48...57).contains(b[i + 1]) else { return nil }
            return Int(b[i] - 48) * 10 + Int(b[i + 1] - 48)
        }
        guard let hour = two(11), hour <= 23, b[13] == UInt8(ascii: ":"), let minute = two(14), minute <= 59 else { return nil }
        var second = 0
        var i = 16
        if i < b.count {
            guard b[i] == UInt8(ascii: ":"), let s = two(i + 1), s <= 59 else { return nil }
            second = s
            i += 3
            if i < b.count, b[i] == UInt8(ascii: ".") {
                i += 1
                let digits = b[i...].prefix { (48...57).contains($0) }
                guard !digits.isEmpty else { return nil }
                i += digits.count
            }
        }
        guard i == b.count else { return nil }   // a zone follows: not ours
        return day.at(hour: hour, minute: minute, timeZone: timeZone).addingTimeInterval(TimeInterval(second))
    }

    /// `buffer` with every line whose first non-blank characters are `//` emptied. Such a
    /// line can never be JSON (a JSON string cannot span lines), so nothing else is lost.
    static func blankingComments(_ buffer: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(buffer.count)
        var lineStart = true
        var skipping = false
        var i = 0
        while i < buffer.count {
            let byte = buffer[i]
            if byte == UInt8(ascii: "\n") {
                skipping = false
                lineStart = true
                out.append(byte)
                i += 1
                continue
            }
            if lineStart {
                var j = i
                while j < buffer.count, buffer[j] == UInt8(ascii: " ") || buffer[j] == UInt8(ascii: "\t") { j += 1 }
                if j + 1 < buffer.count, buffer[j] == UInt8(ascii: "/"), buffer[j + 1] == UInt8(ascii: "/") {
                    skipping = true
                }
                lineStart = false
            }
            if !skipping { out.append(byte) }
            i += 1
        }
        return out
    }
}
