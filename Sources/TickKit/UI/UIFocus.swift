/// Where keys go.
public enum UIFocus: Sendable, Equatable {
    case input, rows
}
