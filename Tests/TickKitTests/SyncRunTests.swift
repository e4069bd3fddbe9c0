import Foundation
import Testing
@testable import TickKit

/// `tick sync`'s workflow, in process (issue 28), on real git repositories in
/// a temp directory: what it commits, pulls and pushes, and what it reports.
@Suite struct SyncRunTests {
    let now = Timestamp.parse("2026-11-24T09:00:00Z")!

    /// A temp directory for one test, with the environment git gets (no user or system config).
    struct Sandbox {
        let dir: String
        let environment: [String: String]

        init() throws {
            dir = NSTemporaryDirectory() + "tick-sync-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: dir + "/home", withIntermediateDirectories: true)
            environment = [
                "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                "HOME": dir + "/home",
                "LANG": "C.UTF-8",
                "GIT_CONFIG_NOSYSTEM": "1",
                "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com",
                "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com",
            ]
        }

        /// Runs git in `directory` (relative to the sandbox) and requires it to succeed.
        @discardableResult
        func git(_ args: [String], in directory: String) throws -> String {
            let r = try GitRepository.run(args, in: dir + "/" + directory, environment: environment)
            guard r.succeeded else { throw GitError("git \(args.joined(separator: " ")): \(r.message)") }
            return r.output
        }

        /// A store in `directory` (relative to the sandbox, a git work tree).
        func store(_ directory: String) throws -> Store {
            let root = dir + "/" + directory
            try FileManager.default.createDirectory(atPath: root + "/lists", withIntermediateDirectories: true)
            return Store(location: StoreLocation(root: root, stateDirectory: dir + "/state-" + directory, cacheDirectory: dir + "/cache-" + directory))
        }

        func remove() { try? FileManager.default.removeItem(atPath: dir) }
    }

    /// Writes `titles` as the tasks of `kind` (a new file each time).
    func write(_ titles: [String], _ kind: FileKind, in store: Store) throws {
        var file = TaskFile.empty(kind, name: kind == .inbox ? "Inbox" : kind.relativePath, now: now)
        file.tasks = titles.map { TaskItem(id: UUID(), title: $0, createdAt: now, modifiedAt: now) }
        try AtomicFile.write(TaskFileEncoder.encode(file), to: store.location.path(of: kind), mode: nil)
    }

    /// Runs a sync of `store`, collecting the events passed to progress.
    func sync(_ store: Store, _ box: Sandbox) throws -> (report: SyncReport, progress: [SyncEvent]) {
        let repo = try SyncRun.repository(for: store, environment: box.environment)
        let seen = EventLog()
        let report = try SyncRun(store: store, repo: repo, now: now).run { seen.events.append($0) }
        return (report, seen.events)
    }

    final class EventLog { var events: [SyncEvent] = [] }

    /// The store's events as short names, for order checks.
    func names(_ events: [SyncEvent]) -> [String] {
        events.map { event in
            switch event {
            case .committed: "committed"
            case .noLocalChanges: "noLocalChanges"
            case .noRemote: "noRemote"
            case .pushedNewBranch: "pushedNewBranch"
            case .upToDate: "upToDate"
            case .incoming: "incoming"
            case .pushed: "pushed"
            case .nothingToPush: "nothingToPush"
            case .unreadableFile: "unreadableFile"
            case .conflictCopiesPending: "conflictCopiesPending"
            default: "\(event)"
            }
        }
    }

    @Test func aStoreOutsideGitOrMissingIsRefusedWithTheRootInTheMessage() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let store = try box.store("plain")
        #expect(throws: SyncError.notARepository(root: store.location.root)) {
            _ = try SyncRun.repository(for: store, environment: box.environment)
        }
        let missing = Store(location: StoreLocation(root: box.dir + "/nowhere", stateDirectory: box.dir + "/s", cacheDirectory: box.dir + "/c"))
        #expect(throws: SyncError.noStore(root: box.dir + "/nowhere")) {
            _ = try SyncRun.repository(for: missing, environment: box.environment)
        }
    }

    @Test func withoutARemoteItCommitsWithACountingMessageAndSaysSo() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let store = try box.store("a")
        try box.git(["init", "-q", "-b", "main"], in: "a")
        try write(["one", "two"], .inbox, in: store)
        // tick's temporary files never go into a commit.
        try Data("x".utf8).write(to: URL(fileURLWithPath: store.location.root + "/.inbox.json.tick-1a2b.tmp"))

        let first = try sync(store, box)
        let message = try #require(first.report.commitMessage)
        #expect(message.hasPrefix("tick: 2 tasks added"))
        #expect(names(first.progress) == ["committed", "noRemote"], "progress sees every event, in order")
        #expect(names(first.report.events) == names(first.progress))
        guard case .noRemote(let branch) = first.report.events.last else { Issue.record("no .noRemote"); return }
        #expect(branch == "main")
        #expect(try box.git(["log", "-1", "--format=%s"], in: "a") == message)
        #expect(try box.git(["ls-files"], in: "a") == "inbox.json")
        #expect(!first.report.pushed)

        let second = try sync(store, box)
        #expect(second.report.commitMessage == nil)
        #expect(names(second.report.events) == ["noLocalChanges", "noRemote"])
    }

    @Test func aFileThatDoesNotParseStopsTheSyncBeforeAnyCommit() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let store = try box.store("a")
        try box.git(["init", "-q", "-b", "main"], in: "a")
        try write(["fine"], .inbox, in: store)
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: store.location.path(of: .list(slug: "broken"))))
        let seen = EventLog()
        let repo = try SyncRun.repository(for: store, environment: box.environment)
        do {
            _ = try SyncRun(store: store, repo: repo, now: now).run { seen.events.append($0) }
            Issue.record("a broken file was committed")
        } catch let error as SyncError {
            #expect(error == .unreadableFiles(count: 1))
            #expect(error.kind == .badData)
        }
        #expect(names(seen.events) == ["unreadableFile"])
        guard case .unreadableFile(let problem) = seen.events.first else { return }
        #expect(problem.contains("lists/broken.json"))
        #expect(try box.git(["rev-list", "--all"], in: "a").isEmpty, "nothing was committed")
    }

    @Test func pushesANewBranchThenPullsWhatAnotherClonePushedAndReportsItPerFile() throws {
        let box = try Sandbox()
        defer { box.remove() }
        try FileManager.default.createDirectory(atPath: box.dir + "/remote.git", withIntermediateDirectories: true)
        try box.git(["init", "-q", "--bare", "-b", "main"], in: "remote.git")
        try box.git(["clone", "-q", box.dir + "/remote.git", "a"], in: ".")
        let a = try box.store("a")

        // A clone of an empty repository: the first sync creates the remote branch.
        try write(["from a"], .inbox, in: a)
        let created = try sync(a, box)
        #expect(names(created.report.events) == ["committed", "pushedNewBranch"])
        guard case let .pushedNewBranch(remote, branch) = created.report.events.last else { return }
        #expect(remote == "origin" && branch == "main")
        #expect(created.report.pushed)

        try box.git(["clone", "-q", box.dir + "/remote.git", "b"], in: ".")
        let b = try box.store("b")

        // A adds a list and pushes; B changes another file, then pulls A's list in.
        try write(["plan", "write"], .list(slug: "work"), in: a)
        let pushed = try sync(a, box)
        #expect(names(pushed.report.events) == ["committed", "upToDate", "pushed"])
        try write(["groceries"], .list(slug: "home"), in: b)
        let pulled = try sync(b, box)
        #expect(names(pulled.report.events) == ["committed", "incoming", "pushed"])
        let incoming = try #require(pulled.report.incoming.first)
        #expect(incoming.files.map(\.path) == ["lists/work.json"])
        #expect(incoming.files.first?.addedIDs.count == 2)
        guard case .incoming(let upstream, _) = pulled.report.events[1] else { return }
        #expect(upstream == "origin/main")
        #expect(pulled.report.storeMerge.isEmpty, "nothing needed joining")
        #expect(FileManager.default.fileExists(atPath: b.location.path(of: .list(slug: "work"))))

        // Back on A: B's list comes in, and there is nothing left to push.
        let back = try sync(a, box)
        #expect(names(back.report.events) == ["noLocalChanges", "incoming", "nothingToPush"])
        #expect(back.report.incoming.first?.files.map(\.path) == ["lists/home.json"])
    }

    @Test func pendingSyncthingCopiesAreReportedLast() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let store = try box.store("a")
        try box.git(["init", "-q", "-b", "main"], in: "a")
        try write(["one"], .inbox, in: store)
        try write(["other"], .inbox, in: try box.store("copy"))
        try FileManager.default.copyItem(atPath: box.dir + "/copy/inbox.json", toPath: store.location.root + "/inbox.sync-conflict-20261124-090000-ABCDEFG.json")
        try Data("{}".utf8).write(to: URL(fileURLWithPath: store.location.root + "/blocks.sync-conflict-20261124-090000-ABCDEFG.json"))
        let result = try sync(store, box)
        #expect(names(result.report.events) == ["committed", "noRemote", "conflictCopiesPending"])
        #expect(result.report.pendingConflictCopies == [
            "inbox.sync-conflict-20261124-090000-ABCDEFG.json", "blocks.sync-conflict-20261124-090000-ABCDEFG.json",
        ])
    }
}
