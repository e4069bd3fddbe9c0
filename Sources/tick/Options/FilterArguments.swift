import ArgumentParser
import TickKit

/// The filter words of a listing or bulk command, with `--sort` and `--limit`
/// (Docs/CLI.md "Filters").
struct FilterArguments: ParsableArguments {
    @Argument(help: ArgumentHelp(
        "A filter: +tag -tag list:NAME state: pri: energy: due.before:WHEN words /regex/ ids; `or`, `not` and ( ) combine terms.",
        valueName: "filter"), completion: ShellCompletion.filter)
    var words: [String] = []

    /// The words as typed: `tick` marks a leading `-` (`-work`) with a
    /// backslash so ArgumentParser does not read it as an option.
    var typed: [String] { Self.unmarked(words) }

    /// Words with the backslash that `Invocation.markingFilterNegations` put before a `-` taken away.
    static func unmarked<S: Sequence>(_ words: S) -> [String] where S.Element == String {
        words.map { $0.hasPrefix("\\-") ? String($0.dropFirst()) : $0 }
    }

    /// Parses the words with the context's clock.
    func parsed(_ context: Context) throws -> ParsedFilter {
        try context.filterParser().parse(typed)
    }
}

/// `--sort` and `--limit` of listings.
struct OrderOptions: ParsableArguments {
    // The keys as a literal, not `TaskSort.Key.builtIn` joined: ArgumentParser
    // builds this help on every run, and the field table's first use would
    // cost every listing (3% of an empty `tick today`). SortHelpTests checks
    // it names exactly TaskSort's keys, in their order.
    static let sortHelp = "Sort by these keys (title, state, due, remind, wait, sched, pri, energy, estimate, created, modified, completed, list, id, or a field declared in config.toml), comma-separated; a trailing - sorts descending."

    @Option(name: .long, help: ArgumentHelp(
        Self.sortHelp,
        valueName: "keys"))
    var sort: String?

    @Option(name: .long, help: ArgumentHelp("Show at most N tasks.", valueName: "n"))
    var limit: Int?

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be 1 or more") }
    }

    /// The `--sort` keys, a declared field's name (`fields`) among them.
    func taskSort(fields: UserFields) throws -> TaskSort? {
        try sort.map { try TaskSort($0, fields: fields) }
    }
}
