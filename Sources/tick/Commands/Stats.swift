import ArgumentParser
import FoundationEssentials
import Glibc
import TickKit

extension Tick {
    struct Stats: TickCommand {
        static let facts = CommandFacts.reads
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "stats",
            abstract: "Completed tasks per day, week or month: a bar chart, the trend, your streak.",
            discussion: """
            Counts the tasks completed (by their completedAt, in the local time zone $TZ) \
            per period and shows:

              - a bar chart, one bar per period, the current one marked "so far";
              - the total over the chart;
              - the trend: this period so far against the same number of days of the \
            previous one ("+12% vs last week"; "up from none" when there was nothing to compare);
              - the streak: consecutive days with at least one completion, up to today \
            (or yesterday, while nothing is done yet today);
              - a breakdown per list.

            Weeks are ISO weeks, starting on Monday. By default the chart shows the last \
            14 days, 12 weeks or 12 months, the current one included; --since starts it \
            at the period containing that day. --list limits everything to one list.

            Bars use Unicode block characters on a terminal and plain `#` when the \
            output is not a terminal (a pipe or a file), so it stays readable anywhere. \
            --json prints all of it as one object; --svg FILE also writes a standalone \
            SVG chart (open it in a browser).

            Statistics come from the index (SQL over completion times), so they are \
            fast on large stores. Archived tasks (`tick archive`) count too, under the \
            list they came from.

            EXAMPLES
              tick stats
              tick stats --period day
              tick stats --period month --since 2026-01-01
              tick stats --list Work --json
              tick stats --svg ~/week.svg
            """))

        @OptionGroup var global: GlobalOptions

        @Option(name: .long, help: ArgumentHelp("Bucket size: day, week or month.", valueName: "period"), completion: .list(["day", "week", "month"]))
        var period: String = "week"

        @Option(name: .long, help: ArgumentHelp("Start the chart at the period containing this past day (7d, 7d ago, last week, nov 19, fri: the last one).", valueName: "when"))
        var since: String?

        @Option(name: .long, help: ArgumentHelp("Only tasks of this list (or `inbox`).", valueName: "name"),
                completion: ShellCompletion.listsOrInbox)
        var list: String?

        @Option(name: .long, help: ArgumentHelp("Also write the chart as an SVG file.", valueName: "file"), completion: .file(extensions: ["svg"]))
        var svg: String?

        @OptionGroup var output: JSONOption

        func run() throws {
            guard let bucket = StatsPeriod(rawValue: period.lowercased()) else {
                throw InputError.badValue(key: "--period", value: period, allowed: StatsPeriod.allCases.map(\.rawValue))
            }
            let context = try Context(global)
            let today = context.query.today
            let sinceDay = try since.map { try CompletionStats.sinceDay($0, now: context.now, timeZone: context.timeZone) }
            let loaded = try context.load()
            var kind: FileKind?
            if let list { kind = try loaded.lists.resolve(list) }
            let path = kind?.relativePath
            let index = loaded.index
            let zone = context.timeZone

            // The chart, the trend and the streak's recent days from one index range scan.
            let first = CompletionStats.fetchStart(period: bucket, today: today, since: sinceDay)
            let end = today.adding(days: 1)
            // Archived tasks count too: decoded on demand (the archive is not indexed), by the file they came from.
            let archiveSnapshot = try context.store.archiveSnapshot()
            context.warnUnreadable(archiveSnapshot.broken)
            let archived = ArchivedTasks(files: archiveSnapshot.files).completions(timeZone: zone, path: path)
            var perDay = try index.completionsPerDay(first: first, end: end, timeZone: zone, path: path)
            perDay.merge(archived.perDay(first: first, end: end), uniquingKeysWith: +)
            let chartStart = CompletionStats.rangeStart(period: bucket, today: today, since: sinceDay)
            var perList = try index.completionsPerList(first: chartStart, end: end, timeZone: zone, path: path)
            perList.merge(archived.perList(first: chartStart, end: end), uniquingKeysWith: +)
            var streak = CompletionStats.streak(activeDays: Set(perDay.filter { $0.value > 0 }.keys), today: today)
            // A streak reaching back to the first day fetched goes on: probe the days before it,
            // the index's and the archive's in turn.
            if streak.days > 0, streak.from == first {
                let archivedDays = archived.activeDays
                var from = first
                while true {
                    let more = try index.activeDays(before: from, timeZone: zone, path: path)
                    from = from.adding(days: -more)
                    let previous = from.adding(days: -1)
                    guard archivedDays.contains(previous) else { break }
                    from = previous
                }
                streak.days += first.daysSinceEpoch - from.daysSinceEpoch
                streak.from = from
            }
            let stats = CompletionStats.build(period: bucket, today: today, since: sinceDay, perDay: perDay, perList: perList, streak: streak)

            var names: [String: String] = [:]
            for info in loaded.listInfos { names[info.kind.relativePath] = info.name }
            let renderer = StatsRenderer(stats: stats, today: today, timeZone: zone, listNames: names,
                                         listFilter: kind.map { loaded.name(of: $0) })
            let t = context.terminal
            if let svg {
                let text = StatsSVG(renderer: renderer).render()
                do {
                    try AtomicFile.write(Array(text.utf8), to: svg, mode: nil)
                } catch {
                    throw CLIError("cannot write the SVG chart to \(svg): \(ErrorText.describe(error))")
                }
                if !output.json { t.err("Wrote the chart to \(svg)") }
            }
            if output.json {
                t.outRaw(JSONOutput.string(renderer.json()))
                return
            }
            let unicode = t.stdoutIsTTY && context.environment["TERM"] != "dumb"
            t.outLines(renderer.text(unicode: unicode, terminal: t))
        }
    }
}
