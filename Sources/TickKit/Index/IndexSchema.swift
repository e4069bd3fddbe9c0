/// The index's tables. An index of another ``version`` is deleted and
/// rebuilt, silently.
enum IndexSchema {
    /// Bump it whenever the tables change or what a column holds does.
    /// A plain number, not computed from ``statements``: that would build
    /// and hash every statement on every start (2% of an empty read). A change
    /// of the statements (a field's column added) fails `IndexTests` until
    /// it is bumped (it keeps the statements' fingerprint for the version).
    static let version = 15

    /// Is a task waiting (a SQL condition over `tasks`, arguments: today's day
    /// number, now in seconds since the reference date).
    static let waitingCondition = "(wait_day > ? OR wait_ts > ?)"

    /// The tables a usable index has.
    static let tableNames = ["files", "tasks", "tags", "depends", "fts", "meta"]

    /// Everything, in creation order (tables first, then indexes and triggers).
    static var statements: [String] { tables + indexes }

    /// Tables only: a bulk rebuild fills them before adding ``indexes``.
    static let tables = [
        """
        CREATE TABLE files (
            path TEXT PRIMARY KEY,      -- relative to the store: inbox.json, lists/<slug>.json
            slug TEXT,                  -- NULL for the inbox
            list_id TEXT,
            name TEXT,                  -- NULL for the inbox
            color TEXT,
            size INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            inode INTEGER NOT NULL,
            hash TEXT NOT NULL,         -- FNV-1a 64 of the content
            racy INTEGER NOT NULL,      -- mtime was too recent to trust next time
            error_message TEXT,         -- parse error; the file's tasks are then its last good ones (stale)
            error_line INTEGER,
            error_column INTEGER,
            error_text TEXT
        )
        """,
        tasksTable,
        "CREATE TABLE tags (task_rowid INTEGER NOT NULL, tag TEXT NOT NULL)",
        // One row per dependency: what makes "blocked" a query, not a decode.
        "CREATE TABLE depends (task_rowid INTEGER NOT NULL, dep_id TEXT NOT NULL)",
        // Trigram: substring matches, like grep -i, for queries of 3+ characters.
        // `detail=column`: which columns a trigram is in, so `search --limit N`
        // bounds each task's score from the index alone (``BoundedSearch``).
        """
        CREATE VIRTUAL TABLE fts USING fts5(
            title, notes, tags, content='tasks', content_rowid='rowid', tokenize='trigram case_sensitive 0', detail=column
        )
        """,
        // The short ids live in the state directory (ShortIDStore, attached
        // as `ids`); `short_ids` here is the stamp of the table `tasks.short`
        // was copied from.
        "CREATE TABLE meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)",
    ]

    /// The tasks, a row each: its own columns, then each field's
    /// (``TaskColumns/fields``, declared by the field's value type).
    static let tasksTable = """
        CREATE TABLE tasks (
            rowid INTEGER PRIMARY KEY,
            id TEXT NOT NULL,           -- lowercase UUID
            chash INTEGER NOT NULL,     -- hash of the stored values: unchanged tasks are not rewritten
            short INTEGER,              -- copy of ids.short_ids.n, so listings need no join
            path TEXT NOT NULL,         -- relative to the store: inbox.json, lists/<slug>.json
            position INTEGER NOT NULL,  -- the task's place in its file
        """ + {
            let columns = TaskColumns.fields.flatMap(\.coding.columns)
            return columns.enumerated().map { "\n    " + $1.declaration($0 == columns.count - 1 ? "" : ",") }.joined()
        }() + "\n)"

    /// The columns with an index over pending tasks only (`pending_due_day`):
    /// a filter over pending tasks that says `state != 'done'` next to a
    /// range on one of them reads that index.
    static let pendingIndexed: Set<String> = Set(indexes.compactMap { statement -> String? in
        guard statement.contains("WHERE state != 'done' AND "), let open = statement.firstIndex(of: "("),
              let close = statement.firstIndex(of: ")") else { return nil }
        return String(statement[statement.index(after: open)..<close])
    })

    /// Secondary indexes and the triggers that keep FTS in step.
    static let indexes = [
        "CREATE INDEX tasks_path ON tasks(path, position)",
        "CREATE INDEX tasks_id ON tasks(id)",
        "CREATE INDEX tasks_due_day ON tasks(due_day) WHERE due_day IS NOT NULL",
        "CREATE INDEX tasks_due_ts ON tasks(due_ts) WHERE due_ts IS NOT NULL",
        "CREATE INDEX tasks_sched ON tasks(scheduled_day) WHERE scheduled_day IS NOT NULL",
        "CREATE INDEX tasks_slot ON tasks(slot_day) WHERE slot_day IS NOT NULL",
        // With the path, statistics per list are a covering scan too.
        "CREATE INDEX tasks_completed ON tasks(completed_ts, path) WHERE completed_ts IS NOT NULL",
        // Pending tasks only: the default date views never look at done ones.
        "CREATE INDEX pending_due_day ON tasks(due_day) WHERE state != 'done' AND due_day IS NOT NULL",
        "CREATE INDEX pending_due_ts ON tasks(due_ts) WHERE state != 'done' AND due_ts IS NOT NULL",
        "CREATE INDEX pending_sched ON tasks(scheduled_day) WHERE state != 'done' AND scheduled_day IS NOT NULL",
        "CREATE INDEX pending_remind ON tasks(remind_ts) WHERE state != 'done' AND remind_ts IS NOT NULL",
        // Started tasks: all of them are in today's view.
        "CREATE INDEX active_tasks ON tasks(path) WHERE state = 'active'",
        "CREATE INDEX tags_tag ON tags(tag)",
        "CREATE INDEX tags_task ON tags(task_rowid)",
        "CREATE INDEX depends_task ON depends(task_rowid)",
        "CREATE INDEX depends_dep ON depends(dep_id)",
        """
        CREATE TRIGGER tasks_ai AFTER INSERT ON tasks BEGIN
            INSERT INTO fts(rowid, title, notes, tags) VALUES (new.rowid, new.title, new.notes, new.tags);
        END
        """,
        """
        CREATE TRIGGER tasks_ad AFTER DELETE ON tasks BEGIN
            INSERT INTO fts(fts, rowid, title, notes, tags) VALUES ('delete', old.rowid, old.title, old.notes, old.tags);
            DELETE FROM tags WHERE task_rowid = old.rowid;
            DELETE FROM depends WHERE task_rowid = old.rowid;
        END
        """,
    ]
}
