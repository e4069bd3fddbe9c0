import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

/// `tick stats`: counts from completedAt in the local zone (ISO weeks, DST),
/// trend, streak, per-list breakdown, --json, --list, and the SVG chart
/// (parsed as XML; rendered with Chromium when it is installed).
@Suite("tick stats")
struct StatsTests {
    /// Completions (pinned today: Sat 2026-11-21, Berlin):
    /// Inbox: Sun 25 Oct 23:30 CET (week 43, the 25-hour day), Mon 26 Oct 00:30 (week 44), Thu 12 Nov.
    /// Work: Tue 10 Nov, Mon 16, Thu 19, Fri 20, Sat 21 Nov.
    static func store() throws -> Sandbox {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        let done: [(String, String, String)] = [
            ("I1", "inbox", "2026-10-25T22:30:00Z"), ("I2", "inbox", "2026-10-25T23:30:00Z"), ("I3", "inbox", "2026-11-12T12:00:00Z"),
            ("W1", "Work", "2026-11-10T12:00:00Z"), ("W2", "Work", "2026-11-16T07:00:00Z"), ("W3", "Work", "2026-11-19T12:00:00Z"),
            ("W4", "Work", "2026-11-20T12:00:00Z"), ("W5", "Work", "2026-11-21T08:00:00Z"),
        ]
        for (title, list, at) in done {
            try s.add(title, "list:\(list)")
            try s.ok("done", try s.uuidPrefix(title), now: at)
        }
        try s.add("Open one", "list:Work")
        return s
    }

    func object(_ r: RunResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any])
    }

    @Test("weekly chart, trend against the same days of last week, streak and lists, as text")
    func text() throws {
        let s = try Self.store()
        let r = try s.tick("stats")
        #expect(r.status == 0, "\(r)")
        #expect(r.lines.first == "Completed tasks per week (ISO weeks, Monday first), Europe/Berlin")
        let bars = r.lines.filter { $0.hasPrefix("  W") && $0.dropFirst(3).first?.isNumber == true }
        #expect(bars.count == 12)
        #expect(bars.first?.hasPrefix("  W36 31 Aug") == true)
        #expect(bars.first { $0.hasPrefix("  W43 19 Oct") }?.hasSuffix(" 1") == true)
        #expect(bars.first { $0.hasPrefix("  W44 26 Oct") }?.hasSuffix(" 1") == true)
        #expect(bars.last == "  W47 16 Nov  ########################################  4  so far")
        #expect(bars.first { $0.hasPrefix("  W46 9 Nov") } == "  W46 9 Nov   ####################                      2")
        #expect(!r.stdout.contains("█"), "plain # when not a terminal")
        #expect(r.stdout.contains("Total: 8 completed in 12 weeks (Mon 31 Aug 2026 to Sat 21 Nov 2026)\n"))
        #expect(r.stdout.contains("This week: 4, +100% vs last week (same 6 days: 2)\n"))
        #expect(r.stdout.contains("Streak: 3 days (since Thu 19 Nov 2026)\n"))
        #expect(r.stdout.hasSuffix("By list:\n  Work   5\n  Inbox  3\n"))
    }

    @Test("the per-list breakdown names the ten busiest lists and sums up the rest; --json has all")
    func manyLists() throws {
        let s = try Sandbox()
        var lines: [String] = []
        for i in 1...12 {
            try s.ok("lists", "add", "L\(i)")
            // List Li gets i completions, so the order is L12, L11, ... L1.
            for n in 1...i { lines.append("t\(i)-\(n) list:L\(i)") }
        }
        try s.ok("add", "-", stdin: lines.joined(separator: "\n") + "\n")
        let ids = try s.json("list", "--json").compactMap { $0.string("id") }
        #expect(try s.tick(["done"] + ids).status == 0)
        let r = try s.tick("stats")
        #expect(r.status == 0, "\(r)")
        let breakdown = r.stdout.components(separatedBy: "By list:\n").last ?? ""
        #expect(breakdown.hasPrefix("  L12  12\n  L11  11\n"))
        #expect(breakdown.hasSuffix("  L3    3\n  … 2 more lists with 3 (--json lists them all)\n"), "\(breakdown)")
        let all = try object(try s.tick("stats", "--json"))["lists"] as? [[String: Any]]
        #expect(all?.count == 12)
    }

    @Test("--json has every figure; --period day and --since; --list limits everything")
    func json() throws {
        let s = try Self.store()
        let o = try object(try s.tick("stats", "--json"))
        #expect(o["period"] as? String == "week" && o["total"] as? Int == 8 && o["from"] as? String == "2026-08-31")
        let buckets = try #require(o["buckets"] as? [[String: Any]])
        #expect(buckets.map { $0["count"] as? Int ?? -1 } == [0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 2, 4])
        #expect(buckets.last?["start"] as? String == "2026-11-16" && buckets.last?["end"] as? String == "2026-11-22")
        let trend = try #require(o["trend"] as? [String: Any])
        #expect(trend["current"] as? Int == 4 && trend["previous"] as? Int == 2 && trend["percent"] as? Int == 100 && trend["days"] as? Int == 6)
        #expect(trend["text"] as? String == "+100% vs last week")
        let streak = try #require(o["streak"] as? [String: Any])
        #expect(streak["days"] as? Int == 3 && streak["from"] as? String == "2026-11-19" && streak["through"] as? String == "2026-11-21")
        let lists = try #require(o["lists"] as? [[String: Any]])
        #expect(lists.map { $0["name"] as? String ?? "" } == ["Work", "Inbox"])
        #expect(lists.map { $0["count"] as? Int ?? 0 } == [5, 3])

        let day = try object(try s.tick("stats", "--period", "day", "--json"))
        let days = try #require(day["buckets"] as? [[String: Any]])
        #expect(days.count == 14 && days.first?["start"] as? String == "2026-11-08")
        #expect(days.map { $0["count"] as? Int ?? -1 } == [0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 0, 1, 1, 1])
        #expect((day["trend"] as? [String: Any])?["text"] as? String == "no change vs yesterday")

        let month = try object(try s.tick("stats", "--period", "month", "--since", "2026-10-01", "--json"))
        #expect((month["buckets"] as? [[String: Any]])?.map { $0["count"] as? Int ?? -1 } == [2, 6])

        let work = try object(try s.tick("stats", "--list", "Work", "--json"))
        #expect(work["total"] as? Int == 5 && work["list"] as? String == "Work")
        #expect((work["streak"] as? [String: Any])?["days"] as? Int == 3)
        let inbox = try object(try s.tick("stats", "--list", "inbox", "--json"))
        #expect(inbox["total"] as? Int == 3 && (inbox["streak"] as? [String: Any])?["days"] as? Int == 0)

        // Nothing done yet today: the streak ends yesterday.
        let tomorrow = try object(try s.tick(["stats", "--json"], now: "2026-11-22T09:00:00Z"))
        #expect((tomorrow["streak"] as? [String: Any])?["days"] as? Int == 3)
        #expect((tomorrow["streak"] as? [String: Any])?["through"] as? String == "2026-11-21")
        #expect(try s.tick("stats", "--period", "year").status == 2)
        #expect(try s.tick("stats", "--list", "Nope").status == 3)
    }

    @Test("a streak longer than the chart is followed back day by day, across the DST change")
    func longStreak() throws {
        let s = try Sandbox()
        // One completion a day, 23:30 local time, from Mon 12 Oct (before the 25 Oct change) to Sat 21 Nov 09:00;
        // nothing on 11 Oct.
        var tasks: [String] = []
        var day = DateComponents(calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "Europe/Berlin"), year: 2026, month: 10, day: 12, hour: 23, minute: 30)
        var n = 0
        while let date = day.date, date < Date(timeIntervalSince1970: 1_795_251_600) {   // 2026-11-21T09:00:00Z
            let stamp = ISO8601DateFormatter().string(from: date)
            tasks.append("""
                {"id": "00000000-0000-4000-8000-\(String(format: "%012d", n))", "title": "t\(n)", "state": "done",
                 "createdAt": "2026-10-01T00:00:00Z", "modifiedAt": "\(stamp)", "completedAt": "\(stamp)"}
            """)
            n += 1
            day.day = (day.day ?? 0) + 1
        }
        tasks.append("""
            {"id": "00000000-0000-4000-8000-999999999999", "title": "old", "state": "done",
             "createdAt": "2026-10-01T00:00:00Z", "modifiedAt": "2026-10-10T10:00:00Z", "completedAt": "2026-10-10T10:00:00Z"}
        """)
        try s.write("inbox.json", """
        {"version": 1, "id": "00000000-0000-4000-8000-aaaaaaaaaaaa", "createdAt": "2026-10-01T00:00:00Z",
         "modifiedAt": "2026-10-01T00:00:00Z", "tasks": [\(tasks.joined(separator: ",\n"))]}
        """)
        #expect(n == 40)
        let o = try object(try s.tick("stats", "--period", "day", "--json"))
        let streak = try #require(o["streak"] as? [String: Any])
        // Today (Sat 21 Nov) has nothing yet at 10:00 (the last one was Fri 20 Nov 23:30): the streak ends yesterday.
        #expect(streak["days"] as? Int == 40 && streak["from"] as? String == "2026-10-12" && streak["through"] as? String == "2026-11-20")
        #expect((o["buckets"] as? [[String: Any]])?.map { $0["count"] as? Int ?? -1 } == Array(repeating: 1, count: 13) + [0])
        let week = try object(try s.tick("stats", "--period", "week", "--json"))
        let counts = try #require((week["buckets"] as? [[String: Any]])?.map { $0["count"] as? Int ?? -1 })
        // W41 (5-11 Oct): the 10 Oct one; W42-W46: 7 a day-late 23:30 each; W47 so far: Mon-Fri.
        #expect(Array(counts.suffix(7)) == [1, 7, 7, 7, 7, 7, 5])
    }

    /// The SVG chart: one `rect.bar` per bucket, heights proportional to the counts.
    /// An attribute's value (by name; `attribute(forName:)` misses attributes in a default namespace on Linux).
    static func attr(_ e: XMLElement, _ name: String) -> String? {
        e.attributes?.first { $0.name == name }?.stringValue
    }

    static func bars(_ svgPath: String) throws -> (rects: [(count: Int, height: Double)], texts: [String]) {
        let doc = try XMLDocument(contentsOf: URL(fileURLWithPath: svgPath), options: [])
        let root = try #require(doc.rootElement())
        #expect(root.name == "svg")
        #expect(Self.attr(root, "viewBox") == "0 0 800 500")
        var rects: [(Int, Double)] = []
        var texts: [String] = []
        func walk(_ e: XMLElement) {
            if e.name == "rect", let cls = Self.attr(e, "class"), cls.split(separator: " ").contains("bar") {
                rects.append((Int(Self.attr(e, "data-count") ?? "") ?? -1,
                              Double(Self.attr(e, "height") ?? "") ?? -1))
            }
            if e.name == "text" || e.name == "title" { texts.append(e.stringValue ?? "") }
            for case let child as XMLElement in e.children ?? [] { walk(child) }
        }
        walk(root)
        return (rects, texts)
    }

    @Test("--svg writes a standalone SVG whose bars match the data; the list name is escaped")
    func svg() throws {
        let s = try Self.store()
        try s.ok("lists", "add", "R&D <2027>")
        try s.add("X", "list:R&D <2027>")
        try s.ok("done", try s.uuidPrefix("X"))
        let path = s.root + "/chart.svg"
        let r = try s.tick("stats", "--svg", path, "--json")
        #expect(r.status == 0, "\(r)")
        let counts = try #require((try object(r)["buckets"] as? [[String: Any]])?.map { $0["count"] as? Int ?? -1 })
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("http://") || !text.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "").contains("http"), "no external resources")
        #expect(!text.contains("<script") && !text.contains("href"))
        let chart = try Self.bars(path)
        #expect(chart.rects.map(\.count) == counts)
        // Heights are proportional: every bar's height / count is the same; empty bars have height 0.
        let unit = try #require(chart.rects.first { $0.count > 0 }.map { $0.height / Double($0.count) })
        for bar in chart.rects { #expect(abs(bar.height - unit * Double(bar.count)) < 0.02, "\(bar)") }
        #expect(chart.texts.contains("Completed tasks per week"))

        let listPath = s.root + "/rd.svg"
        try s.ok("stats", "--list", "R&D <2027>", "--svg", listPath)
        let raw = try String(contentsOfFile: listPath, encoding: .utf8)
        #expect(raw.contains("Completed tasks per week in R&amp;D &lt;2027&gt;"))
        let rd = try Self.bars(listPath)
        #expect(rd.texts.contains("Completed tasks per week in R&D <2027>"))
        #expect(rd.rects.map(\.count).reduce(0, +) == 1)
    }

    /// True when a Chromium to render with is on PATH.
    static let chromiumAvailable: Bool = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return ["chromium", "chromium-browser", "google-chrome"].contains { name in
            path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
        }
    }()

    @Test("the SVG renders in headless Chromium to a non-blank picture (skipped without Chromium)",
          .enabled(if: chromiumAvailable, "Chromium is not installed (chromium, chromium-browser or google-chrome on PATH): nothing to render the SVG with"))
    func chromium() throws {
        let s = try Self.store()
        let path = s.root + "/chart.svg"
        try s.ok("stats", "--period", "day", "--svg", path)
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) { dir = dir.deletingLastPathComponent() }
        let script = dir.appendingPathComponent("scripts/check-svg.sh").path
        let r = try s.run("/bin/bash", [script, path, s.root + "/chart.png"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("check-svg: OK"))
        #expect(FileManager.default.fileExists(atPath: s.root + "/chart.png"))
    }
}
