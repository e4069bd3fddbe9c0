import FoundationEssentials
import Glibc
import TickKit

/// JSON for `--json`: the file format's task fields plus where the task is.
enum JSONOutput {
    /// A task as the file stores it, with `shortId`, `list` and `file` added,
    /// and `"blocked": true` when it depends on a task that is not done.
    static func node(for item: ListedTask) -> JSONNode {
        guard case .object(var members) = TaskFileEncoder.node(for: item.task).kind else { return .object([]) }
        members.insert(JSONMember("shortId", item.shortID.map { JSONNode(.number(String($0))) } ?? JSONNode(.null)), at: 0)
        members.append(JSONMember("list", item.kind == .inbox ? JSONNode(.null) : .string(item.listName)))
        members.append(JSONMember("file", .string(item.kind.relativePath)))
        if item.blocked { members.append(JSONMember("blocked", JSONNode(.bool(true)))) }
        return .object(members)
    }

    /// An array of tasks.
    static func tasks(_ items: [ListedTask]) -> String {
        string(.array(items.map(node(for:))))
    }

    /// Any node as text with a trailing newline.
    static func string(_ node: JSONNode) -> String {
        String(decoding: JSONWriter.write(node), as: UTF8.self)
    }

    static func number(_ n: Int) -> JSONNode { JSONNode(.number(String(n))) }
}
