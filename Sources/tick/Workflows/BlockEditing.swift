import TickKit

extension BlockEditing {
    /// The command's block edits: its store, index, start time and zone.
    init(context: Context) {
        self.init(store: context.store, session: context.indexSession, now: context.now, timeZone: context.timeZone)
    }
}
