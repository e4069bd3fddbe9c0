import Foundation
import Testing

/// `tick ui` running in a real terminal: a detached tmux session on a private
/// socket, driven with `send-keys` and read with `capture-pane`.
final class UITerminal {
    let sandbox: Sandbox
    let socket: String
    let name: String
    private let pidFile: String

    /// The pid of `tick ui`.
    var pid: Int32? {
        (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Starts `tick ui ARGS` (or `tick COMMAND ARGS`) in a `width`×`height` tmux window.
    init(_ s: Sandbox, _ args: [String] = [], command: [String] = ["ui"], width: Int = 100, height: Int = 30, env: [String: String?] = [:],
         name: String = "ui", sourceLocation: SourceLocation = #_sourceLocation) throws {
        sandbox = s
        socket = s.root + "/tmux-\(name).sock"
        self.name = name
        let environment = s.environment(["TERM": "tmux-256color"].merging(env) { $1 })
        let vars = environment.map { "\($0.key)=\(Self.quoted($0.value))" }.sorted().joined(separator: " ")
        pidFile = s.root + "/ui-\(name).pid"
        // The shell that writes its pid becomes `tick ui` (exec), so the pid is tick's.
        let ui = "echo $$ > \(Self.quoted(pidFile)); exec env -i \(vars) \(Self.quoted(TickBinary.path)) \((command + args).map(Self.quoted).joined(separator: " "))"
        let command = "sh -c \(Self.quoted(ui)); echo EXIT:$?; sleep 600"
        // The tmux server outlives this call: started with only stdin/out/err open
        // (Python closes the rest), so it does not hold the descriptor by which
        // Foundation's Process learns that its child ended. The test runner's
        // threads block signals, and a child inherits the mask: unblocked here, as
        // in a real terminal, so kill-server's SIGHUP reaches `tick ui`.
        let python = "import signal, subprocess, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); sys.exit(subprocess.call(sys.argv[1:], close_fds=True))"
        let r = try s.run("/usr/bin/env", ["python3", "-c", python,
                                           "tmux", "-S", socket, "-f", "/dev/null", "new-session", "-d", "-s", name,
                                           "-x", "\(width)", "-y", "\(height)", command])
        #expect(r.status == 0, "tmux did not start: \(r)", sourceLocation: sourceLocation)
    }

    /// Ends the tmux server (and with it `tick ui`): call it with `defer`
    /// right after starting, while the sandbox (and the socket in it) exists.
    func close() {
        _ = try? sandbox.run("/usr/bin/env", ["tmux", "-S", socket, "kill-server"])
    }

    static func quoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// The screen as text, one line per row; with `escapes`, with its attributes as SGR sequences.
    func screen(escapes: Bool = false) throws -> String {
        try sandbox.sh("tmux -S \(Self.quoted(socket)) capture-pane -p \(escapes ? "-e " : "")-t \(name)").stdout
    }

    /// Types `text` literally.
    func type(_ text: String) throws {
        let r = try sandbox.sh("tmux -S \(Self.quoted(socket)) send-keys -t \(name) -l \(Self.quoted(text))")
        #expect(r.status == 0, "\(r)")
    }

    /// Presses keys by tmux's names (`Enter`, `Space`, `Tab`, `Escape`, `J`).
    func press(_ keys: String...) throws {
        let r = try sandbox.sh("tmux -S \(Self.quoted(socket)) send-keys -t \(name) " + keys.map(Self.quoted).joined(separator: " "))
        #expect(r.status == 0, "\(r)")
    }

    /// A left-button drag from (x, y) to (x, y), 0-based cells, as an xterm
    /// reports it in its normal mouse mode (`ESC [ M` button col row, each plus
    /// 32), which is what the terminfo entry (`kmous`) says to expect. The same
    /// place twice is a click.
    func drag(from: (x: Int, y: Int), to: (x: Int, y: Int)) throws {
        func report(_ button: Int, _ at: (x: Int, y: Int)) -> String {
            "\u{1B}[M" + String(UnicodeScalar(UInt8(32 + button))) + String(UnicodeScalar(UInt8(33 + at.x))) + String(UnicodeScalar(UInt8(33 + at.y)))
        }
        // One write: ncurses then reads both reports as one run, the case a
        // quick hand on a loaded machine makes (a click comes merged as
        // BUTTON1_CLICKED; a drag's press is only found by reading the whole run).
        try type(report(0, from) + report(3, to))
    }

    /// Resizes the window, as a user dragging the terminal's edge.
    func resize(width: Int, height: Int) throws {
        let r = try sandbox.sh("tmux -S \(Self.quoted(socket)) resize-window -t \(name) -x \(width) -y \(height)")
        #expect(r.status == 0, "\(r)")
    }

    /// Waits until the screen satisfies `condition` (polling; generous
    /// timeout for a loaded machine) and returns it; records an issue if it never does.
    ///
    /// The screen returned is a whole frame: the same in two captures 50 ms
    /// apart. ncurses writes a frame at once, but the terminal may take it
    /// in parts, and a capture between them shows the new header over the
    /// old rows.
    @discardableResult
    func waitFor(_ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(60)
        var last = ""
        while Date() < deadline {
            let previous = last
            last = try screen()
            if condition(last) && last == previous { return last }
            usleep(50_000)
        }
        Issue.record("the screen never showed \(what):\n\(last)", sourceLocation: sourceLocation)
        return last
    }

    /// Waits until the screen shows `text`.
    @discardableResult
    func waitFor(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try waitFor("\"\(text)\"", sourceLocation: sourceLocation) { $0.contains(text) }
    }

    /// Waits until `condition` holds for the store (polling), e.g. on a file's contents.
    static func eventually(_ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if (try? condition()) == true { return }
            usleep(50_000)
        }
        Issue.record("never: \(what)", sourceLocation: sourceLocation)
    }
}
