import ArgumentParser
import FoundationEssentials
import Glibc
import TickKit

extension Tick {
    struct Capture: TickCommand {
        static let facts = CommandFacts.writesStore
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "capture",
            abstract: "Ask for one task in a prompt window and add it (bind this to a key).",
            discussion: """
            Asks for one line of quick-add syntax (the same words as `tick add`: \
            title, due:WHEN, remind:WHEN, +tag, list:NAME ...) through the first prompt \
            it finds, adds the task (to the inbox unless the line names a list), and \
            confirms with a notification such as "Added 'Buy milk' to Inbox".

            Prompts, in order: zenity --entry, kdialog --inputbox, rofi -dmenu, dmenu \
            (these need a graphical session: $WAYLAND_DISPLAY or $DISPLAY), then the \
            terminal when stdin is one. --prompt (or [capture] prompt in \
            ~/.config/tick/config.toml) picks one. A line tick cannot parse is \
            reported in a notification too, since a key binding has no terminal.

            Exit status: 0 added; 1 cancelled (empty line, Escape) or no prompt \
            found; 2 the line was not valid quick-add syntax. The desktop entry \
            Docs/desktop/tick-capture.desktop and Docs/CLI.md show how to bind it.

            EXAMPLES
              tick capture
              tick capture --prompt rofi
              echo 'Call Bob due:fri' | tick add -     # from scripts: no prompt needed
            """))

        enum Prompt: String, ExpressibleByArgument, CaseIterable {
            case auto, zenity, kdialog, rofi, dmenu, tty
        }

        @OptionGroup var global: GlobalOptions

        @Option(help: ArgumentHelp("auto, zenity, kdialog, rofi, dmenu or tty.", valueName: "prompt"))
        var prompt: Prompt?

        @Flag(help: "Do not confirm with a notification.")
        var noNotify = false

        static let question = "New task (quick-add syntax: title due:WHEN +tag list:NAME)"

        func run() throws {
            let context = try Context(global)
            let config = try context.config()
            let chosen = prompt ?? Prompt(rawValue: config.capturePrompt) ?? .auto
            let (line, used) = try ask(chosen, context: context)
            let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
            guard !words.isEmpty else {
                throw CLIError("nothing added (empty line)", status: .failure)
            }
            let notify = !noNotify && used != .tty
            let items: [ListedTask]
            do {
                let report = try context.adding().add([(nil, words)], context: try context.contextDefaults())
                report.warnings.forEach(context.terminal.warn)
                items = report.added
            } catch {
                if notify {
                    _ = CommandNotifier.message("tick: task not added", body: ErrorText.describe(error),
                                                command: config.captureNotify, environment: context.environment)
                }
                throw error
            }
            let t = context.terminal
            for item in items {
                let id = item.shortID.map(String.init) ?? item.task.id.lowercased
                t.out(Confirmation(terminal: t).changed("Added", item.task, shortID: item.shortID, place: "to " + item.listName))
                if notify, let problem = CommandNotifier.message(
                    "Added '\(item.task.title)' to \(item.listName)", body: "tick \(id)", command: config.captureNotify,
                    environment: context.environment) {
                    t.warn("no confirmation shown (\(problem))")
                }
            }
        }

        /// Asks through `prompt` (or the first available one); returns the line and the prompt used.
        private func ask(_ prompt: Prompt, context: Context) throws -> (String, Prompt) {
            let env = context.environment
            let graphical = !(env["WAYLAND_DISPLAY"] ?? "").isEmpty || !(env["DISPLAY"] ?? "").isEmpty
            let candidates: [Prompt]
            if prompt == .auto {
                candidates = (graphical ? [.zenity, .kdialog, .rofi, .dmenu].filter { Self.onPath($0.rawValue, env) } : [])
                    + (context.terminal.stdinIsTTY ? [.tty] : [])
                guard let first = candidates.first else {
                    throw CLIError(
                        "no prompt found: install zenity, kdialog, rofi or dmenu (and run in a graphical session), or run tick capture in a terminal",
                        status: .failure)
                }
                return (try ask(with: first, context: context), first)
            }
            return (try ask(with: prompt, context: context), prompt)
        }

        private func ask(with prompt: Prompt, context: Context) throws -> String {
            if prompt == .tty {
                StandardStream.writeErr("New task: ".utf8)
                guard let line = readLine() else { throw CLIError("nothing added (end of input)", status: .failure) }
                return line
            }
            let argv: [String]
            switch prompt {
            case .zenity: argv = ["zenity", "--entry", "--title=tick", "--text=\(Self.question)"]
            case .kdialog: argv = ["kdialog", "--title", "tick", "--inputbox", Self.question]
            case .rofi: argv = ["rofi", "-dmenu", "-p", "tick", "-mesg", Self.question]
            case .dmenu: argv = ["dmenu", "-p", "tick:"]
            case .auto, .tty: argv = []
            }
            let result: ProcessResult
            do {
                result = try ProcessRunner.run(argv[0], Array(argv.dropFirst()), in: "/",
                                               environment: ChildEnvironment.forTools(from: context.environment))
            } catch {
                throw CLIError("cannot run \(argv[0]): \(ErrorText.describe(error))", status: .failure)
            }
            // zenity, kdialog, rofi and dmenu all exit 1 on Cancel / Escape.
            guard result.status == 0 else { throw CLIError("nothing added (cancelled)", status: .failure) }
            return String(decoding: result.stdout, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        }

        /// True when `program` is an executable on $PATH.
        static func onPath(_ program: String, _ env: [String: String]) -> Bool {
            (env["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains { dir in
                FileManager.default.isExecutableFile(atPath: "\(dir)/\(program)")
            }
        }
    }
}
