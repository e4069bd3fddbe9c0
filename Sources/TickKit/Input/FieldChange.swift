/// A change to an optional field: leave it, set it, or clear it.
public enum FieldChange<Value: Sendable & Equatable>: Sendable, Equatable {
    case keep
    case set(Value)
    case clear

    /// Applies the change to a field; returns true when the value changed.
    @discardableResult
    public func apply(to field: inout Value?) -> Bool {
        switch self {
        case .keep: return false
        case .set(let v):
            if field == v { return false }
            field = v
            return true
        case .clear:
            if field == nil { return false }
            field = nil
            return true
        }
    }
}
