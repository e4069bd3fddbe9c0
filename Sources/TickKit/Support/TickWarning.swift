/// A warning TickKit returns instead of printing it: the command went on, but
/// something deserves the user's attention (a skipped journal line, a slot
/// over another task, an index answered from memory). The CLI prints it with
/// its `warning` prefix; `tick ui` shows ``description`` on its status line.
public struct TickWarning: Sendable, Equatable, CustomStringConvertible {
    /// What happened and what it means, in one sentence (further lines may follow).
    public var message: String
    /// The place in a file it is about (`path:line`), when it is about one.
    public var location: FileLocation?

    public init(_ message: String, at location: FileLocation? = nil) {
        self.message = message
        self.location = location
    }

    /// The warning without any prefix: `path:line: message`, or the message.
    public var description: String {
        guard let location else { return message }
        return "\(location): \(message)"
    }
}
