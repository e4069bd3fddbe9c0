import ArgumentParser
import FoundationEssentials
import Glibc
import TickKit

/// What a command needs, built once from the global options and the
/// environment: the store, the clock, the time zone and the terminal.
struct Context {
    /// The process's environment, clock and time zone, read once.
    let process: ProcessEnvironment
    var environment: [String: String] { process.variables }
    var now: Date { process.now }
    var timeZone: Zone { process.timeZone }
    let store: Store
    /// The index, kept usable for the whole command (TickKit's ``IndexSession``).
    let indexSession: IndexSession
    let terminal: Terminal
    /// `--no-pager`.
    private let noPager: Bool

    /// The index (outside the store); refreshed by ``load()``.
    var index: TaskIndex { indexSession.index }

    /// `indexProgress` hears about building the index from scratch, when
    /// opening it does that (no usable index yet).
    /// `process` is read from this process unless given (in-process tests).
    init(_ options: GlobalOptions, indexProgress: ((Int, Int) -> Void)? = nil, process: ProcessEnvironment? = nil) throws {
        let process = try process ?? ProcessEnvironment.current()
        self.process = process
        let env = process.variables
        let now = process.now
        let location = process.storeLocation(explicit: options.store)
        // A store the user named must exist: a typo in --store or TICK_STORE
        // never starts an empty store (reads included); `tick init` creates one.
        if process.storeIsNamed(explicit: options.store) { try location.requireExisting() }
        // Every write of this command goes into one undo-journal entry (see Undo.swift).
        let command = CommandPath.of(CommandLine.arguments)
        let journal = CommandPath.journaled(command) ? JournalSession(
            journal: UndoJournal(location: location), command: command, now: now) : nil
        // A command's changes are all stamped with its start time (`tick watch` swaps in a running clock).
        let start = now
        let plain = Store(location: location, currentDirectory: process.currentDirectory, journal: journal,
                          clock: { start })
        // The index judges "recently modified" files by the real clock, not TICK_NOW.
        let index = try TaskIndex.open(store: plain, now: Date.init, progress: indexProgress)
        let terminal = Terminal(noColorFlag: options.noColor, environment: env)
        self.terminal = terminal
        // Its warning (a fallback index) and the journal's are printed when the command is over (WarningSlot).
        let indexSession = IndexSession(index)
        self.indexSession = indexSession
        WarningSlot.current?.attach(indexSession, journal)
        let hooks = try HookSlot.current.flatMap { slot in
            try slot.hooks { try Self.makeHooks(command: command, process: process, location: location, indexSession: indexSession, terminal: terminal) }
        }
        store = Store(location: location, currentDirectory: process.currentDirectory, journal: journal, hooks: hooks,
                      clock: { start })
        noPager = options.noPager
    }

    private init(process: ProcessEnvironment, store: Store, indexSession: IndexSession, terminal: Terminal, noPager: Bool) {
        self.process = process
        self.store = store
        self.indexSession = indexSession
        self.terminal = terminal
        self.noPager = noPager
    }

    /// The warnings this context's sessions hold and nobody took yet: the
    /// index's (shared with the contexts made from it) and its journal's.
    func takeWarnings() -> [TickWarning] {
        indexSession.takeWarnings() + (store.journal?.takeWarnings() ?? [])
    }

    /// The context of one later action of a long-running command (`tick ui`):
    /// "now" read again (still `TICK_NOW` when pinned), the same index and
    /// terminal, its own undo-journal entry named `command` (`done`, `mv`),
    /// and the run's hooks told that command (none for one that runs none,
    /// `undo`). `notes` gets the hooks' feedback (nil: stderr); the journal's
    /// warnings are the action's to take (``takeWarnings()``), which `tick ui`
    /// shows on its status line.
    func action(_ command: String, notes: (@Sendable (String) -> Void)? = nil) throws -> Context {
        let process = try ProcessEnvironment(variables: process.variables, currentDirectory: process.currentDirectory,
                                             realNow: self.process.clock())
        let now = process.now
        let terminal = self.terminal
        let journal = JournalSession(journal: UndoJournal(location: store.location), command: command, now: now)
        let hooks = HookSlot.enabled(for: command, environment: process.variables)
            ? store.hooks?.invoked(as: command, feedback: notes ?? { terminal.err($0) }) : nil
        let store = Store(location: store.location, currentDirectory: process.currentDirectory, journal: journal,
                          hooks: hooks, clock: { now })
        return Context(process: process, store: store, indexSession: indexSession, terminal: terminal, noPager: noPager)
    }

    /// The user's hook scripts for `command`, or nil when there are none or
    /// the command runs none (``HookSlot``). Feedback goes to stderr, so
    /// `--json` output stays clean.
    private static func makeHooks(command: String, process: ProcessEnvironment, location: StoreLocation,
                                  indexSession: IndexSession, terminal: Terminal) throws -> TaskHooks? {
        let env = process.variables
        guard HookSlot.enabled(for: command, environment: env) else { return nil }
        let scripts = HookScripts.load(directory: HookScripts.directory(environment: env))
        guard !scripts.isEmpty else { return nil }
        let reader = Store(location: location)
        let words = CommandLine.arguments.dropFirst().map { $0.contains(" ") ? ProcessRunner.shellQuote($0) : $0 }
        return TaskHooks(
            scripts: scripts,
            invocation: TaskHooks.Invocation(command: command, commandLine: (["tick"] + words).joined(separator: " "),
                                             configPath: TickConfig.path(environment: env), storePath: location.root,
                                             version: Tick.configuration.version),
            environment: env, directory: process.currentDirectory,
            timeout: try HookSlot.timeout(environment: env), now: process.now, timeZone: process.timeZone,
            feedback: { terminal.err($0) },
            locate: { id in
                // Where the index last saw the task (a move: the file it leaves).
                for kind in (try? indexSession.index.files(containing: id)) ?? [] {
                    if let file = try? reader.read(kind)?.file, let task = file.tasks.first(where: { $0.id == id }) {
                        return (task, kind == .inbox ? nil : file.displayName)
                    }
                }
                return nil
            })
    }

    /// Sends the rest of stdout through the pager when it is a terminal
    /// (``Pager``); the caller calls `finish()` on what it returns, when done.
    func startPager() -> Pager? {
        Pager.start(terminal: terminal, environment: environment, disabled: noPager)
    }

    /// A clock that runs (see ``ProcessEnvironment/clock``).
    var clock: @Sendable () -> Date { process.clock }

    /// The user's config.toml (defaults when there is none). Its warnings go
    /// to `warn` (without `tick: warning: `; `tick ui` shows them), else stderr.
    func config(warn: ((String) -> Void)? = nil) throws -> TickConfig {
        let config = try TickConfig.load(environment: environment)
        for key in config.unknownKeys {
            let warning = TickWarning("unknown setting \(key) (ignored)", at: FileLocation(path: config.path ?? "config.toml"))
            if let warn { warn(warning.description) } else { terminal.warn(warning) }
        }
        return config
    }

    var query: TaskQuery { TaskQuery(now: now, timeZone: timeZone) }
    var fields: FieldParser { FieldParser(now: now, timeZone: timeZone) }
    /// The fields declared in config.toml (`[fields.NAME]`); a bad declaration is an error.
    func userFields() throws -> UserFields { try TickConfig.load(environment: environment).fields }
    /// The filter grammar with the command's clock and the declared fields.
    func filterParser() throws -> FilterParser { FilterParser(now: now, timeZone: timeZone, userFields: try userFields()) }
    /// The quick-add grammar, with the declared fields' `NAME:value`.
    func quickAdd() throws -> QuickAddParser { QuickAddParser(fields: fields, userFields: try userFields()) }
    /// Adds tasks from quick-add words (`tick add`, `capture`, `tick ui`).
    func adding() throws -> TaskAdding { TaskAdding(store: store, session: indexSession, now: now, quickAdd: try quickAdd()) }
    var dates: RelativeDateFormatter { RelativeDateFormatter(now: now, timeZone: timeZone) }

    /// Reads every file of the store, bypassing the index (export, import).
    func snapshot() throws -> StoreSnapshot {
        try store.snapshot()
    }

    /// Warns once on stderr about each unreadable file.
    func warnUnreadable(_ broken: [FileKind: FormatError]) {
        for (_, problem) in broken.sorted(by: { $0.key < $1.key }) {
            terminal.warn("\(problem.summary) (showing its last readable tasks, if any)")
        }
    }

    /// Brings the index up to date with the files and returns what commands
    /// need (``IndexSession/load()``: the index never takes the store down).
    func load() throws -> Loaded {
        try indexSession.load()
    }

    /// Re-indexes after a write, so short ids are assigned and released
    /// (``IndexSession/resync()``: never fails, at most one warning).
    func resyncIDs() throws -> TaskIndex {
        indexSession.resync()
    }

    /// The active context (Docs/CLI.md "Contexts"): its name and filter, or nil.
    /// One that config.toml no longer defines is ignored with a warning.
    /// `warn` as for ``config(warn:)``.
    func activeContext(warn: ((String) -> Void)? = nil) throws -> ActiveFilter? {
        guard let name = ActiveContext(location: store.location).name(environment: environment) else { return nil }
        guard let text = try config(warn: warn).contexts[name] else {
            let message = "the active context \(name) is not defined in config.toml; showing everything (tick context none forgets it)"
            if let warn { warn(message) } else { terminal.warn(message) }
            return nil
        }
        let parser = try filterParser()
        do {
            return ActiveFilter(name: name, filter: try parser.parse([text]))
        } catch {
            throw CLIError("context \(name) in config.toml: \(error.report); fix it with tick context define \(name) FILTER", status: .usage)
        }
    }

    /// What the active context writes on a new task (``ContextDefaults``), or nil for none.
    func contextDefaults(warn: ((String) -> Void)? = nil) throws -> ContextDefaults? {
        try activeContext(warn: warn).map { ContextDefaults(name: $0.name, filter: $0.filter) }
    }

    /// A context in force: its name and filter.
    struct ActiveFilter {
        let name: String
        let filter: ParsedFilter
        /// "context work: +work or list:Work".
        var label: String { "context \(name)" }
    }

    typealias Loaded = StoreView
}
