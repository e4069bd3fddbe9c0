import FoundationEssentials

/// Durations in minutes as people type and read them: `45m`, `1h30m`, `2h`, `90`.
/// The unit words are those of ``DurationUnit`` (`m`/`min` minutes, `h` hours).
public enum DurationText {
    /// Parses `90` (minutes), `45m`, `2h`, `1h30m`, `1h30`, `1.5h` (case-insensitive,
    /// also `min`/`mins`/`hr`/`hrs`); nil when it is not a positive duration.
    public static func parse(_ text: String) -> Int? {
        let s = text.trimmingWhitespace().lowercased()
        guard !s.isEmpty else { return nil }
        if s.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard s.count <= 6, let n = Int(s), n > 0 else { return nil }
            return n
        }
        var total = 0.0
        var rest = Substring(s)
        var sawHours = false
        while !rest.isEmpty {
            let number = rest.prefix { ($0.isASCII && $0.isNumber) || $0 == "." }
            guard !number.isEmpty, number.count <= 6, let value = Double(number) else { return nil }
            rest = rest.dropFirst(number.count)
            if rest.first == " " { rest = rest.dropFirst() }
            let unit = rest.prefix { $0.isLetter }
            rest = rest.dropFirst(unit.count)
            if rest.first == " " { rest = rest.dropFirst() }
            switch unit.isEmpty ? nil : DurationUnit.named(unit) {
            case .hour?:
                guard !sawHours else { return nil }
                sawHours = true
                total += value * 60
            case .minute?:
                total += value
                guard rest.isEmpty else { return nil }
            case nil where unit.isEmpty && sawHours:
                // `1h30`: trailing minutes.
                total += value
                guard rest.isEmpty else { return nil }
            default:
                return nil
            }
        }
        let minutes = Int(total.rounded())
        return minutes > 0 && Double(minutes) == total.rounded() ? minutes : nil
    }

    /// The unit of a single `AMOUNT UNIT` (`2d`, `3 weeks`) with its amount; nil when the text
    /// is not of that shape. Lets callers say why a day-sized unit is not a duration here.
    public static func single(_ text: String) -> (amount: Int, unit: DurationUnit)? {
        let s = text.trimmingWhitespace().lowercased()
        let digits = s.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 6, let amount = Int(digits) else { return nil }
        let unit = s.dropFirst(digits.count).trimmingWhitespace()
        guard let u = DurationUnit.named(unit) else { return nil }
        return (amount, u)
    }

    /// `45m`, `1h`, `1h30m`.
    public static func format(_ minutes: Int) -> String {
        let h = minutes / 60, m = minutes % 60
        if h == 0 { return "\(m)m" }
        return m == 0 ? "\(h)h" : "\(h)h\(m)m"
    }
}
