import ArgumentParser
import Foundation
import TickKit

extension Tick {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a task (or many, from stdin).",
            discussion: """
            Words form the title; these tokens set fields instead:
              due:WHEN  remind:WHEN  sched:WHEN  list:NAME  +tag
              pri:must|flexible  energy:high|low|any  repeat:RULE
              estimate:45m  at:14:00 or at:DAY@14:00 (a time slot)  for:45m (its length)
            Every token also exists as a flag. Words after `--` are title text, as
            is a word starting with a backslash (`\\due:` gives "due:").
            The task goes to the inbox unless a list is given; the list must exist \
            (create it with `tick lists add NAME`). The store is created on first use.

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
              tick add --list Work --due 2026-12-01 -- Review due: dates in report
              printf 'Dune\\nHyperion\\n' | tick add - list:Reading
            """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var fieldOptions: TaskFieldOptions

        @Option(name: .long, help: ArgumentHelp("The list to add to (same as list:NAME).", valueName: "name"))
        var list: String?

        @Flag(name: .long, help: "Print the new tasks as JSON.")
        var json = false

        @Argument(help: "The title and quick-add tokens, or `-` to read lines from stdin.")
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
                    let trimmed = line.trimmingCharacters(in: .whitespaces)
                    if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
                    inputs.append((number, shared + trimmed.split(whereSeparator: \.isWhitespace).map(String.init)))
                }
                guard !inputs.isEmpty else { throw InputError.invalid("no tasks on stdin") }
            } else {
                guard !words.isEmpty else { throw InputError.emptyTitle }
                inputs = [(nil, words)]
            }
            let items = try TaskAdder(context: context).add(inputs, flags: flagEdit, list: list)
            let t = context.terminal
            if json {
                t.outRaw(JSONOutput.tasks(items))
                return
            }
            for item in items {
                let id = item.shortID.map(String.init) ?? item.task.id.lowercased
                t.out(t.stdoutIsTTY ? "Added \(t.bold(id)) to \(item.listName): \(item.task.title)" : id)
            }
        }
    }
}
