import Foundation

/// What one interchange format does to each field of a task on the way
/// tick → format → the real tool → tick (into an empty store): the test's
/// copy of Docs/INTERCHANGE.md's tables, one rule per field, which
/// `RoundTripPropertyTests` checks every generated task against. A field
/// that comes back equal is `.exact`; anything else names what the table
/// says and computes the value the table promises. Keep the two in step:
/// a change here is a change of the doc.
struct RoundTripContract: Sendable {
    /// What the real tool does between export and import.
    enum Tool: Sendable {
        /// `task import`, then `task export` (Taskwarrior 2.6).
        case taskwarrior
        /// `todo.sh -p ls`, then `todo.sh -a do N…` on about a tenth of the open lines.
        case todoTxt
        /// Python's `icalendar`: `Calendar.from_ical(…).to_ical()`.
        case icalendar
        /// Python's `csv`: `csv.reader` rows written again by `csv.writer`.
        case csv
        /// None: tick's own JSON.
        case none
    }

    /// The task before the round trip, and what the tool did to it.
    struct Before {
        let task: [String: Any]
        let list: String?
        /// The day (`YYYY-MM-DD`) the tool completed the task on (todo.sh `do`), if it did.
        let completedByTool: String?
        /// The importing store's clock (TICK_NOW) as a timestamp.
        let importedAt: String

        func string(_ key: String) -> String? { task[key] as? String }
    }

    struct Rule: Sendable {
        /// How INTERCHANGE.md's table says it (shown when a task breaks the rule).
        let doc: String
        /// The value the task comes back with (nil: absent), given the field's name.
        let expected: @Sendable (Before, String) -> Any?

        init(doc: String, _ expected: @escaping @Sendable (Before) -> Any?) {
            self.doc = doc
            self.expected = { before, _ in expected(before) }
        }

        private init(doc: String, field: @escaping @Sendable (Before, String) -> Any?) {
            self.doc = doc
            expected = field
        }

        static let exact = Rule(doc: "exact", field: { before, field in
            switch field {
            case "list": before.list
            case "extra": RoundTripContract.extra(before.task)
            default: before.task[field]
            }
        })
        static func dropped(_ doc: String = "dropped on export") -> Rule {
            Rule(doc: doc, field: { _, field in field == "extra" ? [String: Any]() : nil })
        }
    }

    let format: String
    let fileExtension: String
    let tool: Tool
    /// By field: `id`, `list`, and every name in `TaskField.all` (`extra` is the unknown keys).
    let rules: [String: Rule]

    /// The task keys that are not unknown keys.
    static let knownKeys: Set<String> = Set([
        "id", "title", "state", "due", "scheduled", "remind", "wait", "repeat", "priority", "energy", "estimate", "slot",
        "tags", "depends", "notes", "createdAt", "modifiedAt", "completedAt", "changed",
    ] + declaredNames)

    /// The generator's declared fields (config.toml `[fields.NAME]`): fields
    /// with a rule of their own in every contract, not unknown keys.
    static let declaredNames = RoundTripTaskGenerator.declaredFields.map(\.name)

    /// Every declared field exact (the formats that carry them all as they are).
    static let declaredExact: [String: Rule] = Dictionary(uniqueKeysWithValues: declaredNames.map { ($0, Rule.exact) })

    /// True when a declared field's value has the type declared (FIELDS.md:
    /// text, a number, a day or timestamp, whole minutes, one of the set),
    /// as the generator makes them; ``RoundTripTaskGenerator/wrongValues`` are not.
    static func wellTyped(_ field: String, _ value: Any?) -> Bool {
        guard let value else { return true }
        switch field {
        case "client": return value is String
        case "points": return !(value is String)
        case "review": return (value as? String).map { RoundTripDates.isDay($0) || RoundTripDates.parse($0) != nil } ?? false
        case "spent": return !(value is String) && ((value as? Int) ?? 0) > 0
        case "size": return (value as? String).map { ["S", "M", "L"].contains($0) } ?? false
        default: return true
        }
    }

    /// A declared field's value where the format writes only values of the
    /// declared type (todo.txt, CSV: FIELDS.md "Formats"): another is not
    /// written, so an import into an empty store lacks it.
    static func typedOnly(_ field: String, _ expected: Any?) -> Any? {
        wellTyped(field, expected) ? expected : nil
    }

    /// Taskwarrior holds a declared field's value as it is when it has the
    /// type declared or is text Taskwarrior keeps (a string for a string, a
    /// set or a duration); another goes into Taskwarrior 2.6 as something
    /// else or crashes its import, so tick does not export it (FIELDS.md).
    /// A number Taskwarrior holds when its `%f` (six decimals) gives it back.
    static func taskwarriorHolds(_ field: String, _ value: Any?) -> Bool {
        if field == "points", let number = value as? NSNumber, !(value is String) {
            return Double(String(format: "%f", number.doubleValue)) == number.doubleValue
        }
        return wellTyped(field, value) || (["client", "size", "spent"].contains(field) && value is String)
    }

    /// The unknown keys of a task object.
    static func extra(_ task: [String: Any]) -> [String: Any] {
        task.filter { !knownKeys.contains($0.key) }
    }
}

// MARK: - Dates in tick's zone

/// Date arithmetic the tables speak of, in the zone every test runs in (`pinnedZone`).
enum RoundTripDates {
    static let zone = TimeZone(identifier: pinnedZone) ?? .current

    static func parse(_ timestamp: String) -> Date? {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.date(from: timestamp)
    }

    static func format(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        f.timeZone = TimeZone(identifier: "UTC")
        return f.string(from: date)
    }

    static func isDay(_ value: String) -> Bool { value.count == 10 }

    /// The time of a dated notes line (`YYYY-MM-DD HH:MM TEXT`, local), as `tick annotate` writes it.
    static func annotationTime(_ line: String) -> Date? {
        let b = Array(line.utf8)
        guard b.count > 17, b[10] == 0x20, b[13] == 0x3A, b[16] == 0x20,
              !String(decoding: b[17...], as: UTF8.self).trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = zone
        f.dateFormat = "yyyy-MM-dd HH:mm"
        return f.date(from: String(decoding: b[0..<16], as: UTF8.self))
    }

    /// The local day of an instant.
    static func localDay(_ timestamp: String) -> String {
        guard let d = parse(timestamp) else { return timestamp }
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = zone
        let c = cal.dateComponents([.year, .month, .day], from: d)
        return String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
    }

    /// Local midnight at the start of a day, as a timestamp.
    static func startOfDay(_ day: String) -> String {
        let parts = day.split(separator: "-").compactMap { Int($0) }
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = zone
        guard parts.count == 3, let d = cal.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])) else { return day }
        return format(d)
    }

    /// A day, or an instant at exactly local midnight, as a day; any other instant as it is.
    static func dayIfMidnight(_ value: String?) -> String? {
        guard let value, !isDay(value) else { return value }
        let day = localDay(value)
        return startOfDay(day) == value ? day : value
    }
}

// MARK: - The formats

extension RoundTripContract {
    /// tick's own JSON: everything exact.
    static let json = RoundTripContract(format: "json", fileExtension: "json", tool: .none, rules: [
        "id": .exact, "list": .exact, "title": .exact, "state": .exact, "due": .exact, "remind": .exact, "wait": .exact,
        "scheduled": .exact, "slot": .exact, "priority": .exact, "energy": .exact, "estimate": .exact, "repeat": .exact,
        "notes": .exact, "depends": .exact, "tags": .exact, "createdAt": .exact, "modifiedAt": .exact,
        "completedAt": .exact, "extra": .exact,
    ].merging(declaredExact) { a, _ in a })

    /// INTERCHANGE.md, "Taskwarrior import and export"; FIELDS.md, "Formats".
    static let taskwarrior = RoundTripContract(format: "taskwarrior", fileExtension: "json", tool: .taskwarrior, rules: [
        "id": .exact, "list": .exact, "title": .exact, "state": .exact,
        "due": Rule(doc: "exact instant; an instant at local midnight comes back as that day") {
            RoundTripDates.dayIfMidnight($0.string("due"))
        },
        "wait": Rule(doc: "exact; an instant at local midnight comes back as that day") {
            RoundTripDates.dayIfMidnight($0.string("wait"))
        },
        "remind": .exact, "scheduled": .exact,
        "slot": .dropped("dropped: Taskwarrior has no slot"),
        "priority": .exact, "energy": .exact, "estimate": .exact, "repeat": .exact,
        "notes": Rule(doc: "one annotation per non-empty line, in Taskwarrior's time order: undated lines (and dated ones from before the task) first, then dated lines by time; empty lines are not exported") {
            guard let notes = $0.string("notes"), let created = $0.string("createdAt").flatMap(RoundTripDates.parse) else { return nil }
            let lines = notes.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
            let dated = lines.map { RoundTripDates.annotationTime($0).flatMap { $0 >= created ? $0 : nil } }
            var plain = -dated.filter { $0 == nil }.count
            var keyed: [(at: Date, n: Int, line: String)] = []
            for (n, (line, at)) in zip(lines, dated).enumerated() {
                if let at { keyed.append((at, n, line)) } else { keyed.append((created.addingTimeInterval(TimeInterval(plain)), n, line)); plain += 1 }
            }
            let sorted = keyed.sorted { ($0.at, $0.n) < ($1.at, $1.n) }.map(\.line).joined(separator: "\n")
            return sorted.isEmpty ? nil : sorted
        },
        "depends": Rule(doc: "exact as a set: Taskwarrior sorts them") { ($0.task["depends"] as? [String])?.sorted() },
        "tags": Rule(doc: "exact as a set: Taskwarrior sorts them") {
            ($0.task["tags"] as? [String])?.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        },
        "createdAt": .exact, "modifiedAt": .exact, "completedAt": .exact,
        "extra": Rule(doc: "only x-taskwarrior-* keys are exported (and come back)") {
            RoundTripContract.extra($0.task).filter { $0.key.hasPrefix("x-taskwarrior-") }
        },
        // Declared fields are UDAs (declared in Taskwarrior's rc too); a
        // value Taskwarrior cannot hold as it is is not exported.
        "client": declaredTaskwarrior("client"), "points": declaredTaskwarrior("points"),
        "spent": declaredTaskwarrior("spent"), "size": declaredTaskwarrior("size"),
        "review": Rule(doc: "a UDA date: exact instant; an instant at local midnight comes back as that day; another value is not exported") {
            wellTyped("review", $0.task["review"]) ? RoundTripDates.dayIfMidnight($0.string("review")) : nil
        },
    ])

    /// INTERCHANGE.md, "todo.txt interchange"; FIELDS.md, "Formats". todo.sh `do` completes some lines on the real clock.
    static let todoTxt = RoundTripContract(format: "todotxt", fileExtension: "txt", tool: .todoTxt, rules: [
        "id": .exact,
        "list": Rule(doc: "exact for names without spaces; spaces are written as _") {
            $0.list.map { $0.replacingOccurrences(of: " ", with: "_") }
        },
        "title": Rule(doc: "runs of spaces become one") {
            $0.string("title").map { $0.split(separator: " ").joined(separator: " ") }
        },
        "state": Rule(doc: "exact; a line todo.sh completes is done") { $0.completedByTool != nil ? "done" : $0.string("state") },
        "due": Rule(doc: "exact for all-day; a timed due date is approximated to its local day") {
            $0.string("due").map { RoundTripDates.isDay($0) ? $0 : RoundTripDates.localDay($0) }
        },
        "remind": .exact, "wait": .exact, "scheduled": .exact,
        "slot": .dropped(),
        "priority": Rule(doc: "exact; done tasks carry no priority (todo.sh do removes it)") {
            $0.string("state") == "done" || $0.completedByTool != nil ? nil : $0.string("priority")
        },
        "energy": .exact, "estimate": .exact,
        "repeat": Rule(doc: "rec: and back: mapped (every 2 weeks → rec:+2w → every 2w); other rules as tickrepeat:") {
            $0.string("repeat").map { RoundTripContract.todoTxtRepeat[$0] ?? $0 }
        },
        "notes": .dropped(),
        "depends": .exact, "tags": .exact,
        "createdAt": Rule(doc: "approximated: the local day, read as its start") {
            $0.string("createdAt").map { RoundTripDates.startOfDay(RoundTripDates.localDay($0)) }
        },
        "modifiedAt": Rule(doc: "dropped: the import time") { $0.importedAt },
        "completedAt": Rule(doc: "approximated: the local day, read as its start; todo.sh do: the day it ran") {
            if let day = $0.completedByTool { return RoundTripDates.startOfDay(day) }
            return $0.string("completedAt").map { RoundTripDates.startOfDay(RoundTripDates.localDay($0)) }
        },
        "extra": Rule(doc: "x-todotxt-priority while flexible and not done; other unknown keys dropped") {
            var kept: [String: Any] = [:]
            if let letter = $0.task["x-todotxt-priority"], $0.string("priority") == "flexible",
               $0.string("state") != "done", $0.completedByTool == nil { kept["x-todotxt-priority"] = letter }
            return kept
        },
        "client": Rule(doc: "NAME:value; text with a space or a `:`, or starting with `/`, has no todo.txt word and is not written; nor is a value of another type") {
            $0.string("client").flatMap { $0.contains(" ") || $0.contains(":") || $0.hasPrefix("/") ? nil : $0 }
        },
        "points": declaredTyped("points"), "review": declaredTyped("review"), "spent": declaredTyped("spent"), "size": declaredTyped("size"),
    ])

    /// How todo.txt's `rec:` spells tick's rules back (INTERCHANGE.md, `rec:`), for the generator's rules.
    static let todoTxtRepeat: [String: String] = [
        "every 2 weeks": "every 2w", "every 3d": "every 3d", "every 2m": "every 2mo", "annually": "yearly",
        "every 2 days": "every 2d", "every 3 months": "every 3mo", "every year": "yearly",
    ]

    /// INTERCHANGE.md, "iCalendar (VTODO) interchange", through Python's icalendar.
    static let icalendar = RoundTripContract(format: "ics", fileExtension: "ics", tool: .icalendar, rules: [
        "id": .exact, "list": .exact, "title": .exact, "state": .exact, "due": .exact, "remind": .exact, "wait": .exact,
        "scheduled": .exact, "slot": .exact, "priority": .exact, "energy": .exact, "estimate": .exact, "repeat": .exact,
        "notes": Rule(doc: "exact, but a CRLF comes back as a line break and a lone CR is dropped (TEXT has no CR)") {
            $0.string("notes").map { $0.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "") }
        },
        "depends": .exact, "tags": .exact, "createdAt": .exact, "modifiedAt": .exact,
        "completedAt": .exact, "extra": .exact,
    ].merging(declaredExact) { a, _ in a })

    /// INTERCHANGE.md, "CSV import and export", through Python's csv.
    static let csv = RoundTripContract(format: "csv", fileExtension: "csv", tool: .csv, rules: [
        "id": .exact, "list": .exact, "title": .exact, "state": .exact, "due": .exact, "remind": .exact, "wait": .exact,
        "scheduled": .exact, "slot": .dropped(), "priority": .exact, "energy": .exact, "estimate": .exact,
        "repeat": .exact,
        "notes": Rule(doc: "exact, but a CRLF comes back as a line break") {
            $0.string("notes").map { $0.replacingOccurrences(of: "\r\n", with: "\n") }
        }, "depends": .exact, "tags": .exact, "createdAt": .exact, "modifiedAt": .exact,
        "completedAt": .exact,
        "extra": Rule(doc: "dropped on export") { _ in [String: Any]() },
    ].merging(declaredTypedOnly) { a, _ in a })

    /// A declared field where only values of its type are written (todo.txt, CSV).
    static func declaredTyped(_ field: String) -> Rule {
        Rule(doc: "exact; a value of another type than declared is not written") { typedOnly(field, $0.task[field]) }
    }

    static let declaredTypedOnly: [String: Rule] = Dictionary(uniqueKeysWithValues: declaredNames.map { ($0, declaredTyped($0)) })

    /// A declared field as a Taskwarrior UDA: exact when Taskwarrior holds it as it is, else not exported.
    static func declaredTaskwarrior(_ field: String) -> Rule {
        Rule(doc: "exact; a value Taskwarrior cannot hold as it is is not exported") {
            taskwarriorHolds(field, $0.task[field]) ? $0.task[field] : nil
        }
    }
}
