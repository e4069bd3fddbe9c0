import ArgumentParser
import FoundationEssentials
import Glibc
import TickKit

extension Tick {
    struct StatusLine: TickCommand {
        static let facts = CommandFacts.reads
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "status-line",
            abstract: "A one-line summary of today for status bars (waybar, i3blocks, polybar, tmux).",
            discussion: """
            Counts the pending tasks due today (not yet overdue) and the overdue \
            ones, and names the next one (--size small) or two (--size medium), \
            overdue first, then soonest. Each format uses its program's own markup; \
            none prints terminal color codes. See Docs/STATUS-LINE.md.

            EXAMPLES
              tick status-line
              tick status-line --format waybar --size medium
              tick status-line --format tmux
              tick status-line --format waybar --follow   # one line per change

            --follow keeps running and prints a new line whenever the store changes \
            (inotify; within a second of any change, by any route) and when the time \
            of day changes what is due or overdue (checked every 30 seconds). An \
            unchanged summary is not printed again. It needs no `tick watch`; with \
            one running, both keep the same index current.
            """))

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case plain, json, waybar, i3blocks, polybar, tmux
        }

        enum Size: String, ExpressibleByArgument, CaseIterable {
            case small, medium
        }

        @OptionGroup var global: GlobalOptions

        @Option(name: .long, help: ArgumentHelp("Output format: plain, json, waybar, i3blocks, polybar, tmux.", valueName: "format"))
        var format: Format = .plain

        @Option(name: .long, help: ArgumentHelp("small: counts and one title; medium: counts and two titles.", valueName: "size"))
        var size: Size = .small

        @Flag(help: "Keep running; print a new line each time the store changes (for bars that read a stream).")
        var follow = false

        /// The most titles any format shows (the waybar tooltip).
        static let maxTitles = 10

        func run() throws {
            let context = try Context(global)
            // Brings the index up to date with the files.
            _ = try context.load()
            let active = try context.activeContext()
            // Status bars show stderr badly or not at all: no warnings here.
            guard follow else {
                context.terminal.outRaw(try render(context, now: context.now, active: active))
                return
            }
            try self.follow(context, active: active)
        }

        /// Counts in SQL and only the first tasks of the view: a status bar runs this often.
        /// With a context, today's view narrowed by it, and the line names the context.
        private func render(_ context: Context, now: Date, active: Context.ActiveFilter?) throws -> String {
            let query = TaskQuery(now: now, timeZone: context.timeZone)
            var summary: Summary
            if let active {
                summary = Summary(items: try context.index.run(.today, filter: TaskFilter(), matching: active.filter, query: query), query: query)
                summary.context = active.name
            } else {
                let (due, overdue, first) = try context.index.todaySummary(query: query, limit: Self.maxTitles)
                summary = Summary(due: due, overdue: overdue, titles: first.map { Summary.oneLine($0.task.title) })
            }
            return StatusLineFormatter(summary: summary, size: size).render(format)
        }

        /// Prints a line now, then one per change of what the line says.
        private func follow(_ context: Context, active: Context.ActiveFilter?) throws {
            let clock = context.clock
            var last = try render(context, now: clock(), active: active)
            context.terminal.outRaw(last)
            var options = StoreWatcher.Options()
            options.heartbeat = 30
            // A view: merging what syncing left is `tick watch`'s job.
            options.autoResolve = false
            options.stampHandEdits = false
            let watcher = StoreWatcher(store: context.store, index: context.index, options: options) { event in
                switch event {
                case .settled, .rescanned, .heartbeat, .storeGone:
                    guard let line = try? render(context, now: clock(), active: active), line != last else { return }
                    last = line
                    context.terminal.outRaw(line)
                default:
                    return
                }
            }
            // A closed pipe (the bar went away) ends the process quietly, as SIGPIPE does.
            let signals = StopSignals(watcher.stopper)
            defer { signals.cancel() }
            try watcher.run()
        }
    }
}

/// What the status line says, computed once from the `today` view.
struct Summary {
    /// Pending tasks due today that are not overdue yet.
    var due = 0
    /// Pending overdue tasks.
    var overdue = 0
    /// Titles of the pending tasks of the view, overdue first, then soonest (one line each).
    var titles: [String] = []
    /// The active context's name: the line starts with `[name]`.
    var context: String?

    init(items: [ListedTask], query: TaskQuery) {
        for item in items where item.task.state.isPending {
            let task = item.task
            if query.isOverdue(task) {
                overdue += 1
            } else if let d = task.due, d.localDay(in: query.timeZone) == query.today {
                due += 1
            }
            titles.append(Summary.oneLine(task.title))
        }
    }

    init(due: Int, overdue: Int, titles: [String]) {
        self.due = due
        self.overdue = overdue
        self.titles = titles
    }

    static func oneLine(_ s: String) -> String {
        TextRules.visible(s.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\t" }).joined(separator: " "))
    }

    /// "overdue", "due" or "clear".
    var level: String { overdue > 0 ? "overdue" : due > 0 ? "due" : "clear" }
}

/// Renders a ``Summary`` in each status bar's conventions.
struct StatusLineFormatter {
    let summary: Summary
    let size: Tick.StatusLine.Size

    static let red = "#ff5555"
    static let yellow = "#f1fa8c"

    var titleCount: Int { size == .small ? 1 : 2 }
    var titleWidth: Int { size == .small ? 30 : 40 }

    /// The next titles, as many as the size allows.
    var next: [String] { Array(summary.titles.prefix(titleCount)) }

    /// "2 due · 1 overdue" (zero counts left out), or "" when both are zero.
    var counts: String {
        var parts: [String] = []
        if summary.due > 0 { parts.append("\(summary.due) due") }
        if summary.overdue > 0 { parts.append("\(summary.overdue) overdue") }
        return parts.joined(separator: " · ")
    }

    /// "[work] " when a context is active, so a bar never seems to have lost tasks.
    var contextPrefix: String { summary.context.map { "[\($0)] " } ?? "" }

    /// "2 due · 1 overdue · Call the bank", or "nothing due".
    var text: String {
        if summary.due == 0 && summary.overdue == 0 { return contextPrefix + "nothing due" }
        return contextPrefix + ([counts] + next.map { truncate($0, to: titleWidth) }).joined(separator: " · ")
    }

    /// Counts only, for narrow bars ("nothing due" when clear).
    var shortText: String { contextPrefix + (counts.isEmpty ? "nothing due" : counts) }

    var color: String? { summary.overdue > 0 ? Self.red : summary.due > 0 ? Self.yellow : nil }

    func truncate(_ s: String, to width: Int) -> String {
        s.count <= width ? s : String(s.prefix(width - 1)).trimmingWhitespace() + "…"
    }

    func render(_ format: Tick.StatusLine.Format) -> String {
        switch format {
        case .plain:
            return text + "\n"
        case .json:
            let next = self.next.map(jsonString).joined(separator: ", ")
            let context = summary.context.map { ", \"context\": \(jsonString($0))" } ?? ""
            return "{\"due\": \(summary.due), \"overdue\": \(summary.overdue), \"next\": [\(next)]\(context)}\n"
        case .waybar:
            // Waybar reads text and tooltip as Pango markup.
            let tooltip = summary.due == 0 && summary.overdue == 0 && summary.titles.isEmpty
                ? "nothing due" : summary.titles.prefix(10).joined(separator: "\n")
            return "{\"text\": \(jsonString(pango(text))), \"tooltip\": \(jsonString(pango(tooltip))), \"class\": \(jsonString(summary.level))}\n"
        case .i3blocks:
            // full_text, short_text, then color only when there is one.
            var out = text + "\n" + shortText + "\n"
            if let color { out += color + "\n" }
            return out
        case .polybar:
            // A literal "%{" would start a polybar tag.
            let body = text.replacingAll("%{", with: "% {")
            guard let color else { return body + "\n" }
            return "%{F\(color)}\(body)%{F-}\n"
        case .tmux:
            // tmux reads "#" as the start of a format or style; "##" is a literal one.
            let body = text.replacingAll("#", with: "##")
            let style = summary.overdue > 0 ? "red" : summary.due > 0 ? "yellow" : nil
            guard let style else { return body + "\n" }
            return "#[fg=\(style)]\(body)#[default]\n"
        }
    }

    /// Escapes text for Pango markup.
    func pango(_ s: String) -> String {
        s.replacingAll("&", with: "&amp;").replacingAll("<", with: "&lt;")
            .replacingAll(">", with: "&gt;")
    }

    /// A JSON string literal, on one line.
    func jsonString(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 || u.value == 0x7F || u.value == 0x2028 || u.value == 0x2029 {
                    out += CFormat.string("\\u%04x", u.value)
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}
