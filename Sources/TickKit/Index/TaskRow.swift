import Foundation
import GRDB

/// Converts tasks to index rows and back, without going through JSON for the
/// known fields.
enum TaskRow {
    static let columns = "t.id, t.title, t.state, t.due, t.scheduled_day, t.remind_ts, t.repeat, t.priority, t.energy, t.tags, t.notes, t.created_ts, t.modified_ts, t.completed_ts, t.extra, t.path"

    static let insertSQL = """
        INSERT INTO tasks (id, hex, path, position, title, state, due, due_day, due_ts, scheduled_day, remind_ts,
                           repeat, priority, energy, tags, notes, created_ts, modified_ts, completed_ts, extra)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// Arguments for ``insertSQL``.
    static func arguments(_ task: TaskItem, path: String, position: Int) -> StatementArguments {
        let id = task.id.lowercased
        var dueDay: Int?
        var dueTS: Double?
        switch task.due {
        case .day(let d)?: dueDay = d.daysSinceEpoch
        case .time(let t)?: dueTS = t.timeIntervalSinceReferenceDate
        case nil: break
        }
        var extra: String?
        if !task.extra.isEmpty {
            extra = String(decoding: JSONWriter.write(.object(task.extra)), as: UTF8.self)
        }
        let values: [(any DatabaseValueConvertible)?] = [
            id, id.replacingOccurrences(of: "-", with: ""), path, position, task.title, task.state.rawValue,
            task.due?.fileString, dueDay, dueTS, task.scheduled?.daysSinceEpoch,
            task.remind?.timeIntervalSinceReferenceDate, task.repeatRule, task.priority?.rawValue,
            task.energy?.rawValue, task.tags.joined(separator: " "), task.notes,
            task.createdAt.timeIntervalSinceReferenceDate, task.modifiedAt.timeIntervalSinceReferenceDate,
            task.completedAt?.timeIntervalSinceReferenceDate, extra,
        ]
        return StatementArguments(values)
    }

    /// A task from a row selected with ``columns``. Nil if the row is damaged.
    static func task(_ row: Row) -> (TaskItem, path: String)? {
        guard let idText: String = row[0], let id = UUID(uuidString: idText),
              let title: String = row[1], let stateText: String = row[2], let state = TaskState(rawValue: stateText),
              let created: Double = row[11], let modified: Double = row[12], let path: String = row[15]
        else { return nil }
        var extra: [JSONMember] = []
        if let text: String = row[14], let node = try? JSONParser.parse(text), case .object(let members) = node.kind {
            extra = members
        }
        let tagsText: String = row[9] ?? ""
        let task = TaskItem(
            id: id,
            title: title,
            state: state,
            due: (row[3] as String?).flatMap(TaskDate.init(fileString:)),
            scheduled: (row[4] as Int?).map(LocalDate.init(daysSinceEpoch:)),
            remind: (row[5] as Double?).map(Date.init(timeIntervalSinceReferenceDate:)),
            repeatRule: row[6],
            priority: (row[7] as String?).flatMap(Priority.init(rawValue:)),
            energy: (row[8] as String?).flatMap(Energy.init(rawValue:)),
            tags: tagsText.isEmpty ? [] : tagsText.split(separator: " ").map(String.init),
            notes: row[10],
            createdAt: Date(timeIntervalSinceReferenceDate: created),
            modifiedAt: Date(timeIntervalSinceReferenceDate: modified),
            completedAt: (row[13] as Double?).map(Date.init(timeIntervalSinceReferenceDate:)),
            extra: extra
        )
        return (task, path)
    }
}
