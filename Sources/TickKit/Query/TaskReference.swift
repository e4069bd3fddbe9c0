import FoundationEssentials

/// One reference to tasks as typed: tick's one task-id grammar (Docs/CLI.md
/// §7), shared by the commands that take ids (``TaskResolver``,
/// ``BulkSelection``), filters (``FilterParser``) and `depends:`, so a word
/// is an id to all of them or to none.
///
/// A word is a comma-separated list of parts (`3,5-7,6f1c`); each part is
/// - a short id: digits, at least 1 (`3`); one of 4+ digits is also a UUID
///   prefix when no task holds that short id (``shortOrPrefix(_:_:)``);
/// - a range of short ids: `A-B` with 1 ≤ A ≤ B (`3-7`);
/// - a UUID prefix: 8 to 32 hex digits, or 4 to 7 with at least one digit
///   and one letter, any case, dashes allowed inside (`6f1c`, `3a5effe4`,
///   `3A5EFFE4-2566`, a full UUID). Four to seven letters alone (`beef`,
///   `cafe`) are a word, never an id; a leading or trailing `-` is not part
///   of an id (in a filter `-3` is "not task 3").
public enum TaskReference: Sendable, Equatable, Hashable {
    /// Short ids, one (`3...3`) or a range.
    case short(ClosedRange<Int>)
    /// A number of 4+ digits: the task with that short id, or, when no task
    /// holds it, the tasks whose UUID starts with these digits.
    case shortOrPrefix(Int, String)
    /// Lowercase hex digits, no dashes.
    case uuidPrefix(String)
    /// A task the caller already holds (`tick ui`, review, a filter's
    /// matches): its full id, never re-parsed.
    case id(UUID)

    /// True when this reference named `task` by a short id (not by a UUID prefix).
    public func namesByShortID(_ task: ListedTask) -> Bool {
        switch self {
        case .short: return true
        case .shortOrPrefix(_, let digits): return !task.task.id.lowercased.hasPrefix(digits)
        case .uuidPrefix, .id: return false
        }
    }

    /// The reference as it reads in a message (`3`, `3-7`, `6f1c`, a full id).
    public var text: String {
        switch self {
        case .short(let r): return r.count == 1 ? "\(r.lowerBound)" : "\(r.lowerBound)-\(r.upperBound)"
        case .shortOrPrefix(_, let digits): return digits
        case .uuidPrefix(let hex): return hex
        case .id(let id): return id.lowercased
        }
    }

    /// One reference per task that `words` name (lists split, ranges spelled
    /// out: `3-5,9` is 3, 4, 5 and 9); nil when a word is not a list of
    /// references, or there are no words.
    public static func tasks(_ words: [String]) -> [TaskReference]? {
        guard !words.isEmpty else { return nil }
        var out: [TaskReference] = []
        for word in words {
            guard let refs = list(word) else { return nil }
            for ref in refs {
                if case .short(let r) = ref, r.count > 1 { out += r.map { .short($0...$0) } } else { out.append(ref) }
            }
        }
        return out
    }

    /// One task as typed (surrounding spaces ignored): a word that is not a
    /// task id names no task.
    public static func task(_ word: String) throws(LookupError) -> TaskReference {
        guard let ref = single(word.trimmingWhitespace()) else { throw .taskNotFound(word) }
        return ref
    }

    /// The references of one word (comma-separated parts), nil when any part
    /// is not a reference.
    public static func list(_ word: String) -> [TaskReference]? {
        var refs: [TaskReference] = []
        for part in word.split(separator: ",", omittingEmptySubsequences: false) {
            guard let ref = part.isEmpty ? nil : range(part) ?? single(String(part)) else { return nil }
            refs.append(ref)
        }
        return refs.isEmpty ? nil : refs
    }

    /// True when every word is a list of references (`3 7 6f1c`, `3-5,9`).
    public static func isList(_ words: [String]) -> Bool {
        !words.isEmpty && words.allSatisfy { list($0) != nil }
    }

    /// One task: a short id or a UUID prefix (no range, no list); nil otherwise.
    public static func single(_ text: String) -> TaskReference? {
        if !text.isEmpty, text.allSatisfy(\.isASCIIDigit) {
            if let n = Int(text), n >= 1 {
                return text.count >= 4 && text.count <= 32 ? .shortOrPrefix(n, text) : .short(n...n)
            }
            // Zero, or more digits than an Int holds: only a UUID prefix.
            return text.count >= 8 && text.count <= 32 ? .uuidPrefix(text) : nil
        }
        guard text.first != "-", text.last != "-" else { return nil }
        let hex = text.lowercased().filter { $0 != "-" }
        guard !hex.isEmpty, hex.count <= 32, hex.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        let looksLikeID = hex.count >= 8 || (hex.count >= 4 && hex.contains(where: \.isNumber) && hex.contains(where: \.isLetter))
        return looksLikeID ? .uuidPrefix(hex) : nil
    }

    /// `A-B`, digits on both sides, 1 ≤ A ≤ B.
    static func range(_ part: Substring) -> TaskReference? {
        let bounds = part.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, bounds.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }),
              let a = Int(bounds[0]), let b = Int(bounds[1]), a >= 1, b >= a else { return nil }
        return .short(a...b)
    }
}

extension Character {
    /// `0` to `9` (not other scripts' digits).
    var isASCIIDigit: Bool { isASCII && isNumber }
}
