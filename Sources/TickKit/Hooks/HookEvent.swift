/// The moments a hook script can run at, named as Taskwarrior names them
/// (Docs/HOOKS.md): a script's file name starts with its event's name.
public enum HookEvent: String, CaseIterable, Sendable {
    /// Before the command does anything; no input, feedback only.
    case launch = "on-launch"
    /// Before a new task is written: one task in, the task (maybe changed) out.
    case add = "on-add"
    /// Before a changed task is written: the task before and after in, the task out.
    case modify = "on-modify"
    /// After the command: every task it added or changed in, feedback only.
    case exit = "on-exit"
}
