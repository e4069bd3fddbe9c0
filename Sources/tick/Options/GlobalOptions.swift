import ArgumentParser
import TickKit

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The store directory.",
        discussion: "Default: $TICK_STORE, else $XDG_DATA_HOME/tick (~/.local/share/tick).",
        valueName: "path"), completion: .directory)
    var store: String?

    @Flag(name: .long, help: "Never use color. Color is also off when NO_COLOR is set or stdout is not a terminal.")
    var noColor = false

    @Flag(name: .long, help: "Never page long output. By default, long output on a terminal goes through $TICK_PAGER, else $PAGER, else `less -FRX`.")
    var noPager = false
}

/// The `--json` flag of read commands.
struct JSONOption: ParsableArguments {
    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false
}

/// State filters shared by listings.
struct FilterOptions: ParsableArguments {
    @Flag(name: .long, help: "Include done and waiting tasks.")
    var all = false

    @Option(name: .long, help: ArgumentHelp("Only tasks in these states (open, active, done; comma-separated).", valueName: "states"),
            completion: .list(["open", "active", "done", "open,active"]))
    var state: String?

    @Option(name: .long, help: ArgumentHelp("Only tasks with this tag (repeatable; all must match).", valueName: "tag"),
            completion: ShellCompletion.tags)
    var tag: [String] = []

    /// The filter these options describe.
    func filter() throws -> TaskFilterSpec {
        try Self.filter(all: all, state: state, tags: tag)
    }

    /// A filter from `--all`, `--state` and `--tag` values.
    static func filter(all: Bool, state: String?, tags tag: [String]) throws -> TaskFilterSpec {
        var states: Set<TickKitState> = all ? Set(TickKitState.allCases) : [.open, .active]
        if let state {
            states = []
            let words = state.split(separator: ",").map { $0.trimmingWhitespace().lowercased() }
            guard !words.isEmpty, !words.contains("") else {
                throw InputError.invalid("--state: \"\(state)\" names no state; give open, active or done (comma-separated)")
            }
            for word in words {
                guard let s = TickKitState(rawValue: word) else {
                    throw InputError.badValue(key: "--state", value: word, allowed: TickKitState.allCases.map(\.rawValue))
                }
                states.insert(s)
            }
        }
        let tags = tag.map { $0.hasPrefix("+") ? String($0.dropFirst()) : $0 }
        if let empty = tag.first(where: { $0.trimmingWhitespace().isEmpty || $0 == "+" }) {
            throw InputError.invalid("--tag: \"\(empty)\" is not a tag; give a tag name, e.g. --tag work")
        }
        return TaskFilterSpec(states: states, tags: tags, showWaiting: all)
    }
}
