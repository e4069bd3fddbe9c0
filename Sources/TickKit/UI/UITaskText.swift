import FoundationEssentials
import Glibc

/// A task written as the quick-add words that would make it again, for `e`
/// (edit in the input line): the title, then each field the words set, as
/// its input key types it (``TaskField/input``: `due:` `remind:` `wait:`
/// `sched:` `pri:` …, in the table's order), the declared fields' `NAME:value`
/// (``word(_:for:timeZone:)``) and the tags.
public enum UITaskText {
    /// The words of `task`, dates in `timeZone`. Title words that would read
    /// as tokens get a leading `\` (title text, Docs/CLI.md "Literal titles").
    public static func tokens(of task: TaskItem, timeZone: Zone, fields: UserFields = UserFields()) -> String {
        let title = task.title.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            looksLikeToken(String(word)) ? "\\" + word : String(word)
        }.joined(separator: " ")
        var words = [title]
        for input in TaskField.inputs {
            if let word = input.word(task, timeZone) { words.append(input.key + ":" + word) }
        }
        for (field, value) in fields.values(of: task) {
            if let word = word(value, for: field, timeZone: timeZone) { words.append(field.name + ":" + word) }
        }
        words += task.tags.map { "+" + $0 }
        return words.joined(separator: " ")
    }

    /// A declared field's value as the input line types it (a date local, a
    /// duration as `1h30m`); nil for a value of another type than declared or
    /// text with a space, which the line cannot hold (it is left as it is).
    public static func word(_ value: JSONNode, for field: UserField, timeZone: Zone) -> String? {
        guard field.isWellTyped(value) else { return nil }
        switch (field.kind, value.kind) {
        case (.date, .string(let s)): return TaskDate(fileString: s)?.inputWord(timeZone)
        case (.duration, .number), (.number, .number): return field.text(of: value)
        case (_, .string(let s)): return s.isEmpty || s.contains(where: \.isWhitespace) ? nil : s
        default: return nil
        }
    }

    /// True for a word the quick-add parser would take as a token or escape.
    static func looksLikeToken(_ word: String) -> Bool {
        if word.hasPrefix("\\") || word.hasPrefix("-") { return true }
        if word.hasPrefix("+"), let next = word.dropFirst().first, next.isLetter || next == "_" || !next.isASCII { return true }
        guard let colon = word.firstIndex(of: ":") else { return false }
        return QuickAddParser.keys.contains(word[..<colon].lowercased())
    }
}
