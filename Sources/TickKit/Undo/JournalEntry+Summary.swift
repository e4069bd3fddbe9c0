import FoundationEssentials

extension JournalEntry {
    /// What the entry did, per file, for `tick undo --list`: e.g.
    /// "2 tasks changed in Work", "1 task moved from Inbox to Work",
    /// "created list Reading", "renamed list Work to Office". No task titles.
    public var summary: String {
        if tooLarge == true {
            let total = files.reduce(StepCounts()) { $0 + $1.taskCounts }
            return "\(Self.tasks(total.total)) in \(Set(files.map(\.path)).count) file(s) (too large to undo)"
        }
        var parts: [String] = []
        // Tasks removed from one file and added to another: moves.
        var removedFrom: [String: String] = [:]
        var addedTo: [String: String] = [:]
        for step in files {
            for t in step.tasks {
                if t.before != nil && t.after == nil { removedFrom[t.id] = step.name }
                if t.before == nil && t.after != nil { addedTo[t.id] = step.name }
            }
        }
        var moves: [String: Int] = [:]
        var moveOrder: [String] = []
        var movedIDs = Set<String>()
        for step in files {
            for t in step.tasks where t.before == nil && t.after != nil {
                guard let from = removedFrom[t.id], let to = addedTo[t.id], from != to, !movedIDs.contains(t.id) else { continue }
                movedIDs.insert(t.id)
                let key = "from \(from) to \(to)"
                if moves[key] == nil { moveOrder.append(key) }
                moves[key, default: 0] += 1
            }
        }
        for key in moveOrder { parts.append("\(Self.tasks(moves[key] ?? 0)) moved \(key)") }
        // Per file, in order of first appearance.
        var seen: [String] = []
        for step in files where !seen.contains(step.path) { seen.append(step.path) }
        for path in seen {
            let steps = files.filter { $0.path == path }
            guard let first = steps.first, let last = steps.last else { continue }
            let isList = path != "inbox.json"
            if first.isCreated && isList { parts.append("created list \(last.name)") }
            if last.isRemoved && !first.isCreated {
                parts.append("deleted list \(first.name) (\(Self.tasks(last.removedTaskCount ?? 0)))")
                continue
            }
            if let oldName = steps.compactMap(\.headerBefore).first.flatMap(Self.name(inHeader:)),
               let newName = steps.compactMap(\.headerAfter).last.flatMap(Self.name(inHeader:)), oldName != newName {
                parts.append("renamed list \(oldName) to \(newName)")
            }
            var c = StepCounts()
            var changedIDs = Set<String>()
            for step in steps {
                for t in step.tasks where !movedIDs.contains(t.id) && changedIDs.insert(t.id).inserted {
                    switch (t.before, t.after) {
                    case (nil, .some): c.added += 1
                    case (.some, nil): c.removed += 1
                    default: c.changed += 1
                    }
                }
            }
            if c.added > 0 { parts.append("\(Self.tasks(c.added)) added to \(last.name)") }
            if c.changed > 0 { parts.append("\(Self.tasks(c.changed)) changed in \(last.name)") }
            if c.removed > 0 { parts.append("\(Self.tasks(c.removed)) deleted from \(last.name)") }
            if c.total == 0 && steps.contains(where: { $0.orderBefore != nil }) { parts.append("reordered tasks in \(last.name)") }
        }
        if let blocks {
            switch (blocks.before, blocks.after) {
            case (nil, .some): parts.append("created the commitments (blocks.json)")
            case (.some, nil): parts.append("deleted the commitments (blocks.json)")
            default: parts.append("changed the commitments (blocks.json)")
            }
        }
        if parts.isEmpty { parts.append(isUndo ? "no file changes" : "list details changed") }
        return parts.joined(separator: ", ")
    }

    static func tasks(_ n: Int) -> String { n == 1 ? "1 task" : "\(n) tasks" }

    /// The `name` field of a header image.
    static func name(inHeader text: String) -> String? {
        guard case .object(let members)? = try? JSONParser.parse(text).kind else { return nil }
        for m in members where m.key == "name" {
            if case .string(let s) = m.value.kind { return s }
        }
        return nil
    }
}
