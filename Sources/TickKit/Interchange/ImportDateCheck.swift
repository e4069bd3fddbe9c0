import FoundationEssentials

/// Refuses an imported record whose dates tick could not store: every date of a
/// task must lie in ``DateRange`` (days 1970-01-01 to 9999-12-31, instants in UTC),
/// so an import never writes a file the reader refuses.
enum ImportDateCheck {
    /// Throws an ``ImportError`` at `line` naming the record (its title) and the first
    /// field whose date is out of range.
    static func check(_ task: TaskItem, path: String, line: Int?) throws(ImportError) {
        guard let problem = problem(in: task) else { return }
        throw ImportError(path: path, line: line, message: "task \"\(task.title)\": \(problem)")
    }

    /// "due 10000-01-01T07:00:00Z is outside the dates tick can store (...)", or nil
    /// when every date is in range. Fields are named as in the file format.
    static func problem(in task: TaskItem) -> String? {
        var fields: [(String, String, Bool)] = []
        if let d = task.due { fields.append(("due", d.fileString, DateRange.contains(d))) }
        if let s = task.scheduled { fields.append(("scheduled", s.iso, DateRange.contains(s))) }
        if let r = task.remind { fields.append(("remind", Timestamp.format(r), DateRange.contains(r))) }
        if let slot = task.slot { fields.append(("slot", slot.startString, DateRange.contains(slot.day))) }
        fields.append(("createdAt", Timestamp.format(task.createdAt), DateRange.contains(task.createdAt)))
        fields.append(("modifiedAt", Timestamp.format(task.modifiedAt), DateRange.contains(task.modifiedAt)))
        if let c = task.completedAt { fields.append(("completedAt", Timestamp.format(c), DateRange.contains(c))) }
        guard let (name, value, _) = fields.first(where: { !$0.2 }) else { return nil }
        return "\(name) \(value) is outside the dates tick can store (\(DateRange.text))"
    }
}
