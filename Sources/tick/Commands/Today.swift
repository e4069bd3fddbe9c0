import ArgumentParser
import TickKit

extension Tick {
    struct Today: TickCommand {
        static let facts = CommandFacts(takesFilter: true)
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "today",
            abstract: "What needs you today: due, scheduled, reminding, started or overdue.",
            discussion: """
            Shows pending tasks that are due today, scheduled for today or earlier, \
            reminding today, started (active), or overdue. tick never \
            moves a date by itself: an overdue task stays here, marked `!` and \
            "Nd overdue", until you decide. `tick` with no command shows this view.

            ORDER
            As the day runs: each task sorts by its earliest moment (its due time, \
            the end of its due or scheduled day, today's reminder); a placed task \
            (`tick plan --auto`, `at:`) at its slot's start. So unplaced overdue work \
            comes first, then placed tasks in slot order among timed tasks, then the \
            rest of today, then undated started tasks; ties keep list order.

            EXAMPLES
              tick today
              tick today --tag work --json
            """))

        @OptionGroup var global: GlobalOptions
        @OptionGroup var filters: FilterOptions
        @OptionGroup var output: JSONOption
        @OptionGroup var order: OrderOptions
        @OptionGroup var filterWords: FilterArguments

        func run() throws {
            let context = try Context(global)
            let pager = context.startPager()
            defer { pager?.finish() }
            try ViewPrinter(context: context).print(
                .today, filter: try filters.filter(), matching: try filterWords.parsed(context), order: order, json: output.json, grouped: false,
                emptyMessage: try Self.emptyMessage(context))
            if !output.json { try Self.printMissedReminders(context) }
        }

        /// An empty store suggests `tick add`; an active context is named instead (``EmptyToday``).
        static func emptyMessage(_ context: Context) throws -> String {
            let counts = try context.load().index.counts(query: context.query)
            let open = counts.reduce(0) { $0 + $1.open + $1.active }
            return EmptyToday.message(openTasks: open, context: try context.activeContext { _ in }?.name)
        }

        /// Reminders no watcher showed (``MissedReminders``), after the view, until the task changes.
        static func printMissedReminders(_ context: Context) throws {
            let fired = FiredReminders(location: context.store.location)
            let missed = try MissedReminders(index: context.load().index, fired: fired).find(now: context.now)
            guard !missed.isEmpty else { return }
            let t = context.terminal
            let watching = WatchLock.runningPID(for: context.store.location) != nil
            t.out("")
            t.out(t.yellow("Missed reminders") + t.dim(watching ? " (no watcher was running then):" : " (no watcher is running: tick watch shows reminders as they come):"))
            t.outLines(TaskRenderer(terminal: t, dates: context.dates, query: context.query).flat(missed))
        }
    }
}
