import Foundation
import Testing

/// Writes are diff-minimal: `git diff` of a change touches only that task's lines.
@Suite("git diff")
struct GitDiffTests {
    /// A hunk of `git diff -U0`: old and new line ranges plus its lines.
    struct Hunk {
        var oldStart: Int
        var oldCount: Int
        var newStart: Int
        var newCount: Int
        var removed: [String] = []
        var added: [String] = []
    }

    /// Parses `git diff -U0` output for one file.
    static func hunks(_ diff: String) -> [Hunk] {
        var out: [Hunk] = []
        for line in lines(diff) {
            if line.hasPrefix("@@ ") {
                // @@ -a[,b] +c[,d] @@
                let parts = line.split(separator: " ")
                func range(_ p: Substring) -> (Int, Int) {
                    let nums = p.dropFirst().split(separator: ",").map { Int($0) ?? -1 }
                    return (nums[0], nums.count > 1 ? nums[1] : 1)
                }
                let (a, b) = range(parts[1])
                let (c, d) = range(parts[2])
                out.append(Hunk(oldStart: a, oldCount: b, newStart: c, newCount: d))
            } else if line.hasPrefix("+++") || line.hasPrefix("---") {
                continue
            } else if line.hasPrefix("-"), !out.isEmpty {
                out[out.count - 1].removed.append(String(line.dropFirst()))
            } else if line.hasPrefix("+"), !out.isEmpty {
                out[out.count - 1].added.append(String(line.dropFirst()))
            }
        }
        return out
    }

    /// A store with list Big holding 200 tasks, committed to a fresh git repo in the store.
    static func bigList() throws -> Sandbox {
        let s = try Sandbox()
        try s.ok("lists", "add", "Big")
        let input = (1...200).map { "Item \($0)" }.joined(separator: "\n") + "\n"
        let r = try s.tick("add", "-", "--list", "Big", stdin: input)
        #expect(r.status == 0)
        #expect(lines(r.stdout) == (1...200).map(String.init))
        #expect(try s.tasks("lists/big.json").count == 200)
        try s.git("init", "-q")
        try s.git("config", "user.name", "Tick Test")
        try s.git("config", "user.email", "tick@example.invalid")
        try s.git("config", "commit.gpgsign", "false")
        try s.git("add", "-A")
        try s.git("commit", "-q", "-m", "200 tasks")
        return s
    }

    /// The 1-based line range of a task's `{ ... }` block in a canonical list file.
    static func blockRange(of id: String, in text: String) -> ClosedRange<Int>? {
        let l = lines(text)
        guard let idLine = l.firstIndex(of: "      \"id\": \"\(id)\",") else { return nil }
        guard l[idLine - 1] == "    {" else { return nil }
        guard let end = l[idLine...].firstIndex(where: { $0 == "    }," || $0 == "    }" }) else { return nil }
        return idLine...end + 1   // from the "{" line (idLine, 1-based = idLine) to the "}" line
    }

    @Test("tick done in a 200-task list changes only that task's state and modifiedAt and adds completedAt and its change time")
    func doneDiff() throws {
        let s = try Self.bigList()
        let id = try #require(try s.tasks("lists/big.json")[99].string("id"))
        let r = try s.tick("done", "100", now: "2026-11-22T10:00:00Z")
        #expect(r.status == 0)
        #expect(r.stdout == "Completed 100 (\(id.prefix(8))): Item 100\n")

        #expect(try s.git("diff", "--numstat").stdout == "6\t2\tlists/big.json\n")
        let hunks = Self.hunks(try s.git("diff", "-U0").stdout)
        #expect(hunks.flatMap(\.removed) == [
            "      \"state\": \"open\",",
            "      \"modifiedAt\": \"2026-11-21T09:00:00Z\"",
        ])
        #expect(hunks.flatMap(\.added) == [
            "      \"state\": \"done\",",
            "      \"modifiedAt\": \"2026-11-22T10:00:00Z\",",
            "      \"completedAt\": \"2026-11-22T10:00:00Z\",",
            "      \"changed\": {",
            "        \"state\": \"2026-11-22T10:00:00Z\"",
            "      }",
        ])
        // Every changed line is inside task 100's block, in the old and the new file.
        let oldText = try s.git("show", "HEAD:lists/big.json").stdout
        let newText = try s.text("lists/big.json")
        let oldBlock = try #require(Self.blockRange(of: id, in: oldText))
        let newBlock = try #require(Self.blockRange(of: id, in: newText))
        for h in hunks {
            if h.oldCount > 0 { #expect(oldBlock.contains(h.oldStart) && oldBlock.contains(h.oldStart + h.oldCount - 1), "\(h)") }
            if h.newCount > 0 { #expect(newBlock.contains(h.newStart) && newBlock.contains(h.newStart + h.newCount - 1), "\(h)") }
        }
        // No other task changed.
        let tasks = try s.tasks("lists/big.json")
        #expect(tasks.filter { $0.string("state") == "done" }.map { $0.string("id") } == [id])
        #expect(tasks.filter { $0.string("modifiedAt") != pinnedNow }.count == 1)
    }

    @Test("adding a task to a 200-task list adds only its own lines")
    func addDiff() throws {
        let s = try Self.bigList()
        #expect(try s.add("Newbie", "list:Big", "+fresh", now: "2026-11-22T11:00:00Z") == "201")
        let newID = try #require(try s.tasks("lists/big.json").last?.string("id"))

        #expect(try s.git("diff", "--numstat").stdout == "8\t0\tlists/big.json\n")
        let hunks = Self.hunks(try s.git("diff", "-U0").stdout)
        #expect(hunks.count == 1)
        let hunk = try #require(hunks.first)
        #expect(hunk.removed == [])
        // git shows the new block starting with the previous task's closing brace
        // (now followed by a comma); the old "}" line matches the new task's "}".
        #expect(hunk.added == [
            "    },",
            "    {",
            "      \"id\": \"\(newID)\",",
            "      \"title\": \"Newbie\",",
            "      \"state\": \"open\",",
            "      \"tags\": [\"fresh\"],",
            "      \"createdAt\": \"2026-11-22T11:00:00Z\",",
            "      \"modifiedAt\": \"2026-11-22T11:00:00Z\"",
        ])
        // No existing task changed.
        let tasks = try s.tasks("lists/big.json")
        #expect(tasks.count == 201)
        #expect(tasks.dropLast().allSatisfy { $0.string("modifiedAt") == pinnedNow })
        // The new lines follow the last old task's block, before the closing of "tasks".
        let newText = lines(try s.text("lists/big.json"))
        #expect(Array(newText.suffix(4)) == ["      \"modifiedAt\": \"2026-11-22T11:00:00Z\"", "    }", "  ]", "}"])
    }
}
