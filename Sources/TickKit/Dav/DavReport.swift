import FoundationEssentials

/// What one pass of the bridge did. Ids and field names only, never titles.
public struct DavReport: Sendable, Equatable {
    /// Items tick wrote into or removed from the vdir (vdirsyncer uploads them).
    public var sent = 0
    /// Items that were added, changed, moved or removed in the vdir since the last pass.
    public var received = 0
    /// Tasks the store took a change from the vdir for.
    public var merged = 0
    /// Of those: added, deleted and moved.
    public var added = 0
    public var deleted = 0
    public var moved = 0
    /// Fields where a change on one side lost to a later change of the same field on the other.
    public var overridden: [FieldOverride] = []
    /// Tasks deleted on the other end (at a time tick cannot know) and changed
    /// here since the last pass that saw them: kept, and sent again.
    public var kept: [UUID] = []
    /// Items or collections that were skipped, with why (paths, never titles).
    public var problems: [String] = []
    /// Lists made from calendars found in the vdir (made on the phone or by
    /// another machine), by slug (= the collection's path).
    public var newLists: [String] = []
    /// Collections this pass emptied on tick's side (the last items removed by
    /// tick's deletes, or the list removed with `tick lists rm`): the upload
    /// that follows is a deliberate emptying (vdirsyncer's `--force-delete`).
    public var emptied: [String] = []
    /// Collections of lists removed in tick (`tick lists rm`): their items are
    /// deleted from the vdir, and the calendar may go from the server.
    public var removedLists: [String] = []
    /// Lists renamed on the other end (another machine or the phone), by
    /// collection: the store took the calendar's new name.
    public var renamedLists: [String] = []
    /// Lists removed here because another tick machine's `tick lists rm`
    /// emptied their calendars (and nothing here kept them), by collection.
    public var removedElsewhere: [String] = []
    /// `tick dav restore`: names that are no bridged list's calendar (the others were restored).
    public var refused: [String] = []

    public init() {}

    /// Adds another pass's counts.
    public mutating func add(_ other: DavReport) {
        sent += other.sent
        received += other.received
        merged += other.merged
        added += other.added
        deleted += other.deleted
        moved += other.moved
        overridden += other.overridden
        for id in other.kept where !kept.contains(id) { kept.append(id) }
        for p in other.problems where !problems.contains(p) { problems.append(p) }
        for c in other.newLists where !newLists.contains(c) { newLists.append(c) }
        for c in other.emptied where !emptied.contains(c) { emptied.append(c) }
        for c in other.removedLists where !removedLists.contains(c) { removedLists.append(c) }
        for c in other.renamedLists where !renamedLists.contains(c) { renamedLists.append(c) }
        for c in other.removedElsewhere where !removedElsewhere.contains(c) { removedElsewhere.append(c) }
    }
}
