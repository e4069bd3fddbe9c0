import FoundationEssentials

extension UIState {
    /// Keys while the task rows have the focus.
    mutating func rowKey(_ key: UIKey) -> [UIEffect] {
        if showHelp, key == .escape || key == .character("?") || key == .character("q") {
            showHelp = false
            return []
        }
        let index = selectedIndex ?? 0
        switch key {
        case .down, .character("j"): select(index + 1)
        case .up, .character("k"): select(index - 1)
        case .pageDown, .control("f"): select(index + page)
        case .pageUp, .control("b"): select(index - page)
        case .home, .character("g"): select(0)
        case .end, .character("G"): select(rows.count - 1)
        case .left, .character("h"), .character("["), .backTab: return cycleView(by: -1)
        case .right, .character("l"), .character("]"): return cycleView(by: 1)
        case .character(let c) where Self.tabIndex(c) != nil:
            return switchView(to: Self.tabIndex(c) ?? viewIndex)
        case .tab, .character("a"):
            focus = .input
        case .escape:
            showDetails = false
        case .enter:
            showDetails.toggle()
        case .character("?"):
            showHelp.toggle()
        case .character("q"):
            return [.quit]
        case .character("u"):
            return [.undo]
        case .character("r"), .control("l"):
            return [.load]
        case .character("/"):
            beginFilter(fromCapture: false)
        case .character("c"):
            begin(.context, text: context ?? "")
        default:
            return taskKey(key)
        }
        return []
    }

    /// Keys that act on the selected task.
    mutating func taskKey(_ key: UIKey) -> [UIEffect] {
        guard let item = selectedTask, let index = selectedIndex else {
            if case .character(let c) = key, " xeEdJKmtTi".contains(c) { status = "No task selected." }
            return []
        }
        let id = item.task.id
        switch key {
        case .character(" "):
            return [.setState(id, Self.cycled(item.task.state))]
        case .character("x"):
            // todo.txt's and most apps' mark: done at once; on a done task, open again.
            return [.setState(id, item.task.state == .done ? .open : .done)]
        case .character("e"):
            begin(.edit(id), text: UITaskText.tokens(of: item.task, timeZone: timeZone, fields: fields))
        case .character("E"):
            return [.editInEditor(id)]
        case .character("d"), .delete:
            return [.delete(id)]
        case .character("J"):
            return reorder(item, from: index, down: true)
        case .character("K"):
            return reorder(item, from: index, down: false)
        case .character("m"):
            begin(.move(id), text: "")
        case .character("t"):
            return [.schedule(id, .today)]
        case .character("T"):
            return [.schedule(id, .tomorrow)]
        case .character("i"):
            return [.move(id, list: "inbox")]
        default:
            break
        }
        return []
    }

    /// Space: open → active → done → open (the seed's tap).
    public static func cycled(_ state: TaskState) -> TaskState {
        switch state {
        case .open: return .active
        case .active: return .done
        case .done: return .open
        }
    }

    /// `J`/`K`: in a list, after the next (before the previous) row of the same
    /// file; in Today and Upcoming, past the adjacent row when it is of the
    /// same file and dates (the only order a date view shows).
    mutating func reorder(_ item: ListedTask, from index: Int, down: Bool) -> [UIEffect] {
        if case .list = view {} else {
            // Today and Upcoming are ordered by date, the manual order only among
            // tasks of one list and one date: J/K pass such a neighbour or say so,
            // instead of writing an order the screen does not show.
            let next = down ? index + 1 : index - 1
            guard rows.indices.contains(next), rows[next].kind == item.kind, Self.sameDates(rows[next].task, item.task) else {
                status = "\(view.title) is ordered by date: J/K move a task past one of the same list and date here; reorder freely in its list's tab."
                return []
            }
            return [.reorder(item.task.id, down ? .after(rows[next].task.id) : .before(rows[next].task.id))]
        }
        let sameFile = { (other: ListedTask) in other.kind == item.kind }
        let neighbour = down
            ? rows[(index + 1)...].first(where: sameFile)
            : rows[..<index].last(where: sameFile)
        guard let neighbour else {
            status = down ? "Already the last task of \(item.listName) here." : "Already the first task of \(item.listName) here."
            return []
        }
        return [.reorder(item.task.id, down ? .after(neighbour.task.id) : .before(neighbour.task.id))]
    }

    /// Same due, scheduled day, slot and reminder: the date views sort them as equals.
    static func sameDates(_ a: TaskItem, _ b: TaskItem) -> Bool {
        a.due == b.due && a.scheduled == b.scheduled && a.slot == b.slot && a.remind == b.remind
    }
}
