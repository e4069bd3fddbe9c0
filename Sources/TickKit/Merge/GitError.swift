import FoundationEssentials

/// A git command that could not run, or failed where failure is not expected.
public struct GitError: Error, LocalizedError, Sendable, Equatable {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var errorDescription: String? { message }
}

extension GitError: TickError {
    public var kind: FailureKind { .failure }
}
