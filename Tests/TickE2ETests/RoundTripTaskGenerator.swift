import Foundation

/// Random tasks with every built-in field, for the round-trip property test
/// (issue 45, `RoundTripPropertyTests`): hostile titles (Unicode, bidi
/// controls, `key:value`-looking words, `+x`, `@x`, a leading `x `, `(A)`,
/// dates in front), multi-line notes, all-day and timed due and wait dates,
/// reminders, priorities, states (done, and done as iCalendar's CANCELLED),
/// tags, lists, energy, estimates, dependencies, repeat rules, slots and the
/// three timestamps; and one declared field of each type (``declaredFields``,
/// Docs/FIELDS.md), with titles holding words that look like them. The same
/// seed makes the same store.
///
/// Dates are in 2030–2035: Taskwarrior runs on the real clock, and a wait or
/// due in the future keeps it from unwaiting tasks or making recurring
/// instances while the test runs.
struct RoundTripTaskGenerator {
    /// SplitMix64: small, fast and the same everywhere.
    struct Random {
        var state: UInt64
        init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
        mutating func next() -> UInt64 {
            state = state &+ 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func int(_ range: ClosedRange<Int>) -> Int {
            range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
        }
        /// True with probability `p`.
        mutating func chance(_ p: Double) -> Bool { Double(next() % 1_000_000) / 1_000_000 < p }
        mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }
    }

    /// One generated task: its tick JSON object and its list (nil: the inbox).
    struct Generated {
        var object: [String: Any]
        var list: String?
        /// The order of its unknown keys and declared fields (random: tick keeps it, and so must every re-import).
        var extraOrder: [String]
        var id: String { object["id"] as? String ?? "" }
    }

    /// Words a title is made of: the hostile ones are the point.
    static let titleWords = [
        "Buy", "milk", "report", "Café", "naïve", "Straße", "日本語", "🎉", "👩‍👩‍👧", "Ωμέγα", "עברית", "\u{202E}rtl\u{202C}",
        "zero\u{200B}width", "due:-7d", "due:2031-01-01", "key:value", "t:2031-01-01", "rec:1w", "tick:abc", "depends:x",
        "wait:tomorrow", "state:active", "pri:A", "+x", "@x", "+Work", "@home", "x", "(A)", "(b)", "1:1", "10:30",
        "https://example.com/a?b=c&d=e", "C:\\dir", "a\\:b", "\\+x", "\\@y", "\\\\", "50%", "a,b", "semi;colon",
        "\"quoted\"", "'single'", "back\\slash", "#hash", "=SUM(A1)", "-dash", "2030-02-03", "x:y:z", "ü:ö", ":colon",
        "colon:", "{\"json\":1}", "[brackets]", "<tag>", "&amp;", "BEGIN:VTODO", "END:VCALENDAR", "a=b", "100$",
        "client:Acme", "size:l", "points:3", "review:2031-01-01", "spent:1h",
    ]

    /// Openings a todo.txt reader could take for markers.
    static let titleOpenings = ["x ", "X ", "(A) ", "(Z) ", "2030-01-05 ", "x 2030-01-05 ", "+Proj ", "@ctx ", "- ", "* "]

    static let noteLines = [
        "plain line", "two, commas; and semicolons", "back\\slash and \\n literal", "tab\there", "  leading spaces",
        "trailing spaces  ", "2031-03-04 10:15 looks like an annotation", "2026-01-01 08:00 dated before the task",
        "日本語のメモ 🎉", "BEGIN:VALARM", "\"quoted\", \"more\"", "x done-looking line", "key:value +tag @ctx",
        "very long line " + String(repeating: "abcdefghij", count: 12), "carriage\rreturn", "crlf\r\nline", " ", "\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467} family",
    ]

    static let tags = [
        "home", "küche", "deep-work", "q1", "a:b", "x@y", "tag+plus", "日本", "🎉", "UPPER", "dotted.tag", "slash/tag",
        "under_score", "semi;c", "back\\s", "quote\"d",
    ]

    static let lists = ["Work", "Home Garden", "Café ☕", "Proj.Sub", "a,b;c", "due:soon", "@ctx \"list\"", "日本 \\ list"]

    /// Rules tick knows, and a few in each other family (RECURRENCE.md).
    static let repeatRules = [
        "daily", "weekly", "monthly", "yearly", "weekdays", "every 2 weeks", "every 3d", "every 2m", "+3d", "+1w",
        "mon,thu", "every friday", "annually", "every 2 days", "+2w", "every 3 months", "every year",
    ]

    /// One declared field of each type (FIELDS.md), in the config.toml of
    /// both the exporting and the importing store (``declaredConfig``) and,
    /// as UDAs, in Taskwarrior's rc (``declaredTaskrc``). Each is unset in
    /// about four tasks of ten.
    /// One in twenty values is of another type than declared (a hand edit:
    /// ``wrongValues``), which each format keeps or leaves out as FIELDS.md says.
    static let declaredFields: [(name: String, generate: @Sendable (inout Random) -> Any?)] = [
        ("client", { rng in rng.chance(0.4) ? nil : wrong("client", &rng) ?? rng.pick(clientValues) }),
        ("points", { rng in rng.chance(0.4) ? nil : wrong("points", &rng) ?? rng.pick(pointValues).number }),
        ("review", { rng in rng.chance(0.4) ? nil : wrong("review", &rng) ?? dateOrInstant(&rng) }),
        ("spent", { rng in rng.chance(0.4) ? nil : wrong("spent", &rng) ?? rng.pick(spentMinutes) }),
        ("size", { rng in rng.chance(0.4) ? nil : wrong("size", &rng) ?? rng.pick(["S", "M", "L"]) }),
    ]

    /// Values of another type than declared, per field: a number for text,
    /// text for a number, words for a date, a duration no tick spelling
    /// has, a value outside the set.
    static let wrongValues: [String: [any Sendable]] = [
        "client": [7, 3.5],
        "points": ["many", "12"],
        "review": ["soon", 5],
        "spent": ["an hour", 0],
        "size": ["XL", 3],
    ]

    static func wrong(_ field: String, _ rng: inout Random) -> Any? {
        guard rng.chance(0.05), let values = wrongValues[field] else { return nil }
        return rng.pick(values)
    }

    /// The declarations, for `~/.config/tick/config.toml`.
    static let declaredConfig = """
        [fields.client]
        type = "string"

        [fields.points]
        type = "number"

        [fields.review]
        type = "date"

        [fields.spent]
        type = "duration"

        [fields.size]
        type = "values"
        values = ["S", "M", "L"]

        """

    /// The same fields as Taskwarrior UDAs (lines for its rc), so `task import` keeps them.
    static let declaredTaskrc = """
        uda.client.type=string
        uda.points.type=numeric
        uda.review.type=date
        uda.spent.type=duration
        uda.size.type=string
        uda.size.values=S,M,L

        """

    /// One-line text for the string field: Unicode, bidi controls, quotes,
    /// the marks CSV, iCalendar parameters and todo.txt care about, words
    /// that look like numbers, dates or keys, and (for todo.txt, which has
    /// no word for them) spaces, `:` and a leading `/`.
    static let clientValues = [
        "Acme", "Globex Corp", "Café ☕", "日本語", "🎉", "\u{202E}rtl\u{202C}", "zero\u{200B}width", "a,b;c",
        "\"quoted\"", "'single'", "back\\slash", "a:b", "https://example.com/a?b=c", "/start", "+x", "@y", "tick:abc",
        "=SUM(A1)", "x", "BEGIN:VTODO", " lead", "trail ", "two  spaces", "100%", "#hash", "{\"json\":1}", "<tag>",
        "&amp;", "007", "2031-01-01", "true", "null", "-dash", "(A)", "semi;colon", "a=b", "ü",
    ]

    /// Whole and fractional numbers (the fractions exact in binary), as JSON spells them.
    /// (`0.1234567` has more decimals than Taskwarrior's `%f` keeps.)
    static let pointValues = ["0", "1", "3", "-2", "42", "2.5", "-0.75", "12.125", "1000000", "0.1234567"]

    /// Minutes: under an hour, hours, whole days, days and hours, tick's largest estimate.
    static let spentMinutes = [1, 5, 45, 90, 150, 1_439, 1_440, 1_500, 2_880, 99_999]

    let seed: UInt64
    private(set) var tasks: [Generated] = []

    init(seed: UInt64, count: Int) {
        self.seed = seed
        var rng = Random(seed: seed)
        var ids: [String] = []
        for _ in 0..<count { ids.append(Self.uuid(&rng)) }
        for (n, id) in ids.enumerated() {
            tasks.append(Self.task(id: id, number: n, others: ids, &rng))
        }
    }

    static func uuid(_ rng: inout Random) -> String {
        var bytes = (0..<16).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { r in
            String(hex[hex.index(hex.startIndex, offsetBy: r.lowerBound)..<hex.index(hex.startIndex, offsetBy: r.upperBound)])
        }
        return parts.joined(separator: "-")
    }

    /// A whole second from 2030-01-01 to the end of 2035 (or from `after`, within `days`).
    static func instant(_ rng: inout Random, after: Date? = nil, days: Int = 2_000) -> Date {
        let start = after ?? Date(timeIntervalSince1970: 1_893_456_000)   // 2030-01-01T00:00:00Z
        return start.addingTimeInterval(TimeInterval(rng.int(0...(days * 86_400))))
    }

    static func timestamp(_ d: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        f.timeZone = TimeZone(identifier: "UTC")
        return f.string(from: d)
    }

    static func day(_ rng: inout Random) -> String {
        let d = instant(&rng)
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd"
        return f.string(from: d)
    }

    /// An all-day date or an instant (a few exactly at local midnight, which
    /// Taskwarrior reads as a day).
    static func dateOrInstant(_ rng: inout Random) -> String {
        if rng.chance(0.5) { return day(&rng) }
        if rng.chance(0.1) { return day(&rng) + rng.pick(["T23:00:00Z", "T22:00:00Z"]) }   // midnight in Berlin (winter, summer)
        return timestamp(instant(&rng))
    }

    static func title(_ rng: inout Random) -> String {
        var words: [String] = []
        for _ in 0..<rng.int(1...7) { words.append(rng.pick(titleWords)) }
        var title = words.joined(separator: rng.chance(0.05) ? "  " : " ")
        if rng.chance(0.2) { title = rng.pick(titleOpenings) + title }
        if rng.chance(0.03) { title = " " + title }
        if rng.chance(0.03) { title += " " }
        return title
    }

    static func notes(_ rng: inout Random) -> String {
        var lines: [String] = []
        for _ in 0..<rng.int(1...4) { lines.append(rng.chance(0.1) ? "" : rng.pick(noteLines)) }
        let text = lines.joined(separator: "\n")
        return text.trimmingCharacters(in: .newlines).isEmpty ? "note" : text
    }

    static func task(id: String, number: Int, others: [String], _ rng: inout Random) -> Generated {
        var o: [String: Any] = ["id": id, "title": title(&rng)]
        let state = rng.pick(["open", "open", "active", "done"])
        o["state"] = state
        if rng.chance(0.6) { o["due"] = dateOrInstant(&rng) }
        if rng.chance(0.3) { o["scheduled"] = day(&rng) }
        if rng.chance(0.3) { o["remind"] = timestamp(instant(&rng)) }
        if rng.chance(0.3) { o["wait"] = dateOrInstant(&rng) }
        if rng.chance(0.3) { o["repeat"] = rng.pick(repeatRules) }
        if rng.chance(0.6) { o["priority"] = rng.pick(["must", "flexible"]) }
        if rng.chance(0.4) { o["energy"] = rng.pick(["high", "low", "any"]) }
        if rng.chance(0.4) { o["estimate"] = rng.pick([1, 5, 30, 45, 90, 150, 600, 1439, 99_999]) }
        if rng.chance(0.15) {
            let day = day(&rng)
            let minutes = rng.int(1...120)
            let start = rng.int(0...(1_439 - minutes))
            o["slot"] = ["start": String(format: "%@T%02d:%02d", day, start / 60, start % 60), "minutes": minutes]
            o["scheduled"] = day
        }
        if rng.chance(0.5) {
            var t: [String] = []
            for _ in 0..<rng.int(1...3) { let tag = rng.pick(tags); if !t.contains(tag) { t.append(tag) } }
            o["tags"] = t
        }
        if rng.chance(0.25), others.count > 1 {
            var d: [String] = []
            for _ in 0..<rng.int(1...2) { let other = rng.pick(others); if other != id && !d.contains(other) { d.append(other) } }
            if !d.isEmpty { o["depends"] = d }
        }
        if rng.chance(0.4) { o["notes"] = notes(&rng) }
        let created = instant(&rng, days: 365)
        let modified = instant(&rng, after: created, days: 400)
        o["createdAt"] = timestamp(created)
        o["modifiedAt"] = timestamp(modified)
        if state == "done" {
            o["completedAt"] = timestamp(created.addingTimeInterval(modified.timeIntervalSince(created) * Double(rng.int(0...100)) / 100).rounded())
            if rng.chance(0.3) { o["x-ical-status"] = "CANCELLED" }
        }
        // Unknown keys: one of tick's own, and the formats' own where they mean something.
        if rng.chance(0.2) { o["x-mine"] = rng.pick([["a": [1, 2]] as Any, "text, with; marks", 42, true]) }
        if o["priority"] as? String == "flexible", rng.chance(0.3) { o["x-todotxt-priority"] = rng.pick(["C", "D", "Z"]) }
        if o["priority"] as? String == "must", rng.chance(0.3) { o["x-taskwarrior-priority"] = "M" }
        for field in declaredFields {
            if let value = field.generate(&rng) { o[field.name] = value }
        }
        let list: String? = rng.chance(0.3) ? nil : rng.pick(lists)
        // Declared fields are stored among the unknown keys, in their order.
        var extraOrder = o.keys.filter { !RoundTripContract.knownKeys.contains($0) || RoundTripContract.declaredNames.contains($0) }.sorted()
        for i in extraOrder.indices.reversed() where i > 0 { extraOrder.swapAt(i, rng.int(0...i)) }
        return Generated(object: o, list: list, extraOrder: extraOrder)
    }

    /// A tick export document (`tick import --format json`) holding the tasks,
    /// keys in the canonical order and unknown keys in each task's own.
    func exportDocument() throws -> Data {
        func json(_ value: Any) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys]), as: UTF8.self)
        }
        func object(_ t: Generated) throws -> String {
            let keys = Self.canonicalOrder.filter { t.object[$0] != nil } + t.extraOrder
            return "{" + (try keys.map { try json($0) + ":" + json(t.object[$0] ?? NSNull()) }).joined(separator: ",") + "}"
        }
        func file(_ path: String, _ name: String?, _ members: [Generated]) throws -> String {
            var head = "\"version\":1"
            if let name { head += ",\"name\":" + (try json(name)) }
            return "{\"path\":\(try json(path)),\"content\":{\(head),\"tasks\":[\n" + (try members.map(object)).joined(separator: ",\n") + "\n]}}"
        }
        var files = [try file("inbox.json", nil, tasks.filter { $0.list == nil })]
        for (n, name) in Self.lists.enumerated() {
            files.append(try file("lists/list\(n).json", name, tasks.filter { $0.list == name }))
        }
        return Data(("{\"tickExport\":1,\"exportedAt\":\"2029-12-01T00:00:00Z\",\"files\":[\n" + files.joined(separator: ",\n") + "\n]}\n").utf8)
    }

    /// FORMAT.md §4's order of a task's keys.
    static let canonicalOrder = [
        "id", "title", "state", "due", "scheduled", "remind", "wait", "repeat", "priority", "energy", "estimate", "slot",
        "tags", "depends", "notes", "createdAt", "modifiedAt", "completedAt",
    ]
}

private extension String {
    /// The JSON number of a literal: an Int when whole, so it is written without a fraction.
    var number: Any { Int(self).map { $0 as Any } ?? Double(self) ?? self }
}

private extension Date {
    func rounded() -> Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}
