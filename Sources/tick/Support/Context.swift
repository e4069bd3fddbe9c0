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

    /// The index (outside the store); refreshed by ``load()``.
    var index: TaskIndex { indexBox.index }

    /// Holds the index so that a damaged one can be swapped for a fresh one.
    final class IndexBox {
        var index: TaskIndex
        init(_ index: TaskIndex) { self.index = index }
    }

    init(_ options: GlobalOptions) throws {
        let process = try ProcessEnvironment.current()
        self.process = process
        let env = process.variables
        let now = process.now
        let location = process.storeLocation(explicit: options.store)
        // Every write of this command goes into one undo-journal entry (see Undo.swift).
        let command = CommandPath.of(CommandLine.arguments)
        let journal = CommandPath.journaled(command) ? JournalSession(
            journal: UndoJournal(location: location), command: command, now: now,
            warn: { FileHandle.standardError.write(Data((Terminal.shown($0, keepingNewlines: true) + "\n").utf8)) }) : nil
        // A command's changes are all stamped with its start time (`tick watch` swaps in a running clock).
        let start = now
        store = Store(location: location, currentDirectory: process.currentDirectory, journal: journal,
                      clock: { start })
        // The index judges "recently modified" files by the real clock, not TICK_NOW.
        let index = try TaskIndex.open(store: store, now: Date.init)
        indexBox = IndexBox(index)
        terminal = Terminal(noColorFlag: options.noColor, environment: env)
        if index.path == nil {
            terminal.err("tick: warning: no writable directory for the index (tried \(store.location.cacheDirectory)); working in memory, so short ids may change between commands (UUID prefixes always work)")
        }
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
    /// A damaged index is deleted and rebuilt once, silently: it is only a cache.
    func load() throws -> Loaded {
        do {
            return try loadOnce()
        } catch let error as StoreError {
            throw error
        } catch {
            indexBox.index = try TaskIndex.reopenAfterFailure(index)
            return try loadOnce()
        }
    }

    private func loadOnce() throws -> Loaded {
        try index.refresh()
        return Loaded(index: index, listInfos: try index.lists(), broken: try index.currentProblems())
    }

    /// Re-indexes after a write, so short ids are assigned and released.
    func resyncIDs() throws -> TaskIndex {
        try index.refresh()
        return index
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
