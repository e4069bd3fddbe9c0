import FoundationEssentials

/// A program that could not be started (not installed, no temporary file for its output).
public struct ProcessError: Error, LocalizedError, Sendable, Equatable {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var errorDescription: String? { message }
}

extension ProcessError: TickError {
    public var kind: FailureKind { .failure }
}
