import FoundationEssentials

/// How one field of the table is stored in the index's `tasks` row and read
/// back (``TaskField/index``): from its value type's ``IndexValue``
/// conformance, or word by word for a set. ``RowWriter``, ``RowReader`` and
/// ``IndexSchema`` keep no field of their own.
struct FieldIndexCoding: Sendable {
    /// Its columns, in insert order; those a task query reads come first.
    let columns: [IndexColumn]
    /// Hands the field's column values of a task to the binder, numbered
    /// from the insert parameter of its first column.
    let visit: @Sendable (TaskItem, Int32, inout ColumnBinder) -> Void
    /// Reads the field from a row whose first read column is the given one
    /// onto a task; false when the row cannot hold it.
    let read: @Sendable (inout TaskItem, RowReader, Int32) -> Bool

    /// The columns a task query selects.
    var readColumns: [IndexColumn] { columns.filter(\.read) }

    /// One value at `path`, stored as its type says under `base`.
    static func value<V: IndexValue>(_ base: String, _ path: WritableKeyPath<TaskItem, V> & Sendable) -> FieldIndexCoding {
        let property = TaskProperty(path)
        return FieldIndexCoding(
            columns: V.indexColumns(base),
            visit: { task, first, v in property.get(task).visitIndex(first, into: &v) },
            read: { task, row, first in
                guard let value = V.readIndex(row, first) else { return false }
                property.set(&task, value)
                return true
            })
    }

    /// A set at `path`: its elements as words joined by spaces in one column
    /// (`emptyIsNull`: NULL for none, else empty text), each hashed on its
    /// own so the hash sees where one ends. (Queries read the elements from
    /// a table of their own, filled by ``RowWriter``.)
    static func words<E: Sendable>(
        _ base: String, _ path: WritableKeyPath<TaskItem, [E]> & Sendable, emptyIsNull: Bool, comment: String,
        word: @escaping @Sendable (E) -> String, element: @escaping @Sendable (UnsafeBufferPointer<UInt8>) -> E?
    ) -> FieldIndexCoding {
        let property = TaskProperty(path)
        return FieldIndexCoding(
            columns: [IndexColumn(name: base, type: "TEXT", notNull: !emptyIsNull, comment: comment)],
            visit: { task, first, v in
                let items = property.get(task)
                if items.isEmpty && emptyIsNull { return }
                let words = items.map(word)
                v.text(first, words.count == 1 ? words[0] : words.joined(separator: " "))
                if words.count > 1 { v.parts(first, words) }
            },
            read: { task, row, first in
                property.set(&task, row.words(first, element))
                return true
            })
    }

    /// The unknown keys at `path`, as one JSON object (NULL for none).
    static func members(_ base: String, _ path: WritableKeyPath<TaskItem, [JSONMember]> & Sendable) -> FieldIndexCoding {
        let property = TaskProperty(path)
        return FieldIndexCoding(
            columns: [IndexColumn(name: base, type: "TEXT", comment: "unknown keys as a JSON object, or NULL")],
            visit: { task, first, v in
                if let json = RowWriter.json(property.get(task)) { v.text(first, json) }
            },
            read: { task, row, first in
                property.set(&task, row.members(first))
                return true
            })
    }
}
