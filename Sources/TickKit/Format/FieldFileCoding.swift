import FoundationEssentials

/// How one field of the table is written in a task file and read back
/// (``TaskField/file``): from its value type's ``FileValue`` conformance,
/// or element by element for a set. ``TaskFileEncoder`` and
/// ``TaskFileDecoder`` keep no field of their own.
struct FieldFileCoding: Sendable {
    /// The field's JSON for a task; nil leaves its key out.
    let write: @Sendable (TaskItem) -> JSONNode?
    /// Reads the key's value onto a task; a wrong value is an error at its place.
    let read: @Sendable (inout TaskItem, JSONNode, JSONFieldReader) throws(FormatError) -> Void

    /// One value at `path`, as its type writes and reads it; `check` names
    /// what is wrong with a value the type reads but the field does not take.
    static func value<V: FileValue>(
        _ key: String, _ path: WritableKeyPath<TaskItem, V> & Sendable, check: (@Sendable (V) -> String?)? = nil
    ) -> FieldFileCoding {
        let property = TaskProperty(path)
        return FieldFileCoding(
            write: { property.get($0).fileNode },
            read: { task, node, reader throws(FormatError) in
                let value = try V.read(node, key: key, reader)
                if let check, let problem = check(value) { throw reader.error(at: node.offset, problem) }
                property.set(&task, value)
            })
    }

    /// A set kept as an array at `path`: left out when empty, read element
    /// by element (a repeated element is read once); `what` names the
    /// elements in the message for a value that is not an array.
    static func elements<E: Equatable & Sendable>(
        _ key: String, _ path: WritableKeyPath<TaskItem, [E]> & Sendable, what: String,
        node: @escaping @Sendable (E) -> JSONNode,
        element: @escaping @Sendable (JSONNode, JSONFieldReader) throws(FormatError) -> E
    ) -> FieldFileCoding {
        let property = TaskProperty(path)
        return FieldFileCoding(
            write: { task in
                let items = property.get(task)
                return items.isEmpty ? nil : .array(items.map(node))
            },
            read: { task, v, reader throws(FormatError) in
                guard case .array(let items) = v.kind else {
                    throw reader.error(at: v.offset, "\"\(key)\" must be an array of \(what), found \(v.typeName)")
                }
                var read: [E] = []
                for item in items {
                    let e = try element(item, reader)
                    if !read.contains(e) { read.append(e) }
                }
                property.set(&task, read)
            })
    }
}
