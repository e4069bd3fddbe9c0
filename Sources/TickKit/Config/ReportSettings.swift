/// A saved listing from `[reports.NAME]` in config.toml, runnable as `tick NAME`.
public struct ReportSettings: Sendable, Equatable {
    /// The filter, as written (Docs/CLI.md "Filters").
    public var filter = ""
    /// `--sort` keys, as written; nil keeps the listing's order.
    public var sort: String?
    public var limit: Int?
    /// The columns of the text output, in order; nil keeps the listing's lines.
    public var columns: [String]?
    /// One line for `tick help` and `tick context`.
    public var description: String?

    public init(filter: String = "", sort: String? = nil, limit: Int? = nil, description: String? = nil) {
        self.filter = filter
        self.sort = sort
        self.limit = limit
        self.description = description
    }
}
