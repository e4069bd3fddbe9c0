import FoundationEssentials

/// The bridge's field-by-field merge of an item into the store's version of
/// its task (Docs/DAV.md, "How changes meet").
extension DavBridge {
    /// What ``mergeFields(store:item:base:lastPass:)`` made of one task.
    struct FieldMerge {
        /// The store's task with the item's winning fields copied in and stamped.
        var task: TaskItem
        /// Keys of the fields both sides changed (the later change won).
        var overridden: [String] = []
        /// True when the item completed a repeating task that is open here.
        var completesRepeating = false
    }

    /// Merges `item` into `store`, field by field. With `base` (the version
    /// both ends last agreed on) a field only one side changed takes that
    /// side's value; a field both changed takes the later change. Without a
    /// base (or for an item that may have been written from an older
    /// version) each differing field takes the item's value only when its
    /// LAST-MODIFIED is later than that field's change here.
    func mergeFields(store: TaskItem, item v: Item, base b: Item?, lastPass: Date?) -> FieldMerge {
        let phoneTime = stamp(of: v)
        var merge = FieldMerge(task: store)
        for field in DavMapping.fields(fields) where !field.equal(v.task, merge.task) {
            let later = phoneTime > field.changeTime(of: store, against: v.task)
            var takePhone = later
            if let b {
                let phoneSide = !field.equal(v.task, b.task)
                // Changed here since the last pass, even back to the base
                // value (done and reopened): a change that can win.
                let storeSide = !field.equal(store, b.task) || lastPass.map { field.changeTime(of: store, against: v.task) > $0 } ?? false
                if phoneSide && !storeSide {
                    // An item that arrived in another calendar than the
                    // base's, or that is older than the base, may have been
                    // written from an older version (a move made where a
                    // later edit had not arrived yet, a copy sent again after
                    // a delete, a wiped server's restored copy): its
                    // differences are changes only when they are later.
                    let descendant = b.collection == v.collection && phoneTime >= stamp(of: b)
                    takePhone = descendant || later
                } else if !phoneSide {
                    takePhone = false
                } else {
                    merge.overridden.append(field.key)
                }
            }
            guard takePhone else { continue }
            let keys = field.changeKeys(from: merge.task, to: v.task)
            if field.key == "state", v.task.state == .done, merge.task.state != .done, merge.task.repeatRule != nil {
                merge.completesRepeating = true
            }
            field.copy(&merge.task, v.task)
            for key in keys {
                let at = TaskChange.stamp(now: phoneTime, after: store.changeTime(key))
                merge.task.changed[key] = at
                if merge.task.modifiedAt < at { merge.task.modifiedAt = at }
            }
        }
        return merge
    }
}
