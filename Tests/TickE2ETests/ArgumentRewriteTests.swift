import ArgumentParser
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

    @Test("tick ID VERB is tick VERB ID (Taskwarrior's order) for commands that take ids or a filter; tick ID alone is show")
    func idBeforeTheCommand() throws {
        #expect(try rewritten("1", "done") == ["done", "1"])
        #expect(try rewritten("3-5", "7", "edit", "due:fri") == ["edit", "3-5", "7", "due:fri"])
        #expect(try rewritten("6f1c", "rm", "-y") == ["rm", "6f1c", "-y"])
        #expect(try rewritten("1", "delete") == ["delete", "1"])
        #expect(try rewritten("--store", "/s", "2", "start") == ["start", "2", "--store", "/s"])
        #expect(try rewritten("4") == ["show", "4"])
        #expect(try rewritten("4", "--json") == ["show", "4", "--json"])
        #expect(try Tick.command(for: ["1", "done"], environment: env) is Tick.Done)
        // Never moved: a word that is not an id, a command that takes no ids, a title after add.
        // A plain word first is a filter word (issue 46): `tick beef done` is `tick done beef`.
        #expect(TaskwarriorVerbs.movingCommandFirst(["beef", "done"]) == ["done", "beef"])
        #expect(TaskwarriorVerbs.movingCommandFirst(["1", "add", "x"]) == ["1", "add", "x"])
        #expect(TaskwarriorVerbs.movingCommandFirst(["add", "1", "done"]) == ["add", "1", "done"])
        #expect(TaskwarriorVerbs.movingCommandFirst(["1", "frob"]) == ["1", "frob"])
        #expect(TaskwarriorVerbs.movingCommandFirst(["/milk/", "list"]) == ["list", "/milk/"])
        #expect(TaskwarriorVerbs.movingCommandFirst(["milk", "or", "+errand", "list"]) == ["list", "milk", "or", "+errand"])
        #expect(TaskwarriorVerbs.movingCommandFirst(["milk", "add", "x"]) == ["milk", "add", "x"], "add takes no filter")
        #expect(TaskwarriorVerbs.movingCommandFirst(["tody"]) == ["tody"])
        #expect(TaskwarriorVerbs.movingCommandFirst(["1", "2"]) == ["1", "2"])
        // `modify` is `tick edit` (an alias); a Taskwarrior report moves, so its error names tick's command.
        #expect(TaskwarriorVerbs.movingCommandFirst(["1", "modify", "due:fri"]) == ["modify", "1", "due:fri"])
        #expect(throws: Never.self) { try rewritten("1", "modify", "due:fri") }
        #expect(TaskwarriorVerbs.movingCommandFirst(["+work", "burndown"]) == ["burndown", "+work"])
        #expect(throws: CLIError.self) { try rewritten("+work", "burndown") }
    }

    @Test("tick FILTER VERB is tick VERB FILTER for commands that take a filter; never before add, never a title word")
    func filterBeforeTheCommand() throws {
        #expect(try rewritten("+work", "list") == ["list", "+work"])
        #expect(try rewritten("project:Home", "list") == ["list", "project:Home"])
        #expect(try rewritten("+work", "due.before:eow", "3", "done") == ["done", "+work", "due.before:eow", "3"])
        #expect(TaskwarriorVerbs.movingCommandFirst(["+work", "add", "x"]) == ["+work", "add", "x"])
        // Any word before a command that takes a filter is a filter word (issue 46), as in Taskwarrior.
        #expect(TaskwarriorVerbs.movingCommandFirst(["+1", "list"]) == ["list", "+1"])
        #expect(TaskwarriorVerbs.movingCommandFirst(["Note:x", "list"]) == ["list", "Note:x"])
        #expect(FilterParser.isTermWord("+work") && FilterParser.isTermWord("project:Home") && FilterParser.isTermWord("due.before:fri"))
        #expect(!FilterParser.isTermWord("+") && !FilterParser.isTermWord("10:30") && !FilterParser.isTermWord("http://x"))
    }

    @Test("Taskwarrior's commands name tick's in the unknown-command error")
    func taskwarriorCommands() throws {
        for (verb, command) in ["calendar": "upcoming", "info": "show", "burndown": "stats", "projects": "lists", "denotate": "edit", "log": "add"] {
            let error = Invocation.unknownCommand([verb], among: Tick.self)
            #expect(error.message.contains("see `tick help \(command)`"), "\(verb): \(error.message)")
            #expect(error.message.hasPrefix("unknown command \"\(verb)\" (Taskwarrior's); in tick: tick \(command)"), "\(verb)")
        }
        // Every command named exists.
        for (verb, equivalent) in TaskwarriorVerbs.equivalents {
            #expect(equivalent.command == "help" || CommandFacts.topLevel(equivalent.command) != nil, "\(verb) → \(equivalent.command)")
            #expect(CommandFacts.topLevel(verb) == nil, "\(verb) is a tick command; it needs no hint")
        }
    }
}

/// A command without subcommands is parsed alone (``Tick/leafCommand(_:)``),
/// skipping the root's tree: the command it gives must be the root's, field
/// for field, and anything the root answers itself (help, version, errors)
/// must still go to the root.
@Suite("parsing a command alone")
struct LeafCommandTests {
    func dumped(_ command: ParsableCommand) -> String {
        var text = ""
        dump(command, to: &text)
        return text
    }

    @Test("the command parsed alone is the root's, field for field")
    func sameAsTheRoot() throws {
        let invocations: [[String]] = [
            ["today"], ["today", "--store", "/s", "--no-color", "--json"],
            ["list", "+work", "due.before:fri", "--sort", "due", "--limit", "3"],
            ["list", "-home", "list:Errands"], ["add", "Call", "mum", "due:fri", "+family", "pri:H"],
            ["add", "--", "-literal", "title"], ["done", "1", "2"], ["edit", "3", "due:mon", "-work"],
            ["search", "invoice", "--limit", "10"], ["show", "deadbeef"], ["upcoming", "--days", "3"],
            ["mv", "2", "Errands"], ["status"], ["stats", "--json"], ["reindex"],
        ]
        for typed in invocations {
            let args = try Invocation.rewritten(typed, environment: ["XDG_CONFIG_HOME": "/nonexistent-tick-config"])
            let alone = try #require(Tick.leafCommand(args), "\(args) should parse alone")
            let root = try Tick.parseAsRoot(args)
            #expect(type(of: alone) == type(of: root), "\(args)")
            #expect(dumped(alone) == dumped(root), "\(args)")
        }
    }

    @Test("help, version, completion scripts, commands with subcommands and errors go to the root")
    func theRootAnswers() {
        let invocations: [[String]] = [
            ["today", "--help"], ["add", "-h"], ["list", "--version"], ["today", "--generate-completion-script", "bash"],
            ["lists", "add", "Errands"], ["dav", "sync"], ["today", "--no-such-option"], ["upcoming", "--days", "x"],
            ["no-such-command"], [],
        ]
        for args in invocations {
            #expect(Tick.leafCommand(args) == nil, "\(args) must be parsed by the root")
        }
    }

    @Test("--sort's help names exactly TaskSort's keys (the field table's), in their order")
    func sortHelpNamesTheTablesKeys() {
        let names = TaskSort.Key.builtIn.map(\.name).joined(separator: ", ")
        #expect(OrderOptions.sortHelp.contains("(\(names), or a field declared in config.toml)"), "\(OrderOptions.sortHelp)")
    }
}
