import ArgumentParser
import TickKit

/// Taskwarrior's command line habits: its commands that tick names
/// differently (`modify` is `tick edit`), and its order of a filter before
/// the command (`task 3 done`), read as tick's (`tick done 3`).
/// Docs/CLI.md "Taskwarrior's words".
enum TaskwarriorVerbs {
    /// A Taskwarrior command that tick has under another name or form: the
    /// tick command to read about (`tick help NAME`) and the form to type.
    struct Equivalent: Equatable {
        var command: String
        var form: String
    }

    /// Taskwarrior's command → tick's. Only words that are not tick commands.
    static let equivalents: [String: Equivalent] = [
        "modify": Equivalent(command: "edit", form: "tick edit ID due:fri pri:H (or tick edit FILTER -- CHANGES)"),
        "mod": Equivalent(command: "edit", form: "tick edit ID due:fri pri:H"),
        "info": Equivalent(command: "show", form: "tick show ID"),
        "information": Equivalent(command: "show", form: "tick show ID"),
        "next": Equivalent(command: "today", form: "tick today (or define [reports.next] in config.toml to run tick next)"),
        "stop": Equivalent(command: "reopen", form: "tick reopen ID (an active task goes back to open)"),
        "denotate": Equivalent(command: "edit", form: "tick edit ID (opens the task in $EDITOR: delete the annotation's line from the notes)"),
        "append": Equivalent(command: "edit", form: "tick edit ID --title \"NEW TITLE\""),
        "prepend": Equivalent(command: "edit", form: "tick edit ID --title \"NEW TITLE\""),
        "projects": Equivalent(command: "lists", form: "tick lists"),
        "tags": Equivalent(command: "list", form: "tick list +TAG, or tick list tags:any for every tagged task (Tab after + completes tag names)"),
        "log": Equivalent(command: "add", form: "tick add TITLE, then tick done ID (tick has no completed-on-add)"),
        "completed": Equivalent(command: "list", form: "tick list state:done"),
        "all": Equivalent(command: "list", form: "tick list --all"),
        "waiting": Equivalent(command: "list", form: "tick list is:waiting"),
        "blocked": Equivalent(command: "list", form: "tick list is:blocked"),
        "active": Equivalent(command: "list", form: "tick list state:active"),
        "summary": Equivalent(command: "stats", form: "tick stats"),
        "purge": Equivalent(command: "archive", form: "tick archive"),
    ]

    /// The error for an unknown command that is Taskwarrior's, naming tick's; nil for another word.
    static func unknownCommand(_ word: String) -> CLIError? {
        guard let tick = equivalents[word.lowercased()] else { return nil }
        return CLIError("unknown command \"\(word)\" (Taskwarrior's); in tick: \(tick.form); see `tick help \(tick.command)`", status: .usage)
    }

    /// `tick 3 done`, `tick 3-5 7 edit due:fri` (Taskwarrior's order: ids, then
    /// the command) as `tick done 3`: the leading words are all task ids
    /// (``BulkSelection/isIDList(_:)``, the one id grammar) and the next word is
    /// a command that takes ids or a filter, or one of Taskwarrior's (whose
    /// error then names tick's). `tick 3` alone is `tick show 3`. Anything
    /// else is left as typed; a word that is not an id is never moved.
    ///
    /// Filter terms first (`tick +work list`, `tick project:Home list`, ``FilterParser/isTermWord(_:)``)
    /// move the same way before a command that takes a filter: no command
    /// starts with `+` or has a colon, so the order is never ambiguous.
    static func movingCommandFirst(_ args: [String]) -> [String] {
        var i = 0
        var terms = false
        while i < args.count, !args[i].hasPrefix("-") {
            if BulkSelection.isIDList([args[i]]) {
                i += 1
            } else if FilterParser.isTermWord(args[i]) {
                terms = true
                i += 1
            } else {
                break
            }
        }
        guard i > 0 else { return args }
        let leading = Array(args[..<i])
        guard i < args.count, !args[i].hasPrefix("-") else {
            // `tick 3`, `tick 3 --json`: show the task, as `task 3` does.
            return leading.count == 1 && BulkSelection.isSingleID(leading[0]) ? ["show"] + args : args
        }
        let verb = args[i]
        let moves: Bool
        if let type = CommandFacts.topLevel(verb) {
            let facts = CommandFacts.facts(of: type)
            moves = terms ? facts.takesFilter : facts.takesIDs || facts.takesFilter
        } else {
            moves = equivalents[verb.lowercased()] != nil
        }
        guard moves else { return args }
        return [verb] + leading + args[(i + 1)...]
    }
}
