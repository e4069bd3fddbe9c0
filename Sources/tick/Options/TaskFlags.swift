import ArgumentParser
import TickKit

/// Flags that set task fields; each mirrors a quick-add token.
struct TaskFieldOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Due date (same as due:WHEN).", valueName: "when"))
    var due: String?

    @Option(name: .long, help: ArgumentHelp("Reminder (same as remind:WHEN); a day alone means 09:00.", valueName: "when"))
    var remind: String?

    @Option(name: .long, help: ArgumentHelp("Scheduled day (same as sched:WHEN).", valueName: "when"))
    var sched: String?

    @Option(name: .long, help: ArgumentHelp("Hide the task from views until then (same as wait:WHEN; empty clears).", valueName: "when"))
    var wait: String?

    @Option(name: .long, help: ArgumentHelp("Depend on these tasks (same as depends:ID[,ID]; -ID removes one, none clears).", valueName: "ids"))
    var depends: String?

    @Option(name: .long, help: ArgumentHelp("Tag to add (same as +tag; repeatable).", valueName: "tag"),
            completion: ShellCompletion.tags)
    var tag: [String] = []

    @Option(name: .long, help: ArgumentHelp("Priority: must or flexible, or Taskwarrior's H, M, L (same as pri:).", valueName: "pri"), completion: .list(["must", "flexible"]))
    var pri: String?

    @Option(name: .long, help: ArgumentHelp("Energy: high, low or any (same as energy:).", valueName: "energy"), completion: .list(["high", "low", "any"]))
    var energy: String?

    @Option(name: .long, help: ArgumentHelp("Recurrence rule (same as repeat:): daily, weekdays, weekly, monthly, yearly, \"every 2w\", mon,wed,fri, +3d.", valueName: "rule"))
    var `repeat`: String?

    @Option(name: .long, help: ArgumentHelp("Estimate: 45m, 1h30m, 90 (same as estimate:).", valueName: "duration"))
    var estimate: String?

    @Option(name: .long, help: ArgumentHelp("Place the task in a slot starting at TIME or DAY@TIME (same as at:).", valueName: "time"))
    var at: String?

    @Option(name: .long, help: ArgumentHelp("The slot's length: 45m, 1h (same as for:; default: the estimate, else 30m).", valueName: "duration"))
    var `for`: String?

    @Option(name: .long, help: ArgumentHelp("Notes text. Use $'line1\\nline2' for several lines.", valueName: "text"))
    var note: String?

    /// The edit these flags describe.
    func edit(_ fields: FieldParser) throws -> TaskEdit {
        var edit = TaskEdit()
        // Each typed flag reads its value as the field's `key:value` word does.
        let typed: [(key: String, value: String?)] = [
            ("due", due), ("remind", remind), ("sched", sched), ("wait", wait),
            ("pri", pri), ("energy", energy), ("repeat", `repeat`), ("estimate", estimate),
        ]
        for (key, value) in typed {
            guard let value else { continue }
            // `--wait ""` and `--wait none`, and `--repeat ""`, clear.
            if key == "wait", value.isEmpty || value.lowercased() == "none" {
                edit[\.wait] = .clear
            } else if key == "repeat", value.isEmpty {
                edit[\.repeatRule] = .clear
            } else {
                try edit.set(key, typed: value, spelled: "--" + key, parser: fields)
            }
        }
        if let depends {
            if depends.isEmpty || depends.lowercased() == "none" {
                edit.dependsCleared = true
            } else {
                for ref in try fields.dependencies(depends, key: "--depends") {
                    if ref.hasPrefix("-") { edit.dependsRemoved.append(String(ref.dropFirst())) } else { edit.dependsAdded.append(ref) }
                }
            }
        }
        for t in tag { edit.addTags.append(try fields.tag(t)) }
        if let at { edit.slot = .set(try fields.slotStart(at, key: "--at")) }
        if let f = `for` { edit.slotMinutes = try fields.slotLength(f, key: "--for") }
        if let note { edit[\.notes] = note.isEmpty ? .clear : .set(note) }
        return edit
    }
}
