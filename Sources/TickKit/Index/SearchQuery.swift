import FoundationEssentials

/// A search: words, `"quoted phrases"` and `prefix*` terms, all of which must
/// match a task's title, notes or tags, case-insensitively.
///
/// A word or phrase matches anywhere in the text, as `grep -i` would; a
/// `prefix*` term matches the start of a word. The index narrows candidates
/// with an FTS5 trigram table; ``matches(_:)`` is the exact definition.
public struct SearchQuery: Sendable, Equatable {
    public enum Term: Sendable, Equatable {
        case text(String)
        case prefix(String)
    }

    public let terms: [Term]

    /// Parses the query; throws on an empty query or an unclosed quote.
    public init(_ text: String) throws(InputError) {
        var terms: [Term] = []
        var rest = Substring(text)
        while let start = rest.firstIndex(where: { !$0.isWhitespace }) {
            rest = rest[start...]
            if rest.first == "\"" {
                let body = rest.dropFirst()
                guard let end = body.firstIndex(of: "\"") else {
                    throw .invalid("unclosed quote in search \(text)")
                }
                let phrase = body[..<end].trimmingWhitespace()
                if !phrase.isEmpty { terms.append(.text(phrase.lowercased())) }
                rest = body[body.index(after: end)...]
            } else {
                let end = rest.firstIndex(where: \.isWhitespace) ?? rest.endIndex
                let word = String(rest[..<end]).lowercased()
                rest = rest[end...]
                if word.count > 1, word.hasSuffix("*") {
                    terms.append(.prefix(String(word.dropLast())))
                } else if word != "*" {
                    terms.append(.text(word))
                }
            }
        }
        guard !terms.isEmpty else { throw .invalid("give something to search for, e.g. tick search milk") }
        self.terms = terms
    }

    /// An FTS5 MATCH expression for the trigram table: every trigram of
    /// every term of 3 or more characters (the table keeps no positions, so a
    /// term becomes the AND of its trigrams: a superset that ``matches(_:)``
    /// then narrows). Nil when no term is long enough: every task is then a
    /// candidate.
    public var ftsExpression: String? {
        var grams: [String] = []
        var seen = Set<String>()
        for term in terms {
            for gram in Self.trigrams(of: term) where seen.insert(gram).inserted { grams.append(gram) }
        }
        return grams.isEmpty ? nil : grams.joined(separator: " AND ")
    }

    /// An FTS5 MATCH expression for one term in some columns of the trigram
    /// table (`{title} : ("buy" AND "uy ")`, columns `title`): a superset of
    /// the rows where one of them holds the term. Nil for a term of fewer
    /// than 3 characters.
    func ftsExpression(_ term: Term, columns: String) -> String? {
        let grams = Self.trigrams(of: term)
        return grams.isEmpty ? nil : "{\(columns)} : (" + grams.joined(separator: " AND ") + ")"
    }

    /// A term's distinct trigrams, each quoted for FTS5.
    private static func trigrams(of term: Term) -> [String] {
        let s: String
        switch term {
        case .text(let t), .prefix(let t): s = t
        }
        let chars = Array(s)
        guard chars.count >= 3 else { return [] }
        var seen = Set<String>()
        var out: [String] = []
        for i in 0...(chars.count - 3) {
            let gram = String(chars[i..<(i + 3)])
            if seen.insert(gram).inserted { out.append("\"" + gram.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\"") }
        }
        return out
    }

    /// A relevance score: matches in the title count most, then tags, then notes.
    public func score(_ task: TaskItem) -> Int {
        score(title: task.title, notes: task.notes ?? "", tags: task.tags.joined(separator: " "))
    }

    /// The score of a task given as its title, notes and space-separated tags
    /// (what the index keeps): 0 when a term matches none of them, else 10
    /// per term in the title, 5 in the tags and 1 in the notes. One
    /// definition for ranking in Swift and inside SQLite (`tick_search`).
    public func score(title: String, notes: String, tags: String) -> Int {
        Self.withUTF8(title) { t in Self.withUTF8(notes) { n in Self.withUTF8(tags) { g in score(title: t, notes: n, tags: g) } } }
    }

    /// ``score(title:notes:tags:)`` on UTF-8 bytes (SQLite's own, for
    /// `tick_search`): each column is matched on its bytes where that decides
    /// (``ASCIIMatch``), else made a String and lowercased, once for all terms.
    func score(title: UnsafeBufferPointer<UInt8>, notes: UnsafeBufferPointer<UInt8>, tags: UnsafeBufferPointer<UInt8>) -> Int {
        var fields = (Field(title), Field(tags), Field(notes))
        var total = 0
        for term in terms {
            let found = fields.0.contains(term) * 10 + fields.1.contains(term) * 5 + fields.2.contains(term)
            if found == 0 { return 0 }
            total += found
        }
        return total
    }

    private static func withUTF8<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var text = text
        return text.withUTF8(body)
    }

    /// One field's bytes, and its text lowercased with Unicode rules, made the
    /// first time the bytes cannot decide.
    private struct Field {
        let bytes: UnsafeBufferPointer<UInt8>
        var folded: String?

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        /// 1 when `term` occurs, else 0.
        mutating func contains(_ term: Term) -> Int {
            let (needle, atWordStart): (String, Bool)
            switch term {
            case .text(let t): (needle, atWordStart) = (t, false)
            case .prefix(let p): (needle, atWordStart) = (p, true)
            }
            let bytes = self.bytes
            if let found = SearchQuery.withUTF8(needle, { ASCIIMatch.find($0, in: bytes, atWordStart: atWordStart) }) {
                return found ? 1 : 0
            }
            if folded == nil { folded = String(decoding: bytes, as: UTF8.self).lowercased() }
            return SearchQuery.matches(term, in: folded ?? "") ? 1 : 0
        }
    }

    /// True when every term matches the task's title, notes or tags.
    public func matches(_ task: TaskItem) -> Bool {
        score(task) > 0
    }

    /// Whether `term` (already lowercased) occurs in `text` (already
    /// lowercased with Unicode rules).
    static func matches(_ term: Term, in text: String) -> Bool {
        let (needle, atWordStart): (String, Bool)
        switch term {
        case .text(let t): (needle, atWordStart) = (t, false)
        case .prefix(let p): (needle, atWordStart) = (p, true)
        }
        if let found = ASCIIMatch.find(needle, in: text, atWordStart: atWordStart) { return found }
        return atWordStart ? hasWord(startingWith: needle, in: text) : ComposedSearch.contains(needle, in: text)
    }

    private static func hasWord(startingWith prefix: String, in text: String) -> Bool {
        var from = text.startIndex
        while let r = ComposedSearch.range(of: prefix, in: text, from: from) {
            if r.lowerBound == text.startIndex { return true }
            // The character holding the scalar before the match (a match can start
            // inside a character, after a prepended mark).
            let before = text[text.unicodeScalars.index(before: r.lowerBound)]
            if !(before.isLetter || before.isNumber) { return true }
            // By scalar: Foundation can find a match inside a character (after a
            // prepended mark), where stepping by characters could pass the end.
            let next = text.unicodeScalars.index(after: r.lowerBound)
            guard next < text.endIndex else { return false }
            from = next
        }
        return false
    }
}
