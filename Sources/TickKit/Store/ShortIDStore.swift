import Foundation

/// Loads and saves the short-id table of a store, under its own lock.
public struct ShortIDStore: Sendable {
    public let location: StoreLocation

    public init(location: StoreLocation) {
        self.location = location
    }

    private var path: String { (location.stateDirectory as NSString).appendingPathComponent("ids.json") }

    /// Syncs the table with a snapshot and saves it when it changed. Pending
    /// tasks get ids in display order. Tasks of broken files keep their ids.
    /// Failing to save is not an error: the ids are then valid for this run only.
    public func synced(with snapshot: StoreSnapshot) -> ShortIDTable {
        let pending = snapshot.allTasks.filter { $0.task.state.isPending }.map(\.task.id)
        do {
            let lock = try FileLock(path: path + ".lock", timeout: 5)
            defer { lock.unlock() }
            var table = ShortIDTable.decode((try? AtomicFile.read(path: path))?.bytes ?? [])
            let keep = snapshot.brokenKinds.isEmpty ? Set<UUID>() : Set(table.idsByTask.keys)
            if table.sync(pending: pending, keep: keep) {
                try AtomicFile.write(table.encoded(), to: path, mode: nil)
            }
            return table
        } catch {
            var table = ShortIDTable()
            table.sync(pending: pending)
            return table
        }
    }
}
