/// Field names typed on the command line: the other spellings tick accepts
/// for its own keys (Taskwarrior's and tick's short forms, from each
/// field's entry in ``TaskField/all``), shared by quick-add tokens, filters
/// and `--sort`, and the keys of
/// Taskwarrior and todo.txt that tick does not take in `add`/`edit`, each with
/// what to write instead (Docs/CLI.md "Taskwarrior's words").
public enum FieldNames {
    /// Another spelling → tick's key. A user of one command finds the same
    /// word in the others; each reader takes the keys it knows.
    /// Each field's aliases (``TaskField/aliases``, from the table), and
    /// Taskwarrior's `project` for the list (not a field of a task).
    public static let aliases: [String: String] = Dictionary(
        TaskField.all.flatMap { field in field.commandLineKey.map { key in field.aliases.map { ($0, key) } } ?? [] } + [("project", "list")],
        uniquingKeysWith: { first, _ in first })

    /// tick's key for `key` (lowercased): the alias resolved, or `key` itself.
    public static func canonical(_ key: String) -> String {
        let lower = key.lowercased()
        return aliases[lower] ?? lower
    }

    /// Keys that look like a field in `add`/`edit` but are not one there,
    /// with the hint that says what tick does instead. A `key:value` word with
    /// one of these keys is refused, never kept as title text unnoticed.
    public static let notTakenOnAdd: [String: String] = [
        "until": "tick has no expiry date (Taskwarrior's until:); use due: for a deadline",
        "status": "set the state with tick done, tick start or tick reopen",
        "state": "set the state with tick done, tick start or tick reopen",
        "start": "tick start ID marks a task active; a start time is at:14:00",
        "end": "tick done ID records when a task was completed",
        "completed": "tick done ID records when a task was completed",
        "entry": "tick records when a task was created",
        "created": "tick records when a task was created",
        "modified": "tick records when a task was modified",
        "tags": "add a tag with +NAME",
        "tag": "add a tag with +NAME",
        "description": "the title is the words themselves",
        "uuid": "tick gives each task its id",
        "id": "tick gives each task its id",
        "urgency": "tick has no urgency; use pri:must",
        "mask": "a repeating task is one task in tick; see repeat:",
        "imask": "a repeating task is one task in tick; see repeat:",
        "parent": "a repeating task is one task in tick; see repeat:",
        "annotation": "add a note with --note TEXT",
        "annotations": "add a note with --note TEXT",
        "rec": "todo.txt's rec: is tick's repeat:, e.g. repeat:weekly",
        "t": "todo.txt's t: (threshold) is tick's sched: (as tick import reads it), e.g. sched:2026-12-01; wait: hides a task until a day",
        "limit": "limit: is for listings: tick list --limit N",
    ]
}
