import FoundationEssentials

/// A task as hook scripts see it: Taskwarrior's JSON (the shape of `task
/// export`), one object on one line, so Taskwarrior hooks work unchanged;
/// and what a hook's answer changes in the tick task.
struct HookTaskJSON {
    let context: InterchangeContext

    /// The task's line; `deleted` gives Taskwarrior's deleted status and `end`.
    func line(for task: TaskItem, project: String?, deleted: Bool = false) -> String {
        var node = TaskwarriorCodec.node(for: task, project: project, context: context)
        if deleted, case .object(var members) = node.kind {
            members.removeAll { ["status", "end", "start"].contains($0.key) }
            members.insert(JSONMember("status", .string("deleted")), at: 2)
            members.append(JSONMember("end", .string(TaskwarriorCodec.formatDate(context.now))))
            node = JSONNode(.object(members))
        }
        var out: [UInt8] = []
        TaskwarriorCodec.writeCompact(node, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `task` with what the hook's answer `returned` changed, compared with the
    /// line it was given (`sent`): the fields Taskwarrior's JSON carries (the
    /// ``TaskField`` entries with a hook key), and
    /// any other key (a UDA), kept as `x-taskwarrior-NAME`. A hook may not
    /// change the uuid or the project (a move is `tick mv`'s), nor delete.
    func apply(returned: String, sent: String, to task: TaskItem, project: String?) throws(HookTaskJSONError) -> TaskItem {
        let before = try decode(sent)
        let after = try decode(returned)
        guard after.task.id == before.task.id else {
            throw HookTaskJSONError("changed the task's uuid (\(before.task.id.lowercased) to \(after.task.id.lowercased))")
        }
        guard after.project == before.project else {
            throw HookTaskJSONError("changed the task's project (\(before.project ?? "none") to \(after.project ?? "none")); a hook cannot move a task, `tick mv` does")
        }
        var result = task
        for field in TaskField.all where field.hookKey != nil {
            field.applyChange(&result, before.task, after.task)
        }
        return result
    }

    private func decode(_ line: String) throws(HookTaskJSONError) -> (task: TaskItem, project: String?) {
        let files: [TaskFile]
        do {
            files = try TaskwarriorCodec.decode(Array(line.utf8), context: context)
        } catch {
            throw HookTaskJSONError("answered a task tick cannot read: \(error.message)")
        }
        guard let file = files.first(where: { !$0.tasks.isEmpty }), let task = file.tasks.first else {
            throw HookTaskJSONError("answered without a task (a hook cannot delete one; exit non-zero to refuse the change)")
        }
        return (task, file.kind == .inbox ? nil : file.displayName)
    }
}

/// Why a hook's answer cannot be taken.
struct HookTaskJSONError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
