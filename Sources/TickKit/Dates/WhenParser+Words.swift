import FoundationEssentials

/// The word families of ``WhenParser`` that are more than a table lookup: amounts in the
/// duration grammar (`in 2h`, `3mo`) and calendar dates by name (`dec 24`, `15th`).
extension WhenParser {
    /// An amount in the duration grammar, as typed after `in`, `+` or on its own.
    struct Relative: Equatable {
        /// The amount in `unit` (for a compound like `1h30m`, the total in minutes).
        var amount: Int
        var unit: DurationUnit
        /// The way its sign points (`in`/`+` ahead, `-`/`ago` back); nil when unsigned.
        var direction: WhenDirection? = nil
        /// The amount in minutes (only meaningful for minutes and hours).
        var minutes: Int {
            switch unit {
            case .hour: return amount * 60
            default: return amount
            }
        }
    }

    /// `in 2h`, `+2h`, `2h`, `in 3 days`, `in 1h30m`, `3mo`, and back in time `2h ago`, `-2h`,
    /// `3 days ago`; nil when the text is not of that form. Throws `.ambiguousUnit` for a
    /// capital `M` (months or minutes?).
    static func relative(_ text: String) throws(DateError) -> Relative? {
        var original = text.trimmingWhitespaceAndNewlines()
        var direction: WhenDirection?
        if original.lowercased().hasSuffix(" ago") {
            original = String(original.dropLast(4)).trimmingWhitespace()
            direction = .past
        }
        let word = normalize(original)
        var rest = Substring(word)
        if rest.hasPrefix("in") {
            guard direction == nil else { return nil }   // `in 3d ago`
            rest = rest.dropFirst(2)
            if rest.first == " " { rest = rest.dropFirst() }
            direction = .future
        } else if rest.hasPrefix("+") {
            guard direction == nil else { return nil }
            rest = rest.dropFirst()
            direction = .future
        } else if rest.hasPrefix("-") {
            guard direction == nil else { return nil }
            rest = rest.dropFirst()
            direction = .past
        }
        // (amount, unit text) pairs: `1h30m` is two.
        var parts: [(amount: Int, unit: Substring)] = []
        while !rest.isEmpty {
            let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
            guard !digits.isEmpty, digits.count <= 5, let amount = Int(digits), amount <= maxAmount else { return nil }
            rest = rest.dropFirst(digits.count)
            if rest.first == " " { rest = rest.dropFirst() }
            let unit = rest.prefix(while: { $0.isLetter })
            guard !unit.isEmpty else { return nil }
            rest = rest.dropFirst(unit.count)
            if rest.first == " " { rest = rest.dropFirst() }
            parts.append((amount, unit))
        }
        guard let first = parts.first else { return nil }
        // A capital M alone is ISO's month but many people's minute: ask.
        if parts.count == 1, first.unit == "m", original.hasSuffix("M") {
            throw .ambiguousUnit(input: original, amount: first.amount)
        }
        if parts.count == 1 {
            guard let unit = DurationUnit.named(first.unit) else { return nil }
            return Relative(amount: first.amount, unit: unit, direction: direction)
        }
        // Compounds are hours then minutes only: `1h30m`, `2 hours 15 min`.
        guard parts.count == 2, DurationUnit.named(parts[0].unit) == .hour,
              DurationUnit.named(parts[1].unit) == .minute
        else { return nil }
        return Relative(amount: parts[0].amount * 60 + parts[1].amount, unit: .minute, direction: direction)
    }

    // MARK: - Month names and ordinals

    /// `dec 24`, `24 dec`, `december 24th`, `24th of december`, `dec 24 2027`; nil when not of
    /// that form. Without a year, the next such day on or after today.
    func monthDay(_ word: String) throws(DateError) -> LocalDate? {
        var parts = word.split(separator: " ").map { $0.hasSuffix(",") ? $0.dropLast() : $0 }
        parts.removeAll { $0 == "of" || $0.isEmpty }
        guard parts.count == 2 || parts.count == 3 else { return nil }
        let month: Int
        let dayText: Substring
        if let m = WhenParser.months[String(parts[0])] {
            month = m
            dayText = parts[1]
        } else if let m = WhenParser.months[String(parts[1])] {
            month = m
            dayText = parts[0]
        } else {
            return nil
        }
        guard let day = WhenParser.ordinal(String(dayText)) ?? WhenParser.plainDay(dayText) else { return nil }
        if parts.count == 3 {
            guard parts[2].count == 4, parts[2].allSatisfy({ $0.isASCII && $0.isNumber }), let year = Int(parts[2]) else { return nil }
            guard let date = LocalDate(year: year, month: month, day: day) else {
                throw .invalidDate(word)
            }
            return date
        }
        // The next year (within a leap cycle) in which the day exists and is not past;
        // looking back, the last one not in the future.
        for step in 0...8 {
            let year = direction == .past ? today.year - step : today.year + step
            if let date = LocalDate(year: year, month: month, day: day),
               direction == .past ? date <= today : date >= today {
                return date
            }
        }
        throw .invalidDate(word)
    }

    /// The next day on or after today whose day of the month is `dayOfMonth`, skipping
    /// months too short for it (`31st` in November is December 31); looking back, the
    /// last such day on or before today (`31st` in November is October 31).
    func nextDay(ofMonth dayOfMonth: Int) -> LocalDate? {
        var month = today.firstDayOfMonth
        for _ in 0..<13 {
            if let date = LocalDate(year: month.year, month: month.month, day: dayOfMonth),
               direction == .past ? date <= today : date >= today {
                return date
            }
            month = month.adding(months: direction == .past ? -1 : 1)
        }
        return nil
    }

    /// `1st`, `2nd`, `3rd`, `15th`, `31st` -> the day number; nil otherwise.
    static func ordinal(_ word: String) -> Int? {
        let digits = word.prefix(while: { $0.isASCII && $0.isNumber })
        guard (1...2).contains(digits.count), let n = Int(digits), (1...31).contains(n) else { return nil }
        let suffix = word.dropFirst(digits.count)
        let expected: String
        switch (n % 100, n % 10) {
        case (11...13, _): expected = "th"
        case (_, 1): expected = "st"
        case (_, 2): expected = "nd"
        case (_, 3): expected = "rd"
        default: expected = "th"
        }
        return suffix == expected ? n : nil
    }

    /// `1`...`31` as a day of the month.
    static func plainDay(_ text: Substring) -> Int? {
        guard (1...2).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }),
              let n = Int(text), (1...31).contains(n)
        else { return nil }
        return n
    }
}
