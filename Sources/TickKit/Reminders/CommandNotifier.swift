import FoundationEssentials
import Glibc

/// The notifier that runs a program: by default `notify-send --wait` with
/// Mark done / Snooze / Tomorrow actions.
///
/// The command is an argument vector, never a shell line. Each element may
/// hold placeholders (`{summary}`, `{body}`, `{title}`, `{list}`, `{due}`,
/// `{id}`), replaced by plain text, so a title such as `"; rm -rf ~` reaches
/// the program as (part of) one argument and nothing else. The program's
/// first line of stdout names the action (`done`, `snooze`, `tomorrow`);
/// anything else is a dismissal. A program that is missing or exits non-zero
/// means no notification was shown.
public struct CommandNotifier: Notifier {
    /// notify-send with the three actions; `--` keeps a title starting with `-` a title.
    public static let defaultCommand = [
        "notify-send", "--app-name=tick", "--wait",
        "--action=done=Mark done", "--action=snooze=Snooze", "--action=tomorrow=Tomorrow",
        "--", "{summary}", "{body}",
    ]

    /// notify-send for a plain message (no actions, no waiting).
    public static let defaultMessageCommand = ["notify-send", "--app-name=tick", "--", "{summary}", "{body}"]

    public let command: [String]
    /// The clock and zone used to word the body ("Due today 17:00").
    public let clock: @Sendable () -> Date
    public let timeZone: Zone
    /// The directory the program runs in.
    public let directory: String
    /// The environment, to tell whether a session bus exists.
    public let environment: [String: String]

    public init(command: [String] = CommandNotifier.defaultCommand, clock: @escaping @Sendable () -> Date,
                timeZone: Zone, directory: String = "/", environment: [String: String]) {
        self.command = command
        self.clock = clock
        self.timeZone = timeZone
        self.directory = directory
        self.environment = environment
    }

    /// Why notify-send cannot work here, if it cannot: without a D-Bus session
    /// bus, `notify-send --wait` never returns (it prints a warning and waits
    /// for an answer that cannot come), so it is not started at all.
    public func missingSessionBus() -> String? {
        guard let program = command.first, PathString.lastComponent(program) == "notify-send" else { return nil }
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return nil }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty,
           FileManager.default.fileExists(atPath: runtime + "/bus") { return nil }
        return "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set), so no notification service can answer"
    }

    public func notify(_ reminder: Reminder) -> NotifierResponse {
        if let reason = missingSessionBus() { return .unavailable(reason) }
        let dates = RelativeDateFormatter(now: clock(), timeZone: timeZone)
        let values = [
            "summary": reminder.summary,
            "body": reminder.body(now: clock(), timeZone: timeZone),
            "title": reminder.title,
            "list": reminder.listName,
            "due": reminder.due.map { dates.label($0) } ?? "",
            "id": reminder.taskID.lowercased,
        ]
        switch Self.run(Self.expand(command, values), in: directory, environment: environment) {
        case .failure(let reason):
            return .unavailable(reason)
        case .success(let output):
            let choice = output.split(whereSeparator: \.isNewline).first.map {
                $0.trimmingWhitespace().lowercased()
            } ?? ""
            switch choice {
            case "done": return .done
            case "snooze": return .snooze
            case "tomorrow": return .tomorrow
            default: return .dismissed
            }
        }
    }

    /// Shows a plain message with `command` (for confirmations such as
    /// "Added 'X' to Inbox"). Returns nil when shown, else why not.
    public static func message(_ summary: String, body: String, command: [String] = defaultMessageCommand,
                               directory: String = "/", environment: [String: String]) -> String? {
        let argv = expand(command, ["summary": summary, "body": body, "title": summary])
        if case .failure(let reason) = run(argv, in: directory, environment: environment) { return reason }
        return nil
    }

    /// Replaces `{name}` placeholders inside each element; unknown names stay as they are.
    public static func expand(_ template: [String], _ values: [String: String]) -> [String] {
        template.map { element in
            var out = ""
            var rest = Substring(element)
            while let open = rest.firstIndex(of: "{") {
                out += rest[..<open]
                let after = rest[rest.index(after: open)...]
                if let close = after.firstIndex(of: "}"), let value = values[String(after[..<close])] {
                    out += value
                    rest = after[after.index(after: close)...]
                } else {
                    out += "{"
                    rest = after
                }
            }
            return out + rest
        }
    }

    private enum Outcome {
        case success(String)
        case failure(String)
    }

    private static func run(_ argv: [String], in directory: String, environment: [String: String]) -> Outcome {
        guard let program = argv.first, !program.isEmpty else { return .failure("the notifier command is empty") }
        do {
            let result = try ProcessRunner.run(program, Array(argv.dropFirst()), in: directory,
                                               environment: ChildEnvironment.forTools(from: environment))
            guard result.status == 0 else {
                let why = result.stderr.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
                return .failure("\(program) exited with status \(result.status)\(why.isEmpty ? "" : ": \(why)")")
            }
            return .success(String(decoding: result.stdout, as: UTF8.self))
        } catch {
            return .failure(ErrorText.describe(error))
        }
    }
}
