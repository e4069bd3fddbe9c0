import FoundationEssentials
import Glibc

/// Machine-local short numeric ids for pending tasks, as dstask has them.
///
/// An id stays with its task until the task is done or deleted; freed
/// numbers are reused smallest first. The table lives outside the store
/// (`<state>/ids.json`), so it never causes a merge conflict.
///
/// The commands use the index's table instead (``TaskIndex/shortIDGrace``:
/// a done or deleted task keeps its number for a day); this one is the
/// simple model for answering from a snapshot without an index.
public struct ShortIDTable: Sendable, Equatable {
    public private(set) var idsByTask: [UUID: Int]

    public init(idsByTask: [UUID: Int] = [:]) {
        self.idsByTask = idsByTask
    }

    /// The short id of a task, if it has one.
    public func shortID(of task: UUID) -> Int? { idsByTask[task] }

    /// The task that has a short id.
    public func task(withShortID n: Int) -> UUID? {
        idsByTask.first { $0.value == n }?.key
    }

    /// Brings the table in line with the pending tasks: frees the ids of tasks
    /// that are gone or done, and gives new pending tasks the smallest free ids
    /// in the order given. Returns true when the table changed.
    ///
    /// Tasks in `keep` (from files that could not be read right now) keep their ids.
    @discardableResult
    public mutating func sync(pending: [UUID], keep: Set<UUID> = []) -> Bool {
        let pendingSet = Set(pending)
        var changed = false
        for (uuid, _) in idsByTask where !pendingSet.contains(uuid) && !keep.contains(uuid) {
            idsByTask[uuid] = nil
            changed = true
        }
        var used = Set(idsByTask.values)
        var next = 1
        for uuid in pending where idsByTask[uuid] == nil {
            while used.contains(next) { next += 1 }
            idsByTask[uuid] = next
            used.insert(next)
            changed = true
        }
        return changed
    }

    /// JSON bytes for the state file.
    public func encoded() -> [UInt8] {
        let members = idsByTask.sorted { $0.value < $1.value }.map {
            JSONMember($0.key.lowercased, JSONNode(.number(String($0.value))))
        }
        return JSONWriter.write(.object([JSONMember("version", JSONNode(.number("1"))), JSONMember("ids", .object(members))]))
    }

    /// Reads the state file; an unreadable table is treated as empty (it is only a cache).
    public static func decode(_ bytes: [UInt8]) -> ShortIDTable {
        guard let root = try? JSONParser.parse(bytes), case .object(let top) = root.kind,
              let ids = top.first(where: { $0.key == "ids" }), case .object(let members) = ids.value.kind
        else { return ShortIDTable() }
        var table: [UUID: Int] = [:]
        var seen = Set<Int>()
        for m in members {
            guard let uuid = UUID(uuidString: m.key), case .number(let text) = m.value.kind,
                  let n = Int(text), n > 0, seen.insert(n).inserted else { continue }
            table[uuid] = n
        }
        return ShortIDTable(idsByTask: table)
    }
}

/// Anything that knows the short ids of tasks.
public protocol ShortIDLookup {
    func shortID(of task: UUID) -> Int?
}

extension ShortIDTable: ShortIDLookup {}
