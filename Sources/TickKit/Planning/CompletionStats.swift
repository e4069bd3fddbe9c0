import FoundationEssentials

/// The length of a statistics bucket.
public enum StatsPeriod: String, Sendable, CaseIterable {
    case day, week, month

    /// The first day of the period containing `day` (weeks are ISO weeks, Monday first).
    public func start(of day: LocalDate) -> LocalDate {
        switch self {
        case .day: return day
        case .week: return day.adding(days: 1 - day.weekday)
        case .month: return LocalDate(year: day.year, month: day.month, day: 1) ?? day
        }
    }

    /// The first day of the period after the one starting at `start`.
    public func next(_ start: LocalDate) -> LocalDate {
        switch self {
        case .day: return start.adding(days: 1)
        case .week: return start.adding(days: 7)
        case .month: return start.adding(months: 1)
        }
    }

    /// The first day of the period before the one starting at `start`.
    public func previous(_ start: LocalDate) -> LocalDate {
        switch self {
        case .day: return start.adding(days: -1)
        case .week: return start.adding(days: -7)
        case .month: return start.adding(months: -1)
        }
    }

    /// How many periods a chart shows by default (the current one included).
    public var defaultCount: Int {
        switch self {
        case .day: return 14
        case .week: return 12
        case .month: return 12
        }
    }

    /// "day", "week", "month" as in "vs last week".
    public var noun: String { rawValue }
}

/// Completion statistics: counts per period, the trend, the streak and a
/// per-list breakdown. Pure: built from per-day counts under a given "today".
public struct CompletionStats: Sendable, Equatable {
    /// One bar: the period starting at `start` (inclusive) and ending before `end`.
    public struct Bucket: Sendable, Equatable {
        public var start: LocalDate
        public var end: LocalDate
        public var count: Int
    }

    /// The trend: this period so far against the same number of days of the previous one.
    public struct Trend: Sendable, Equatable {
        public var current: Int
        public var previous: Int
        /// Days compared (today's position in the period, clamped to the previous period's length).
        public var days: Int
        /// Rounded percent change; nil when `previous` is 0.
        public var percent: Int?
    }

    /// Consecutive days with at least one completion, ending today (or yesterday when
    /// nothing is done yet today).
    public struct Streak: Sendable, Equatable {
        public var days: Int
        /// The first and last day of the streak; nil when `days` is 0.
        public var from: LocalDate?
        public var through: LocalDate?
    }

    public var period: StatsPeriod
    public var buckets: [Bucket]
    public var trend: Trend
    public var streak: Streak
    /// Completions per list (file path) over the buckets, most first (ties by path).
    public var lists: [(list: String, count: Int)]

    /// The sum of all buckets.
    public var total: Int { buckets.reduce(0) { $0 + $1.count } }

    public static func == (lhs: CompletionStats, rhs: CompletionStats) -> Bool {
        lhs.period == rhs.period && lhs.buckets == rhs.buckets && lhs.trend == rhs.trend && lhs.streak == rhs.streak
            && lhs.lists.map(\.list) == rhs.lists.map(\.list) && lhs.lists.map(\.count) == rhs.lists.map(\.count)
    }

    /// The day `--since WHEN` names: WHEN leans back (`7d` and `7d ago` are a week ago,
    /// `nov 19` and `fri` the last ones, ``WhenDirection/past``); a day after today, which
    /// would chart nothing, is refused.
    public static func sinceDay(_ text: String, now: Date, timeZone: Zone, key: String = "--since") throws(InputError) -> LocalDate {
        let when = WhenParser(now: now, timeZone: timeZone, direction: .past)
        do {
            let date = try when.parse(text)
            try when.requirePast(.day(date.localDay(in: timeZone)), input: text, what: key, strictlyAfter: false)
            return date.localDay(in: timeZone)
        } catch {
            throw .badDate(key: key, error)
        }
    }

    /// The first day of the chart: the period containing `since`, else `period.defaultCount`
    /// periods back (the current one included).
    public static func rangeStart(period: StatsPeriod, today: LocalDate, since: LocalDate?) -> LocalDate {
        if let since { return period.start(of: min(since, today)) }
        var start = period.start(of: today)
        for _ in 1..<period.defaultCount { start = period.previous(start) }
        return start
    }

    /// The first day whose completions `build` needs: the chart's start or, if earlier,
    /// the previous period's start (for the trend).
    public static func fetchStart(period: StatsPeriod, today: LocalDate, since: LocalDate?) -> LocalDate {
        min(rangeStart(period: period, today: today, since: since), period.previous(period.start(of: today)))
    }

    /// Builds the statistics from completions per local day (covering at least
    /// `fetchStart ... today`) and per list (over the chart's days), and the streak
    /// (see ``streak(activeDays:today:)``).
    public static func build(period: StatsPeriod, today: LocalDate, since: LocalDate?,
                             perDay: [LocalDate: Int], perList: [String: Int], streak: Streak) -> CompletionStats {
        let first = rangeStart(period: period, today: today, since: since)
        func sum(_ from: LocalDate, _ to: LocalDate) -> Int {
            // `to` exclusive. Iterate the smaller side.
            if perDay.count < from.days(until: to) {
                return perDay.reduce(0) { $0 + ($1.key >= from && $1.key < to ? $1.value : 0) }
            }
            var total = 0
            var d = from
            while d < to { total += perDay[d] ?? 0; d = d.adding(days: 1) }
            return total
        }
        var buckets: [Bucket] = []
        var start = first
        let currentStart = period.start(of: today)
        while start <= currentStart {
            let end = period.next(start)
            buckets.append(Bucket(start: start, end: end, count: sum(start, min(end, today.adding(days: 1)))))
            start = end
        }
        // Trend: this period through today against the same days of the previous period.
        let previousStart = period.previous(currentStart)
        let elapsed = currentStart.days(until: today) + 1
        let previousLength = previousStart.days(until: currentStart)
        let days = min(elapsed, previousLength)
        let current = sum(currentStart, today.adding(days: 1))
        let previous = sum(previousStart, previousStart.adding(days: days))
        let percent: Int? = previous == 0 ? nil : Int((Double(current - previous) * 100 / Double(previous)).rounded())
        let lists = perList.filter { $0.value > 0 }.map { (list: $0.key, count: $0.value) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.list < $1.list }
        return CompletionStats(period: period, buckets: buckets,
                               trend: Trend(current: current, previous: previous, days: days, percent: percent),
                               streak: streak, lists: lists)
    }

    /// The streak ending today, or yesterday when `activeDays` has nothing today.
    public static func streak(activeDays: Set<LocalDate>, today: LocalDate) -> Streak {
        var end = today
        if !activeDays.contains(today) { end = today.adding(days: -1) }
        var day = end
        var n = 0
        while activeDays.contains(day) {
            n += 1
            day = day.adding(days: -1)
        }
        guard n > 0 else { return Streak(days: 0, from: nil, through: nil) }
        return Streak(days: n, from: end.adding(days: 1 - n), through: end)
    }

    /// "+12% vs last week", "-40% vs yesterday", "up from 0 last month", "no change vs last week".
    public var trendText: String {
        let last = period == .day ? "yesterday" : "last \(period.noun)"
        if let p = trend.percent {
            if p == 0 { return "no change vs \(last)" }
            return (p > 0 ? "+" : "") + "\(p)% vs \(last)"
        }
        return trend.current == 0 ? "no change vs \(last) (none either)" : "up from none \(last)"
    }
}

/// Local-midnight boundaries of a run of days in a time zone, to map instants to
/// days by binary search (DST-correct without a time zone lookup per instant).
public struct DayBoundaries: Sendable {
    public let first: LocalDate
    /// `starts[i]` is the instant local day `first + i` begins; one extra entry ends the last day.
    public let starts: [Date]

    /// Boundaries for the days `first ..< end`.
    public init(first: LocalDate, end: LocalDate, timeZone: Zone) {
        self.first = first
        var out: [Date] = []
        var d = first
        while d <= end {
            out.append(d.startOfDay(in: timeZone))
            d = d.adding(days: 1)
        }
        starts = out
    }

    /// The day containing `instant`, or nil when it is outside the range.
    public func day(of instant: Date) -> LocalDate? {
        guard let firstStart = starts.first, let last = starts.last, instant >= firstStart, instant < last else { return nil }
        var lo = 0
        var hi = starts.count - 1   // starts[lo] <= instant < starts[hi]
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if starts[mid] <= instant { lo = mid } else { hi = mid }
        }
        return first.adding(days: lo)
    }
}
