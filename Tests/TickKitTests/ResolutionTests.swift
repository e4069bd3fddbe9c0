import Foundation
import Testing
@testable import TickKit

@Suite struct ResolutionTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000)

    func task(_ id: String, _ title: String, state: TaskState = .open) -> TaskItem {
        TaskItem(id: UUID(uuidString: id)!, title: title, state: state, createdAt: now, modifiedAt: now)
    }

    var snapshot: StoreSnapshot {
        let inbox = TaskFile(kind: .inbox, id: UUID(), createdAt: now, modifiedAt: now, tasks: [
            task("a1aa1111-0000-4000-8000-000000000001", "One"),
            task("a1aa2222-0000-4000-8000-000000000002", "Two"),
        ])
        let work = TaskFile(kind: .list(slug: "work"), id: UUID(), name: "Work", createdAt: now, modifiedAt: now, tasks: [
            task("bbbb3333-0000-4000-8000-000000000003", "Three"),
            task("cccc4444-0000-4000-8000-000000000004", "Four", state: .done),
        ])
        return StoreSnapshot(files: [inbox, work])
    }

    @Test func shortIDsAreAssignedInDisplayOrderToPendingTasksOnly() {
        var table = ShortIDTable()
        let pending = snapshot.allTasks.filter { $0.task.state.isPending }.map(\.task.id)
        let changed = table.sync(pending: pending)
        #expect(changed)
        #expect(pending.map { table.shortID(of: $0) } == [1, 2, 3])
        #expect(table.shortID(of: UUID(uuidString: "cccc4444-0000-4000-8000-000000000004")!) == nil)
        let changedAgain = table.sync(pending: pending)
        #expect(!changedAgain)
    }

    @Test func shortIDsAreStableAndFreedNumbersReused() {
        let a = UUID(), b = UUID(), c = UUID(), d = UUID()
        var table = ShortIDTable()
        table.sync(pending: [a, b, c])
        table.sync(pending: [a, c])  // b done
        #expect(table.shortID(of: a) == 1)
        #expect(table.shortID(of: c) == 3)
        table.sync(pending: [d, a, c])  // a new task takes the smallest free number
        #expect(table.shortID(of: d) == 2)
        #expect(table.shortID(of: a) == 1)
        let decoded = ShortIDTable.decode(table.encoded())
        #expect(decoded == table)
    }

    @Test func brokenFilesKeepTheirTasksIDs() {
        let a = UUID(), b = UUID()
        var table = ShortIDTable()
        table.sync(pending: [a, b])
        table.sync(pending: [a], keep: [b])
        #expect(table.shortID(of: b) == 2)
    }

    @Test func resolvesShortIDsAndPrefixes() throws {
        var table = ShortIDTable()
        table.sync(pending: snapshot.allTasks.filter { $0.task.state.isPending }.map(\.task.id))
        let resolver = TaskResolver(snapshot: snapshot, ids: table)
        #expect(try resolver.resolve("3").task.title == "Three")
        #expect(try resolver.resolve("bbbb3").task.title == "Three")
        #expect(throws: LookupError.taskNotFound("bbbb")) { try resolver.resolve("bbbb") }   // letters alone are a word, not an id
        #expect(try resolver.resolve("A1AA-2222").task.title == "Two")
        #expect(try resolver.resolve("cccc4444").task.title == "Four")
        #expect(try resolver.resolve("cccc4444").kind == .list(slug: "work"))
    }

    @Test func ambiguousPrefixListsTheCandidates() throws {
        let resolver = TaskResolver(snapshot: snapshot, ids: ShortIDTable())
        let result = Result { try resolver.resolve("a1aa") }
        guard case .failure(let error) = result, case .ambiguousTask(let ref, let candidates) = error as? LookupError else {
            Issue.record("expected an ambiguity error, got \(result)")
            return
        }
        #expect(ref == "a1aa")
        #expect(candidates.count == 2)
        #expect(candidates[0].contains("a1aa1111-0000-4000-8000-000000000001"))
        #expect(candidates[1].contains("Two"))
    }

    @Test(arguments: ["9", "abc", "dddd", "zzzzzz", ""])
    func unknownReferencesAreNotFound(ref: String) {
        let resolver = TaskResolver(snapshot: snapshot, ids: ShortIDTable())
        #expect(throws: LookupError.taskNotFound(ref)) { try resolver.resolve(ref) }
    }

    @Test func listsResolveByNameSlugOrInbox() throws {
        let resolver = ListResolver(snapshot: snapshot, existingSlugs: ["work"])
        #expect(try resolver.resolve("WORK") == .list(slug: "work"))
        #expect(try resolver.resolve("work") == .list(slug: "work"))
        #expect(try resolver.resolve("Inbox") == .inbox)
        #expect(throws: LookupError.listNotFound("Home", known: ["Work"])) { try resolver.resolve("Home") }
        #expect(throws: LookupError.listExists("work")) { try resolver.slugForNewList(named: "work") }
        #expect(try resolver.slugForNewList(named: "Inbox!") == "inbox-2")
    }

    @Test(arguments: [
        ("Work", "work"), ("Side Project", "side-project"), ("Café Ideas", "café-ideas"),
        ("../../etc/passwd", "etc-passwd"), (".hidden", "hidden"), ("  ", "list"), ("日本語 リスト", "日本語-リスト"),
        ("a/b", "a-b"), ("Q4: Plans!", "q4-plans"),
    ])
    func slugsAreSafe(name: String, slug: String) {
        #expect(Slug.make(from: name) == slug)
        #expect(Slug.isSafe(Slug.make(from: name)))
    }

    /// A slash is a slash whatever follows it: a combining mark after it
    /// (one Character with it) does not make a file name with a directory safe.
    @Test func aSlashBeforeAMarkIsStillUnsafe() {
        #expect(!Slug.isSafe("a/\u{301}b"))
        #expect(!Slug.isSafe("a\u{0}\u{301}"))
        #expect(Slug.isSafe("a\u{301}b"))
        #expect(Store.slug(ofListFileNamed: "work.sync-conflict-20261127-101010-ABCDEFG.json") == nil)
        #expect(Store.slug(ofListFileNamed: "work.json") == "work")
    }
}
