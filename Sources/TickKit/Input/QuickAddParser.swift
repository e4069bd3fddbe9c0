import Foundation

/// Splits Taskwarrior-style words into a title and field changes.
///
/// Tokens: `due:WHEN`, `remind:WHEN`, `sched:WHEN` (or `scheduled:`),
/// `list:NAME`, `+tag`, `pri:must|flexible` (or `priority:`),
/// `energy:high|low|any`, `repeat:RULE`, `estimate:45m` (or `est:`),
/// `at:14:00` / `at:DAY@14:00` (a slot) and `for:45m` (its length). With `allowRemoval`, `-tag` removes
/// a tag and an empty value (`due:`) clears the field. Words after `--`, and
/// words starting with a backslash (which is dropped), are title text. Every
/// other word is title text.
public struct QuickAddParser: Sendable {
    public let fields: FieldParser

    public init(fields: FieldParser) {
        self.fields = fields
    }

    /// The keys recognized as tokens.
    public static let keys: Set<String> = ["due", "remind", "sched", "scheduled", "list", "pri", "priority", "energy", "repeat",
                                          "estimate", "est", "at", "for"]

    static let dateKeys: Set<String> = ["due", "remind", "sched", "scheduled"]

    /// Parses words; returns the title (words joined by spaces; may be empty) and the edit.
    public func parse(_ words: [String], allowRemoval: Bool = false) throws(InputError) -> (title: String, edit: TaskEdit) {
        var edit = TaskEdit()
        var titleWords: [String] = []
        var literal = false
        var words = words[...]
        while let word = words.popFirst() {
            if literal {
                titleWords.append(word)
                continue
            }
            if word == "--" {
                literal = true
                continue
            }
            if word.hasPrefix("\\"), word.count > 1 {
                titleWords.append(String(word.dropFirst()))
                continue
            }
            if word.count > 1, word.hasPrefix("+") {
                edit.addTags.append(try fields.tag(word))
                continue
            }
            if allowRemoval, word.count > 1, word.hasPrefix("-"), !word.hasPrefix("--"), word.dropFirst().first?.isLetter == true {
                edit.removeTags.append(try fields.tag(String(word.dropFirst())))
                continue
            }
            if let colon = word.firstIndex(of: ":") {
                let key = word[..<colon].lowercased()
                let value = String(word[word.index(after: colon)...])
                if Self.keys.contains(key) {
                    var value = value
                    // `due:in 3d` and `due:next week` arrive as two words.
                    if Self.dateKeys.contains(key), ["in", "next"].contains(value.lowercased()), let next = words.first {
                        value += " " + next
                        words = words.dropFirst()
                    }
                    // `repeat:every 2w` and `repeat:every 3 days` arrive as two or three words.
                    if key == "repeat", value.lowercased() == "every", let next = words.first {
                        value += " " + next
                        words = words.dropFirst()
                        if next.allSatisfy({ $0.isASCII && $0.isNumber }), let unit = words.first {
                            value += " " + unit
                            words = words.dropFirst()
                        }
                    }
                    try apply(key: key, value: value, to: &edit, allowRemoval: allowRemoval)
                    continue
                }
            }
            titleWords.append(word)
        }
        return (titleWords.joined(separator: " "), edit)
    }

    private func apply(key: String, value: String, to edit: inout TaskEdit, allowRemoval: Bool) throws(InputError) {
        if value.isEmpty {
            guard allowRemoval || key == "list" else {
                throw .invalid("\(key): needs a value, e.g. \(key):\(Self.example(key))")
            }
            switch key {
            case "due": edit.due = .clear
            case "remind": edit.remind = .clear
            case "sched", "scheduled": edit.scheduled = .clear
            case "pri", "priority": edit.priority = .clear
            case "energy": edit.energy = .clear
            case "repeat": edit.repeatRule = .clear
            case "estimate", "est": edit.estimate = .clear
            case "at": edit.slot = .clear
            case "for": throw .invalid("for: needs a length, e.g. for:45m (use at: to remove the slot)")
            default: throw .invalid("list: needs a list name, e.g. list:Work (use list:inbox for the inbox)")
            }
            return
        }
        switch key {
        case "due": edit.due = .set(try fields.due(value))
        case "remind": edit.remind = .set(try fields.remind(value))
        case "sched", "scheduled": edit.scheduled = .set(try fields.scheduled(value, key: key))
        case "list": edit.list = value
        case "pri", "priority": edit.priority = .set(try fields.priority(value, key: key))
        case "energy": edit.energy = .set(try fields.energy(value))
        case "repeat": edit.repeatRule = .set(try fields.repeatRule(value))
        case "estimate", "est": edit.estimate = .set(try fields.estimate(value, key: key))
        case "at": edit.slot = .set(try fields.slotStart(value))
        case "for": edit.slotMinutes = try fields.slotLength(value)
        default: break
        }
    }

    private static func example(_ key: String) -> String {
        switch key {
        case "pri", "priority": return "must"
        case "energy": return "low"
        case "repeat": return "weekly"
        case "estimate", "est", "for": return "45m"
        case "at": return "14:00"
        default: return "tomorrow"
        }
    }
}
