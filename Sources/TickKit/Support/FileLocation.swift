/// A place in a file as every diagnostic names it: `path`, `path:line` or
/// `path:line:column` (as compilers print it, so editors can jump there).
/// The one formatter of that text: errors (``TickError/fileLocation``) and
/// warnings (``TickWarning/location``) both render through it.
public struct FileLocation: Sendable, Equatable, CustomStringConvertible {
    /// The file, as shown to the user.
    public var path: String
    /// 1-based line, when known.
    public var line: Int?
    /// 1-based column, when known (only shown with a line).
    public var column: Int?

    public init(path: String, line: Int? = nil, column: Int? = nil) {
        self.path = path
        self.line = line
        self.column = column
    }

    /// `path`, `path:line` or `path:line:column`.
    public var description: String {
        guard let line else { return path }
        guard let column else { return "\(path):\(line)" }
        return "\(path):\(line):\(column)"
    }

    /// An error line: `<location>: error: <report>`, or `tick: error: <report>`
    /// without a location. The one place that joins a location and a report.
    public static func errorLine(_ report: String, at location: String?) -> String {
        (location ?? "tick") + ": error: " + report
    }
}
