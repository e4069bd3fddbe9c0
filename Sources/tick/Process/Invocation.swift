import ArgumentParser
import FoundationEssentials
import Glibc
import TickKit

/// Checks and rewrites of the raw command line that ArgumentParser cannot do,
/// and the one-line form of its errors (`tick: error: …; see `tick help add``).
/// Which command gets which rewrite is read from its ``CommandFacts``.
enum Invocation {
    /// The arguments (argv without the executable) as ArgumentParser gets
    /// them, after every check and rewrite below, in this order.
    static func rewritten(_ arguments: [String], environment: [String: String]) throws -> [String] {
        let hoisted = Tick.Report.rewriting(
            TaskwarriorVerbs.movingCommandFirst(hoistingGlobalOptions(defaultingToToday(arguments))), environment: environment)
        try check(hoisted)
        return joiningNegativeValues(markingFilterNegations(rewritingQuickAddWords(hoisted)))
    }

    /// Refuses what ArgumentParser would misread (arguments already hoisted):
    /// `tick help NAME` for an unknown NAME (it would print the root help and exit 0),
    /// and a negative number where a task id is expected (`tick show -1` would be
    /// read as an unknown option).
    static func check(_ args: [String]) throws {
        if args.first == "help" {
            var type: ParsableCommand.Type = Tick.self
            var words: [String] = []
            for word in args.dropFirst() where !word.hasPrefix("-") {
                words.append(word)
                guard let match = type.configuration.subcommands.first(where: {
                    $0._commandName == word || $0.configuration.aliases.contains(word)
                }) else {
                    throw unknownCommand(words, among: type)
                }
                type = match
            }
            return
        }
        // `tick tody`: ArgumentParser would say "Unexpected argument"; say what is wrong and what was meant.
        // (Looked up by name, not by listing every command's names, which
        // builds all 43 commands' configurations.)
        if let word = args.first, !word.hasPrefix("-"), word != "help", CommandFacts.topLevel(word) == nil {
            throw unknownCommand([word], among: Tick.self)
        }
        guard CommandFacts.of(path: CommandPath.of(["tick"] + args))?.takesIDs == true else { return }
        var i = 1
        while i < args.count, args[i] != "--" {
            let a = args[i]
            if a.hasPrefix("--"), !a.contains("="), optionsTakingValues.contains(a) {
                i += 2   // a date or other value, not an id
                continue
            }
            if isNegativeNumber(a) {
                throw CLIError("\(a) is not a task id; ids are numbers from 1 or a UUID prefix (8 hex digits, or 4 with a digit and a letter)", status: .usage)
            }
            i += 1
        }
    }

    /// Options of the filter commands that take a value (never a filter word).
    static let filterOptionsTakingValues: Set<String> = ["--sort", "--limit", "--state", "--tag", "--store", "--days"]

    /// In a filter, `-work` (not tagged work) and `-due:none` are terms, not
    /// options: they are marked with a backslash, which ``FilterArguments`` removes.
    static func markingFilterNegations(_ args: [String]) -> [String] {
        guard let command = args.first, let type = CommandFacts.topLevel(command), CommandFacts.facts(of: type).takesFilter else { return args }
        var out = [command]
        var i = 1
        while i < args.count {
            let a = args[i]
            if a == "--" {
                out += args[i...]
                break
            }
            if a.hasPrefix("--"), !a.contains("="), filterOptionsTakingValues.contains(a), i + 1 < args.count {
                out += [a, args[i + 1]]
                i += 2
                continue
            }
            let second = a.dropFirst().first
            if a.count >= 2, a.hasPrefix("-"), a != "-h", a != "-y", second != "-", second?.isLetter == true || second == "/" || second == "\"" {
                out.append("\\" + a)
            } else {
                out.append(a)
            }
            i += 1
        }
        return out
    }

    /// `tick` alone, or with only global options (`tick --store DIR`), runs
    /// `tick today`: a short, useful view rather than the whole help.
    static func defaultingToToday(_ args: [String]) -> [String] {
        var i = 0
        while i < args.count {
            let a = args[i]
            if a == "--store", i + 1 < args.count {
                i += 2
            } else if a.hasPrefix("--store=") || a == "--no-color" || a == "--no-pager" {
                i += 1
            } else {
                return args
            }
        }
        return ["today"] + args
    }

    /// The error for a command name that does not exist: `unknown command
    /// "tody" (did you mean "today"?); see `tick help``. `words` is the path
    /// typed so far, its last word the unknown one, `parent` the command it was looked up in.
    static func unknownCommand(_ words: [String], among parent: ParsableCommand.Type) -> CLIError {
        let word = words.last ?? ""
        // `tick modify`: Taskwarrior's word, answered with tick's.
        if words.count == 1, parent == Tick.self, let taskwarrior = TaskwarriorVerbs.unknownCommand(word) { return taskwarrior }
        var text = "unknown command \"\(words.joined(separator: " "))\""
        // `tick 3 frobnicate`: ids first work only before a command that takes them.
        if words.count == 1, parent == Tick.self, BulkSelection.isIDList([word]) {
            return CLIError(text + "; a task id goes after the command (tick show \(word), tick done \(word)) or before one that takes ids (tick \(word) done); see `tick help`", status: .usage)
        }
        // `tick +work frob`, `tick project:Home`: a filter goes after the command.
        if words.count == 1, parent == Tick.self, FilterParser.isTermWord(word) {
            return CLIError(text + "; a filter goes after the command (tick list \(word)) or before one that takes a filter (tick \(word) list); see `tick help list`", status: .usage)
        }
        if let guess = CommandSuggestion.closest(to: word, among: CommandSuggestion.names(of: parent)) {
            text += " (did you mean \"\((words.dropLast() + [guess]).joined(separator: " "))\"?)"
        }
        return CLIError(text + "; see `tick help`", status: .usage)
    }

    /// `--days -1` becomes `--days=-1`, so a negative value reaches the command's own
    /// check ("--days must be 1 or more") instead of being read as an option; so does
    /// a date back in time (`--since -7d`).
    static func joiningNegativeValues(_ args: [String]) -> [String] {
        var out: [String] = []
        var i = 0
        while i < args.count {
            let a = args[i]
            if a == "--" {
                out += args[i...]
                break
            }
            if a.hasPrefix("--"), a.count > 2, !a.contains("="), i + 1 < args.count, isNegativeNumber(args[i + 1]) || isNegativeAmount(args[i + 1]) {
                out.append(a + "=" + args[i + 1])
                i += 2
                continue
            }
            out.append(a)
            i += 1
        }
        return out
    }

    /// `-1`, `-42`.
    /// `-7d`, `-2w`, `-1h30m`: an amount back in time (never an option: options start with a letter).
    static func isNegativeAmount(_ text: String) -> Bool {
        let rest = text.dropFirst()
        return text.hasPrefix("-") && rest.first?.isASCII == true && rest.first?.isNumber == true
            && rest.allSatisfy { $0.isASCII && ($0.isNumber || $0.isLetter) }
    }

    static func isNegativeNumber(_ text: String) -> Bool {
        text.count >= 2 && text.hasPrefix("-") && text.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// An ArgumentParser error (or any error tick does not type) as one line without
    /// the `tick: error: ` prefix: its message with a lower-case start, an enum's
    /// choices on the same line, and a pointer to the command's help.
    static func errorLine(_ message: String, arguments: [String]) -> String {
        let lines = message.split(separator: "\n").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        var text = lines.first ?? "invalid command line"
        let choices = lines.dropFirst().map { $0.hasPrefix("- ") ? String($0.dropFirst(2)) : $0 }
        if !choices.isEmpty {
            text = text.replacingAll(". Please provide one of the following:", with: "; use one of")
            text += " " + choices.joined(separator: ", ")
        }
        text = text.replacingAll(". Please provide one of ", with: "; use one of ")
        if let range = text.literalRange(of: ". Did you mean ") {
            text = text[..<range.lowerBound] + " (did you mean " + text[range.upperBound...] + ")"
        }
        if text.hasSuffix(".") { text.removeLast() }
        let path = CommandPath.of(arguments)
        if path.isEmpty, text.hasPrefix("Unexpected argument '"),
           let word = hoistingGlobalOptions(Array(arguments.dropFirst())).first, !word.hasPrefix("-") {
            return "unknown command \"\(word)\"; see `tick help`"
        }
        if let first = text.first, first.isUppercase {
            text = first.lowercased() + text.dropFirst()
        }
        return text + "; see `tick help" + (path.isEmpty ? "" : " " + path) + "`"
    }

    /// Global options may come before the subcommand (`tick --store DIR today`).
    /// ArgumentParser only knows them on each subcommand, so they are moved
    /// behind it (before a `--`, if any).
    static func hoistingGlobalOptions(_ args: [String]) -> [String] {
        var hoisted: [String] = []
        var i = 0
        while i < args.count, args[i].hasPrefix("-") {
            let a = args[i]
            if a == "--store", i + 1 < args.count {
                hoisted += [a, args[i + 1]]
                i += 2
            } else if a.hasPrefix("--store=") || a == "--no-color" || a == "--no-pager" {
                hoisted.append(a)
                i += 1
            } else {
                break
            }
        }
        guard !hoisted.isEmpty, i < args.count else { return args }
        var rest = Array(args[i...])
        let end = rest.firstIndex(of: "--") ?? rest.count
        rest.insert(contentsOf: hoisted, at: end)
        return rest
    }

    /// Taskwarrior-style words that ArgumentParser would misread, for the
    /// commands that take quick-add words (``CommandFacts/takesQuickAddWords``: `add`, `edit`):
    /// - after `--`, every word is title text, so it is marked literal with a
    ///   leading backslash (ArgumentParser drops the `--` itself);
    /// - in `edit`, `-tag` removes a tag: it becomes `--untag=tag` instead of
    ///   being read as a bundle of short options.
    static func rewritingQuickAddWords(_ args: [String]) -> [String] {
        guard let command = args.first, let type = CommandFacts.topLevel(command), CommandFacts.facts(of: type).takesQuickAddWords else { return args }
        if command == "edit", let bulk = bulkEdit(args) { return bulk }
        var out: [String] = [command]
        var literal = false
        var i = 1
        while i < args.count {
            let a = args[i]
            if literal {
                out.append("\\" + a)
            } else if a == "--" {
                literal = true
                out.append(a)
            } else if command == "edit", a.count >= 3, a.hasPrefix("-"), !a.hasPrefix("--"),
                      a.dropFirst().first?.isLetter == true, !a.contains("=") {
                out.append("--untag=" + a.dropFirst())
            } else {
                out.append(a)
                // An option's value is never a quick-add word.
                if a.hasPrefix("--"), !a.contains("="), optionsTakingValues.contains(a), i + 1 < args.count {
                    out.append(args[i + 1])
                    i += 1
                }
            }
            i += 1
        }
        return out
    }

    /// `tick edit FILTER -- CHANGES` (the filter not one task id): the filter
    /// words become hidden `--filter=` options and the words after `--` are
    /// change tokens (`-tag` removes a tag), not title text. Nil for any other edit.
    static func bulkEdit(_ args: [String]) -> [String]? {
        guard let dashes = args.firstIndex(of: "--") else { return nil }
        var options: [String] = []
        var words: [String] = []
        var i = 1
        while i < dashes {
            let a = args[i]
            if a.hasPrefix("--") {
                options.append(a)
                if !a.contains("="), optionsTakingValues.contains(a), i + 1 < dashes {
                    options.append(args[i + 1])
                    i += 1
                }
            } else if a == "-y" || a == "-h" {
                options.append(a)
            } else {
                words.append(a)
            }
            i += 1
        }
        // `tick edit 3 due:fri -- title words` keeps its meaning: one task, then a literal title.
        if let first = words.first, Int(first) != nil || BulkSelection.isSingleID(first) { return nil }
        guard !words.isEmpty else { return nil }
        var out = ["edit"] + options + words.map { "--filter=" + $0 }
        for a in args[(dashes + 1)...] {
            if a.count >= 3, a.hasPrefix("-"), !a.hasPrefix("--"), a.dropFirst().first?.isLetter == true, !a.contains("=") {
                out.append("--untag=" + a.dropFirst())
            } else {
                out.append(a)
            }
        }
        return out
    }

    /// Long options of `add` and `edit` that take a value: a flag for each
    /// field's input key (from the field table, so a field's flag is never
    /// read as an id or a quick-add word), and the others.
    static let optionsTakingValues: Set<String> = Set(TaskField.all.compactMap(\.inputKey).map { "--" + $0 })
        .union(["--tag", "--note", "--list", "--title", "--untag", "--store", "--for"])
}
