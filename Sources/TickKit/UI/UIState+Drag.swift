import FoundationEssentials

extension UIState {
    /// The end of a drag: onto another row of the same file, the task takes
    /// that row's place in the manual order; onto Today or Upcoming, it is
    /// scheduled today or tomorrow; onto a list's tab, it moves there.
    mutating func drop(on target: UIDropTarget) -> [UIEffect] {
        guard let id = dragging, let from = rows.firstIndex(where: { $0.task.id == id }) else {
            dragging = nil
            return []
        }
        dragging = nil
        let item = rows[from]
        switch target {
        case .nowhere:
            return []
        case .row(let n):
            let to = top + n
            guard rows.indices.contains(to), to != from else { return [] }
            let anchor = rows[to]
            guard anchor.kind == item.kind else {
                status = "Drag within one list to reorder; drop on a list's tab to move the task there."
                return []
            }
            select(from)
            return [.reorder(id, to > from ? .after(anchor.task.id) : .before(anchor.task.id))]
        case .tab(let n):
            guard views.indices.contains(n) else { return [] }
            switch views[n] {
            case .today: return [.schedule(id, .today)]
            case .upcoming: return [.schedule(id, .tomorrow)]
            case .list(let kind, let name):
                guard kind != item.kind else {
                    status = "\"\(item.task.title)\" is already in \(name)."
                    return []
                }
                if case .list(let slug) = kind { return [.move(id, list: slug)] }
                return [.move(id, list: "inbox")]
            }
        }
    }
}
