/// The index as one command (or one `tick ui` session) uses it: brought up to
/// date before a read, re-synced after a write, and never taking the store
/// down. A damaged index is rebuilt once, silently; one that cannot be
/// updated (a full or failing cache disk) is replaced, for this session, by
/// an in-memory copy that answers from the files, with one warning the
/// caller takes (``takeWarnings()``: the CLI prints it; the library never does).
public final class IndexSession {
    /// The index in use (it may be swapped for a rebuilt one or a copy in memory).
    public private(set) var index: TaskIndex
    /// True once a warning was given (at most one per session).
    public private(set) var warned = false
    private var warnings: [TickWarning] = []

    public init(_ index: TaskIndex) {
        self.index = index
        if let warning = index.fallbackWarning { warnOnce(warning) }
    }

    /// The warning given since the last call, if any (at most one per session).
    public func takeWarnings() -> [TickWarning] {
        defer { warnings = [] }
        return warnings
    }

    /// Brings the index up to date with the files and returns the view
    /// commands read. A store error (a file's own) is thrown as it is; an
    /// index error gets the next, stronger recovery.
    public func load() throws -> StoreView {
        let recoveries: [(Error) throws -> Void] = [recover(after:), fallBackToMemory(after:)]
        var attempt = 0
        while true {
            do {
                try index.refresh()
                return StoreView(index: index, listInfos: try index.lists(), broken: try index.currentProblems())
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

    /// Re-indexes after a write, so short ids are assigned and released.
    /// Never fails: the write is done, so a failing index costs at most one
    /// warning (and the short ids of this command's output).
    public func resync() -> TaskIndex {
        do {
            try index.refresh()
            return index
        } catch {
            if (try? recover(after: error)) != nil, (try? index.refresh()) != nil { return index }
            if (try? fallBackToMemory(after: error)) != nil, (try? index.refresh()) != nil { return index }
            warnOnce("the change is saved, but the index could not be updated (\(TaskIndex.describe(error))); short ids may be missing until the next command")
            return index
        }
    }

    /// After a failed refresh: a damaged or vanished index is reopened
    /// (rebuilt); a disk that cannot take writes gets the in-memory copy.
    private func recover(after error: Error) throws {
        if index.path == nil || TaskIndex.isResourceFailure(error) {
            try fallBackToMemory(after: error)
        } else {
            index = try TaskIndex.reopenAfterFailure(index, error: error)
            if let warning = index.fallbackWarning { warnOnce(warning) }
        }
    }

    /// Swaps in an in-memory copy of the index, with one warning.
    private func fallBackToMemory(after error: Error) throws {
        if index.path != nil {
            index = try TaskIndex.inMemoryCopy(of: index, reason: TaskIndex.describe(error))
        }
        warnOnce(index.fallbackWarning ?? "cannot update the index (\(TaskIndex.describe(error)))")
    }

    private func warnOnce(_ message: String) {
        guard !warned else { return }
        warned = true
        warnings.append(TickWarning(message))
    }
}
