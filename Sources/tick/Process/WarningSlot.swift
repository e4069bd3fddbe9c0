import TickKit

/// The warnings of one run of a command: `main` binds a slot around the
/// command, each ``Context`` the command makes attaches its sessions (the
/// index's, the undo journal's), and `main` prints what they hold when the
/// command is over, success or not (``Diagnostics``). TickKit keeps its
/// warnings as values the sessions hand over (``IndexSession/takeWarnings()``,
/// ``JournalSession/takeWarnings()``); it never prints and takes no callback.
/// Long-running commands (`tick ui`, `tick watch`) take them as they go.
final class WarningSlot: @unchecked Sendable {
    /// The slot of the command running in this task; nil outside `main`
    /// (tests that build a Context, a shell's Tab completion).
    @TaskLocal static var current: WarningSlot?

    private var indexSessions: [IndexSession] = []
    private var journals: [JournalSession] = []

    /// Keeps `index` and `journal` to be asked for their warnings at the end.
    func attach(_ index: IndexSession, _ journal: JournalSession?) {
        if !indexSessions.contains(where: { $0 === index }) { indexSessions.append(index) }
        if let journal, !journals.contains(where: { $0 === journal }) { journals.append(journal) }
    }

    /// The warnings not taken yet, index first.
    func take() -> [TickWarning] {
        indexSessions.flatMap { $0.takeWarnings() } + journals.flatMap { $0.takeWarnings() }
    }
}
