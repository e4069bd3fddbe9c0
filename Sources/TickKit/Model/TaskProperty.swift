/// One stored property of ``TaskItem``, read and written at its offset in
/// the task (``MemoryLayout/offset(of:)``), for what runs per field and
/// task (the index and file codecs, the table's comparisons): applying a key
/// path to a task copies the whole task to read one property, which cost
/// the index 14% of a reindex and of a listing.
/// A key path that is not a stored property's is applied as a key path.
struct TaskProperty<V>: Sendable {
    let path: WritableKeyPath<TaskItem, V> & Sendable
    private let offset: Int?

    init(_ path: WritableKeyPath<TaskItem, V> & Sendable) {
        self.path = path
        offset = MemoryLayout<TaskItem>.offset(of: path)
    }

    /// The property's value in `task`.
    func get(_ task: borrowing TaskItem) -> V {
        withUnsafePointer(to: task) { p in
            guard let offset else { return p.pointee[keyPath: path] }
            return UnsafeRawPointer(p).advanced(by: offset).assumingMemoryBound(to: V.self).pointee
        }
    }

    /// Sets the property of `task` to `value`.
    func set(_ task: inout TaskItem, _ value: V) {
        guard let offset else {
            task[keyPath: path] = value
            return
        }
        withUnsafeMutablePointer(to: &task) { p in
            UnsafeMutableRawPointer(p).advanced(by: offset).assumingMemoryBound(to: V.self).pointee = value
        }
    }
}
