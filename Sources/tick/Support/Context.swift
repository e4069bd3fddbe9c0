import Foundation
import TickKit

/// What a command needs, built once from the global options and the
/// environment: the store, the clock, the time zone and the terminal.
struct Context {
    let environment: [String: String]
    let now: Date
    let timeZone: TimeZone
    let store: Store
    let shortIDs: ShortIDStore
    let terminal: Terminal

    init(_ options: GlobalOptions) throws {
        let env = ProcessInfo.processInfo.environment
        environment = env
        // TICK_NOW pins the clock (tests, scripting): an ISO 8601 timestamp.
        if let pinned = env["TICK_NOW"], !pinned.isEmpty {
            guard let date = Timestamp.parse(pinned) else {
                throw CLIError("TICK_NOW=\(pinned) is not an ISO 8601 timestamp like 2026-11-21T09:00:00Z", status: .usage)
            }
            now = date
        } else {
            now = Date()
        }
        if let tz = env["TZ"], !tz.isEmpty, let zone = TimeZone(identifier: tz.hasPrefix(":") ? String(tz.dropFirst()) : tz) {
            timeZone = zone
        } else {
            timeZone = TimeZone.current
        }
        let location = StoreLocation.resolve(
            explicit: options.store, environment: env,
            currentDirectory: FileManager.default.currentDirectoryPath)
        store = Store(location: location, currentDirectory: FileManager.default.currentDirectoryPath)
        shortIDs = ShortIDStore(location: location)
        terminal = Terminal(noColorFlag: options.noColor, environment: env)
    }

    var query: TaskQuery { TaskQuery(now: now, timeZone: timeZone) }
    var fields: FieldParser { FieldParser(now: now, timeZone: timeZone) }
    var quickAdd: QuickAddParser { QuickAddParser(fields: fields) }
    var dates: RelativeDateFormatter { RelativeDateFormatter(now: now, timeZone: timeZone) }

    /// Reads the store. Unreadable files are in the snapshot's `broken`.
    func snapshot() throws -> StoreSnapshot {
        try store.snapshot()
    }

    /// Warns once on stderr about each unreadable file, except `skip` (which
    /// the caller reports as an error instead).
    func warnUnreadable(_ snapshot: StoreSnapshot, except skip: FileKind? = nil) {
        for (kind, problem) in snapshot.broken.sorted(by: { $0.key < $1.key }) where kind != skip {
            terminal.err("tick: warning: skipping \(problem.summary)")
        }
    }

    /// A snapshot with short ids synced, plus resolvers.
    func load() throws -> Loaded {
        let snap = try snapshot()
        let ids = shortIDs.synced(with: snap)
        let slugs = Set(try store.kinds().compactMap(\.slug))
        return Loaded(snapshot: snap, ids: ids, existingSlugs: slugs)
    }

    /// Refreshes short ids after a write and returns them.
    func resyncIDs() throws -> ShortIDTable {
        shortIDs.synced(with: try snapshot())
    }

    struct Loaded {
        let snapshot: StoreSnapshot
        let ids: ShortIDTable
        let existingSlugs: Set<String>

        var tasks: TaskResolver { TaskResolver(snapshot: snapshot, ids: ids) }
        var lists: ListResolver { ListResolver(snapshot: snapshot, existingSlugs: existingSlugs) }
    }
}
