import FoundationEssentials
import Glibc

/// Writes a store file in canonical form: fixed key order, empty fields
/// omitted, unknown keys kept after the known ones. A task's fields come
/// from the field table (``TaskField/fileOrder``, each field's ``FileValue``).
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
        for (name, coding) in TaskField.inFileOrder {
            if let value = coding.write(task) { m.append(JSONMember(name, value)) }
        }
        if !task.changed.isEmpty {
            m.append(JSONMember("changed", .object(TaskChange.sortedKeys(task.changed.keys).compactMap { key in
                task.changed[key].map { JSONMember(key, .string(Timestamp.format($0))) }
            })))
        }
        m.append(contentsOf: task.extra)
        return .object(m)
    }
}
