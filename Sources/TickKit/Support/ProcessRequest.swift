/// A program to run through ``ProcessRunner``: what, where, with which
/// environment and input, and for how long at most.
public struct ProcessRequest: Sendable {
    /// A path (containing a `/`), run as it is, or a name looked up on PATH.
    public var program: String
    public var arguments: [String]
    /// The working directory.
    public var directory: String
    /// The child's whole environment (nothing is inherited behind the caller's back).
    public var environment: [String: String]
    /// Bytes for the child's stdin; nil gives it /dev/null.
    public var input: [UInt8]?
    /// Seconds the child may run before it is stopped; nil waits for ever.
    public var timeout: Double?
    /// The timeout counts from the child's last output, not from its start
    /// (``diesWithParent`` runs only): a long upload that keeps saying what it
    /// does runs to its end; one silent for the timeout is stuck and stopped.
    public var timeoutIsIdle = false
    /// The child uses tick's own stdin, stdout and stderr (an editor on the
    /// terminal) instead of the request's input and captured output.
    public var usesTerminal = false
    /// The child runs in a process group of its own that tick stops as a
    /// whole (on timeout), and gets SIGTERM when tick ends, however it ends
    /// (Linux's parent-death signal): for a long-running helper such as
    /// vdirsyncer, which must not outlive the tick that started it.
    public var diesWithParent = false

    public init(program: String, arguments: [String] = [], directory: String, environment: [String: String],
                input: [UInt8]? = nil, timeout: Double? = nil) {
        self.program = program
        self.arguments = arguments
        self.directory = directory
        self.environment = environment
        self.input = input
        self.timeout = timeout
    }
}
