import ArgumentParser
import FoundationEssentials
import Glibc
import TickKit

/// Completion kinds that know the store: list names, tags and task ids
/// (with their titles where the shell shows descriptions: zsh, fish).
///
/// The generated completion scripts run `tick ---completion …` on each Tab,
/// which calls these closures. They read the index read-only
/// (``CompletionIndex``): nothing is refreshed, locked or written, and a
/// store without an index completes nothing rather than building one.
enum ShellCompletion {
    /// List names (`lists rm NAME`, `--list NAME`).
    static let lists = CompletionKind.custom { words, _, prefix in
        format(Candidates(words: words).lists(prefix: prefix))
    }

    /// List names and `inbox` (`export --list`, `search --list`).
    static let listsOrInbox = CompletionKind.custom { words, _, prefix in
        format(Candidates(words: words).lists(prefix: prefix, inbox: true))
    }

    /// Tag names, without `+` (`--tag TAG`).
    static let tags = CompletionKind.custom { words, _, prefix in
        let bare = prefix.hasPrefix("+") ? String(prefix.dropFirst()) : prefix
        return format(Candidates(words: words).tags(prefix: bare).map { .plain($0) })
    }

    /// Task ids with titles, and filter tokens (`done ID|FILTER`, `show ID`).
    static let tasks = CompletionKind.custom { words, index, prefix in
        format(Candidates(words: words).filterTerm(prefix, words: words, index: index, bareListNames: false))
    }

    /// Filter words of listings (`list`, `today`…): list names, `list:NAME`,
    /// `+tag` and task ids.
    static let filter = CompletionKind.custom { words, index, prefix in
        format(Candidates(words: words).filterTerm(prefix, words: words, index: index, bareListNames: true))
    }

    /// Quick-add words (`add`): `+tag` and `list:NAME`.
    static let quickAdd = CompletionKind.custom { words, index, prefix in
        format(Candidates(words: words).token(prefix, words: words, index: index) ?? [])
    }

    /// The words of `edit`: the task first, then quick-add tokens.
    static let edit = CompletionKind.custom { words, index, prefix in
        let candidates = Candidates(words: words)
        if let token = candidates.token(prefix, words: words, index: index) { return format(token) }
        return format(candidates.tasks(prefix: prefix))
    }

    /// One completion: a value, and a description for the shells that show one.
    enum Candidate: Equatable {
        case plain(String)
        case described(String, String)

        var value: String {
            switch self {
            case .plain(let v), .described(let v, _): return v
            }
        }
    }

    /// The candidates as the requesting shell wants them, one per line:
    /// bash gets the value escaped for `compgen -W` (which expands `$(…)`,
    /// backquotes and `~` in its word list: a list named `$(rm -rf ~)` must
    /// stay text); zsh `value:description` with `:` in the value escaped;
    /// fish `value<TAB>description`.
    static func format(_ candidates: [Candidate]) -> [String] {
        let shell = CompletionShell.requesting
        return candidates.compactMap { candidate in
            // A value with a control character cannot be typed back; leave it out.
            guard !candidate.value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return nil }
            switch (shell, candidate) {
            case (.zsh?, .described(let value, let text)):
                return value.replacingAll(":", with: "\\:") + ":" + description(text)
            case (.zsh?, _):
                return candidate.value.replacingAll(":", with: "\\:")
            case (.fish?, .described(let value, let text)):
                return value + "\t" + description(text)
            case (.fish?, _):
                return candidate.value
            default:
                return bashEscaped(candidate.value)
            }
        }
    }

    /// A title as a one-line description: control characters made visible,
    /// tabs as spaces, at most 60 characters.
    static func description(_ text: String) -> String {
        let line = TextRules.visible(text).replacingAll("\t", with: " ")
        return line.count > 60 ? String(line.prefix(59)) + "…" : line
    }

    /// `text` with a backslash before every ASCII character the shell would
    /// expand or split on.
    static func bashEscaped(_ text: String) -> String {
        var out = ""
        for c in text {
            if c.isASCII, !(c.isLetter || c.isNumber || "-_.,:+/@%=".contains(c)) { out.append("\\") }
            out.append(c)
        }
        return out
    }
}

extension ShellCompletion {
    /// Looks candidates up in the index of the store the command line names.
    struct Candidates {
        let index: CompletionIndex?

        /// How many task ids one Tab offers at most.
        static let taskLimit = 200

        init(words: [String]) {
            let environment = ProcessInfo.processInfo.environment
            let location = StoreLocation.resolve(explicit: Self.store(in: words), environment: environment,
                                                 currentDirectory: FileManager.default.currentDirectoryPath)
            index = CompletionIndex(location: location)
        }

        /// The value of `--store` on the command line (the shell passes words
        /// as typed, so one level of quotes is taken off).
        static func store(in words: [String]) -> String? {
            var value: String?
            for (i, word) in words.enumerated() {
                if word == "--store", i + 1 < words.count { value = words[i + 1] }
                if word.hasPrefix("--store=") { value = String(word.dropFirst("--store=".count)) }
            }
            guard var v = value, !v.isEmpty else { return nil }
            if v.count >= 2, let first = v.first, first == v.last, first == "'" || first == "\"" {
                v = String(v.dropFirst().dropLast())
            }
            return v
        }

        func lists(prefix: String, inbox: Bool = false) -> [Candidate] {
            var names = index?.listNames(prefix: prefix) ?? []
            if inbox, "inbox".hasPrefix(prefix.lowercased()) { names.insert("inbox", at: 0) }
            return names.map { .plain($0) }
        }

        func tags(prefix: String) -> [String] {
            index?.tags(prefix: prefix) ?? []
        }

        func tasks(prefix: String) -> [Candidate] {
            (index?.tasks(prefix: prefix, limit: Self.taskLimit) ?? []).map { .described(String($0.shortID), $0.title) }
        }

        /// `+tag` and `list:NAME` tokens; nil when `prefix` is neither.
        /// bash splits `list:Wo` at the colon (COMP_WORDBREAKS), so there
        /// the word is `Wo` after the words `list` and `:`; right after the
        /// colon its word is `:`, but readline replaces only the text after
        /// the colon (empty), so the names are offered without it.
        func token(_ prefix: String, words: [String], index i: Int) -> [Candidate]? {
            if prefix.hasPrefix("+") {
                return tags(prefix: String(prefix.dropFirst())).map { .plain("+" + $0) }
            }
            // `list:` or Taskwarrior's `project:` (``FieldNames``).
            if let colon = prefix.firstIndex(of: ":"), FieldNames.canonical(String(prefix[..<colon])) == "list" {
                let key = prefix[...colon]
                return lists(prefix: String(prefix[prefix.index(after: colon)...]), inbox: true).map { .plain(key + $0.value) }
            }
            if CompletionShell.requesting == .bash, i >= 2, i <= words.count {
                let before = words[i - 1].lowercased()
                let key = words[i - 2].lowercased()
                if before == ":", FieldNames.canonical(key) == "list" { return lists(prefix: prefix, inbox: true) }
                // Right after the colon, COMP_WORDS ends with the colon itself, and
                // readline inserts the candidate after it: `list:` + `Work`.
                if prefix == ":", FieldNames.canonical(before) == "list" {
                    return lists(prefix: "", inbox: true)
                }
            }
            return nil
        }

        /// One filter term: a token, a task id, or (in listings) a list name.
        func filterTerm(_ prefix: String, words: [String], index i: Int, bareListNames: Bool) -> [Candidate] {
            if let token = token(prefix, words: words, index: i) { return token }
            if prefix.allSatisfy(\.isNumber), !prefix.isEmpty || !bareListNames { return tasks(prefix: prefix) }
            return bareListNames ? lists(prefix: prefix) : []
        }
    }
}
