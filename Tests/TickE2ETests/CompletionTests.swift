import Foundation
import Testing

/// Shell completion that knows the store, driven in the real shells: bash
/// by sourcing the generated script and calling its function with
/// COMP_WORDS/COMP_CWORD set, zsh and fish interactively on a terminal (tmux).
@Suite(.serialized)
struct CompletionTests {
    /// A store with three lists (one with a hostile name), tags, two tasks in
    /// Work, one with an escape sequence in its title (a hand edit), all indexed.
    static func store() throws -> Sandbox {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.ok("lists", "add", "Reading Q3")
        try s.ok("lists", "add", "Weird $(touch pwned) `touch pwned2`")
        _ = try s.add("Call the bank", "+phone", "list:Work")
        _ = try s.add("Write report", "+writing", "+work", "list:Work")
        try s.write("lists/hostile.json", """
            {"version": 1, "name": "Hostile", "tasks": [{"title": "\\u001b[31mRED\\u001b[0m alert", "state": "open"}]}

            """)
        _ = try s.ok("list")
        return s
    }

    /// Short id → title, from `tick list --json`.
    static func shortIDs(_ s: Sandbox) throws -> [String: String] {
        var ids: [String: String] = [:]
        for task in try s.json("list") {
            if let n = task.int("shortId"), let title = task.string("title") { ids[String(n)] = title }
        }
        return ids
    }

    /// A bin directory with `tick` in it, for the scripts (they run `tick ---completion`).
    static func binDirectory(_ s: Sandbox) throws -> String {
        let bin = s.root + "/bin"
        if !FileManager.default.fileExists(atPath: bin + "/tick") {
            try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: bin + "/tick", withDestinationPath: TickBinary.path)
        }
        return bin
    }

    static func script(_ s: Sandbox, _ shell: String) throws -> String {
        let r = try s.tick("--generate-completion-script", shell)
        #expect(r.status == 0, "\(r)")
        let path = s.root + "/completion." + shell
        try r.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    // MARK: bash

    /// Completes the last of `words` in bash: sources the script, sets
    /// COMP_WORDS, COMP_CWORD, COMP_LINE and COMP_POINT, calls `_tick` and
    /// prints COMPREPLY, one per line. As bash does, the word passed to
    /// `_tick` is readline's: the text after a word-break character, so
    /// after `list:` it is empty while COMP_WORDS ends with `:`.
    func bash(_ s: Sandbox, _ words: [String], env: [String: String?] = [:]) throws -> [String] {
        let driver = """
            source "$1"; shift
            COMP_WORDS=("$@")
            COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            COMP_LINE="${COMP_WORDS[*]}"
            COMP_POINT=${#COMP_LINE}
            COMPREPLY=()
            cur="${COMP_WORDS[COMP_CWORD]}"
            case "$cur" in :|=) cur="" ;; esac
            _tick tick "$cur" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let path = try Self.script(s, "bash")
        var e = env
        e["PATH"] = try Self.binDirectory(s) + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let r = try s.run("/bin/bash", ["-c", driver, "driver", path] + words, env: e)
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r)")
        return r.lines.filter { !$0.isEmpty }
    }

    @Test("bash: list names after `list`, `lists rm`, `--list`, `list:` (split at the colon as bash does), tags after + and --tag")
    func bashListsAndTags() throws {
        let s = try Self.store()
        let before = try s.fingerprint()
        #expect(try bash(s, ["tick", "list", "W"]) == ["Weird $(touch pwned) `touch pwned2`", "Work"])
        #expect(try bash(s, ["tick", "list", ""]) == ["Hostile", "Reading Q3", "Weird $(touch pwned) `touch pwned2`", "Work"])
        #expect(try bash(s, ["tick", "lists", "rm", "R"]) == ["Reading Q3"])
        #expect(try bash(s, ["tick", "lists", "rename", "H"]) == ["Hostile"])
        #expect(try bash(s, ["tick", "add", "Buy", "milk", "--list", "Wo"]) == ["Work"])
        #expect(try bash(s, ["tick", "export", "--list", "i"]) == ["inbox"])
        // COMP_WORDBREAKS has ':', so `list:Wo` reaches the function as `list`, `:`, `Wo`.
        #expect(try bash(s, ["tick", "add", "Buy", "list", ":", "Wo"]) == ["Work"])
        #expect(try bash(s, ["tick", "list", "list", ":"]).contains("Reading Q3"))
        #expect(try bash(s, ["tick", "add", "Buy", "list", ":"]) == ["inbox", "Hostile", "Reading Q3", "Weird $(touch pwned) `touch pwned2`", "Work"])
        // Taskwarrior's project: completes as list: does.
        #expect(try bash(s, ["tick", "add", "Buy", "project", ":", "Wo"]) == ["Work"])
        #expect(try bash(s, ["tick", "add", "Buy", "+w"]) == ["+work", "+writing"])
        #expect(try bash(s, ["tick", "list", "--tag", ""]) == ["phone", "work", "writing"])
        #expect(try bash(s, ["tick", "done", "+p"]) == ["+phone"])
        // A list name is text, never shell code: compgen -W expands its word list.
        #expect(!FileManager.default.fileExists(atPath: s.root + "/pwned"))
        #expect(!FileManager.default.fileExists(atPath: s.root + "/pwned2"))
        // Completing never writes the store.
        #expect(try s.fingerprint() == before)
    }

    @Test("bash: task ids after done/show/edit, by number prefix; help COMMAND and help lists SUBCOMMAND")
    func bashIDsAndHelp() throws {
        let s = try Self.store()
        let ids = try Self.shortIDs(s)
        #expect(ids.count == 3)
        #expect(Set(try bash(s, ["tick", "done", ""])) == Set(ids.keys))
        #expect(Set(try bash(s, ["tick", "show", ""])) == Set(ids.keys))
        let one = try #require(ids.keys.sorted().first)
        #expect(try bash(s, ["tick", "edit", one]) == [one])
        #expect(try bash(s, ["tick", "start", "9"]).isEmpty)
        // A done task has no short id any more.
        try s.ok("done", one)
        #expect(!(try bash(s, ["tick", "done", ""])).contains(one))
        let help = try bash(s, ["tick", "help", ""])
        for command in ["add", "list", "done", "lists", "watch"] { #expect(help.contains(command), "\(help)") }
        #expect(try bash(s, ["tick", "help", "lis"]) == ["list", "lists"])
        #expect(Set(try bash(s, ["tick", "help", "lists", ""])) == ["add", "rename", "rm", "show"])
    }

    @Test("completion reads --store from the command line (before or after the subcommand), and a store without an index completes nothing and creates none")
    func storeOptionAndNoIndex() throws {
        let s = try Self.store()
        let other = s.root + "/other"
        try FileManager.default.createDirectory(atPath: other + "/lists", withIntermediateDirectories: true)
        try #"{"version": 1, "name": "Elsewhere", "tasks": []}"#.write(toFile: other + "/lists/elsewhere.json", atomically: true, encoding: .utf8)
        // Never indexed: nothing to offer, and no index appears.
        let cacheBefore = (try? FileManager.default.subpathsOfDirectory(atPath: s.cacheHome)) ?? []
        #expect(try bash(s, ["tick", "list", "--store", other, ""]).isEmpty)
        #expect(((try? FileManager.default.subpathsOfDirectory(atPath: s.cacheHome)) ?? []) == cacheBefore)
        // Once a command has indexed it, its lists complete.
        _ = try s.ok("--store", other, "lists")
        #expect(try bash(s, ["tick", "list", "--store", other, ""]) == ["Elsewhere"])
        #expect(try bash(s, ["tick", "list", "--store=" + other, "E"]) == ["Elsewhere"])
        // Before the subcommand, as `tick --store DIR list` is typed.
        #expect(try bash(s, ["tick", "--store", other, "list", "E"]) == ["Elsewhere"])
        #expect(try bash(s, ["tick", "--no-color", "--store=" + other, "list", ""]) == ["Elsewhere"])
    }

    // MARK: zsh and fish, on a terminal

    @Test("bash on a terminal: list:<Tab> completes to list:NAME (readline inserts after the colon), never list:\\:",
          .enabled(if: hasTools("bash", "tmux"), "SKIPPED: tmux is not installed (scripts/ensure-deps.sh --test installs it)"))
    func bashOnATerminal() throws {
        let s = try Self.store()
        let rc = s.root + "/bashrc"
        try "source \(Terminal.quoted(try Self.script(s, "bash")))\nPS1='READY$ '\n".write(toFile: rc, atomically: true, encoding: .utf8)
        let t = try Terminal(s, command: "bash --noprofile --rcfile \(rc) -i")
        try t.waitFor("READY")
        let one = try t.complete("tick add Buy milk list:Wo", until: "list:Work")
        #expect(one.contains("tick add Buy milk list:Work"), "\(one)")
        let spaced = try t.complete("tick add Buy milk list:Rea", until: "Q3")
        #expect(spaced.contains("list:Reading\\ Q3"), "\(spaced)")
        // Right after the colon: the names are listed (second Tab), the line keeps `list:`.
        try t.keys("C-u", "C-l")
        usleep(200_000)
        try t.keys("tick list list:", "Tab", "Tab")
        let deadline = Date().addingTimeInterval(20)
        var all = try t.screen()
        while !all.contains("Reading"), Date() < deadline {
            usleep(100_000)
            all = try t.screen()
        }
        #expect(all.contains("Work") && all.contains("inbox") && all.contains("Reading Q3"), "\(all)")
        #expect(!all.contains("list:\\:") && !all.contains("list::"), "\(all)")
    }

    /// An interactive shell in tmux, with the completion script loaded and `tick` on PATH.
    final class Terminal {
        let s: Sandbox
        let socket: String

        init(_ s: Sandbox, command: String) throws {
            self.s = s
            socket = s.root + "/tmux.sock"
            let env = s.environment(["PATH": try CompletionTests.binDirectory(s) + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")])
                .map { "\($0.key)=\(Self.quoted($0.value))" }.sorted().joined(separator: " ")
            // As in UITerminal: tmux started with only stdin/out/err open, and
            // with the signal mask of a real terminal (the test runner's
            // threads block SIGHUP and SIGTERM, and a child inherits that), so
            // kill-server ends the shell instead of leaving it behind.
            let python = "import signal, subprocess, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); sys.exit(subprocess.call(sys.argv[1:], close_fds=True))"
            let r = try s.run("/usr/bin/env", ["python3", "-c", python,
                                               "tmux", "-S", socket, "-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "160", "-y", "40",
                                               "env -i \(env) \(command)"])
            try #require(r.status == 0, "\(r)")
        }

        deinit { _ = try? s.run("/usr/bin/env", ["tmux", "-S", socket, "kill-server"]) }

        static func quoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

        func screen() throws -> String { try s.sh("tmux -S \(Self.quoted(socket)) capture-pane -p -t t").stdout }

        func keys(_ keys: String...) throws {
            _ = try s.run("/usr/bin/env", ["tmux", "-S", socket, "send-keys", "-t", "t"] + keys)
        }

        /// Types `line`, presses Tab, and returns the screen once it shows `expected` (or after 20 s).
        func complete(_ line: String, until expected: String) throws -> String {
            try keys("C-u", "C-l")
            usleep(200_000)
            try keys(line, "Tab")
            let deadline = Date().addingTimeInterval(20)
            var text = try screen()
            while !text.contains(expected), Date() < deadline {
                usleep(100_000)
                text = try screen()
            }
            return text
        }

        func waitFor(_ prompt: String) throws {
            let deadline = Date().addingTimeInterval(20)
            while try !screen().contains(prompt), Date() < deadline { usleep(100_000) }
        }
    }

    static func hasTools(_ names: String...) -> Bool {
        names.allSatisfy { name in ["/usr/bin/", "/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + name) } }
    }

    @Test("zsh: task ids with their titles (escape sequences shown, not obeyed), list names, list:, +tags, help",
          .enabled(if: hasTools("zsh", "tmux"), "SKIPPED: zsh or tmux is not installed (scripts/ensure-deps.sh --test installs them)"))
    func zsh() throws {
        let s = try Self.store()
        let functions = s.root + "/zfunc"
        try FileManager.default.createDirectory(atPath: functions, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: try Self.script(s, "zsh"), toPath: functions + "/_tick")
        try """
            fpath=(\(functions) $fpath)
            autoload -U compinit && compinit -u
            PROMPT='READY%# '

            """.write(toFile: s.home + "/.zshrc", atomically: true, encoding: .utf8)
        let t = try Terminal(s, command: "env ZDOTDIR=\(s.home) zsh -i")
        try t.waitFor("READY")
        let ids = try Self.shortIDs(s)
        let bank = try #require(ids.first { $0.value == "Call the bank" }?.key)
        let tasks = try t.complete("tick done ", until: "Call the bank")
        #expect(tasks.contains("\(bank)  -- Call the bank"), "\(tasks)")
        #expect(tasks.contains("^[[31mRED^[[0m alert"), "the escape sequence is shown as text: \(tasks)")
        let lists = try t.complete("tick list W", until: "Work")
        #expect(lists.contains("Weird $(touch pwned) `touch pwned2`") && lists.contains("Work") && !lists.contains("Reading"), "\(lists)")
        let token = try t.complete("tick add Buy milk list:R", until: "Reading")
        #expect(token.contains("list:Reading\\ Q3") || token.contains("list:Reading Q3"), "\(token)")
        let tags = try t.complete("tick add Buy +w", until: "+writing")
        #expect(tags.contains("+work") && tags.contains("+writing"), "\(tags)")
        let help = try t.complete("tick help lists ", until: "rename")
        #expect(help.contains("rm") && help.contains("-- Delete a list and all its tasks."), "\(help)")
        #expect(!FileManager.default.fileExists(atPath: s.root + "/pwned") && !FileManager.default.fileExists(atPath: s.home + "/pwned"))
    }

    @Test("fish: task ids with their titles (escape sequences shown, not obeyed), list names, +tags, help",
          .enabled(if: hasTools("fish", "tmux"), "SKIPPED: fish or tmux is not installed (scripts/ensure-deps.sh --test installs them)"))
    func fish() throws {
        let s = try Self.store()
        let script = try Self.script(s, "fish")
        try "source \(script)\nfunction fish_prompt; echo 'READY> '; end\n".write(toFile: s.root + "/init.fish", atomically: true, encoding: .utf8)
        let t = try Terminal(s, command: "fish -N -C 'source \(s.root)/init.fish'")
        try t.waitFor("READY")
        let ids = try Self.shortIDs(s)
        let bank = try #require(ids.first { $0.value == "Call the bank" }?.key)
        let tasks = try t.complete("tick done ", until: "Call the bank")
        #expect(tasks.contains("\(bank)  (Call the bank)"), "\(tasks)")
        #expect(tasks.contains("^[[31mRED^[[0m alert"), "the escape sequence is shown as text: \(tasks)")
        let lists = try t.complete("tick lists rm ", until: "Work")
        #expect(lists.contains("Reading Q3") && lists.contains("Hostile"), "\(lists)")
        let tags = try t.complete("tick add Buy +", until: "+writing")
        #expect(tags.contains("+phone") && tags.contains("+work"), "\(tags)")
        let help = try t.complete("tick help ", until: "archive")
        #expect(help.contains("(Add a task (or many, from stdin).)"), "\(help)")
    }
}
