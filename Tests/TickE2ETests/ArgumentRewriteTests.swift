import Foundation
import Testing
import TickKit
@testable import tick

/// In-process parse tests of the rewrites tick makes before ArgumentParser
/// reads the command line (``Invocation``), one per rewrite, and of the
/// command facts the rewrites, the journal and the hooks are derived from.
@Suite("argument rewrites")
struct ArgumentRewriteTests {
    let env: [String: String] = ["XDG_CONFIG_HOME": "/nonexistent-tick-config"]

    func rewritten(_ args: String...) throws -> [String] {
        try Invocation.rewritten(args, environment: env)
    }

    @Test("tick alone, or with only global options, is tick today")
    func defaultingToToday() throws {
        #expect(try rewritten() == ["today"])
        #expect(try rewritten("--store", "/s", "--no-color") == ["today", "--store", "/s", "--no-color"])
        #expect(try Tick.command(for: [], environment: env) is Tick.Today)
    }

    @Test("global options before the subcommand move behind it, before a --")
    func hoistingGlobalOptions() throws {
        #expect(Invocation.hoistingGlobalOptions(["--store", "/s", "list", "+work"]) == ["list", "+work", "--store", "/s"])
        #expect(Invocation.hoistingGlobalOptions(["--no-pager", "add", "a", "--", "b"]) == ["add", "a", "--no-pager", "--", "b"])
        #expect(try Tick.command(for: ["--store=/s", "done", "3"], environment: env) is Tick.Done)
    }

    @Test("tick NAME for a report in config.toml is tick report NAME")
    func reports() throws {
        let dir = NSTemporaryDirectory() + "tick-rewrite-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/tick", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "[reports.next]\nfilter = \"pri:must\"\n".write(toFile: dir + "/tick/config.toml", atomically: true, encoding: .utf8)
        #expect(try Invocation.rewritten(["next", "+work"], environment: ["XDG_CONFIG_HOME": dir]) == ["report", "next", "+work"])
        #expect(try Tick.command(for: ["next"], environment: ["XDG_CONFIG_HOME": dir]) is Tick.Report)
    }

    @Test("a negative number where ids are expected is refused as an id; elsewhere it is not checked")
    func negativeIDs() throws {
        #expect(throws: CLIError.self) { try rewritten("show", "-1") }
        #expect(throws: CLIError.self) { try rewritten("done", "3", "-2") }
        let error = try #require(throws: CLIError.self) { try rewritten("rm", "-1") }
        #expect(error.kind == .usage)
        // A date option's value is skipped; `lists rm` takes a name, not ids.
        #expect(try rewritten("edit", "3", "--due", "-1") == ["edit", "3", "--due=-1"])
        #expect(try rewritten("lists", "rm", "x") == ["lists", "rm", "x"])
    }

    @Test("add and edit: title text after --, and -tag removes a tag in an edit")
    func quickAddWords() throws {
        #expect(try rewritten("add", "Call", "--", "-x", "due:fri") == ["add", "Call", "--", "\\-x", "\\due:fri"])
        #expect(try rewritten("edit", "3", "-work", "+home") == ["edit", "3", "--untag=work", "+home"])
        #expect(try rewritten("add", "--note", "-work", "a") == ["add", "--note", "-work", "a"], "an option's value is not a word")
        // Only the quick-add commands: `block add` keeps its words.
        #expect(try rewritten("block", "add", "Lunch", "--", "x") == ["block", "add", "Lunch", "--", "x"])
        #expect(try Tick.command(for: ["edit", "3", "-work"], environment: env) is Tick.Edit)
    }

    @Test("tick edit FILTER -- CHANGES: the filter words become --filter options")
    func bulkEdit() throws {
        #expect(try rewritten("edit", "+work", "-y", "--", "due:fri", "-old") == ["edit", "-y", "--filter=+work", "due:fri", "--untag=old"])
        // One task id before -- keeps the literal title.
        #expect(try rewritten("edit", "3", "--", "-x") == ["edit", "3", "--", "\\-x"])
        #expect(try Tick.command(for: ["edit", "+work", "--", "+home"], environment: env) is Tick.Edit)
    }

    @Test("in a filter, -word is a negated term, not an option")
    func filterNegations() throws {
        #expect(try rewritten("list", "-work", "--sort", "due") == ["list", "\\-work", "--sort", "due"])
        #expect(try rewritten("ls", "-due:none") == ["ls", "\\-due:none"], "an alias has its command's facts")
        #expect(try rewritten("done", "-work", "-y") == ["done", "\\-work", "-y"])
        #expect(try rewritten("search", "-work") == ["search", "-work"], "search takes no filter words")
        #expect(try Tick.command(for: ["today", "-work"], environment: env) is Tick.Today)
    }

    @Test("--opt -1 is joined, so the command's own check sees the negative value")
    func negativeValues() throws {
        #expect(try rewritten("upcoming", "--days", "-1") == ["upcoming", "--days=-1"])
        #expect(try rewritten("add", "a", "--", "--x", "-1") == ["add", "a", "--", "\\--x", "\\-1"])
    }

    @Test("every command declares its facts; the journal and hooks follow them")
    func facts() throws {
        #expect(CommandFacts.undeclared().isEmpty, "commands without CommandFacts: \(CommandFacts.undeclared())")
        #expect(CommandFacts.of(path: "lists rm") != nil && CommandFacts.of(path: "dav sync")?.writes == true)
        for outside in ["resolve", "merge-driver", "sync", "git setup", "init", "watch"] {
            #expect(!CommandPath.journaled(outside), "\(outside)")
            #expect(!HookSlot.enabled(for: outside, environment: [:]), "\(outside)")
        }
        for command in ["done", "lists rm", "dav sync", "list", "ui", "ui done"] {
            #expect(CommandPath.journaled(command), "\(command)")
            #expect(HookSlot.enabled(for: command, environment: [:]), "\(command)")
        }
        #expect(CommandPath.journaled("undo") && !HookSlot.enabled(for: "undo", environment: [:]))
        #expect(!HookSlot.enabled(for: "done", environment: ["TICK_HOOKS": "off"]))
        #expect(!CommandPath.journaled("") && !HookSlot.enabled(for: "", environment: [:]))
        #expect(CommandFacts.of(path: "lists rm")?.takesIDs == false && CommandFacts.of(path: "rm")?.takesIDs == true)
    }
}
