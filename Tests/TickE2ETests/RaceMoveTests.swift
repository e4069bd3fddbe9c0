import Foundation
import Testing

/// `tick mv` racing another command on the same task: both must succeed and
/// neither change may be lost (every read-modify-write reads, and resolves
/// its ids, under the store lock).
@Suite("race with mv")
struct RaceMoveTests {
    static let trials = 20

    /// Runs `first` and `second` (tick arguments, `ID` replaced by the task's
    /// UUID) at the same time on a new task in list A, `trials` times; checks
    /// each outcome with `check` (the files holding the task, and the task).
    func race(_ first: [String], _ second: [String], sourceLocation: SourceLocation = #_sourceLocation,
              check: (_ holders: [String], _ task: [String: Any]) -> Void) throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "A")
        try s.ok("lists", "add", "B")
        for trial in 1...Self.trials {
            let title = "task-\(trial)"
            try s.ok("add", title, "list:A")
            let id = try s.uuidPrefix(title)
            let started = try [first, second].map { args in
                try s.start(TickBinary.path, args.map { $0 == "ID" ? id : $0 })
            }
            for (args, process) in zip([first, second], started) {
                let result = try process.wait()
                #expect(result.status == 0, "trial \(trial): tick \(args.joined(separator: " ")): \(result)", sourceLocation: sourceLocation)
            }
            var holders: [String] = []
            var found: [String: Any] = [:]
            for file in ["inbox.json", "lists/a.json", "lists/b.json"] where s.exists(file) {
                if let task = try s.tasks(file).task(title) {
                    holders.append(file)
                    found = task
                }
            }
            check(holders, found)
        }
    }

    @Test("mv T inbox ∥ mv T B: the task ends in exactly one of the two")
    func moveAgainstMove() throws {
        try race(["mv", "ID", "inbox"], ["mv", "ID", "B"]) { holders, _ in
            #expect(holders == ["inbox.json"] || holders == ["lists/b.json"], "in \(holders)")
        }
    }

    @Test("done T ∥ mv T B: the task is in B, and done")
    func doneAgainstMove() throws {
        try race(["done", "ID"], ["mv", "ID", "B"]) { holders, task in
            #expect(holders == ["lists/b.json"], "in \(holders)")
            #expect(task.string("state") == "done")
        }
    }

    @Test("edit T +tag ∥ mv T B: the task is in B, with the tag")
    func editAgainstMove() throws {
        try race(["edit", "ID", "+urgent"], ["mv", "ID", "B"]) { holders, task in
            #expect(holders == ["lists/b.json"], "in \(holders)")
            #expect((task["tags"] as? [String]) == ["urgent"])
        }
    }
}
