import FoundationEssentials
import Glibc

/// GitHub task-list Markdown, grouped by list, with dates. Text from the
/// store goes through ``TextRules/visible(_:keepingNewlines:)``: control and
/// bidi format characters (U+202E, ...) are written in their visible form,
/// so a title cannot reorder or hide text where the Markdown is shown.
public enum MarkdownExport {
    /// Renders files as `# List` sections of `- [ ]` / `- [x]` items.
    public static func render(_ files: [TaskFile], timeZone: Zone) -> String {
        var out = ""
        for file in files where !file.tasks.isEmpty {
            if !out.isEmpty { out += "\n" }
            out += "## \(TextRules.visible(file.displayName))\n\n"
            for task in file.tasks {
                out += "- [\(task.state == .done ? "x" : " ")] \(escape(TextRules.visible(task.title.replacingAll("\n", with: " "))))"
                var details: [String] = []
                if task.state == .active { details.append("in progress") }
                if let due = task.due { details.append("due " + describe(due, timeZone: timeZone)) }
                if let s = task.scheduled { details.append("scheduled " + s.iso) }
                if let r = task.remind { details.append("remind " + describe(.time(r), timeZone: timeZone)) }
                if let rule = task.repeatRule { details.append("repeats " + TextRules.visible(rule)) }
                if let p = task.priority { details.append(p.rawValue) }
                if let e = task.energy { details.append("\(e.rawValue) energy") }
                if let c = task.completedAt { details.append("done " + LocalDate(date: c, timeZone: timeZone).iso) }
                if !details.isEmpty { out += " — " + details.joined(separator: ", ") }
                if !task.tags.isEmpty { out += " " + task.tags.map { "`#\(TextRules.visible($0))`" }.joined(separator: " ") }
                out += "\n"
                if let notes = task.notes {
                    for line in TextRules.visible(notes, keepingNewlines: true).split(separator: "\n", omittingEmptySubsequences: false) {
                        out += line.isEmpty ? "\n" : "  \(line)\n"
                    }
                }
            }
        }
        return out.isEmpty ? "_No tasks._\n" : out
    }

    private static func describe(_ date: TaskDate, timeZone: Zone) -> String {
        switch date {
        case .day(let d): return d.iso
        case .time(let t):
            return ClockTime.dayAndTime(t, in: timeZone)
        }
    }

    /// Escapes characters that would start Markdown markup at the start of a title.
    private static func escape(_ s: String) -> String {
        var r = s.replacingAll("\\", with: "\\\\")
        for ch in ["*", "_", "`", "[", "]", "<", ">"] { r = r.replacingAll(ch, with: "\\" + ch) }
        return r
    }
}
