import Foundation
import Testing

/// A canonical store file cut into its header (up to `"tasks": [`), one block
/// of lines per task, and its footer (from the `]` that closes `tasks`), so
/// tests can assemble the exact file a merge must produce from the blocks of
/// the two sides.
struct CanonicalFile {
    var header: [String]
    var blocks: [(id: String, lines: [String])]
    var footer: [String]

    init(_ text: String) throws {
        let all = lines(text)
        guard let open = all.firstIndex(of: "  \"tasks\": [") else { throw HarnessError("no multi-line tasks array in:\n\(text)") }
        header = Array(all[...open])
        blocks = []
        var i = open + 1
        while i < all.count, all[i] == "    {" {
            guard let end = all[i...].firstIndex(where: { $0 == "    }" || $0 == "    }," }) else { throw HarnessError("unclosed task") }
            var block = Array(all[i...end])
            block[block.count - 1] = "    }"
            guard let idLine = block.first(where: { $0.hasPrefix("      \"id\": \"") }) else { throw HarnessError("task without id") }
            blocks.append((String(idLine.dropFirst(13).dropLast(2)), block))
            i = end + 1
        }
        footer = Array(all[i...])
    }

    /// The block of a task.
    func block(_ id: String) throws -> [String] {
        guard let b = blocks.first(where: { $0.id == id }) else { throw HarnessError("no task \(id)") }
        return b.lines
    }

    /// The file with these task blocks, in this order.
    static func assemble(header: [String], blocks: [[String]], footer: [String]) -> String {
        var out = header
        for (i, block) in blocks.enumerated() {
            var b = block
            if i < blocks.count - 1 { b[b.count - 1] = "    }," }
            out += b
        }
        out += footer
        return out.joined(separator: "\n") + "\n"
    }
}

/// git merges with the tick merge driver, with real git: a bare repository
/// and two clones, concurrent edits through tick and by hand (`sed -i`).
/// Every merged file is compared byte for byte with the file the merge
/// policy (Docs/MERGE.md) gives.
@Suite("git merge driver")
struct GitMergeTests {
    static let atA = "2026-11-21T10:00:00Z"
    static let atB = "2026-11-21T10:30:00Z"

    /// A and B share list Work with T1..T4 (created at the pinned now).
    static func machines(setUpA: Bool = true, setUpB: Bool = true) throws -> GitMachines {
        try GitMachines(setUpA: setUpA, setUpB: setUpB) { s in
            try s.ok("lists", "add", "Work")
            for t in ["T1", "T2", "T3", "T4"] { try s.add(t, "list:Work") }
        }
    }

    /// The id of the task with this title in a sandbox's lists/work.json.
    static func id(_ s: Sandbox, _ title: String, file: String = "lists/work.json") throws -> String {
        try #require(try s.tasks(file).task(title)?.string("id"))
    }

    /// The merged file is valid, has no markers, and the work tree is clean.
    static func expectCleanMerge(_ s: Sandbox, file: String = "lists/work.json", sourceLocation: SourceLocation = #_sourceLocation) throws {
        let text = try s.text(file)
        #expect(!text.contains("<<<<<<<") && !text.contains(">>>>>>>"), sourceLocation: sourceLocation)
        #expect(try s.git("status", "--porcelain").stdout == "", sourceLocation: sourceLocation)
        #expect(try s.git("ls-files", "-u").stdout == "", sourceLocation: sourceLocation)
        // tick reads it.
        #expect(try s.tick("list", "--all").status == 0, sourceLocation: sourceLocation)
    }

    // MARK: Setup

    @Test("tick git setup: .gitattributes committed, driver in the local config by absolute path, idempotent")
    func setupIdempotent() throws {
        let s = try Sandbox()
        try s.git("init", "-q", s.store, in: s.root)
        try s.configureGitIdentity()
        let first = try s.tick("git", "setup")
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout.contains("Added \"*.json merge=tick\" to \(s.store)/.gitattributes\n"), "\(first.stdout)")
        #expect(first.stdout.contains("Committed .gitattributes: tick: use the tick merge driver\n"), "\(first.stdout)")
        #expect(try s.text(".gitattributes") == "*.json merge=tick\n")
        #expect(try s.commitSubjects() == ["tick: use the tick merge driver"])
        #expect(try s.git("ls-files").stdout == ".gitattributes\n")
        #expect(try s.git("status", "--porcelain").stdout == "")
        let binary = URL(fileURLWithPath: TickBinary.path).resolvingSymlinksInPath().path
        #expect(try s.git("config", "--local", "merge.tick.driver").stdout == "'\(binary)' merge-driver %O %A %B %P\n")
        #expect(try s.git("config", "--local", "merge.tick.name").stdout.hasPrefix("tick"))
        #expect(try s.git("check-attr", "merge", "--", "inbox.json", "lists/work.json").stdout
                == "inbox.json: merge: tick\nlists/work.json: merge: tick\n")

        // Again: nothing changes, and it says so.
        let config = try s.text(".git/config")
        let second = try s.tick("git", "setup")
        #expect(second.status == 0)
        #expect(second.stdout == "Already set up: git merges the task files in \(s.store) with tick (nothing changed)\n")
        #expect(try s.commitSubjects() == ["tick: use the tick merge driver"])
        #expect(try s.text(".git/config") == config)
        #expect(try s.text(".gitattributes") == "*.json merge=tick\n")
    }

    @Test("tick git setup keeps an existing .gitattributes and adds one line; refuses a store outside git")
    func setupExistingAttributes() throws {
        let s = try Sandbox()
        try s.git("init", "-q", s.store, in: s.root)
        try s.configureGitIdentity()
        try s.write(".gitattributes", "*.md text eol=lf")
        try s.ok("git", "setup")
        #expect(try s.text(".gitattributes") == "*.md text eol=lf\n*.json merge=tick\n")
        #expect(try s.git("status", "--porcelain").stdout == "")

        let outside = try Sandbox()
        try FileManager.default.createDirectory(atPath: outside.store, withIntermediateDirectories: true)
        let r = try outside.tick("git", "setup")
        #expect(r.status == 1)
        #expect(r.stderr.contains("is not in a git repository"), "\(r.stderr)")
        #expect(!outside.exists(".gitattributes"))
    }

    @Test("tick init --git PATH creates the directory, runs git init and sets up the driver")
    func initGit() throws {
        let s = try Sandbox()
        try Data("[user]\n\tname = Tick Test\n\temail = tick@example.invalid\n".utf8).write(to: URL(fileURLWithPath: s.home + "/.gitconfig"))
        let path = s.root + "/new/tasks"
        let r = try s.tick("init", "--git", path)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("Created the store \(path)\n"))
        #expect(r.stdout.contains("Initialized a git repository in \(path)\n"))
        #expect(r.stdout.contains("export TICK_STORE=\(path)"))
        #expect(try s.git("rev-parse", "--show-toplevel", in: path).stdout == path + "\n")
        #expect(try s.commitSubjects(in: path) == ["tick: use the tick merge driver"])
        #expect(try s.git("config", "--local", "merge.tick.driver", in: path).stdout.hasSuffix(" merge-driver %O %A %B %P\n"))
        // Again: already a repository, already set up.
        let again = try s.tick("init", "--git", path)
        #expect(again.status == 0)
        #expect(again.stdout.contains("Already set up"), "\(again.stdout)")
        #expect(try s.commitSubjects(in: path).count == 1)
    }

    @Test("a store in a subdirectory of a repository: .gitattributes in the store, merges through the driver")
    func storeInSubdirectory() throws {
        let a = try Sandbox(), b = try Sandbox()
        let remote = a.root + "/remote.git"
        try a.git("init", "-q", "--bare", "--initial-branch=main", remote, in: a.root)
        let repoA = a.root + "/repo", repoB = b.root + "/repo"
        try a.git("clone", "-q", remote, repoA, in: a.root)
        try a.configureGitIdentity(in: repoA)
        try a.git("symbolic-ref", "HEAD", "refs/heads/main", in: repoA)
        try Data("notes\n".utf8).write(to: URL(fileURLWithPath: repoA + "/README"))
        let storeA: [String: String?] = ["TICK_STORE": repoA + "/tasks"]
        let storeB: [String: String?] = ["TICK_STORE": repoB + "/tasks"]
        #expect(try a.tick(["init", "--git"], env: storeA).status == 0)
        #expect(FileManager.default.fileExists(atPath: repoA + "/tasks/.gitattributes"))
        #expect(!FileManager.default.fileExists(atPath: repoA + "/.gitattributes"))
        #expect(try a.tick(["lists", "add", "Work"], env: storeA).status == 0)
        #expect(try a.tick(["add", "T1", "list:Work"], env: storeA).status == 0)
        try a.git("add", "-A", in: repoA)
        try a.git("commit", "-q", "-m", "base", in: repoA)
        try a.git("push", "-q", "-u", "origin", "main", in: repoA)
        try b.git("clone", "-q", remote, repoB, in: b.root)
        try b.configureGitIdentity(in: repoB)
        let setup = try b.tick(["git", "setup"], env: storeB)
        #expect(setup.status == 0)
        #expect(!setup.stdout.contains("Committed"), "the attributes came with the clone: \(setup.stdout)")

        #expect(try a.tick(["add", "Alpha", "list:Work"], now: Self.atA, env: storeA).status == 0)
        try a.git("commit", "-q", "-am", "alpha", in: repoA)
        try a.git("push", "-q", in: repoA)
        #expect(try b.tick(["add", "Beta", "list:Work"], now: Self.atB, env: storeB).status == 0)
        try b.git("commit", "-q", "-am", "beta", in: repoB)
        let pull = try b.gitResult("pull", "-q", "--no-rebase", "--no-edit", in: repoB)
        #expect(pull.status == 0, "\(pull)")
        let merged = try CanonicalFile(String(decoding: try Data(contentsOf: URL(fileURLWithPath: repoB + "/tasks/lists/work.json")), as: UTF8.self))
        #expect(merged.blocks.map { $0.lines[2] } == ["      \"title\": \"T1\",", "      \"title\": \"Alpha\",", "      \"title\": \"Beta\","])
        #expect(try b.git("status", "--porcelain", in: repoB).stdout == "")

        // tick sync works on a store below the top of the work tree.
        try b.git("push", "-q", in: repoB)
        #expect(try b.tick(["add", "Gamma", "list:Work"], now: "2026-11-21T11:00:00Z", env: storeB).status == 0)
        let syncB = try b.tick(["sync"], env: storeB)
        #expect(syncB.status == 0, "\(syncB)")
        #expect(syncB.stdout == "Committed: tick: 1 task added in 1 file\nAlready up to date with origin/main\nPushed to origin/main\n")
        let syncA = try a.tick(["sync"], env: storeA)
        #expect(syncA.status == 0, "\(syncA)")
        #expect(syncA.stdout.contains("\n  lists/work.json: 2 tasks added\n"), "\(syncA.stdout)")
        #expect(try a.git("status", "--porcelain", in: repoA).stdout == "")
    }

    // MARK: Concurrent edits

    @Test("both add at the end of the same list: git's text merge conflicts, the tick driver merges cleanly")
    func bothAdd() throws {
        let m = try Self.machines(setUpB: false)
        let (a, b) = (m.a, m.b)
        try a.add("Alpha", "list:Work", now: Self.atA)
        try a.commitAll("alpha")
        try a.git("push", "-q")
        try b.add("Beta", "list:Work", now: Self.atB)
        try b.commitAll("beta")

        // Without the driver (this clone was not set up): git's line merge conflicts
        // on the adjacent lines at the end of the tasks array.
        let text = try b.gitResult("pull", "--no-rebase", "--no-edit")
        #expect(text.status != 0)
        #expect(text.stdout.contains("CONFLICT (content): Merge conflict in lists/work.json"), "\(text)")
        #expect(try b.text("lists/work.json").contains("<<<<<<< HEAD"))
        try b.git("merge", "--abort")

        // A driver that fails also conflicts (and leaves our version).
        try b.ok("git", "setup")
        let failing = try b.gitResult("-c", "merge.tick.driver=false", "pull", "--no-rebase", "--no-edit")
        #expect(failing.status != 0)
        #expect(try b.git("ls-files", "-u").stdout.contains("lists/work.json"))
        try b.git("merge", "--abort")

        // With the driver: a clean merge commit.
        let pulled = try b.gitResult("pull", "--no-rebase", "--no-edit")
        #expect(pulled.status == 0, "\(pulled)")
        #expect(pulled.stderr.contains("tick merge-driver: merged lists/work.json: 1 added"), "\(pulled.stderr)")
        #expect(!pulled.stderr.contains("Alpha"), "the driver never prints titles")
        let fa = try CanonicalFile(try a.text("lists/work.json"))
        let fb = try CanonicalFile(try b.text("lists/work.json"))
        let base = fa.blocks.prefix(4).map(\.lines)
        let expected = CanonicalFile.assemble(header: fa.header, blocks: base + [try fa.block(Self.id(a, "Alpha")), try fb.block(Self.id(b, "Beta"))], footer: fa.footer)
        #expect(try b.text("lists/work.json") == expected)
        try Self.expectCleanMerge(b)
        #expect(try b.git("rev-list", "--parents", "-n", "1", "HEAD").stdout.split(separator: " ").count == 3, "a merge commit")

        // A gets the same bytes.
        try b.git("push", "-q")
        try a.git("pull", "-q", "--no-rebase", "--no-edit")
        #expect(try a.text("lists/work.json") == expected)
    }

    @Test("complete (tick done) vs rename (sed -i): the task is done and renamed")
    func completeVsRename() throws {
        let m = try Self.machines()
        let (a, b) = (m.a, m.b)
        let t1 = try Self.id(a, "T1")
        try a.ok("done", String(t1.prefix(8)), now: Self.atA)
        try a.commitAll("done")
        try a.git("push", "-q")
        try b.sed("-i", "s/\"title\": \"T1\"/\"title\": \"T1 renamed\"/", "lists/work.json")
        try b.commitAll("rename by hand")
        let pulled = try b.gitResult("pull", "--no-rebase", "--no-edit")
        #expect(pulled.status == 0, "\(pulled)")

        let fa = try CanonicalFile(try a.text("lists/work.json"))
        var t1Block = try fa.block(t1)
        t1Block[2] = "      \"title\": \"T1 renamed\","
        #expect(t1Block[3] == "      \"state\": \"done\",")
        #expect(t1Block.contains("      \"completedAt\": \"\(Self.atA)\","))
        #expect(t1Block.contains("        \"state\": \"\(Self.atA)\""))
        #expect(t1Block.contains("      \"modifiedAt\": \"\(Self.atA)\","))
        let expected = CanonicalFile.assemble(header: fa.header, blocks: [t1Block] + fa.blocks.dropFirst().map(\.lines), footer: fa.footer)
        #expect(try b.text("lists/work.json") == expected)
        try Self.expectCleanMerge(b)
    }

    @Test("delete (tick rm) vs edit: the edit wins, the task stays, no tombstone is left for it")
    func deleteVsEdit() throws {
        let m = try Self.machines()
        let (a, b) = (m.a, m.b)
        let t2 = try Self.id(a, "T2")
        try a.ok("rm", String(t2.prefix(8)), now: Self.atA)
        #expect(try a.file("lists/work.json")["deleted"] != nil, "rm records a tombstone")
        try a.commitAll("rm")
        try a.git("push", "-q")
        try b.ok("edit", String(t2.prefix(8)), "pri:must", now: Self.atB)
        try b.commitAll("edit")
        let pulled = try b.gitResult("pull", "--no-rebase", "--no-edit")
        #expect(pulled.status == 0, "\(pulled)")
        // B's version exactly: T2 edited, the other tasks unchanged, no "deleted".
        let expected = try b.git("show", "HEAD^1:lists/work.json").stdout
        #expect(expected.contains("\"priority\": \"must\""))
        #expect(try b.text("lists/work.json") == expected)
        #expect(try b.file("lists/work.json")["deleted"] == nil)
        try Self.expectCleanMerge(b)
    }

    @Test("reorder vs reorder: each side's move is kept")
    func reorderVsReorder() throws {
        let m = try Self.machines()
        let (a, b) = (m.a, m.b)
        let ids = try ["T1", "T2", "T3", "T4"].map { try Self.id(a, $0) }
        try a.ok("reorder", String(ids[3].prefix(8)), "--top", now: Self.atA)
        try a.commitAll("T4 to the top")
        try a.git("push", "-q")
        try b.ok("reorder", String(ids[0].prefix(8)), "--bottom", now: Self.atB)
        try b.commitAll("T1 to the bottom")
        #expect(try b.tasks("lists/work.json").titles == ["T2", "T3", "T4", "T1"])
        let pulled = try b.gitResult("pull", "--no-rebase", "--no-edit")
        #expect(pulled.status == 0, "\(pulled)")

        let fa = try CanonicalFile(try a.text("lists/work.json"))
        let fb = try CanonicalFile(try b.git("show", "HEAD^1:lists/work.json").stdout)
        let expected = CanonicalFile.assemble(
            header: fa.header,
            blocks: [try fa.block(ids[3]), try fa.block(ids[1]), try fa.block(ids[2]), try fb.block(ids[0])],
            footer: fa.footer)
        #expect(try b.text("lists/work.json") == expected)
        #expect(try b.tasks("lists/work.json").titles == ["T4", "T2", "T3", "T1"])
        try Self.expectCleanMerge(b)
    }

    @Test("list rename vs task add: the new name and the new task")
    func renameVsAdd() throws {
        let m = try Self.machines()
        let (a, b) = (m.a, m.b)
        try a.ok("lists", "rename", "Work", "Office", now: Self.atA)
        try a.commitAll("rename")
        try a.git("push", "-q")
        try b.add("Gamma", "list:Work", now: Self.atB)
        try b.commitAll("gamma")
        let pulled = try b.gitResult("pull", "--no-rebase", "--no-edit")
        #expect(pulled.status == 0, "\(pulled)")

        let fa = try CanonicalFile(try a.text("lists/work.json"))
        #expect(fa.header.contains("  \"name\": \"Office\","))
        #expect(fa.header.contains("  \"modifiedAt\": \"\(Self.atA)\","))
        let fb = try CanonicalFile(try b.git("show", "HEAD^1:lists/work.json").stdout)
        let expected = CanonicalFile.assemble(header: fa.header, blocks: fa.blocks.map(\.lines) + [try fb.block(Self.id(b, "Gamma"))], footer: fa.footer)
        #expect(try b.text("lists/work.json") == expected)
        try Self.expectCleanMerge(b)
    }

    @Test("git pull --rebase: git swaps the sides, the result is the same as with a merge")
    func pullRebase() throws {
        let m = try Self.machines()
        let (a, b) = (m.a, m.b)
        try a.add("Alpha", "list:Work", now: Self.atA)
        try a.commitAll("alpha")
        try a.git("push", "-q")
        try b.add("Beta", "list:Work", now: Self.atB)
        try b.commitAll("beta")
        let betaBlock = try CanonicalFile(try b.text("lists/work.json")).block(Self.id(b, "Beta"))
        let pulled = try b.gitResult("pull", "--rebase")
        #expect(pulled.status == 0, "\(pulled)")
        #expect(try b.git("rev-list", "--merges", "HEAD").stdout == "", "linear history")
        #expect(try b.commitSubjects().prefix(2) == ["beta", "alpha"])

        let fa = try CanonicalFile(try a.text("lists/work.json"))
        let expected = CanonicalFile.assemble(header: fa.header, blocks: fa.blocks.map(\.lines) + [betaBlock], footer: fa.footer)
        #expect(try b.text("lists/work.json") == expected)
        try Self.expectCleanMerge(b)
    }

    @Test("git cherry-pick of an add onto a branch that also added: both tasks")
    func cherryPick() throws {
        let m = try Self.machines()
        let b = m.b
        try b.git("checkout", "-q", "-b", "side")
        try b.add("Delta", "list:Work", now: "2026-11-21T11:00:00Z")
        try b.commitAll("delta")
        let deltaBlock = try CanonicalFile(try b.text("lists/work.json")).block(Self.id(b, "Delta"))
        try b.git("checkout", "-q", "main")
        try b.add("Epsilon", "list:Work", now: "2026-11-21T10:45:00Z")
        try b.commitAll("epsilon")
        let f = try CanonicalFile(try b.text("lists/work.json"))

        let withoutDriver = try b.gitResult("-c", "merge.tick.driver=false", "cherry-pick", "side")
        #expect(withoutDriver.status != 0)
        try b.git("cherry-pick", "--abort")

        let picked = try b.gitResult("cherry-pick", "side")
        #expect(picked.status == 0, "\(picked)")
        let expected = CanonicalFile.assemble(header: f.header, blocks: f.blocks.map(\.lines) + [deltaBlock], footer: f.footer)
        #expect(try b.text("lists/work.json") == expected)
        #expect(try b.tasks("lists/work.json").titles == ["T1", "T2", "T3", "T4", "Epsilon", "Delta"])
        try Self.expectCleanMerge(b)
    }

    @Test("a side that is not valid JSON: git's text merge, conflict markers, the pull stops")
    func fallbackThroughGit() throws {
        let m = try Self.machines()
        let (a, b) = (m.a, m.b)
        // A breaks the file by hand (a missing comma) while renaming T4; B renames T4 too.
        try a.sed("-i", "s/\"title\": \"T4\",/\"title\": \"T4 by A\"/", "lists/work.json")
        try a.commitAll("broken")
        try a.git("push", "-q")
        try b.sed("-i", "s/\"title\": \"T4\"/\"title\": \"T4 by B\"/", "lists/work.json")
        try b.commitAll("rename T4")
        let pulled = try b.gitResult("pull", "--no-rebase", "--no-edit")
        #expect(pulled.status != 0)
        #expect(pulled.stderr.contains("tick merge-driver: theirs version of lists/work.json:"), "\(pulled.stderr)")
        let text = try b.text("lists/work.json")
        #expect(text.contains("<<<<<<< ours\n") && text.contains("\n=======\n") && text.contains(">>>>>>> theirs\n"), "\(text)")
        #expect(text.contains("T4 by A") && text.contains("T4 by B"), "nothing is lost")
        #expect(try b.git("ls-files", "-u").stdout.contains("lists/work.json"))
        // tick sees the pending conflict.
        let st = try b.statusJSON()
        let conflicts = try #require(st["conflicts"] as? [[String: Any]])
        #expect(conflicts.first?.string("path") == "lists/work.json")
        #expect(conflicts.first?.string("type") == "git-conflict-markers")
    }

    // MARK: The driver on its own

    /// Writes the three versions into the sandbox's io directory; returns their paths.
    static func versions(_ s: Sandbox, base: String?, ours: String, theirs: String) throws -> (String, String, String) {
        let dir = s.root + "/driver"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let paths = (dir + "/base", dir + "/ours", dir + "/theirs")
        try Data((base ?? "").utf8).write(to: URL(fileURLWithPath: paths.0))
        try Data(ours.utf8).write(to: URL(fileURLWithPath: paths.1))
        try Data(theirs.utf8).write(to: URL(fileURLWithPath: paths.2))
        return paths
    }

    @Test("tick merge-driver: writes the merge to OURS only, prints nothing on stdout, counts on stderr")
    func driverDirect() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.add("T1", "list:Work")
        let base = try s.text("lists/work.json")
        try s.add("Alpha", "list:Work", now: Self.atA)
        let ours = try s.text("lists/work.json")
        let alphaID = try Self.id(s, "Alpha")
        try s.ok("rm", String(alphaID.prefix(8)))
        try s.add("Beta", "list:Work", now: Self.atB)
        let theirsWithTombstone = try s.text("lists/work.json")
        // Their side never saw Alpha: drop its tombstone.
        var tf = try CanonicalFile(theirsWithTombstone)
        tf.footer = ["  ]", "}"]
        let theirs = CanonicalFile.assemble(header: tf.header, blocks: tf.blocks.map(\.lines), footer: tf.footer)
        let store = try s.fingerprint()

        let (pb, po, pt) = try Self.versions(s, base: base, ours: ours, theirs: theirs)
        let r = try s.tick("merge-driver", pb, po, pt, "lists/work.json", cwd: s.root + "/driver")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "")
        #expect(lines(r.stderr).count == 1)
        #expect(r.stderr.hasPrefix("tick merge-driver: merged lists/work.json: 1 added"), "\(r.stderr)")
        #expect(!r.stderr.contains("Beta") && !r.stderr.contains("Alpha"))
        let fo = try CanonicalFile(ours)
        let expected = CanonicalFile.assemble(header: fo.header, blocks: fo.blocks.map(\.lines) + [try tf.block(Self.id(s, "Beta"))], footer: fo.footer)
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: po)), as: UTF8.self) == expected)
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: pb)), as: UTF8.self) == base, "BASE untouched")
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: pt)), as: UTF8.self) == theirs, "THEIRS untouched")
        #expect(try s.fingerprint() == store, "the work tree (store) is untouched")

        // Add/add: an empty BASE is a two-way merge, same result here.
        let (pb2, po2, pt2) = try Self.versions(s, base: nil, ours: ours, theirs: theirs)
        let r2 = try s.tick("merge-driver", pb2, po2, pt2, "lists/work.json", cwd: s.root + "/driver")
        #expect(r2.status == 0, "\(r2)")
        #expect(r2.stderr.contains("(two-way)"))
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: po2)), as: UTF8.self) == expected)
    }

    @Test("tick merge-driver with an invalid side: conflict markers in OURS, non-zero exit")
    func driverFallback() throws {
        let base = "{\n  \"tasks\": [\n    {\"title\": \"a\"}\n  ]\n}\n"
        let ours = "{\n  \"tasks\": [\n    {\"title\": \"ours\"}\n  ]\n}\n"
        let theirs = "{\n  \"tasks\": [\n    {\"title\": \"theirs\"\n  ]\n}\n"   // missing }
        let s = try Sandbox()
        let (pb, po, pt) = try Self.versions(s, base: base, ours: ours, theirs: theirs)
        let r = try s.tick("merge-driver", pb, po, pt, "inbox.json", cwd: s.root + "/driver")
        #expect(r.status != 0)
        #expect(r.stdout == "")
        #expect(r.stderr.contains("theirs version of inbox.json:4:3:"), "\(r.stderr)")
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: po)), as: UTF8.self) == """
        {
          "tasks": [
        <<<<<<< ours
            {"title": "ours"}
        =======
            {"title": "theirs"
        >>>>>>> theirs
          ]
        }

        """)
        #expect(!s.exists("inbox.json"), "nothing written to the store")
    }

    @Test("tick merge-driver appears in the help and explains that git calls it")
    func driverHelp() throws {
        let s = try Sandbox()
        #expect(try s.tick("--help").stdout.contains("merge-driver"))
        let help = try s.tick("help", "merge-driver")
        #expect(help.stdout.contains("called by git"), "\(help.stdout)")
    }
}
