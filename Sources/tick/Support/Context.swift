import Foundation
import TickKit

/// What a command needs, built once from the global options and the
/// environment: the store, the clock, the time zone and the terminal.
struct Context {
    /// The process's environment, clock and time zone, read once.
    let process: ProcessEnvironment
    var environment: [String: String] { process.variables }
    var now: Date { process.now }
    var timeZone: TimeZone { process.timeZone }
    let store: Store
    private let indexBox: IndexBox
    let terminal: Terminal
    /// `--no-pager`.
    private let noPager: Bool

    /// The index (outside the store); refreshed by ``load()``.
    var index: TaskIndex { indexBox.index }

    /// Holds the index so that a damaged one can be swapped for a fresh one
    /// (or for an in-memory copy), and whether the user was told.
    final class IndexBox {
        var index: TaskIndex
        var warned = false
        init(_ index: TaskIndex) { self.index = index }
    }

    /// `indexProgress` hears about building the index from scratch, when
    /// opening it does that (no usable index yet).
    init(_ options: GlobalOptions, indexProgress: ((Int, Int) -> Void)? = nil) throws {
        let process = try ProcessEnvironment.current()
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
            journal: UndoJournal(location: location), command: command, now: now,
            warn: { FileHandle.standardError.write(Data((Terminal.shown($0, keepingNewlines: true) + "\n").utf8)) }) : nil
        // A command's changes are all stamped with its start time (`tick watch` swaps in a running clock).
        let start = now
        let plain = Store(location: location, currentDirectory: process.currentDirectory, journal: journal,
                          clock: { start })
        // The index judges "recently modified" files by the real clock, not TICK_NOW.
        let index = try TaskIndex.open(store: plain, now: Date.init, progress: indexProgress)
        let indexBox = IndexBox(index)
        self.indexBox = indexBox
        let terminal = Terminal(noColorFlag: options.noColor, environment: env)
        self.terminal = terminal
        let hooks = try HookSlot.current.flatMap { slot in
            try slot.hooks { try Self.makeHooks(command: command, process: process, location: location, indexBox: indexBox, terminal: terminal) }
        }
        store = Store(location: location, currentDirectory: process.currentDirectory, journal: journal, hooks: hooks,
                      clock: { start })
        noPager = options.noPager
        if let warning = index.fallbackWarning {
            indexBox.warned = true
            terminal.err("tick: warning: " + warning)
        }
    }

    private init(process: ProcessEnvironment, store: Store, indexBox: IndexBox, terminal: Terminal, noPager: Bool) {
        self.process = process
        self.store = store
        self.indexBox = indexBox
        self.terminal = terminal
        self.noPager = noPager
    }

    /// The context of one later action of a long-running command (`tick ui`):
    /// "now" read again (still `TICK_NOW` when pinned), the same index and
    /// terminal, and its own undo-journal entry named `command` (`ui done`).
    func action(_ command: String) throws -> Context {
        let process = try ProcessEnvironment(variables: process.variables, currentDirectory: process.currentDirectory,
                                             realNow: self.process.clock())
        let now = process.now
        let journal = JournalSession(
            journal: UndoJournal(location: store.location), command: command, now: now,
            warn: { FileHandle.standardError.write(Data((Terminal.shown($0, keepingNewlines: true) + "\n").utf8)) })
        let store = Store(location: store.location, currentDirectory: process.currentDirectory, journal: journal,
                          hooks: store.hooks, clock: { now })
        return Context(process: process, store: store, indexBox: indexBox, terminal: terminal, noPager: noPager)
    }

    /// The user's hook scripts for `command`, or nil when there are none or
    /// the command runs none (``HookSlot``). Feedback goes to stderr, so
    /// `--json` output stays clean.
    private static func makeHooks(command: String, process: ProcessEnvironment, location: StoreLocation,
                                  indexBox: IndexBox, terminal: Terminal) throws -> TaskHooks? {
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
                for kind in (try? indexBox.index.files(containing: id)) ?? [] {
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

    /// The user's config.toml (defaults when there is none).
    func config() throws -> TickConfig {
        let config = try TickConfig.load(environment: environment)
        for key in config.unknownKeys {
            terminal.err("tick: warning: \(config.path ?? "config.toml"): unknown setting \(key) (ignored)")
        }
        return config
    }

    var query: TaskQuery { TaskQuery(now: now, timeZone: timeZone) }
    var fields: FieldParser { FieldParser(now: now, timeZone: timeZone) }
    var quickAdd: QuickAddParser { QuickAddParser(fields: fields) }
    var dates: RelativeDateFormatter { RelativeDateFormatter(now: now, timeZone: timeZone) }

    /// Reads every file of the store, bypassing the index (export, import).
    func snapshot() throws -> StoreSnapshot {
        try store.snapshot()
    }

    /// Warns once on stderr about each unreadable file.
    func warnUnreadable(_ broken: [FileKind: FormatError]) {
        for (_, problem) in broken.sorted(by: { $0.key < $1.key }) {
            terminal.err("tick: warning: \(problem.summary) (showing its last readable tasks, if any)")
        }
    }

    /// Brings the index up to date with the files and returns what commands need.
    ///
    /// The index never takes the store down: a damaged index is deleted and
    /// rebuilt once, silently; one that cannot be updated (a full or failing
    /// cache disk) is replaced, for this command, by an in-memory copy that
    /// answers from the files, with one warning.
    func load() throws -> Loaded {
        // Each failure of the index gets the next, stronger recovery; a store error is the files' own.
        let recoveries: [(Error) throws -> Void] = [recover(after:), fallBackToMemory(after:)]
        var attempt = 0
        while true {
            do {
                return try loadOnce()
            } catch let error as StoreError {
                throw error
            } catch {
                // SQLite cannot work even in memory: say so in words, not SQLite's.
                guard attempt < recoveries.count else { throw IndexError.database(TaskIndex.describe(error)) }
                try recoveries[attempt](error)
                attempt += 1
            }
        }
    }

    private func loadOnce() throws -> Loaded {
        try index.refresh()
        return Loaded(index: index, listInfos: try index.lists(), broken: try index.currentProblems())
    }

    /// Re-indexes after a write, so short ids are assigned and released.
    ///
    /// Never fails: the write is done, so a failing index costs at most one
    /// warning (and the short ids of this command's output), never the exit status.
    func resyncIDs() throws -> TaskIndex {
        do {
            try index.refresh()
            return index
        } catch {
            if (try? recover(after: error)) != nil, (try? index.refresh()) != nil { return index }
            if (try? fallBackToMemory(after: error)) != nil, (try? index.refresh()) != nil { return index }
            warnOnce("tick: warning: the change is saved, but the index could not be updated (\(TaskIndex.describe(error))); short ids may be missing until the next command")
            return index
        }
    }

    /// After a failed refresh: a damaged or vanished index is reopened
    /// (rebuilt); a disk that cannot take writes gets the in-memory copy.
    private func recover(after error: Error) throws {
        if index.path == nil || TaskIndex.isResourceFailure(error) {
            try fallBackToMemory(after: error)
        } else {
            indexBox.index = try TaskIndex.reopenAfterFailure(index, error: error)
            if let warning = index.fallbackWarning { warnOnce("tick: warning: " + warning) }
        }
    }

    /// Swaps in an in-memory copy of the index, with one warning.
    private func fallBackToMemory(after error: Error) throws {
        if index.path != nil {
            indexBox.index = try TaskIndex.inMemoryCopy(of: index, reason: TaskIndex.describe(error))
        }
        warnOnce("tick: warning: " + (index.fallbackWarning ?? "cannot update the index (\(TaskIndex.describe(error)))"))
    }

    private func warnOnce(_ line: String) {
        guard !indexBox.warned else { return }
        indexBox.warned = true
        terminal.err(line)
    }

    /// The active context (Docs/CLI.md "Contexts"): its name and filter, or nil.
    /// One that config.toml no longer defines is ignored with a warning.
    func activeContext() throws -> ActiveFilter? {
        guard let name = ActiveContext(location: store.location).name(environment: environment) else { return nil }
        guard let text = try config().contexts[name] else {
            terminal.err("tick: warning: the active context \(name) is not defined in config.toml; showing everything (tick context none forgets it)")
            return nil
        }
        do {
            return ActiveFilter(name: name, filter: try FilterParser(now: now, timeZone: timeZone).parse([text]))
        } catch {
            throw CLIError("context \(name) in config.toml: \(error.report); fix it with tick context define \(name) FILTER", status: .usage)
        }
    }

    /// A context in force: its name and filter.
    struct ActiveFilter {
        let name: String
        let filter: ParsedFilter
        /// "context work: +work or list:Work".
        var label: String { "context \(name)" }
    }

    struct Loaded {
        let index: TaskIndex
        /// Every list file and the inbox (when it exists), in display order.
        let listInfos: [ListInfo]
        let broken: [FileKind: FormatError]

        var tasks: TaskResolver { TaskResolver(catalog: index) }
        var existingSlugs: Set<String> { Set(listInfos.compactMap(\.kind.slug)) }
        var lists: ListResolver {
            ListResolver(lists: listInfos, existingSlugs: existingSlugs, problems: broken.sorted { $0.key < $1.key }.map(\.value))
        }

        /// The display name of a list ("Inbox" for the inbox).
        func name(of kind: FileKind) -> String {
            listInfos.first { $0.kind == kind }?.name ?? (kind == .inbox ? "Inbox" : kind.slug ?? "")
        }
    }
}
