import FoundationEssentials

/// How a mood maps to the energy a task should need (`tick suggest --mood`).
///
/// | Mood | Energy |
/// |---|---|
/// | focused, energetic, fresh, motivated, sharp, great | high |
/// | tired, low, drained, sleepy, exhausted, meh | low |
/// | ok, okay, neutral, fine | any (no preference) |
public enum Mood {
    /// The table, in the order it is documented.
    public static let table: [(mood: String, energy: Energy)] = [
        ("focused", .high), ("energetic", .high), ("fresh", .high), ("motivated", .high), ("sharp", .high), ("great", .high),
        ("tired", .low), ("low", .low), ("drained", .low), ("sleepy", .low), ("exhausted", .low), ("meh", .low),
        ("ok", .any), ("okay", .any), ("neutral", .any), ("fine", .any),
    ]

    /// Every mood word.
    public static var names: [String] { table.map(\.mood) }

    /// The energy for a mood (case-insensitive); nil for an unknown mood.
    public static func energy(for mood: String) -> Energy? {
        let m = mood.lowercased().trimmingWhitespace()
        return table.first { $0.mood == m }?.energy
    }
}
