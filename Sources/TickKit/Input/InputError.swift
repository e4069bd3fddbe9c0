import FoundationEssentials

/// Bad command-line input: a token, a date, a value.
public indirect enum InputError: Error, LocalizedError, Sendable, Equatable {
    case badValue(key: String, value: String, allowed: [String])
    case badDate(key: String, DateError)
    case badTag(String, reason: String)
    case emptyTitle
    case invalid(String)
    /// A bad value in the token `word` (`at:noonish`); the message says how to keep the
    /// word as title text instead.
    case inToken(word: String, InputError)
    /// `due: fri`: a key with nothing after the colon, followed by a separate word.
    case separatedValue(key: String, next: String, clearing: Bool)
    /// `tick edit 1 2 due:fri`: words that are neither tokens nor allowed as a title here.
    case strayWords([String])

    public var errorDescription: String? {
        switch self {
        case let .badValue(key, value, allowed):
            return "\(key): \"\(value)\" is not one of \(allowed.joined(separator: ", "))"
        case let .badDate(key, error):
            return "\(key): \(error.errorDescription ?? "bad date")"
        case let .badTag(tag, reason):
            return "bad tag \"\(tag)\": \(reason)"
        case .emptyTitle:
            return "a task needs a title; e.g. tick add Buy milk due:tomorrow +errand"
        case .invalid(let message):
            return message
        case let .inToken(word, error):
            let inner = error.errorDescription ?? "bad value"
            return inner + "; if \"\(word)\" is title text, put it after `--` or write \\\(word)"
        case let .separatedValue(key, next, clearing):
            let clear = clearing ? ", or \(key):none to clear it" : ""
            return "\(key): has no value and \"\(next)\" follows as a separate word; write \(key):\(next) with no space\(clear) (quote a value with spaces: \(key):\"next monday\")"
        case .strayWords(let words):
            let list = words.map { "\"\($0)\"" }.joined(separator: ", ")
            let title = words.joined(separator: " ")
            return "stray \(words.count == 1 ? "word" : "words") \(list) next to field changes; tick edit does not rename from loose words when tokens or flags are given. To rename, use --title \"\(title)\"; to set a field, write key:value with no space (due:fri)"
        }
    }
}

extension InputError: TickError {
    public var kind: FailureKind { .usage }
}
