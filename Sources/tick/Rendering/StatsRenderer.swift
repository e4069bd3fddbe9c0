import FoundationEssentials
import TickKit

/// Text, JSON and SVG forms of ``CompletionStats``.
struct StatsRenderer {
    let stats: CompletionStats
    let today: LocalDate
    let timeZone: Zone
    /// Display names of lists by file path.
    let listNames: [String: String]
    /// The list the statistics are limited to, if any.
    let listFilter: String?

    /// How many lists the per-list breakdown names; the rest are summed up.
    static let listsShown = 10
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// The ISO 8601 week number of a day.
    static func isoWeek(_ day: LocalDate) -> Int {
        let thursday = day.adding(days: 4 - day.weekday)
        let jan1 = LocalDate(year: thursday.year, month: 1, day: 1) ?? thursday
        return jan1.days(until: thursday) / 7 + 1
    }

    /// "Sat 21 Nov", "W47 16 Nov", "Nov 2026".
    func label(_ bucket: CompletionStats.Bucket) -> String {
        let d = bucket.start
        switch stats.period {
        case .day: return "\(Self.weekdays[d.weekday - 1]) \(d.day) \(Self.months[d.month - 1])"
        case .week:
            let week = Self.isoWeek(d)
            return "W\(week < 10 ? "0" : "")\(week) \(d.day) \(Self.months[d.month - 1])"
        case .month: return "\(Self.months[d.month - 1]) \(d.year)"
        }
    }

    /// A short label for the SVG's x axis: "21 Nov", "16 Nov", "Nov 26".
    func shortLabel(_ bucket: CompletionStats.Bucket) -> String {
        let d = bucket.start
        switch stats.period {
        case .day, .week: return "\(d.day) \(Self.months[d.month - 1])"
        case .month: return "\(Self.months[d.month - 1]) \(String(d.year).suffix(2))"
        }
    }

    func dayText(_ d: LocalDate) -> String { "\(Self.weekdays[d.weekday - 1]) \(d.day) \(Self.months[d.month - 1]) \(d.year)" }

    var title: String {
        "Completed tasks per \(stats.period.noun)" + (listFilter.map { " in \($0)" } ?? "")
    }

    // MARK: Text

    /// The chart and the summary lines. `unicode` picks block characters over `#`.
    func text(unicode: Bool, terminal t: Terminal) -> [String] {
        var lines: [String] = []
        let weeks = stats.period == .week ? " (ISO weeks, Monday first)" : ""
        lines.append(t.bold(title) + t.dim(weeks + ", " + timeZone.identifier))
        let labels = stats.buckets.map(label)
        let labelWidth = labels.map(\.count).max() ?? 0
        let maxCount = stats.buckets.map(\.count).max() ?? 0
        let width = 40
        let countWidth = String(maxCount).count
        for (bucket, text) in zip(stats.buckets, labels) {
            let bar = Self.bar(bucket.count, max: maxCount, width: width, unicode: unicode)
            let pad = String(repeating: " ", count: width - Self.cells(bucket.count, max: maxCount, width: width))
            let count = String(repeating: " ", count: countWidth - String(bucket.count).count) + String(bucket.count)
            let current = bucket.start <= today && today < bucket.end
            lines.append("  " + text.paddedOrCut(toLength: labelWidth) + "  " + t.cyan(bar) + pad + "  " + count
                         + (current ? t.dim("  so far") : ""))
        }
        lines.append("")
        let n = stats.buckets.count
        lines.append("Total: \(stats.total) completed in \(n) \(stats.period.noun)\(n == 1 ? "" : "s") (\(dayText(stats.buckets.first?.start ?? today)) to \(dayText(today)))")
        let this = stats.period == .day ? "Today" : "This \(stats.period.noun)"
        let same = stats.period == .day ? "" : " (same \(stats.trend.days) day\(stats.trend.days == 1 ? "" : "s"): \(stats.trend.previous))"
        lines.append("\(this): \(stats.trend.current), \(stats.trendText)\(same)")
        if stats.streak.days > 0, let from = stats.streak.from {
            let ending = stats.streak.through == today ? "" : ", nothing yet today"
            lines.append("Streak: \(stats.streak.days) day\(stats.streak.days == 1 ? "" : "s") (since \(dayText(from))\(ending))")
        } else {
            lines.append("Streak: 0 days (nothing completed yesterday or today)")
        }
        if listFilter == nil, !stats.lists.isEmpty {
            lines.append("")
            lines.append("By list:")
            let names = stats.lists.map { TextRules.visible(listNames[$0.list] ?? $0.list) }
            let nameWidth = names.map(CellWidth.of).max() ?? 0
            let cw = stats.lists.map { String($0.count).count }.max() ?? 1
            for (entry, name) in zip(stats.lists, names).prefix(Self.listsShown) {
                let c = String(entry.count)
                lines.append("  " + CellWidth.padded(name, to: nameWidth) + "  " + String(repeating: " ", count: cw - c.count) + c)
            }
            if stats.lists.count > Self.listsShown {
                let rest = stats.lists.dropFirst(Self.listsShown)
                lines.append("  … \(rest.count) more lists with \(rest.reduce(0) { $0 + $1.count }) (--json lists them all)")
            }
        }
        return lines
    }

    /// How many character cells a bar takes (a partial block counts as one).
    static func cells(_ count: Int, max: Int, width: Int) -> Int {
        guard max > 0, count > 0 else { return 0 }
        let eighths = Int((Double(count) / Double(max) * Double(width * 8)).rounded())
        return Swift.max(1, (eighths + 7) / 8)
    }

    /// A bar of `count` out of `max` in `width` cells: blocks with eighth steps, or `#`.
    static func bar(_ count: Int, max: Int, width: Int, unicode: Bool) -> String {
        guard max > 0, count > 0 else { return "" }
        let eighths = Swift.max(1, Int((Double(count) / Double(max) * Double(width * 8)).rounded()))
        if !unicode { return String(repeating: "#", count: cells(count, max: max, width: width)) }
        let partials = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        return String(repeating: "█", count: eighths / 8) + partials[eighths % 8]
    }

    // MARK: JSON

    func json() -> JSONNode {
        func day(_ d: LocalDate?) -> JSONNode { d.map { .string($0.iso) } ?? JSONNode(.null) }
        let currentStart = stats.period.start(of: today)
        let previousStart = stats.period.previous(currentStart)
        return .object([
            JSONMember("period", .string(stats.period.rawValue)),
            JSONMember("timeZone", .string(timeZone.identifier)),
            JSONMember("list", listFilter.map { .string($0) } ?? JSONNode(.null)),
            JSONMember("from", day(stats.buckets.first?.start)),
            JSONMember("to", .string(today.iso)),
            JSONMember("total", JSONOutput.number(stats.total)),
            JSONMember("buckets", .array(stats.buckets.map { b in
                .object([
                    JSONMember("start", .string(b.start.iso)),
                    JSONMember("end", .string(b.end.adding(days: -1).iso)),
                    JSONMember("label", .string(label(b))),
                    JSONMember("count", JSONOutput.number(b.count)),
                ])
            })),
            JSONMember("trend", .object([
                JSONMember("current", JSONOutput.number(stats.trend.current)),
                JSONMember("currentFrom", .string(currentStart.iso)),
                JSONMember("previous", JSONOutput.number(stats.trend.previous)),
                JSONMember("previousFrom", .string(previousStart.iso)),
                JSONMember("previousTo", .string(previousStart.adding(days: stats.trend.days - 1).iso)),
                JSONMember("days", JSONOutput.number(stats.trend.days)),
                JSONMember("percent", stats.trend.percent.map(JSONOutput.number) ?? JSONNode(.null)),
                JSONMember("text", .string(stats.trendText)),
            ])),
            JSONMember("streak", .object([
                JSONMember("days", JSONOutput.number(stats.streak.days)),
                JSONMember("from", day(stats.streak.from)),
                JSONMember("through", day(stats.streak.through)),
            ])),
            JSONMember("lists", .array(stats.lists.map { entry in
                .object([
                    JSONMember("name", .string(listNames[entry.list] ?? entry.list)),
                    JSONMember("file", .string(entry.list)),
                    JSONMember("count", JSONOutput.number(entry.count)),
                ])
            })),
        ])
    }
}
