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
        "info": Equivalent(command: "show", form: "tick show ID"),
        "information": Equivalent(command: "show", form: "tick show ID"),
        "next": Equivalent(command: "today", form: "tick today (or define [reports.next] in config.toml to run tick next)"),
        "calendar": Equivalent(command: "upcoming", form: "tick upcoming (the days ahead), or tick plan for a day's time slots"),
        "burndown": Equivalent(command: "stats", form: "tick stats (completions per day and week)"),
        "burndown.daily": Equivalent(command: "stats", form: "tick stats"),
        "burndown.weekly": Equivalent(command: "stats", form: "tick stats"),
        "burndown.monthly": Equivalent(command: "stats", form: "tick stats"),
        "history": Equivalent(command: "stats", form: "tick stats"),
        "history.monthly": Equivalent(command: "stats", form: "tick stats"),
        "ghistory": Equivalent(command: "stats", form: "tick stats"),
        "ghistory.monthly": Equivalent(command: "stats", form: "tick stats"),
        "timesheet": Equivalent(command: "stats", form: "tick stats --since \"7d ago\""),
        "completion": Equivalent(command: "help", form: "tick --generate-completion-script bash (or zsh, fish); see Docs/CLI.md \"Completion\""),
        "_zshcompletion": Equivalent(command: "help", form: "tick --generate-completion-script zsh"),
        "list.all": Equivalent(command: "list", form: "tick list --all"),
        "long": Equivalent(command: "report", form: "a [reports.long] with columns = [\"id\", \"title\", \"due\", \"tags\", \"notes\"] in config.toml, then tick long"),
        "ls.all": Equivalent(command: "list", form: "tick list --all"),
        "minimal": Equivalent(command: "list", form: "tick list"),
        "newest": Equivalent(command: "list", form: "tick list --sort created-"),
        "oldest": Equivalent(command: "list", form: "tick list --sort created"),
        "overdue.all": Equivalent(command: "overdue", form: "tick overdue"),
        "ready": Equivalent(command: "list", form: "tick list -is:waiting -is:blocked"),
        "recurring": Equivalent(command: "list", form: "tick list is:repeating"),
        "unblocked": Equivalent(command: "list", form: "tick list -is:blocked"),
        "count": Equivalent(command: "list", form: "tick list --json | jq length"),
        "ids": Equivalent(command: "list", form: "tick list --json | jq -r '.[].shortId'"),
        "uuids": Equivalent(command: "list", form: "tick list --json | jq -r '.[].id'"),
        "duplicate": Equivalent(command: "add", form: "tick show ID --json, then tick add with its fields"),
        "diagnostics": Equivalent(command: "status", form: "tick status"),
        "version": Equivalent(command: "help", form: "tick --version"),
        "reports": Equivalent(command: "report", form: "tick report (and [reports.NAME] in config.toml)"),
        "columns": Equivalent(command: "report", form: "columns = [...] in a [reports.NAME] of config.toml (tick help report names them)"),
        "udas": Equivalent(command: "help", form: "[fields.NAME] in config.toml (Docs/FIELDS.md)"),
        "config": Equivalent(command: "status", form: "edit config.toml (tick status names it)"),
        "import-v2": Equivalent(command: "import", form: "tick import FILE"),
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

    /// True when `word` is a command: tick's (or an alias), `help`, or one of Taskwarrior's.
    static func namesCommand(_ word: String) -> Bool {
        word == "help" || CommandFacts.topLevel(word) != nil || equivalents[word.lowercased()] != nil
    }

    /// The error for an unknown command that is Taskwarrior's, naming tick's; nil for another word.
    static func unknownCommand(_ word: String) -> CLIError? {
        guard let tick = equivalents[word.lowercased()] else { return nil }
        let help = tick.command == "help" ? "tick help" : "tick help \(tick.command)"
        return CLIError("unknown command \"\(word)\" (Taskwarrior's); in tick: \(tick.form); see `\(help)`", status: .usage)
    }

    /// `tick 3 done`, `tick 3-5 7 edit due:fri` (Taskwarrior's order: ids, then
    /// the command) as `tick done 3`: the leading words are all task ids
    /// (``BulkSelection/isIDList(_:)``, the one id grammar) and the next word is
    /// a command that takes ids or a filter, or one of Taskwarrior's (whose
    /// error then names tick's). `tick 3` alone is `tick show 3`. Anything
    /// else is left as typed; a word that is not an id is never moved.
    ///
    /// Any filter first (`tick +work list`, `tick project:Home list`, `tick
    /// /milk/ list`, `tick milk list`, `tick +errand done`) moves the same way
    /// before a command that takes a filter, as Taskwarrior reads it: the
    /// leading words are filter words (ids, terms, `/regex/`, `or`, `(`) or
    /// plain words that name no command, and the first word that names one is
    /// the command. A plain word before no command is left as typed (`tick
    /// tody` is an unknown command, with its suggestion).
    static func movingCommandFirst(_ args: [String]) -> [String] {
        var i = 0
        var terms = false
        while i < args.count, !args[i].hasPrefix("-") {
            if BulkSelection.isIDList([args[i]]) {
                i += 1
            } else if FilterParser.isTermWord(args[i]) || !namesCommand(args[i]) {
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
