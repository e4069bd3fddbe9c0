extension Priority {
    /// Taskwarrior's priorities as tick's (Docs/CLI.md "Taskwarrior's words"):
    /// `H`/`high` and `M`/`medium` are must, `L`/`low` is flexible. tick has
    /// two priorities; `M` is must as `tick import` reads it. Any case.
    public static func taskwarrior(_ text: String) -> Priority? {
        switch text.lowercased() {
        case "h", "high", "m", "medium", "med": return .must
        case "l", "low": return .flexible
        default: return nil
        }
    }
}
