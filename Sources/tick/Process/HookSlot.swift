import FoundationEssentials
import Glibc
import TickKit

/// The hooks of one run of a command (Docs/HOOKS.md). `main` binds a slot
/// around the command; the command's first ``Context`` fills it (running
/// `on-launch`), every later one (a `tick ui` action) shares it, and `main`
/// runs `on-exit` from it when the command is over.
final class HookSlot: @unchecked Sendable {
    /// The slot of the command running in this task; nil outside `main`
    /// (tests that build a Context, a shell's Tab completion).
    @TaskLocal static var current: HookSlot?

    private(set) var hooks: TaskHooks?
    private var made = false

    /// The hooks, made (and launched) by `make` the first time.
    func hooks(_ make: () throws -> TaskHooks?) throws -> TaskHooks? {
        guard !made else { return hooks }
        made = true
        hooks = try make()
        try hooks?.launch()
        return hooks
    }

    /// Whether `command` (a ``CommandPath``) runs hooks: its
    /// ``CommandFacts/runsHooks``, unless the environment's `TICK_HOOKS=off`
    /// (or `0`, `no`, `false`) turns them off for a command.
    static func enabled(for command: String, environment: [String: String]) -> Bool {
        if let value = environment["TICK_HOOKS"]?.lowercased(), ["off", "0", "no", "false"].contains(value) { return false }
        return CommandFacts.of(path: command)?.runsHooks ?? false
    }

    /// Seconds a hook may run: `TICK_HOOK_TIMEOUT`, else 10.
    static func timeout(environment: [String: String]) throws -> Double {
        guard let text = environment["TICK_HOOK_TIMEOUT"], !text.isEmpty else { return 10 }
        guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
            throw CLIError("TICK_HOOK_TIMEOUT must be a number of seconds above 0, not \"\(text)\"", status: .usage)
        }
        return seconds
    }
}
