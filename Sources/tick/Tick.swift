import ArgumentParser
import FoundationEssentials
import Glibc
import TickKit

@main
struct Tick: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tick",
        abstract: "A task manager for plain JSON files you can edit, sync and grep.",
        discussion: """
        Tasks live in a store: a directory holding inbox.json and lists/<slug>.json.
        Those files are the only source of truth: edit them in any editor, sync
        them with git or Syncthing, grep them. See Docs/FORMAT.md and Docs/CLI.md.

        QUICK START
          tick add Buy milk due:tomorrow +errand
          tick today      (or just `tick`)
          tick done 1

        GLOBAL OPTIONS (before or after the subcommand)
          --store PATH   the store (default $TICK_STORE, else $XDG_DATA_HOME/tick)
          --no-color     never use color
          --generate-completion-script bash|zsh|fish

        TASK IDS
          Listings show a short number next to each pending task. It is local to
          this machine and stays the same until the task is done or deleted.
          Anywhere an ID is expected, 8 hex digits of the UUID work too (4 with a digit and a letter).

        DATES (WHEN) AND DURATIONS (all forms: Docs/CLI.md "Dates and durations")
          now  today  tomorrow  yesterday  eod  mon..sun, next mon (the next one)
          sow  som  soq  soy (this week's/month's/... start)  eow  eom  eoq  eoy
          sonw  sonm  sony (the next one's start)  sopw  eopw (the previous one's)
          dec 24  24 dec  15th  2026-11-24  2026-11-24T17:00  17:00  5pm  noon
          in 2h  +2h  2h  in 90min  3d  2w  3mo  1y
          A day and a time: tomorrow@17:00  fri@9am  fri@17  dec 24@noon
          Units: min or m = minutes, h = hours, d = days, w = weeks, mo = months,
          y = years (also estimate:45m, for:1h30m). Minutes and hours are a time
          from now; days and longer are a whole day. Local zone ($TZ), DST-correct.

        ENVIRONMENT
          TICK_STORE       store directory (overridden by --store)
          XDG_DATA_HOME    default store: $XDG_DATA_HOME/tick
          XDG_STATE_HOME   locks, undo journal, fired reminders: …/tick/<store-key>/
          XDG_CACHE_HOME   index and short ids: $XDG_CACHE_HOME/tick/<store-key>/
          XDG_CONFIG_HOME  settings: $XDG_CONFIG_HOME/tick/config.toml
          NO_COLOR         disables color when set and not empty
          VISUAL, EDITOR   used by `tick edit ID` with no changes given
          TZ               time zone for dates
          TICK_NOW         pin "now" (ISO 8601), for scripts and tests
          TICK_WORK_HOURS  working hours for plan and suggest (default 09:00-18:00)
          TICK_HOOKS       off: run no hook scripts (tick-hooks(5), Docs/HOOKS.md)
          TICK_HOOK_TIMEOUT  seconds a hook script may run (default 10)

        EXIT STATUS
          0  success
          1  failure (I/O, permissions, lock timeout, refused without confirmation);
             `search` found nothing, as grep
          2  usage error (bad option, bad date, bad token)
          3  task or list not found, or an ambiguous id or list name
          4  a store file cannot be parsed or breaks the schema
        """,
        version: version,
        subcommands: [
            Add.self, List.self, Inbox.self, Today.self, Upcoming.self, Overdue.self,
            Show.self, Edit.self, Annotate.self, Start.self, Stop.self, Done.self, Reopen.self, Remove.self,
            Move.self, Reorder.self, Lists.self, Search.self, Export.self, Import.self,
            Reindex.self, Status.self, StatusLine.self, Open.self, Capture.self, Watch.self,
            Init.self, Git.self, Sync.self, Resolve.self, MergeDriver.self, Undo.self,
            Block.self, Blocks.self, Plan.self, Suggest.self, Review.self, Stats.self, ContextCommand.self, Report.self,
            Archive.self, UI.self, Dav.self,
        ]
    )

    /// tick's version, as `tick --version` prints it.
    static let version = "0.1.0"

    /// The global options, declared on the root too so that shell completion
    /// knows `tick --store DIR list <Tab>` (main moves them behind the
    /// subcommand before parsing; see ``Invocation/hoistingGlobalOptions(_:)``).
    @OptionGroup var global: GlobalOptions

    static func main() {
        _ = CommandClock.start
        // `tick --version` (the status line's and scripts' probe) prints what
        // ArgumentParser would, without building the command tree first.
        if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "--version" {
            print(version)
            return
        }
        // A Tab in a shell (`tick ---completion …`, see ShellCompletion):
        // ArgumentParser answers it; tick's rewrites of typed words do not apply.
        if CommandLine.arguments.dropFirst().first == "---completion" {
            Tick.main(Array(CommandLine.arguments.dropFirst()))
            return
        }
        if let shell = HelpCompletion.requestedShell(Array(CommandLine.arguments.dropFirst())) {
            print(HelpCompletion.patched(completionScript(for: shell), shell: shell))
            return
        }
        do {
            var command = try command(for: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
            // The command's hooks (Docs/HOOKS.md): on-exit runs when it is over,
            // after a failure too, with whatever it changed.
            let slot = HookSlot()
            // The warnings of the command's sessions, printed when it is over, failed or not.
            let warnings = WarningSlot()
            let outcome = Result {
                try WarningSlot.$current.withValue(warnings) { try HookSlot.$current.withValue(slot) { try command.run() } }
            }
            let finished = Result { try slot.hooks?.finish() }
            for warning in warnings.take() { Diagnostics.warn(warning) }
            try outcome.get()
            try finished.get()
        } catch {
            exit(with: error)
        }
    }

    /// The command that `arguments` (argv without the executable) name, read
    /// as `main` reads them; `tick ui` runs its writes through here too.
    static func command(for arguments: [String], environment: [String: String]) throws -> ParsableCommand {
        let rewritten = try Invocation.rewritten(arguments, environment: environment)
        if let command = leafCommand(rewritten) {
            return command
        }
        return try parseAsRoot(rewritten)
    }

    /// The command a plain invocation of a command without subcommands names
    /// (`today`, `list +work`, `add …`), parsed as that command alone: the
    /// result is the one the root's parse gives, without reflecting the root
    /// and checking its tree for completion-script requests first
    /// (PERFORMANCE.md, "The binary without ICU"). Nil when the root must
    /// parse it: help, the built-in flags,
    /// a command with subcommands, and any error (the root's parse then reports
    /// it, in its words).
    static func leafCommand(_ arguments: [String]) -> ParsableCommand? {
        guard let name = arguments.first, let type = CommandFacts.topLevel(name),
              type.configuration.subcommands.isEmpty,
              !arguments.dropFirst().contains(where: { rootOnlyWords.contains($0) })
        else { return nil }
        return try? type.parseAsRoot(Array(arguments.dropFirst()))
    }

    /// Words the root answers itself (help, version, completion scripts),
    /// which a command parsed alone would answer in its own name.
    static let rootOnlyWords: Set<String> = [
        "-h", "--help", "-help", "help", "--version", "--generate-completion-script", "--experimental-dump-help",
    ]

    /// Prints the error that ended the command (through ``Diagnostics``):
    /// tick's own (``TickError``: the location first when there is one, else
    /// `tick: error:`) and ArgumentParser's (one line, no usage block); then
    /// exits with tick's code.
    static func exit(with error: Error) -> Never {
        if let error = error as? TickError {
            Diagnostics.error(error)
            Glibc.exit(ExitStatus(error.kind).rawValue)
        }
        let code = exitCode(for: error)
        if code == .success {
            // --help, --version, help, completion scripts: printed as ArgumentParser renders them.
            let text = fullMessage(for: error)
            if !text.isEmpty { print(text) }
            Glibc.exit(0)
        }
        // Parse and validation errors (and any untyped error): one line, no usage block.
        let message = message(for: error)
        if !message.isEmpty {
            let line = code == .validationFailure
                ? Invocation.errorLine(message, arguments: CommandLine.arguments)
                : message.split(separator: "\n").joined(separator: "; ")
            Diagnostics.error(oneLine: line)
        }
        Glibc.exit(code == .validationFailure ? ExitStatus.usage.rawValue : code.rawValue)
    }
}
