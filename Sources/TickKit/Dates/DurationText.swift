import Foundation

/// Durations in minutes as people type and read them: `45m`, `1h30m`, `2h`, `90`.
public enum DurationText {
    /// Parses `90` (minutes), `45m`, `2h`, `1h30m`, `1h30`, `1.5h` (case-insensitive,
    /// also `min`/`mins`/`hr`/`hrs`); nil when it is not a positive duration.
    public static func parse(_ text: String) -> Int? {
        let s = text.trimmingCharacters(in: .whitespaces).lowercased()
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
            let unit = rest.prefix { $0.isLetter }
            rest = rest.dropFirst(unit.count)
            switch unit {
            case "h", "hr", "hrs", "hour", "hours":
                guard !sawHours else { return nil }
                sawHours = true
                total += value * 60
            case "m", "min", "mins", "minute", "minutes":
                total += value
                guard rest.isEmpty else { return nil }
            case "" where sawHours:
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

    /// `45m`, `1h`, `1h30m`.
    public static func format(_ minutes: Int) -> String {
        let h = minutes / 60, m = minutes % 60
        if h == 0 { return "\(m)m" }
        return m == 0 ? "\(h)h" : "\(h)h\(m)m"
    }
}
