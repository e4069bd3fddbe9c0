import FoundationEssentials
import Glibc
import TOMLKit

/// The user's settings from `$XDG_CONFIG_HOME/tick/config.toml`
/// (`~/.config/tick/config.toml`). A missing file means the defaults.
///
/// ```toml
/// [reminders]
/// snooze = "10m"
/// late-window = "24h"
/// command = ["notify-send", "--app-name=tick", "--wait", "--action=done=Mark done", "--", "{summary}", "{body}"]
/// fallback = true
///
/// [capture]
/// prompt = "auto"
/// notify = ["notify-send", "--app-name=tick", "--", "{summary}", "{body}"]
///
/// [plan]
/// hours = "09:00-18:00"
///
/// [sync]
/// auto-resolve = true
///
/// [bulk]
/// confirm = 3
///
/// [contexts]
/// work = "+work or list:Work"
///
/// [reports.next]
/// filter = "pri:must or due.by:tomorrow"
/// sort = "due,pri"
/// limit = 10
/// columns = ["id", "title", "due", "list"]
/// description = "What to do next"
///
/// [fields.client]
/// type = "string"
/// label = "Client"
/// ```
public struct TickConfig: Sendable, Equatable {
    public var reminders = ReminderSettings()
    /// `[capture] prompt`: auto, or one of zenity, kdialog, rofi, dmenu, tty.
    public var capturePrompt = "auto"
    /// `[capture] notify`: the command that confirms a capture.
    public var captureNotify = CommandNotifier.defaultMessageCommand
    /// `[plan] hours`, as written ("09:00-18:00"); nil when not set.
    public var workHours: String?
    /// `[sync] auto-resolve`: `tick watch` merges Syncthing conflict copies as they arrive.
    public var autoResolve = true
    /// `[bulk] confirm`: a change by filter to more tasks than this asks first (or needs --yes).
    public var bulkConfirm = 3
    /// `[contexts]`: saved filters by name, as written.
    public var contexts: [String: String] = [:]
    /// `[reports.NAME]`: saved listings, runnable as `tick NAME`.
    public var reports: [String: ReportSettings] = [:]
    /// `[dav]`: the CalDAV bridge.
    public var dav = DavSettings()
    /// `[fields.NAME]`: the user's own fields (``UserFieldDeclaration``).
    public var fields = UserFields()
    /// `hints` (top level): one-time hints for new users (``Hint``); on by default.
    public var hints = true
    /// Keys tick does not know (`section.key`), for a warning: likely typos.
    public var unknownKeys: [String] = []
    /// The file the settings came from, or nil for the defaults.
    public var path: String?

    public init() {}

    /// Where the config file is: `$XDG_CONFIG_HOME/tick/config.toml`, else
    /// `$HOME/.config/tick/config.toml`.
    public static func path(environment: [String: String]) -> String {
        let base: String
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = (environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.config"
        }
        return base + "/tick/config.toml"
    }

    /// Reads the config for `environment`; the defaults when there is no file.
    public static func load(environment: [String: String]) throws(ConfigError) -> TickConfig {
        let path = path(environment: environment)
        guard FileManager.default.fileExists(atPath: path) else { return TickConfig() }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .unreadable(path: path, reason: "it is not UTF-8 text")
        }
        return try parse(text, path: path)
    }

    /// Parses config text; `path` is used in messages.
    public static func parse(_ text: String, path: String) throws(ConfigError) -> TickConfig {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let line = error.source.begin.line
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let lineText = line >= 1 && line <= lines.count ? String(lines[line - 1]) : ""
            throw .syntax(path: path, line: line, column: error.source.begin.column, message: error.description, lineText: lineText)
        } catch {
            throw .syntax(path: path, line: 1, column: 1, message: "\(error)", lineText: "")
        }
        var config = TickConfig()
        config.path = path
        let reader = Reader(path: path)
        for key in table.keys {
            if key == "hints", let value = table[key] {
                config.hints = try reader.bool(value, key)
                continue
            }
            guard let section = table[key]?.table, ["reminders", "capture", "plan", "sync", "bulk", "contexts", "reports", "dav", "fields"].contains(key) else {
                config.unknownKeys.append(key)
                continue
            }
            if key == "contexts" {
                for name in section.keys {
                    guard let value = section[name] else { continue }
                    config.contexts[name] = try reader.string(value, "contexts.\(name)")
                }
                continue
            }
            if key == "fields" {
                let declaration = UserFieldDeclaration(path: path)
                for name in section.keys {
                    config.fields.declare(try declaration.field(named: name, section[name], unknown: &config.unknownKeys))
                }
                continue
            }
            if key == "reports" {
                for name in section.keys {
                    config.reports[name] = try reader.report(section[name], name: name, unknown: &config.unknownKeys)
                }
                continue
            }
            for name in section.keys {
                guard let value = section[name] else { continue }
                let full = "\(key).\(name)"
                switch full {
                case "reminders.snooze": config.reminders.snooze = try reader.duration(value, full)
                case "reminders.late-window": config.reminders.lateWindow = try reader.duration(value, full)
                case "reminders.command": config.reminders.command = try reader.command(value, full)
                case "reminders.fallback": config.reminders.fallback = try reader.bool(value, full)
                case "capture.prompt":
                    let prompt = try reader.string(value, full)
                    let allowed = ["auto", "zenity", "kdialog", "rofi", "dmenu", "tty"]
                    guard allowed.contains(prompt) else {
                        throw .badValue(path: path, key: full, found: "\"\(prompt)\"", expected: "one of " + allowed.joined(separator: ", "))
                    }
                    config.capturePrompt = prompt
                case "capture.notify": config.captureNotify = try reader.command(value, full)
                case "plan.hours": config.workHours = try reader.string(value, full)
                case "sync.auto-resolve": config.autoResolve = try reader.bool(value, full)
                case "dav.path": config.dav.path = try reader.string(value, full)
                case "dav.lists":
                    let expected = "an array of list names, like [\"Work\", \"Home\"]"
                    guard let array = value.array else { throw .badValue(path: path, key: full, found: value.debugDescription, expected: expected) }
                    var names: [String] = []
                    for element in array {
                        guard let name = element.string else { throw .badValue(path: path, key: full, found: value.debugDescription, expected: expected) }
                        names.append(name)
                    }
                    config.dav.lists = names
                case "dav.inbox": config.dav.inbox = try reader.bool(value, full)
                case "dav.inbox-name": config.dav.inboxName = try reader.string(value, full)
                case "dav.vdirsyncer": config.dav.vdirsyncer = try reader.string(value, full)
                case "dav.watch": config.dav.watch = try reader.bool(value, full)
                case "dav.interval": config.dav.interval = try reader.duration(value, full)
                case "dav.debounce": config.dav.debounce = try reader.duration(value, full)
                case "dav.discover": config.dav.discover = try reader.duration(value, full)
                case "bulk.confirm":
                    guard let n = value.int, n >= 0 else {
                        throw .badValue(path: path, key: full, found: value.debugDescription, expected: "a whole number of tasks, 0 or more")
                    }
                    config.bulkConfirm = n
                default: config.unknownKeys.append(full)
                }
            }
        }
        return config
    }

    /// Reads typed values, with errors that name the key.
    private struct Reader {
        let path: String

        func string(_ value: any TOMLValueConvertible, _ key: String) throws(ConfigError) -> String {
            guard let s = value.string else { throw .badValue(path: path, key: key, found: value.debugDescription, expected: "a string") }
            return s
        }

        /// `[reports.NAME]`: filter, sort, limit, description.
        func report(_ value: (any TOMLValueConvertible)?, name: String, unknown: inout [String]) throws(ConfigError) -> ReportSettings {
            let key = "reports.\(name)"
            guard let table = value?.table else {
                throw .badValue(path: path, key: key, found: value?.debugDescription ?? "nothing", expected: "a table: [reports.\(name)] with filter = \"…\"")
            }
            var report = ReportSettings()
            for field in table.keys {
                guard let v = table[field] else { continue }
                let full = "\(key).\(field)"
                switch field {
                case "filter": report.filter = try string(v, full)
                case "sort": report.sort = try string(v, full)
                case "description": report.description = try string(v, full)
                case "columns":
                    let expected = "an array of column names, like [\"id\", \"title\", \"due\"]"
                    guard let array = v.array, !array.isEmpty else { throw .badValue(path: path, key: full, found: v.debugDescription, expected: expected) }
                    var names: [String] = []
                    for element in array {
                        guard let name = element.string else { throw .badValue(path: path, key: full, found: v.debugDescription, expected: expected) }
                        names.append(name)
                    }
                    report.columns = names
                case "limit":
                    guard let n = v.int, n >= 1 else { throw .badValue(path: path, key: full, found: v.debugDescription, expected: "a whole number, 1 or more") }
                    report.limit = n
                default: unknown.append(full)
                }
            }
            return report
        }

        func bool(_ value: any TOMLValueConvertible, _ key: String) throws(ConfigError) -> Bool {
            guard let b = value.bool else { throw .badValue(path: path, key: key, found: value.debugDescription, expected: "true or false") }
            return b
        }

        /// A non-empty array of strings (an argument vector).
        func command(_ value: any TOMLValueConvertible, _ key: String) throws(ConfigError) -> [String] {
            let expected = "a non-empty array of strings, the program first, like [\"notify-send\", \"{summary}\"]"
            guard let array = value.array, !array.isEmpty else { throw .badValue(path: path, key: key, found: value.debugDescription, expected: expected) }
            var out: [String] = []
            for element in array {
                guard let s = element.string else { throw .badValue(path: path, key: key, found: value.debugDescription, expected: expected) }
                out.append(s)
            }
            guard !out[0].isEmpty else { throw .badValue(path: path, key: key, found: value.debugDescription, expected: expected) }
            return out
        }

        /// "10m", "90s", "1h30m", "2d", or a whole number of minutes.
        func duration(_ value: any TOMLValueConvertible, _ key: String) throws(ConfigError) -> TimeInterval {
            if let minutes = value.int, minutes > 0 { return TimeInterval(minutes * 60) }
            let expected = "a positive duration such as \"10m\", \"1h30m\", \"24h\" or a number of minutes"
            guard let text = value.string, let seconds = Self.parseDuration(text), seconds > 0 else {
                throw .badValue(path: path, key: key, found: value.debugDescription, expected: expected)
            }
            return seconds
        }

        static func parseDuration(_ text: String) -> TimeInterval? {
            var total: TimeInterval = 0
            var number = ""
            var sawUnit = false
            for c in text.lowercased() where c != " " {
                if c.isASCII, c.isNumber {
                    number.append(c)
                    continue
                }
                let unit: TimeInterval
                switch c {
                case "s": unit = 1
                case "m": unit = 60
                case "h": unit = 3600
                case "d": unit = 86_400
                default: return nil
                }
                guard let n = Double(number) else { return nil }
                total += n * unit
                number = ""
                sawUnit = true
            }
            if !number.isEmpty { return sawUnit ? nil : Double(number).map { $0 * 60 } }
            return total
        }
    }
}
