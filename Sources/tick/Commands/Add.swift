import ArgumentParser
import FoundationEssentials
import Glibc
import TickKit

extension Tick {
    struct Add: TickCommand {
        static let facts = CommandFacts(takesQuickAddWords: true, writes: true)
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "add",
            abstract: "Add a task (or many, from stdin).",
            discussion: """
            Words form the title; these tokens set fields instead:
              due:WHEN  remind:WHEN  sched:WHEN  list:NAME  +tag
              pri:must|flexible  energy:high|low|any  repeat:RULE
              estimate:45m  at:14:00 or at:DAY@14:00 (a time slot)  for:45m (its length)
              wait:WHEN (hidden from views until then)  depends:ID[,ID] (blocked until they are done)
            Every token also exists as a flag.

            TASKWARRIOR'S WORDS
            project:NAME is list:NAME, recur:RULE is repeat:RULE (weekly, biweekly, \
            3d…), pri:H and pri:M are must, pri:L is flexible, scheduled: is sched:. \
            Keys tick does not set here (until:, status:, entry:, end:, t:, rec:, \
            due.before:…) are refused with the form that works, never kept as title \
            text; see Docs/CLI.md "Taskwarrior's words".

            LITERAL TITLES
            Words after `--` are title text, as is a word starting with a backslash \
            (`\\due:` gives "due:"). Also text: `key:value` whose key is not a token \
            (`Note:x`, `10:30`); a known key followed by a space inside one quoted word \
            ('Remind: Sam about keys'); a capitalized key with nothing after it \
            (`Remind:`); `at:` without a digit (`at:home`); `+` followed by a digit or \
            ASCII sign (`+1`, `+15%`). A bad value of a token is an error that says how to keep it as \
            text.

            DATES AND DURATIONS (WHEN; all forms in Docs/CLI.md "Dates and durations")
              now  today  tomorrow  eod  fri  next monday  sow  som  soy  eow  eom  eoy  sonw
              dec 24  24 dec  15th  2026-11-24  17:00  5pm  noon  fri@17  dec 24@9am
              in 2h  +2h  2h  in 90min  in 1h30m  3d  2w  3mo  1y  2d ago  last fri
            Units: min or m = minutes, h = hours, d = days, w = weeks, mo = months, \
            y = years. Minutes and hours are a time from now; days and longer are a \
            whole day. sched: takes a day only (sched:2h is refused). A WHEN with a \
            space works quoted (due:"next monday") or as separate words (due:next monday).

            The task goes to the inbox unless a list is given; the list must exist \
            (create it with `tick lists add NAME`). The store is created on first use.

            Under an active context (`tick context NAME`) the task takes the \
            context's tags, list, pri: and energy: where its filter names them \
            (`+work`, `list:Work`) and the words do not; when the context's filter \
            still does not match the new task (`or`, `-tag`, dates), a warning says \
            that listings hide it and how to see it.

            A slot (`at:`) goes on the task's scheduled day (else today) unless a day \
            is given, sets the scheduled day, and lasts `for:`, else the estimate, \
            else 30 minutes. A slot over a commitment (`tick blocks`) is refused \
            (exit 1); a slot over another placed task is kept with a warning.

            Prints the new task's short id: just the number when stdout is not a \
            terminal, so `id=$(tick add ...)` works.

            With `-` as the first word, reads one task per line from stdin (same
            syntax; blank lines and lines starting with # are skipped); flags and
            tokens after the `-` apply to every line.

            EXAMPLES
              tick add Buy milk due:tomorrow +errand
              tick add Call the bank remind:fri@9am pri:must list:Home
              tick add Write report estimate:1h30m at:tomorrow@10:00
              tick add Check oven remind:30m
              tick add Buy tree due:dec 24 remind:"dec 20@noon"
              tick add --list Work --due 2026-12-01 -- Review due: dates in report
              printf 'Dune\\nHyperion\\n' | tick add - list:Reading
            """))

        @OptionGroup var global: GlobalOptions
        @OptionGroup var fieldOptions: TaskFieldOptions

        @Option(name: .long, help: ArgumentHelp("The list to add to (same as list:NAME).", valueName: "name"),
                completion: ShellCompletion.lists)
        var list: String?

        @Flag(name: .long, help: "Print the new tasks as JSON.")
        var json = false

        @Argument(help: "The title and quick-add tokens, or `-` to read lines from stdin.", completion: ShellCompletion.quickAdd)
        var words: [String] = []

        func run() throws {
            let context = try Context(global)
            let flagEdit = try fieldOptions.edit(context.fields)
            // (line number on stdin or nil, words)
            var inputs: [(line: Int?, words: [String])]
            if words.first == "-" {
                // Tokens after `-` apply to every line.
                let shared = Array(words.dropFirst())
                inputs = []
                var number = 0
                while let line = readLine() {
                    number += 1
                    let trimmed = line.trimmingWhitespace()
                    if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
                    inputs.append((number, shared + trimmed.split(whereSeparator: \.isWhitespace).map(String.init)))
                }
                guard !inputs.isEmpty else { throw InputError.invalid("no tasks on stdin") }
            } else {
                guard !words.isEmpty else { throw InputError.emptyTitle }
                inputs = [(nil, words)]
            }
            let report = try context.adding().add(inputs, flags: flagEdit, list: list, context: try context.contextDefaults())
            report.warnings.forEach(context.terminal.warn)
            // Said once per list; on stderr when stdout is a pipe (it carries only the ids).
            for name in report.createdLists {
                let line = Move.createdLine(name)
                if context.terminal.stdoutIsTTY && !json { context.terminal.out(line) } else { context.terminal.err(line) }
            }
            if !json { Hints(context: context).afterAdding(report.added) }
            let items = report.added
            let t = context.terminal
            if json {
                t.outRaw(JSONOutput.tasks(items))
                return
            }
            let confirm = Confirmation(terminal: t)
            for item in items {
                // A pipe gets the bare id, for `id=$(tick add ...)`.
                t.out(t.stdoutIsTTY
                      ? confirm.changed("Added", item.task, shortID: item.shortID, place: "to " + item.listName)
                      : item.shortID.map(String.init) ?? item.task.id.lowercased)
            }
        }
    }
}
