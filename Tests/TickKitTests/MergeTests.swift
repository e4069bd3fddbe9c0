import Foundation
import Testing
@testable import TickKit

/// Small builders for merge tests: tasks on 2026-11-20, ids by letter.
enum MergeFixture {
    /// 2026-11-20T00:00:00Z.
    static let day = Date(timeIntervalSince1970: 1_795_132_800)

    /// A time on 2026-11-20, "HH:MM".
    static func at(_ hhmm: String) -> Date {
        let parts = hhmm.split(separator: ":").compactMap { Int($0) }
        return day.addingTimeInterval(TimeInterval((parts.first ?? 0) * 3600 + (parts.last ?? 0) * 60))
    }

    /// A fixed id per letter: "a" → 00000000-0000-4000-8000-00000000000a.
    static func id(_ letter: String) -> UUID {
        let hex = letter.unicodeScalars.map { String($0.value, radix: 16) }.joined()
        let tail = String(repeating: "0", count: max(0, 12 - hex.count)) + hex
        return UUID(uuidString: "00000000-0000-4000-8000-\(tail.suffix(12))") ?? UUID()
    }

    static func task(
        _ letter: String, _ title: String, _ modified: String = "08:00",
        state: TaskState = .open, completed: String? = nil, due: String? = nil,
        priority: Priority? = nil, tags: [String] = [], notes: String? = nil, extra: [JSONMember] = [],
        changed: [String: String] = [:]
    ) -> TaskItem {
        TaskItem(
            id: id(letter), title: title, state: state, due: due.flatMap(TaskDate.init(fileString:)),
            priority: priority, tags: tags, notes: notes, createdAt: at("08:00"), modifiedAt: at(modified),
            completedAt: completed.map(at), extra: extra, changed: changed.mapValues(at))
    }

    static func list(
        _ tasks: [TaskItem], name: String = "Work", color: String? = nil, modified: String = "08:00",
        extra: [JSONMember] = [], deleted: [Tombstone] = []
    ) -> TaskFile {
        TaskFile(
            kind: .list(slug: "work"), id: id("f"), name: name, color: color, createdAt: at("08:00"),
            modifiedAt: at(modified), extra: extra, tasks: tasks, deleted: deleted)
    }

    static func tomb(_ letter: String, _ time: String) -> Tombstone { Tombstone(id: id(letter), at: at(time)) }

    static func number(_ text: String) -> JSONNode { JSONNode(.number(text)) }

    static func canonical(_ file: TaskFile) -> String {
        String(decoding: TaskFileEncoder.encode(file), as: UTF8.self)
    }

    /// Merges both ways round and checks that the files are the same.
    static func merge(_ base: TaskFile?, _ ours: TaskFile, _ theirs: TaskFile) -> MergeOutcome {
        let outcome = MergeEngine.merge(base: base, ours: ours, theirs: theirs)
        let swapped = MergeEngine.merge(base: base, ours: theirs, theirs: ours)
        #expect(canonical(outcome.file) == canonical(swapped.file), "merge is not symmetric")
        return outcome
    }
}

/// The worked examples of Docs/MERGE.md, one per rule.
@Suite struct MergeTests {
    typealias F = MergeFixture

    // MARK: Matching, adding, one-sided changes

    @Test func tasksAreMatchedByIdNotPositionOrTitle() {
        let base = F.list([F.task("a", "Buy milk"), F.task("b", "Call mom")])
        let ours = F.list([F.task("b", "Call mom"), F.task("a", "Buy oat milk", "09:10")])
        let theirs = F.list([F.task("a", "Buy milk", "09:20", due: "2026-11-21"), F.task("b", "Call mom")])
        let out = F.merge(base, ours, theirs)
        #expect(out.file.tasks == [F.task("b", "Call mom"), F.task("a", "Buy oat milk", "09:20", due: "2026-11-21")])
        #expect(out.report == MergeReport(added: 0, updated: 1, deleted: 0, conflicts: 0))
    }

    @Test func tasksAddedOnEitherSideAreKept() {
        let base = F.list([F.task("a", "Plan trip")])
        let ours = F.list([F.task("a", "Plan trip"), F.task("n", "Pay rent", "09:10")])
        let theirs = F.list([F.task("a", "Plan trip"), F.task("m", "Pay rent", "09:05")])
        let out = F.merge(base, ours, theirs)
        // Same title, different ids: two tasks. Both were added after "a": the older goes first.
        #expect(out.file.tasks == [F.task("a", "Plan trip"), F.task("m", "Pay rent", "09:05"), F.task("n", "Pay rent", "09:10")])
        #expect(out.report == MergeReport(added: 1, updated: 0, deleted: 0, conflicts: 0))
    }

    @Test func aFieldChangedOnOneSideIsTaken() {
        let base = F.list([F.task("a", "Renew passport", notes: "photo booth on 3rd floor")])
        let ours = F.list([F.task("a", "Renew passport", "09:10")])
        let theirs = F.list([F.task("a", "Renew passport", "08:00", notes: "photo booth on 3rd floor")].map {
            var t = $0
            t.tags = ["admin"]
            t.modifiedAt = F.at("09:20")
            return t
        })
        let out = F.merge(base, ours, theirs)
        #expect(out.file.tasks == [F.task("a", "Renew passport", "09:20", tags: ["admin"])])
        #expect(out.report.conflictsResolved == 0)
    }

    // MARK: Conflicts

    @Test func theSameFieldChangedOnBothSidesGoesToTheLaterChange() {
        let base = F.list([F.task("a", "Book flights")])
        let ours = F.list([F.task("a", "Book flights to Lisbon", "09:10", due: "2026-12-01", changed: ["title": "09:10", "due": "09:10"])])
        let theirs = F.list([F.task("a", "Book the train", "09:20", priority: .must, changed: ["title": "09:20", "priority": "09:20"])])
        let out = F.merge(base, ours, theirs)
        #expect(out.file.tasks == [F.task("a", "Book the train", "09:20", due: "2026-12-01", priority: .must,
                                          changed: ["title": "09:20", "due": "09:10", "priority": "09:20"])])
        #expect(out.report.counts == MergeReport(added: 0, updated: 1, deleted: 0, conflicts: 1))
        #expect(out.report.overrides == [FieldOverride(task: F.id("a"), field: "title")])
    }

    @Test func aFieldChangedEarlierOnTheOlderTaskStillWins() {
        // Ours renamed at 09:30; theirs set a due date at 09:40 and, earlier, the title at 09:20.
        let base = F.list([F.task("a", "Book flights")])
        let ours = F.list([F.task("a", "Book flights to Lisbon", "09:30", changed: ["title": "09:30"])])
        let theirs = F.list([F.task("a", "Book the train", "09:40", due: "2026-12-01", changed: ["title": "09:20", "due": "09:40"])])
        for b in [base, nil] {
            let out = F.merge(b, ours, theirs)
            #expect(out.file.tasks == [F.task("a", "Book flights to Lisbon", "09:40", due: "2026-12-01", changed: ["title": "09:30", "due": "09:40"])])
        }
    }

    @Test func withoutABaseDifferentFieldsChangedOnEachSideAreBothKept() {
        let ours = F.list([F.task("a", "Call Anna today", "09:10", changed: ["title": "09:10"])])
        let theirs = F.list([F.task("a", "Call Anna", "09:20", due: "2026-11-21", changed: ["due": "09:20"])])
        let out = F.merge(nil, ours, theirs)
        #expect(out.file.tasks == [F.task("a", "Call Anna today", "09:20", due: "2026-11-21", changed: ["title": "09:10", "due": "09:20"])])
        #expect(out.report.overrides.isEmpty)
    }

    @Test func tagsMergeAsASet() {
        let base = F.list([F.task("a", "Fix bike", tags: ["errand"])])
        let ours = F.list([F.task("a", "Fix bike", "09:10", tags: ["errand", "home"], changed: ["+home": "09:10"])])
        let theirs = F.list([F.task("a", "Fix bike", "09:20", tags: ["urgent"], changed: ["+errand": "09:20", "+urgent": "09:20"])])
        for b in [base, nil] {
            let out = F.merge(b, ours, theirs)
            #expect(out.file.tasks.first?.tags == ["home", "urgent"])
            #expect(out.file.tasks.first?.changed == ["+home": F.at("09:10"), "+errand": F.at("09:20"), "+urgent": F.at("09:20")])
        }
        // Removed on one side after the other added it back: the later one wins.
        let readded = F.list([F.task("a", "Fix bike", "09:30", tags: ["errand"], changed: ["+errand": "09:30"])])
        #expect(F.merge(nil, readded, theirs).file.tasks.first?.tags == ["urgent", "errand"])
    }

    @Test func aTieIsBrokenByCanonicalJSON() {
        let base = F.list([F.task("a", "Draft", notes: "outline")])
        let ours = F.list([F.task("a", "Alpha", "09:10")])
        let theirs = F.list([F.task("a", "Beta", "09:10", notes: "outline, then intro")])
        let out = F.merge(base, ours, theirs)
        // "Beta" sorts after "Alpha"; a value sorts after an absent one.
        #expect(out.file.tasks == [F.task("a", "Beta", "09:10", notes: "outline, then intro", changed: ["title": "09:10", "notes": "09:10"])])
        #expect(out.report.conflictsResolved == 2)
    }

    // MARK: State

    @Test func aCompletionKeepsTheOtherSidesEdits() {
        let base = F.list([F.task("a", "File taxes")])
        let ours = F.list([F.task("a", "File taxes", "09:10", state: .done, completed: "09:10", changed: ["state": "09:10"])])
        let theirs = F.list([F.task("a", "File taxes online", "09:30", notes: "use the portal", changed: ["title": "09:30", "notes": "09:30"])])
        for b in [base, nil] {
            let out = F.merge(b, ours, theirs)
            #expect(out.file.tasks == [F.task("a", "File taxes online", "09:30", state: .done, completed: "09:10", notes: "use the portal",
                                              changed: ["state": "09:10", "title": "09:30", "notes": "09:30"])])
            #expect(out.report.overrides.isEmpty)
        }
    }

    @Test func theStateIsOneValueTheLaterChangeWins() {
        let base = F.list([F.task("a", "File taxes")])
        let ours = F.list([F.task("a", "File taxes", "09:10", state: .done, completed: "09:10", changed: ["state": "09:10"])])
        let theirs = F.list([F.task("a", "File taxes", "09:30", state: .active, changed: ["state": "09:30"])])
        let out = F.merge(base, ours, theirs)
        #expect(out.file.tasks == [F.task("a", "File taxes", "09:30", state: .active, changed: ["state": "09:30"])])
        #expect(out.report.conflictsResolved == 1)
        #expect(out.report.overrides == [FieldOverride(task: F.id("a"), field: "state")])
    }

    @Test func aReopenNewerThanTheOtherSidesCompletionWins() {
        let base = F.list([F.task("a", "Water plants", state: .done, completed: "08:00")])
        let ours = F.list([F.task("a", "Water plants", "09:30")])
        let theirs = F.list([F.task("a", "Water plants", "09:10", state: .done, completed: "09:10")])
        let out = F.merge(base, ours, theirs)
        #expect(out.file.tasks == [F.task("a", "Water plants", "09:30", changed: ["state": "09:30"])])
    }

    @Test func aReopenOlderThanTheOtherSidesCompletionLoses() {
        let base = F.list([F.task("a", "Water plants", state: .done, completed: "08:00")])
        let ours = F.list([F.task("a", "Water plants", "09:05", state: .active)])
        let theirs = F.list([F.task("a", "Water plants", "09:10", state: .done, completed: "09:10")])
        let out = F.merge(base, ours, theirs)
        #expect(out.file.tasks == [F.task("a", "Water plants", "09:10", state: .done, completed: "09:10", changed: ["state": "09:10"])])
    }

    @Test func aReopenAgainstAnUnchangedStateIsAOneSidedChange() {
        let base = F.list([F.task("a", "Water plants", state: .done, completed: "08:00")])
        let ours = F.list([F.task("a", "Water plants", "09:05")])
        let theirs = F.list([F.task("a", "Water the plants", "09:20", state: .done, completed: "08:00")])
        let out = F.merge(base, ours, theirs)
        #expect(out.file.tasks == [F.task("a", "Water the plants", "09:20")])
    }

    // MARK: Delete vs edit

    @Test func deletedOnOneSideAndUnchangedOnTheOtherIsDeleted() {
        let base = F.list([F.task("a", "Buy milk"), F.task("b", "Call mom")])
        let ours = F.list([F.task("a", "Buy milk")], deleted: [F.tomb("b", "09:10")])
        let theirs = base
        let out = F.merge(base, ours, theirs)
        #expect(out.file.tasks == [F.task("a", "Buy milk")])
        #expect(out.file.deleted == [F.tomb("b", "09:10")])
        #expect(out.report == MergeReport(added: 0, updated: 0, deleted: 0, conflicts: 0))
        #expect(MergeEngine.merge(base: base, ours: theirs, theirs: ours).report.counts == MergeReport(added: 0, updated: 0, deleted: 1, conflicts: 0))
    }

    @Test func deletedOnOneSideAndEditedOnTheOtherAfterwardsIsKept() {
        let base = F.list([F.task("a", "Buy milk"), F.task("b", "Call mom")])
        let ours = F.list([F.task("a", "Buy milk")], deleted: [F.tomb("b", "09:10")])
        let theirs = F.list([F.task("a", "Buy milk"), F.task("b", "Call mom", "09:20", notes: "about Sunday", changed: ["notes": "09:20"])])
        for b in [base, nil] {
            let out = F.merge(b, ours, theirs)
            #expect(out.file.tasks == theirs.tasks)
            #expect(out.file.deleted.isEmpty)
        }
        #expect(F.merge(base, ours, theirs).report.counts == MergeReport(added: 1, updated: 0, deleted: 0, conflicts: 0))
    }

    @Test func deletedOnOneSideAfterAnEditOnTheOtherIsDeleted() {
        let base = F.list([F.task("a", "Buy milk"), F.task("b", "Call mom")])
        let ours = F.list([F.task("a", "Buy milk")], deleted: [F.tomb("b", "09:10")])
        let theirs = F.list([F.task("a", "Buy milk"), F.task("b", "Call mom", "09:05", notes: "about Sunday", changed: ["notes": "09:05"])])
        for b in [base, nil] {
            #expect(F.merge(b, ours, theirs).file == ours)
        }
    }

    @Test func aReorderIsNotAnEdit() {
        // Theirs moved b to the top at 09:20; ours deleted b at 09:10: it stays deleted.
        let base = F.list([F.task("a", "Buy milk"), F.task("b", "Call mom")])
        let ours = F.list([F.task("a", "Buy milk")], deleted: [F.tomb("b", "09:10")])
        let theirs = F.list([F.task("b", "Call mom", changed: ["order": "09:20"]), F.task("a", "Buy milk")])
        for b in [base, nil] {
            #expect(F.merge(b, ours, theirs).file == ours)
        }
        // A reorder on one side never overrides a field edit on the other.
        let renamed = F.list([F.task("a", "Buy milk"), F.task("b", "Call dad", "09:10", changed: ["title": "09:10"])])
        let out = F.merge(base, renamed, theirs)
        #expect(out.file.tasks.map(\.title) == ["Call dad", "Buy milk"])
        #expect(out.report.overrides.isEmpty)
    }

    // MARK: Order

    @Test func aMoveOnOneSideIsApplied() {
        let a = F.task("a", "A"), b = F.task("b", "B"), c = F.task("c", "C"), d = F.task("d", "D")
        var dMoved = d
        dMoved.modifiedAt = F.at("09:10")
        let b2 = F.task("b", "B2", "09:20"), e = F.task("e", "E", "09:20")
        let base = F.list([a, b, c, d])
        let ours = F.list([dMoved, a, b, c])
        let theirs = F.list([a, b2, c, d, e])
        let out = F.merge(base, ours, theirs)
        #expect(out.file.tasks.map(\.title) == ["D", "A", "B2", "C", "E"])
    }

    @Test func whenBothSidesMovedATaskTheLaterMoveWins() {
        let a = F.task("a", "A"), b = F.task("b", "B"), c = F.task("c", "C"), d = F.task("d", "D")
        let base = F.list([a, b, c, d])
        func moved(_ time: String) -> TaskItem { F.task("d", "D", time) }
        let toTop = F.list([moved("09:10"), a, b, c])
        let afterA = F.list([a, moved("09:20"), b, c])
        #expect(F.merge(base, toTop, afterA).file.tasks.map(\.title) == ["A", "D", "B", "C"])
        let toTopLater = F.list([moved("09:30"), a, b, c])
        #expect(F.merge(base, toTopLater, afterA).file.tasks.map(\.title) == ["D", "A", "B", "C"])
    }

    @Test func newTasksKeepTheirPlaceAmongTheirNeighbours() {
        let a = F.task("a", "A"), b = F.task("b", "B"), c = F.task("c", "C")
        let base = F.list([a, b, c])
        let ours = F.list([a, F.task("n", "N", "09:10"), b, c])
        let theirs = F.list([F.task("c", "C", "09:20"), a, b])
        let out = F.merge(base, ours, theirs)
        #expect(out.file.tasks.map(\.title) == ["C", "A", "N", "B"])
    }

    @Test func bothSidesAgreeingOnAnOrderKeepIt() {
        let a = F.task("a", "A"), b = F.task("b", "B")
        let base = F.list([a, b])
        let ours = F.list([b, F.task("a", "A", "09:10")])
        let theirs = F.list([F.task("b", "B", "09:20"), a])
        #expect(F.merge(base, ours, theirs).file.tasks.map(\.title) == ["B", "A"])
    }

    // MARK: List metadata and unknown keys

    @Test func listMetadataMergesPerField() {
        let base = F.list([], name: "Work", color: "#3b82f6")
        let ours = F.list([], name: "Work stuff", color: "#3b82f6", modified: "09:10")
        let theirs = F.list([], name: "Work", color: "#ef4444", modified: "09:20")
        #expect(F.merge(base, ours, theirs).file == F.list([], name: "Work stuff", color: "#ef4444", modified: "09:20"))

        let job = F.list([], name: "Job", color: "#3b82f6", modified: "09:10")
        let office = F.list([], name: "Office", color: "#3b82f6", modified: "09:20")
        let out = F.merge(base, job, office)
        #expect(out.file.name == "Office")
        #expect(out.report.conflictsResolved == 1)
    }

    @Test func unknownKeysMergePerKey() {
        let base = F.list([F.task("a", "Report", extra: [JSONMember("x-estimate", F.number("3"))])],
                          extra: [JSONMember("x-owner", .string("sam"))])
        let ours = F.list([F.task("a", "Report", "09:10", extra: [JSONMember("x-estimate", F.number("5"))])],
                          modified: "09:10", extra: [JSONMember("x-owner", .string("alex"))])
        let theirs = F.list([F.task("a", "Report", "09:20", extra: [JSONMember("x-estimate", F.number("3")), JSONMember("x-owner", .string("kim"))])],
                            modified: "09:20", extra: [JSONMember("x-owner", .string("sam")), JSONMember("x-sort", .string("due"))])
        let out = F.merge(base, ours, theirs)
        #expect(out.file.tasks == [F.task("a", "Report", "09:20", extra: [JSONMember("x-estimate", F.number("5")), JSONMember("x-owner", .string("kim"))])])
        #expect(out.file.extra == [JSONMember("x-owner", .string("alex")), JSONMember("x-sort", .string("due"))])
        #expect(out.report.conflictsResolved == 0)
    }

    // MARK: Two-way merges

    @Test func twoWayTombstoneDeletesATaskNotEditedSince() {
        let ours = F.list([F.task("a", "A"), F.task("b", "B", "09:00")])
        let theirs = F.list([F.task("a", "A")], deleted: [F.tomb("b", "09:10")])
        let out = F.merge(nil, ours, theirs)
        #expect(out.file.tasks == [F.task("a", "A")])
        #expect(out.file.deleted == [F.tomb("b", "09:10")])
        #expect(out.report.counts == MergeReport(added: 0, updated: 0, deleted: 1, conflicts: 0))
    }

    @Test func twoWayTaskEditedAfterItsTombstoneIsKept() {
        let ours = F.list([F.task("a", "A"), F.task("b", "B", "09:30")])
        let theirs = F.list([F.task("a", "A")], deleted: [F.tomb("b", "09:10")])
        let out = F.merge(nil, ours, theirs)
        #expect(out.file.tasks == [F.task("a", "A"), F.task("b", "B", "09:30")])
        #expect(out.file.deleted.isEmpty)
    }

    @Test func twoWayTaskOnOneSideWithoutTombstoneIsKept() {
        let ours = F.list([F.task("a", "A")])
        let theirs = F.list([F.task("a", "A"), F.task("c", "C", "07:00")])
        #expect(F.merge(nil, ours, theirs).file.tasks == [F.task("a", "A"), F.task("c", "C", "07:00")])
    }

    @Test func twoWayDifferingFieldsGoToTheLaterTask() {
        let ours = F.list([F.task("a", "Call Anna", "09:10", tags: ["phone"])])
        let theirs = F.list([F.task("a", "Call Anna today", "09:20")])
        let out = F.merge(nil, ours, theirs)
        // Tasks from before change times: every field counts as changed at modifiedAt.
        #expect(out.file.tasks == [F.task("a", "Call Anna today", "09:20", changed: ["title": "09:20", "+phone": "09:20"])])
        #expect(out.report.conflictsResolved == 2)
    }

    @Test func twoWayDoneWinsUnlessTheOtherSideIsNewer() {
        let done = F.list([F.task("a", "Pay bill", "09:10", state: .done, completed: "09:10")])
        let olderOpen = F.list([F.task("a", "Pay bill", "09:05")])
        #expect(F.merge(nil, done, olderOpen).file.tasks == [F.task("a", "Pay bill", "09:10", state: .done, completed: "09:10", changed: ["state": "09:10"])])
        let newerOpen = F.list([F.task("a", "Pay the bill", "09:20")])
        #expect(F.merge(nil, done, newerOpen).file.tasks == [F.task("a", "Pay the bill", "09:20", changed: ["title": "09:20", "state": "09:20"])])
    }

    @Test func twoWayTombstonesAreAUnion() {
        let ours = F.list([F.task("a", "A", "09:40")], deleted: [F.tomb("x", "08:00"), F.tomb("a", "09:00")])
        let theirs = F.list([], deleted: [F.tomb("x", "09:00"), F.tomb("y", "08:30")])
        let out = F.merge(nil, ours, theirs)
        #expect(out.file.tasks == [F.task("a", "A", "09:40")])
        #expect(out.file.deleted == [F.tomb("x", "09:00"), F.tomb("y", "08:30")])
    }

    // MARK: Two-way order (issue 25): placed by the later `order` stamp

    @Test func aReorderSurvivesALaterEditOfTheTaskOnTheOtherSide() {
        // A moved d to the top at 09:10; B, not having seen it, renamed d at 09:20.
        let a = F.task("a", "A"), b = F.task("b", "B"), c = F.task("c", "C")
        let base = F.list([a, b, c, F.task("d", "D")])
        let reordered = F.list([F.task("d", "D", changed: ["order": "09:10"]), a, b, c])
        let renamed = F.list([a, b, c, F.task("d", "D2", "09:20", changed: ["title": "09:20"])])
        for bs in [nil, base] {
            let out = F.merge(bs, reordered, renamed)
            #expect(out.file.tasks.map(\.title) == ["D2", "A", "B", "C"], "base: \(bs != nil)")
            #expect(out.file.tasks.first?.changed == ["order": F.at("09:10"), "title": F.at("09:20")])
            #expect(out.report.overrides.isEmpty)
        }
        // The other way round: one side moved c up after a at 09:10, the other
        // renamed c at 09:20.
        let cUp = F.list([a, F.task("c", "C", changed: ["order": "09:10"]), b, F.task("d", "D")])
        let cRenamed = F.list([a, b, F.task("c", "C2", "09:20", changed: ["title": "09:20"]), F.task("d", "D")])
        for bs in [nil, base] {
            #expect(F.merge(bs, cRenamed, cUp).file.tasks.map(\.title) == ["A", "C2", "B", "D"], "base: \(bs != nil)")
        }
    }

    @Test func aReorderSurvivesWhenEveryTaskWasEditedOnTheOtherSide() {
        // Nothing is identical on both sides, so only the stamps tell who moved what.
        let reordered = F.list([F.task("x", "X", changed: ["order": "09:10"]), F.task("y", "Y")])
        let edited = F.list([F.task("y", "Y2", "09:20", changed: ["title": "09:20"]),
                             F.task("x", "X2", "09:30", changed: ["title": "09:30"])])
        let out = F.merge(nil, reordered, edited)
        #expect(out.file.tasks.map(\.title) == ["X2", "Y2"])
    }

    @Test func whenBothSidesReorderedTheLaterStampWinsWhateverTheEdits() {
        let a = F.task("a", "A"), b = F.task("b", "B"), c = F.task("c", "C")
        let base = F.list([a, b, c, F.task("d", "D")])
        // d to the top at 09:10 on one side, then renamed there at 09:30;
        // after a at 09:20 on the other: the later reorder (09:20) places it.
        let toTop = F.list([F.task("d", "D2", "09:30", changed: ["order": "09:10", "title": "09:30"]), a, b, c])
        let afterA = F.list([a, F.task("d", "D", changed: ["order": "09:20"]), b, c])
        for bs in [nil, base] {
            let out = F.merge(bs, toTop, afterA)
            #expect(out.file.tasks.map(\.title) == ["A", "D2", "B", "C"], "base: \(bs != nil)")
            #expect(out.file.tasks[1].changed == ["order": F.at("09:20"), "title": F.at("09:30")])
        }
        // With the move to the top at 09:25 instead, it wins.
        let toTopLater = F.list([F.task("d", "D2", "09:30", changed: ["order": "09:25", "title": "09:30"]), a, b, c])
        for bs in [nil, base] {
            #expect(F.merge(bs, toTopLater, afterA).file.tasks.map(\.title) == ["D2", "A", "B", "C"], "base: \(bs != nil)")
        }
    }

    @Test func newTasksOnBothSidesAreKeptAroundAReorder() {
        let a = F.task("a", "A"), b = F.task("b", "B"), c = F.task("c", "C")
        // A: d to the top at 09:10, n added at the end at 09:15.
        let ours = F.list([F.task("d", "D", changed: ["order": "09:10"]), a, b, c, F.task("n", "N", "09:15")])
        // B: m added after a at 09:25, d renamed at 09:20.
        let theirs = F.list([a, F.task("m", "M", "09:25"), b, c, F.task("d", "D2", "09:20", changed: ["title": "09:20"])])
        let out = F.merge(nil, ours, theirs)
        #expect(out.file.tasks.map(\.title) == ["D2", "A", "M", "B", "C", "N"])
        #expect(out.report.counts == MergeReport(added: 1, updated: 1, deleted: 0, conflicts: 1))
    }

    @Test func aMoveIntoTheListPlacesATaskLikeAReorder() {
        // d came back into this list at 09:10 on one side (appended); the other
        // side reordered it to the top at 09:05, before that move.
        let a = F.task("a", "A"), b = F.task("b", "B")
        let movedBack = F.list([a, b, F.task("d", "D", "09:10", changed: ["list": "09:10"])])
        let toTop = F.list([F.task("d", "D", changed: ["order": "09:05"]), a, b])
        #expect(F.merge(nil, movedBack, toTop).file.tasks.map(\.title) == ["A", "B", "D"])
        let toTopLater = F.list([F.task("d", "D", changed: ["order": "09:15"]), a, b])
        #expect(F.merge(nil, movedBack, toTopLater).file.tasks.map(\.title) == ["D", "A", "B"])
    }

    // MARK: Report, identity, duplicates, moves between lists

    @Test func theReportCountsRelativeToOurs() {
        let base = F.list([F.task("a", "A"), F.task("b", "B"), F.task("c", "C")])
        let ours = F.list([F.task("a", "A2", "09:10"), F.task("b", "B"), F.task("c", "C")])
        let theirs = F.list([F.task("a", "A"), F.task("b", "B2", "09:10"), F.task("d", "D", "09:10")])
        let out = F.merge(base, ours, theirs)
        #expect(out.file.tasks.map(\.title) == ["A2", "B2", "D"])
        #expect(out.report.counts == MergeReport(added: 1, updated: 1, deleted: 1, conflicts: 0))
    }

    @Test func aTaskAddedOnBothSidesWithTheSameIdAppearsOnce() {
        let base = F.list([F.task("a", "A")])
        let ours = F.list([F.task("a", "A"), F.task("m", "Renew passport", "09:10")])
        let theirs = F.list([F.task("m", "Renew passport", "09:20", tags: ["admin"]), F.task("a", "A")])
        let out = F.merge(base, ours, theirs)
        #expect(out.file.tasks == [F.task("m", "Renew passport", "09:20", tags: ["admin"], changed: ["+admin": "09:20"]), F.task("a", "A")])
        #expect(out.report.counts == MergeReport(added: 0, updated: 1, deleted: 0, conflicts: 1))
    }

    @Test func duplicateIdsInAnInputNeverReachTheResult() {
        let ours = F.list([F.task("a", "A"), F.task("a", "A copy", "09:00"), F.task("b", "B")])
        let theirs = F.list([F.task("b", "B"), F.task("a", "A")])
        let out = F.merge(nil, ours, theirs)
        #expect(out.file.tasks.map(\.id) == [F.id("a"), F.id("b")] || out.file.tasks.map(\.id) == [F.id("b"), F.id("a")])
    }

    @Test func aTaskMovedToAnotherListLooksLikeADeleteHere() {
        // Machine 1 ran `tick mv b Home` at 09:10: b left this file with a tombstone.
        let base = F.list([F.task("a", "A"), F.task("b", "B")])
        let moved = F.list([F.task("a", "A")], deleted: [F.tomb("b", "09:10")])
        #expect(F.merge(base, moved, base).file == moved)
        // Machine 2 edited b meanwhile: the edit is kept here (and the moved copy is in Home).
        let edited = F.list([F.task("a", "A"), F.task("b", "B", "09:20", notes: "edited")])
        #expect(F.merge(base, moved, edited).file.tasks == edited.tasks)
        // `tick mv` now leaves no tombstone: an edit made before the move is kept
        // here too, and the store-level merge joins it to the moved copy.
        let movedNow = F.list([F.task("a", "A")])
        let editedBefore = F.list([F.task("a", "A"), F.task("b", "B", "09:05", notes: "edited", changed: ["notes": "09:05"])])
        #expect(F.merge(base, movedNow, editedBefore).file.tasks == editedBefore.tasks)
        #expect(F.merge(base, movedNow, base).file == movedNow)
    }

    @Test func mergingAFileWithItselfChangesNothing() {
        let file = F.list([F.task("a", "A", extra: [JSONMember("x-k", F.number("1.50"))]), F.task("b", "B", state: .done, completed: "08:00")],
                          color: "#3b82f6", extra: [JSONMember("x-owner", .string("sam"))], deleted: [F.tomb("z", "07:00")])
        #expect(MergeEngine.merge(base: file, ours: file, theirs: file).file == file)
        #expect(MergeEngine.merge(base: nil, ours: file, theirs: file).file == file)
        #expect(MergeEngine.merge(base: file, ours: file, theirs: file).report == MergeReport())
    }
}

extension MergeReport {
    /// The counts only (without the overrides).
    var counts: MergeReport {
        MergeReport(added: added, updated: updated, deleted: deleted, conflicts: conflictsResolved)
    }

    init(added: Int, updated: Int, deleted: Int, conflicts: Int) {
        self.init()
        self.added = added
        self.updated = updated
        self.deleted = deleted
        self.conflictsResolved = conflicts
    }
}
