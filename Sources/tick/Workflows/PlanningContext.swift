import FoundationEssentials
import TickKit

extension PlanningContext {
    /// The command's planning context: its store, the index brought up to date, its start time and zone.
    init(_ context: Context) throws {
        self.init(store: context.store, loaded: try context.load(), now: context.now, timeZone: context.timeZone)
    }
}
