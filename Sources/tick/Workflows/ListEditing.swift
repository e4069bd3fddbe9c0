import TickKit

extension ListEditing {
    /// The command's list edits: its store, index and start time.
    init(context: Context) {
        self.init(store: context.store, session: context.indexSession, now: context.now)
    }
}
