import FoundationEssentials

/// Sets and removes one `key = "value"` line in a section of config.toml,
/// leaving every other line (comments included) as it was. Used by
/// `tick context define` and `tick context delete`.
public struct ConfigFileEditor: Sendable {
    public var text: String

    public init(text: String) {
        self.text = text
    }

    /// A TOML key: bare when it can be, else quoted.
    static func key(_ name: String) -> String {
        let bare = !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        return bare ? name : quoted(name)
    }

    /// A TOML basic string.
    static func quoted(_ value: String) -> String {
        var out = "\""
        for c in value.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if c.value < 0x20 || c.value == 0x7f { out += CFormat.string("\\u%04X", c.value) } else { out.unicodeScalars.append(c) }
            }
        }
        return out + "\""
    }

    /// The lines of `section` (after its header, up to the next header), as indexes.
    private func sectionRange(_ lines: [Substring], _ section: String) -> Range<Int>? {
        guard let header = lines.firstIndex(where: { $0.trimmingWhitespace() == "[\(section)]" }) else { return nil }
        var end = header + 1
        while end < lines.count, !lines[end].trimmingWhitespace().hasPrefix("[") { end += 1 }
        return (header + 1)..<end
    }

    private func isLine(_ line: Substring, for name: String) -> Bool {
        let trimmed = line.trimmingWhitespace()
        for k in [Self.key(name), Self.quoted(name)] where trimmed.hasPrefix(k) {
            if trimmed.dropFirst(k.count).trimmingWhitespace().hasPrefix("=") { return true }
        }
        return false
    }

    /// Sets `name = "value"` in `[section]`, replacing the line if there is
    /// one, adding the section at the end if there is none.
    public mutating func set(_ name: String, to value: String, in section: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let line = Substring("\(Self.key(name)) = \(Self.quoted(value))")
        if let range = sectionRange(lines, section) {
            if let i = range.first(where: { isLine(lines[$0], for: name) }) {
                lines[i] = line
            } else {
                // After the section's last non-blank line.
                var at = range.upperBound
                while at > range.lowerBound, lines[at - 1].trimmingWhitespace().isEmpty { at -= 1 }
                lines.insert(line, at: at)
            }
            text = lines.joined(separator: "\n")
        } else {
            var t = text
            if !t.isEmpty && !t.hasSuffix("\n") { t += "\n" }
            if !t.isEmpty { t += "\n" }
            text = t + "[\(section)]\n\(line)\n"
        }
    }

    /// Removes `name` from `[section]`; false when it was not there.
    public mutating func remove(_ name: String, in section: String) -> Bool {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let range = sectionRange(lines, section), let i = range.first(where: { isLine(lines[$0], for: name) }) else { return false }
        lines.remove(at: i)
        text = lines.joined(separator: "\n")
        return true
    }
}
