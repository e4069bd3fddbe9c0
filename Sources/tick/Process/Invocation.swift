import ArgumentParser
import Foundation
import TickKit

/// Checks and rewrites of the raw command line that ArgumentParser cannot do,
/// and the one-line form of its errors (`tick: error: …; see `tick help add``).
enum Invocation {
    /// Commands whose positional arguments are task ids.
    static let idCommands: Set<String> = ["show", "done", "start", "reopen", "rm", "edit", "mv", "reorder", "open"]

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
        if let word = args.first, !word.hasPrefix("-"), word != "help", !CommandSuggestion.names(of: Tick.self).contains(word) {
            throw unknownCommand([word], among: Tick.self)
        }
        let path = CommandPath.of(["tick"] + args)
        guard idCommands.contains(path) else { return }
        var i = 1
        while i < args.count, args[i] != "--" {
            let a = args[i]
            if a.hasPrefix("--"), !a.contains("="), Tick.optionsTakingValues.contains(a) {
                i += 2   // a date or other value, not an id
                continue
            }
            if isNegativeNumber(a) {
                throw CLIError("\(a) is not a task id; ids are numbers from 1 or 4+ hex digits of a UUID", status: .usage)
            }
            i += 1
        }
    }

    /// Commands whose positional arguments are a filter.
    static let filterCommands: Set<String> = ["list", "ls", "today", "upcoming", "overdue", "inbox", "context", "report", "done", "start", "reopen", "rm", "delete", "mv", "ui"]

    /// Options of the filter commands that take a value (never a filter word).
    static let filterOptionsTakingValues: Set<String> = ["--sort", "--limit", "--state", "--tag", "--store", "--days"]

    /// In a filter, `-work` (not tagged work) and `-due:none` are terms, not
    /// options: they are marked with a backslash, which ``FilterArguments`` removes.
    static func markingFilterNegations(_ args: [String]) -> [String] {
        guard let command = args.first, filterCommands.contains(command) else { return args }
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
        var text = "unknown command \"\(words.joined(separator: " "))\""
        if let guess = CommandSuggestion.closest(to: word, among: CommandSuggestion.names(of: parent)) {
            text += " (did you mean \"\((words.dropLast() + [guess]).joined(separator: " "))\"?)"
        }
        return CLIError(text + "; see `tick help`", status: .usage)
    }

    /// `--days -1` becomes `--days=-1`, so a negative value reaches the command's own
    /// check ("--days must be 1 or more") instead of being read as an option.
    static func joiningNegativeValues(_ args: [String]) -> [String] {
        var out: [String] = []
        var i = 0
        while i < args.count {
            let a = args[i]
            if a == "--" {
                out += args[i...]
                break
            }
            if a.hasPrefix("--"), a.count > 2, !a.contains("="), i + 1 < args.count, isNegativeNumber(args[i + 1]) {
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
    static func isNegativeNumber(_ text: String) -> Bool {
        text.count >= 2 && text.hasPrefix("-") && text.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// An ArgumentParser error (or any error tick does not type) as one line without
    /// the `tick: error: ` prefix: its message with a lower-case start, an enum's
    /// choices on the same line, and a pointer to the command's help.
    static func errorLine(_ message: String, arguments: [String]) -> String {
        let lines = message.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        var text = lines.first ?? "invalid command line"
        let choices = lines.dropFirst().map { $0.hasPrefix("- ") ? String($0.dropFirst(2)) : $0 }
        if !choices.isEmpty {
            text = text.replacingOccurrences(of: ". Please provide one of the following:", with: "; use one of")
            text += " " + choices.joined(separator: ", ")
        }
        text = text.replacingOccurrences(of: ". Please provide one of ", with: "; use one of ")
        if let range = text.range(of: ". Did you mean ") {
            text = text[..<range.lowerBound] + " (did you mean " + text[range.upperBound...] + ")"
        }
        if text.hasSuffix(".") { text.removeLast() }
        let path = CommandPath.of(arguments)
        if path.isEmpty, text.hasPrefix("Unexpected argument '"),
           let word = Tick.hoistingGlobalOptions(Array(arguments.dropFirst())).first, !word.hasPrefix("-") {
            return "unknown command \"\(word)\"; see `tick help`"
        }
        if let first = text.first, first.isUppercase {
            text = first.lowercased() + text.dropFirst()
        }
        return text + "; see `tick help" + (path.isEmpty ? "" : " " + path) + "`"
    }
}
