import FoundationEssentials

/// A hook script that refused a change, failed, hung or broke the protocol.
public struct HookError: Error, LocalizedError, Sendable, Equatable {
    /// The script's file name (`on-modify.timewarrior`).
    public var script: String
    /// What went wrong, with the script's feedback when it gave any.
    public var message: String

    public init(script: String, message: String) {
        self.script = script
        self.message = message
    }

    public var errorDescription: String? { "hook \(script): \(message)" }
}

extension HookError: TickError {
    public var kind: FailureKind { .failure }
}
