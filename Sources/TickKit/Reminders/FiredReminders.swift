import FoundationEssentials
import Glibc

/// Which reminders have fired on this machine: for each task, the `remind`
/// instant it last fired for.
///
/// Kept in the state directory (`$XDG_STATE_HOME/tick/<store>/reminders.json`),
/// never in the store, so a restart of the watcher does not fire a reminder
/// twice and other machines still fire their own. A changed `remind` (a
/// snooze, a hand edit) is a new instant, so it fires again. Entries for
/// instants older than the late window plus ``MissedReminders/retention`` are dropped on save.
public final class FiredReminders {
    public let path: String
    private var fired: [UUID: Date]

    /// Loads the record at `path`; a missing or unreadable record starts empty
    /// (the worst case is a reminder shown once more, never one lost).
    public init(path: String) {
        self.path = path
        fired = [:]
        guard let data = FileManager.default.contents(atPath: path),
              let entries = (try? JSONDecoder().decode(Record.self, from: data))?.fired else { return }
        for (id, at) in entries {
            if let uuid = UUID(uuidString: id), let date = Timestamp.parse(at) { fired[uuid] = date }
        }
    }

    /// The record for a store: `reminders.json` in its state directory.
    public convenience init(location: StoreLocation) {
        self.init(path: PathString.appending(location.stateDirectory, "reminders.json"))
    }

    /// True when the reminder of `task` at `instant` has already fired here.
    public func hasFired(_ task: UUID, at instant: Date) -> Bool {
        guard let last = fired[task] else { return false }
        return abs(last.timeIntervalSince(instant)) < 1
    }

    /// Records that the reminder of `task` at `instant` fired.
    public func record(_ task: UUID, at instant: Date) {
        fired[task] = instant
    }

    /// Writes the record atomically, dropping entries older than `keepAfter`.
    public func save(keepAfter: Date) throws {
        fired = fired.filter { $0.value >= keepAfter }
        var entries: [String: String] = [:]
        for (id, at) in fired { entries[id.lowercased] = Timestamp.format(at) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data = try encoder.encode(Record(fired: entries))
        try PrivateFiles.createDirectory(PathString.deletingLastComponent(path))
        try AtomicFile.write(Array(data) + [0x0A], to: path, mode: 0o600)
    }

    /// How many reminders are recorded.
    public var count: Int { fired.count }

    /// The file: `{"fired": {"<task id>": "<instant>"}}`.
    private struct Record: Codable {
        var fired: [String: String]
    }
}
