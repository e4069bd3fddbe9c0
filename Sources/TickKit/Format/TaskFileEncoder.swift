import FoundationEssentials
import Glibc

/// Writes a store file in canonical form: fixed key order, empty fields
/// omitted, unknown keys kept after the known ones.
public enum TaskFileEncoder {
    /// The canonical bytes of a file.
    public static func encode(_ file: TaskFile) -> [UInt8] {
        JSONWriter.write(node(for: file))
    }

    /// The canonical JSON tree of a file.
    public static func node(for file: TaskFile) -> JSONNode {
        var m: [JSONMember] = []
        m.append(JSONMember("version", JSONNode(.number(String(file.version)))))
        m.append(JSONMember("id", .string(file.id.lowercased)))
        if let name = file.name { m.append(JSONMember("name", .string(name))) }
        if let color = file.color { m.append(JSONMember("color", .string(color))) }
        m.append(JSONMember("createdAt", .string(Timestamp.format(file.createdAt))))
        m.append(JSONMember("modifiedAt", .string(Timestamp.format(file.modifiedAt))))
        m.append(contentsOf: file.extra)
        m.append(JSONMember("tasks", .array(file.tasks.map(node(for:)))))
        if !file.deleted.isEmpty {
            m.append(JSONMember("deleted", .array(file.deleted.map { t in
                .object([JSONMember("id", .string(t.id.lowercased)), JSONMember("at", .string(Timestamp.format(t.at)))])
            })))
        }
        return .object(m)
    }

    /// The canonical JSON object of one task.
    public static func node(for task: TaskItem) -> JSONNode {
        var m: [JSONMember] = []
        m.reserveCapacity(16)
        m.append(JSONMember("id", .string(task.id.lowercased)))
        m.append(JSONMember("title", .string(task.title)))
        m.append(JSONMember("state", .string(task.state.rawValue)))
        if let due = task.due { m.append(JSONMember("due", .string(due.fileString))) }
        if let scheduled = task.scheduled { m.append(JSONMember("scheduled", .string(scheduled.iso))) }
        if let remind = task.remind { m.append(JSONMember("remind", .string(Timestamp.format(remind)))) }
        if let wait = task.wait { m.append(JSONMember("wait", .string(wait.fileString))) }
        if let r = task.repeatRule { m.append(JSONMember("repeat", .string(r))) }
        if let p = task.priority { m.append(JSONMember("priority", .string(p.rawValue))) }
        if let e = task.energy { m.append(JSONMember("energy", .string(e.rawValue))) }
        if let e = task.estimate { m.append(JSONMember("estimate", JSONNode(.number(String(e))))) }
        if let slot = task.slot { m.append(JSONMember("slot", slot.node)) }
        if !task.tags.isEmpty { m.append(JSONMember("tags", .array(task.tags.map { .string($0) }))) }
        if !task.depends.isEmpty { m.append(JSONMember("depends", .array(task.depends.map { .string($0.lowercased) }))) }
        if let notes = task.notes, !notes.isEmpty { m.append(JSONMember("notes", .string(notes))) }
        m.append(JSONMember("createdAt", .string(Timestamp.format(task.createdAt))))
        m.append(JSONMember("modifiedAt", .string(Timestamp.format(task.modifiedAt))))
        if let c = task.completedAt { m.append(JSONMember("completedAt", .string(Timestamp.format(c)))) }
        if !task.changed.isEmpty {
            m.append(JSONMember("changed", .object(TaskChange.sortedKeys(task.changed.keys).compactMap { key in
                task.changed[key].map { JSONMember(key, .string(Timestamp.format($0))) }
            })))
        }
        m.append(contentsOf: task.extra)
        return .object(m)
    }
}
