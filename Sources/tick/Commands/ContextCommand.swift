import ArgumentParser
import FoundationEssentials
import Glibc
import TickKit

extension Tick {
    struct ContextCommand: TickCommand {
        static let facts = CommandFacts(takesFilter: true)
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "context",
            abstract: "Switch every listing to a saved filter (work, home), or back.",
            discussion: """
            A context is a filter saved under a name in config.toml ([contexts]). \
            While one is active, every listing (list, today, upcoming, overdue, inbox, \
            reports), changes by filter (done +errand) and the status line show only \
            the tasks it matches, and say that it is on. Which context is active is \
            machine-local state for this store ($XDG_STATE_HOME), never in the store; \
            TICK_CONTEXT=NAME (or none) overrides it for one command.

            FORMS
              tick context                       show the active context and the defined ones
              tick context NAME                  make NAME active
              tick context none                  no context: show everything
              tick context define NAME FILTER    save FILTER as NAME in config.toml
              tick context delete NAME           remove NAME from config.toml

            EXAMPLES
              tick context define work '+work or list:Work'
              tick context work
              tick context none
            """))

        @OptionGroup var global: GlobalOptions

        @Argument(help: ArgumentHelp("NAME, none, or define NAME FILTER, delete NAME.", valueName: "words"))
        var words: [String] = []

        static let reserved: Set<String> = ["none", "define", "delete", "show", "list"]

        func run() throws {
            let context = try Context(global)
            let t = context.terminal
            let state = ActiveContext(location: context.store.location)
            let config = try context.config()
            switch words.first {
            case nil, "show":
                guard words.count <= 1 else { throw ValidationError("tick context show takes nothing more") }
                let active = state.name(environment: context.environment)
                if config.contexts.isEmpty {
                    t.out("No contexts defined. Define one with: tick context define work '+work or list:Work'")
                }
                for name in config.contexts.keys.sorted() {
                    let mark = name == active ? "* " : "  "
                    t.out(mark + t.bold(name) + "  " + (config.contexts[name] ?? ""))
                }
                if let active {
                    let how = context.environment["TICK_CONTEXT"] != nil ? " (from TICK_CONTEXT)" : ""
                    t.out(config.contexts[active] == nil ? "Active: \(active)\(how), which is not defined: tick context none" : "Active: \(active)\(how)")
                } else {
                    t.out("Active: none")
                }
            case "none":
                guard words.count == 1 else { throw ValidationError("tick context none takes nothing more") }
                t.out(try Self.activate(nil, context: context, config: config))
            case "define":
                guard words.count >= 3 else { throw ValidationError("give a name and a filter, e.g. tick context define work '+work or list:Work'") }
                let name = words[1]
                try Self.checkName(name)
                let text = FilterArguments.unmarked(words.dropFirst(2)).joined(separator: " ")
                // Parse and bind now: a typo is refused here, not in every later listing.
                let parsed = try context.filterParser().parse([text])
                // `list:Work` naming no list makes it, as `tick add … list:Work` does.
                let names = parsed.expression.terms.compactMap { term -> String? in
                    if case .list(let name) = term.kind { return name } else { return nil }
                }
                for made in try ListEditing(context: context).makeMissing(names) {
                    t.out(Tick.Move.createdLine(made))
                }
                _ = try context.load().index.bind(parsed, query: context.query)
                try Self.editConfig(context) { $0.set(name, to: text, in: "contexts") }
                t.out("Defined context \(t.bold(name)): \(text)" + (state.name(environment: context.environment) == name ? "" : "; make it active with: tick context \(name)"))
            case "delete":
                guard words.count == 2 else { throw ValidationError("give the name of the context to delete, e.g. tick context delete work") }
                let name = words[1]
                var removed = false
                try Self.editConfig(context) { removed = $0.remove(name, in: "contexts") }
                guard removed else { throw CLIError("no context named \(name) in config.toml; see tick context", status: .notFound) }
                if state.name(environment: [:]) == name { try state.set(nil) }
                t.out("Deleted context \(name).")
            case let name?:
                guard words.count == 1 else { throw ValidationError("tick context NAME takes one name; to define one: tick context define NAME FILTER") }
                t.out(try Self.activate(name, context: context, config: config))
            }
        }

        /// Makes the context `name` active (nil: none), as `tick context NAME`
        /// and `c` in `tick ui` do; returns the confirmation line. A name
        /// config.toml does not define is refused (exit 4), with a guess.
        static func activate(_ name: String?, context: Context, config: TickConfig) throws -> String {
            let state = ActiveContext(location: context.store.location)
            guard let name else {
                try state.set(nil)
                return "No context: listings show everything."
            }
            guard let filter = config.contexts[name] else {
                var message = "no context named \(name)"
                if let guess = Spelling.closest(to: name, among: Array(config.contexts.keys)) { message += " (did you mean \(guess)?)" }
                throw CLIError(message + "; define it with: tick context define \(name) FILTER", status: .notFound)
            }
            try state.set(name)
            return "Context \(context.terminal.bold(name)) is active: \(filter). tick context none shows everything."
        }

        static func checkName(_ name: String) throws {
            guard !reserved.contains(name) else { throw ValidationError("\(name) cannot be a context name (it is a word of tick context)") }
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                throw ValidationError("a context name is letters, digits, - and _ (got \"\(name)\")")
            }
        }

        /// Rewrites config.toml with one change, keeping every other line; checks the result parses.
        static func editConfig(_ context: Context, _ change: (inout ConfigFileEditor) -> Void) throws {
            let path = TickConfig.path(environment: context.environment)
            let old = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
            var editor = ConfigFileEditor(text: old)
            change(&editor)
            _ = try TickConfig.parse(editor.text, path: path)
            try AtomicFile.createDirectory(PathString.deletingLastComponent(path))
            try AtomicFile.write(Array(editor.text.utf8), to: path, mode: nil)
        }
    }
}
