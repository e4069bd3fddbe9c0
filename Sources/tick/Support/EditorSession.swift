import Foundation
import TickKit

/// `tick edit ID` with no flags: the task's JSON in $EDITOR, validated on return.
struct EditorSession {
    let context: Context
    let item: ListedTask

    func run() throws {
        let t = context.terminal
        let original = item.task
        var originalNode = JSONWriter.write(TaskFileEncoder.node(for: original))
        if originalNode.isEmpty { originalNode = [] }
        let dir = context.process.temporaryDirectory
        let path = (dir as NSString).appendingPathComponent("tick-edit-\(original.id.lowercased.prefix(8))-\(getpid()).json")
        // A `//` header says how times are read; zone-less times are local (EditorBuffer).
        let buffer = EditorBuffer(timeZone: context.timeZone)
        let originalBuffer = buffer.render(json: originalNode)
        try AtomicFile.write(originalBuffer, to: path, mode: 0o600)
        while true {
            try launchEditor(on: path)
            guard let (bytes, _) = try AtomicFile.read(path: path) else {
                throw CLIError("the edited file \(path) is gone; nothing was changed")
            }
            if bytes == originalBuffer || buffer.json(from: bytes) == buffer.json(from: originalBuffer) {
                unlink(path)
                t.out("No changes.")
                return
            }
            let decoder = TaskFileDecoder(bytes: buffer.json(from: bytes), path: path, kind: item.kind, fallbackDate: context.now)
            do {
                var edited = try decoder.decodeTask()
                guard edited.id == original.id else {
                    throw FormatError(path: path, location: nil, message: "the id cannot be changed (it was \(original.id.lowercased))")
                }
                edited.needsFill = false
                // New text must follow TextRules; text the file already held is left alone.
                if edited.title != original.title, let problem = TextRules.titleProblem(edited.title) {
                    throw FormatError(path: path, location: nil, message: problem)
                }
                if edited.notes != original.notes, let notes = edited.notes, let problem = TextRules.notesProblem(notes) {
                    throw FormatError(path: path, location: nil, message: problem)
                }
                try save(edited, original: original, keptPath: path)
                unlink(path)
                return
            } catch let error as FormatError {
                t.err(error.errorDescription ?? error.summary)
                if t.stdinIsTTY && t.stderrIsTTY {
                    FileHandle.standardError.write(Data("Edit again? [Y/n] ".utf8))
                    let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? "n"
                    if answer.isEmpty || answer == "y" || answer == "yes" { continue }
                }
                throw CLIError("nothing was saved; your text is kept in \(path)", status: .badData)
            }
        }
    }

    private func save(_ edited: TaskItem, original: TaskItem, keptPath: String) throws {
        let now = context.now
        let changed: Bool = try context.store.withLock { writer in
            try writer.update(item.kind) { file in
                let changed: Bool = try file.updateTask(original.id) { current in
                    guard current.sameContent(as: original) else {
                        throw CLIError("the task changed on disk while you were editing; nothing was saved. Your text is kept in \(keptPath); run `tick edit` again and copy your changes over", status: .failure)
                    }
                    var next = edited
                    guard !next.sameContent(as: current) else { return false }
                    next.modifiedAt = now
                    if next.state == .done && next.completedAt == nil { next.completedAt = now }
                    if next.state != .done && current.state == .done && next.completedAt == current.completedAt { next.completedAt = nil }
                    current = next
                    return true
                }
                // Done by editing the JSON is a completion too: a recurring task gets its next occurrence.
                if changed, original.state != .done, edited.state == .done {
                    _ = try? file.insertNextOccurrence(of: original.id, now: now, timeZone: context.timeZone)
                }
                return changed
            }
        }
        var updated = item
        updated.task = edited
        // The same confirmation as `tick edit ID tokens`, naming what changed (state included).
        let confirm = Confirmation(terminal: context.terminal)
        var fields = Confirmation.fieldNames(from: original, to: edited)
        if original.state != edited.state { fields.insert("state", at: 0) }
        context.terminal.out(changed
            ? confirm.changed("Edited", edited, shortID: item.shortID, fields: fields)
            : confirm.unchanged(edited, shortID: item.shortID, "unchanged"))
    }

    private func launchEditor(on path: String) throws {
        let env = context.environment
        // $VISUAL first, then $EDITOR, as git and crontab do.
        let editor = [env["VISUAL"], env["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        // The editor command may carry arguments ("code --wait"); the path is passed as $1, never interpolated.
        var request = ProcessRequest(program: "/bin/sh", arguments: ["-c", "\(editor) \"$1\"", "tick-edit", path],
                                     directory: context.process.currentDirectory, environment: env)
        request.usesTerminal = true
        let result: ProcessResult
        do {
            result = try ProcessRunner.run(request)
        } catch {
            throw CLIError("cannot start the editor \"\(editor)\": \(error.message); set $EDITOR")
        }
        guard result.status == 0 else {
            throw CLIError("the editor \"\(editor)\" exited with status \(result.status); nothing was saved (your text is in \(path))")
        }
    }
}
