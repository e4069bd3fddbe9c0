/// The days `t` and `T` schedule for.
public enum UIDay: Sendable, Equatable {
    case today, tomorrow
}
