import Foundation
import Testing

/// Help, completion scripts, color, global options and general usage errors.
@Suite("command line")
struct CLITests {
    @Test("the tick under test is the one built next to this test bundle (unless TICK_BIN is set)")
    func binaryUnderTest() throws {
        #expect(FileManager.default.isExecutableFile(atPath: TickBinary.path))
        #if os(Linux)
        if ProcessInfo.processInfo.environment["TICK_BIN"] == nil, let argv0 = CommandLine.arguments.first {
            let products = URL(fileURLWithPath: argv0).resolvingSymlinksInPath().deletingLastPathComponent()
            #expect(TickBinary.path == products.appendingPathComponent("tick").path)
        }
        #endif
    }

    @Test("tick --help documents the exit codes")
    func help() throws {
        let s = try Sandbox()
        let r = try s.tick("--help")
        #expect(r.status == 0)
        #expect(r.stdout.contains("""
        EXIT STATUS
          0  success
          1  failure (I/O, permissions, lock timeout, refused without confirmation);
             `search` found nothing, as grep
          2  usage error (bad option, bad date, bad token)
          3  task or list not found, or an ambiguous id or list name
          4  a store file cannot be parsed or breaks the schema
        """))
        for sub in ["add", "list", "today", "upcoming", "overdue", "show", "edit", "start", "done", "reopen", "rm", "mv", "reorder", "lists", "export", "import"] {
            #expect(r.stdout.contains("\n  \(sub) ") || r.stdout.contains("\n  \(sub), "), "\(sub) is listed")
        }
    }

    @Test("subcommand help exits 0", arguments: [["add", "--help"], ["help", "add"], ["lists", "add", "--help"], ["edit", "-h"]])
    func subcommandHelp(args: [String]) throws {
        let s = try Sandbox()
        let r = try s.tick(args)
        #expect(r.status == 0)
        #expect(r.stdout.contains("USAGE: tick "))
        if args.first == "add" || args == ["help", "add"] {
            #expect(r.stdout.contains("due:WHEN"))
        }
    }

    @Test("completion scripts", arguments: ["bash", "zsh", "fish"])
    func completion(shell: String) throws {
        let s = try Sandbox()
        let r = try s.tick("--generate-completion-script", shell)
        #expect(r.status == 0)
        #expect(r.stdout.contains("tick"))
        if shell == "bash" {
            #expect(r.stdout.hasPrefix("#!/bin/bash"))
            #expect(r.stdout.contains("complete -o filenames -F _tick tick"))
        }
    }

    @Test("--version")
    func version() throws {
        let s = try Sandbox()
        let r = try s.tick("--version")
        #expect(r.status == 0)
        #expect(r.stdout == "0.1.0\n")
    }

    @Test("unknown subcommands and options are usage errors (exit 2)", arguments: [
        ["bogus"], ["list", "--bogus"], ["done"], ["mv", "1"], ["upcoming", "--days", "x"],
    ])
    func usageErrors(args: [String]) throws {
        let s = try Sandbox()
        let r = try s.tick(args)
        #expect(r.status == 2)
        #expect(r.stdout == "")
        #expect(!r.stderr.isEmpty)
    }

    @Test("a bad TICK_NOW is a usage error")
    func badTickNow() throws {
        let s = try Sandbox()
        let r = try s.tick("list", env: ["TICK_NOW": "yesterday"])
        #expect(r.status == 2)
        #expect(r.stderr == "tick: error: TICK_NOW=yesterday is not an ISO 8601 timestamp like 2026-11-21T09:00:00Z\n")
    }

    @Test("NO_COLOR and a non-TTY stdout: no escape sequences anywhere")
    func noEscapesWithoutTTY() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work", "--color", "#ff0000")
        var outputs: [RunResult] = []
        outputs.append(try s.tick("add", "Overdue", "due:2026-11-01", "pri:must", "+tag", "list:Work"))
        outputs.append(try s.tick("add", "Active", "--note", "n"))
        outputs.append(try s.tick("start", "2"))
        outputs.append(try s.tick("add", "Done"))
        outputs.append(try s.tick("done", "3"))
        // Without NO_COLOR too: stdout is not a terminal.
        for env: [String: String?] in [[:], ["NO_COLOR": nil, "TERM": "xterm-256color"]] {
            for args in [["list", "--all"], ["today"], ["overdue"], ["show", "1"], ["lists"], ["list", "nope"], ["add", "x", "due:blah"]] {
                outputs.append(try s.tick(args, env: env))
            }
        }
        for r in outputs {
            #expect(!r.stdout.contains("\u{1B}"), "\(r)")
            #expect(!r.stderr.contains("\u{1B}"), "\(r)")
        }
        // Overdue is visible without color.
        #expect(try s.ok("list", "Work").contains("! 1 [ ] Overdue  due Sun 1 Nov, 20d overdue"))
    }

    #if os(Linux)
    static let hasScript = FileManager.default.isExecutableFile(atPath: "/usr/bin/script")
    #else
    static let hasScript = false
    #endif

    /// Runs tick with stdout on a pseudo-terminal (util-linux `script`).
    static func onTTY(_ s: Sandbox, _ args: [String], env: [String: String?] = [:]) throws -> RunResult {
        let quoted = ([TickBinary.path] + args).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        return try s.run("/usr/bin/script", ["-qec", quoted, "/dev/null"], env: env)
    }

    @Test("on a terminal a listing goes through the pager ($TICK_PAGER, else $PAGER, else less -FRX); never with --no-pager, a pipe or a command that asks", .enabled(if: hasScript))
    func pager() throws {
        let s = try Sandbox()
        try s.add("Buy milk")
        let pager = "sed s/^/PAGED:/"
        let paged = try Self.onTTY(s, ["list"], env: ["TICK_PAGER": pager])
        #expect(paged.status == 0)
        #expect(paged.stdout.contains("PAGED:Inbox (1)"), "\(paged)")
        #expect(paged.stdout.contains("PAGED:  1 [ ] Buy milk"), "\(paged)")
        // $PAGER when TICK_PAGER is unset; the environment tells less how to behave.
        let viaPager = try Self.onTTY(s, ["search", "milk"], env: ["TICK_PAGER": nil, "PAGER": "sh -c 'echo LESS=$LESS; sed s/^/P:/'"])
        #expect(viaPager.stdout.contains("LESS=FRX"), "\(viaPager)")
        #expect(viaPager.stdout.contains("P:  1 [ ] Buy milk"), "\(viaPager)")
        let off = try Self.onTTY(s, ["--no-pager", "list"], env: ["TICK_PAGER": pager])
        #expect(off.stdout.contains("Buy milk") && !off.stdout.contains("PAGED:"), "\(off)")
        // A pipe is never paged; neither is a command that writes.
        #expect(try s.tick(["list"], env: ["TICK_PAGER": pager]).stdout == "Inbox (1)\n  1 [ ] Buy milk\n")
        let added = try Self.onTTY(s, ["add", "Call mom"], env: ["TICK_PAGER": pager])
        #expect(added.status == 0 && !added.stdout.contains("PAGED:"), "\(added)")
    }

    @Test("on a terminal: color unless NO_COLOR or --no-color; add prints a sentence", .enabled(if: hasScript))
    func colorOnTTY() throws {
        let s = try Sandbox()
        try s.add("Overdue", "due:2026-11-01")
        let colored = try Self.onTTY(s, ["list"], env: ["NO_COLOR": nil, "TERM": "xterm"])
        #expect(colored.status == 0)
        #expect(colored.stdout.contains("\u{1B}["), "sanity check: color is on for a terminal")
        let noColorEnv = try Self.onTTY(s, ["list"], env: ["TERM": "xterm"])
        #expect(noColorEnv.stdout.contains("Overdue"))
        #expect(!noColorEnv.stdout.contains("\u{1B}"))
        let noColorFlag = try Self.onTTY(s, ["--no-color", "list"], env: ["NO_COLOR": nil, "TERM": "xterm"])
        #expect(noColorFlag.stdout.contains("Overdue"))
        #expect(!noColorFlag.stdout.contains("\u{1B}"))
        let dumb = try Self.onTTY(s, ["list"], env: ["NO_COLOR": nil, "TERM": "dumb"])
        #expect(!dumb.stdout.contains("\u{1B}"))

        let added = try Self.onTTY(s, ["add", "Second", "task"], env: ["TERM": "xterm"])
        #expect(added.status == 0)
        #expect(added.stdout == "Added 2 (\(try s.uuidPrefix("Second task"))) to Inbox: Second task\r\n")
    }

    /// tick's style tokens start with U+FDD0 (EF B7 90); a title holding that
    /// character, or other text with a B7 byte ("·"), is shown as it is, and
    /// the styles around it still become escape codes.
    @Test("a title with tick's token marker or a middle dot is shown as written, styled around it", .enabled(if: hasScript))
    func tokenMarkerInTitle() throws {
        let s = try Sandbox()
        let marker = String(decoding: [0xEF, 0xB7, 0x90] as [UInt8], as: UTF8.self)
        try s.add("Pay \(marker)e[2J · \(marker)", "due:2026-11-01")
        for env: [String: String?] in [["NO_COLOR": nil, "TERM": "xterm"], ["TERM": "xterm"]] {
            let shown = try Self.onTTY(s, ["list"], env: env)
            #expect(shown.status == 0)
            #expect(shown.stdout.contains("Pay \(marker)e[2J · \(marker)"), "\(shown.stdout)")
            #expect(shown.stdout.contains("\u{1B}[") == (env["NO_COLOR"] == .some(nil)))
        }
        let piped = try s.tick("list")
        #expect(piped.stdout.contains("Pay \(marker)e[2J · \(marker)"))
        #expect(!piped.stdout.contains("\u{1B}"))
    }
}
