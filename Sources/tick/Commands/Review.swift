import ArgumentParser
import TickKit

extension Tick {
    struct Review: TickCommand {
        static let facts = CommandFacts.writesStore
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "review",
            abstract: "Decide, one by one, about the tasks that are overdue, due or scheduled today.",
            discussion: """
            The end-of-day review. tick never moves a date by itself: an overdue task \
            stays overdue, and visible in `tick today`, until you decide here (or with \
            `tick edit`). The tasks are those of `tick today` that are not done yet, \
            soonest first. For each one tick shows the task and asks:

              d  done         complete it (a repeating task gets its next occurrence)
              t  tomorrow     move it to tomorrow
              p  pick a date  move it to a day you type (any WHEN: fri, 2026-12-01, in 3d, mon@9:00)
              i  inbox        back to the inbox: clear due, scheduled and remind, and move it to inbox.json
              s  skip         leave it as it is
              q  quit         stop; the rest stay as they are

            Moving changes the dates that put the task in today's view: a due date or \
            scheduled day on or before today goes to the new day. A timed due keeps \
            its time of day (09:30 stays 09:30) unless the WHEN has a time; a reminder \
            moves by as many days as the due date (or, without one, to the new day at \
            its time). Later dates are left alone.

            On a terminal one key answers, without Enter (a date for p is typed \
            as a line; Ctrl-C or Esc is q). Piped, answers are read one line at a \
            time from standard input, so a review can be scripted: \
            `printf 'd\\nt\\n' | tick review`. A bad answer asks again; the \
            end of input stops the review cleanly, like q. A summary line ends every review.

            --all-to WHEN moves every task at once; --list only shows them (with --json \
            as a JSON array, like `tick today --json`).

            EXAMPLES
              tick review
              tick review --list
              tick review --all-to tomorrow
              tick review --all-to mon
              printf 'd\\ns\\np\\nfri\\n' | tick review
            """))

        @OptionGroup var global: GlobalOptions

        @Option(name: .customLong("all-to"), help: ArgumentHelp("Move every task under review to this day (any WHEN) without asking.", valueName: "when"))
        var allTo: String?

        @Flag(name: .long, help: "Only list the tasks under review; change nothing.")
        var list = false

        @OptionGroup var output: JSONOption

        func validate() throws {
            if list && allTo != nil { throw ValidationError("--list only shows; give either --list or --all-to") }
            if output.json && !list { throw ValidationError("--json goes with --list (tick review --list --json)") }
        }

        func run() throws {
            let context = try Context(global)
            let loaded = try context.load()
            context.warnUnreadable(loaded.broken)
            let items = try loaded.index.run(.today, filter: TaskFilter(), query: context.query)
            let t = context.terminal
            if list {
                if output.json {
                    t.outRaw(JSONOutput.tasks(items))
                } else if items.isEmpty {
                    t.out(t.dim("Nothing to review: no open task is overdue, due or scheduled today."))
                } else {
                    t.outLines(TaskRenderer(terminal: t, dates: context.dates, query: context.query).flat(items))
                }
                return
            }
            let session = ReviewSession(context: context)
            if let allTo {
                let target = try context.fields.due(allTo, key: "--all-to")
                guard !items.isEmpty else {
                    t.out("Nothing to review: no open task is overdue, due or scheduled today.")
                    return
                }
                for item in items {
                    try session.reschedule(item, to: target)
                    t.out("Moved \(ReviewSession.label(item, t)) to \(context.dates.label(target)).")
                }
                t.out("Moved \(items.count) task\(items.count == 1 ? "" : "s") to \(context.dates.label(target)).")
                return
            }
            guard !items.isEmpty else {
                t.out("Nothing to review: no open task is overdue, due or scheduled today.")
                return
            }
            session.run(items, context: context)
        }
    }
}
