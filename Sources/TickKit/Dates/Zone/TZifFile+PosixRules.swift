import FoundationEssentials

extension TZifFile {
    /// The zone glibc makes of a `TZ` with a daylight-saving name but no rule (`AAA5BBB`):
    /// the transition table of its `posixrules` file (normally America/New_York) with the
    /// user's two types, as glibc 2.36's `__tzfile_default` builds it; nil when the file
    /// has fewer than two types (glibc then uses the US rules, `M3.2.0,M11.1.0`).
    ///
    /// Each transition becomes the user's standard or daylight type by the `isdst` of the
    /// type it led to. One made in standard time (or marked standard) moves by
    /// `standard - the file's standard offset` (that of its last standard type), one marked
    /// UT not at all, and one made in daylight time not at all either: glibc 2.36 moves it
    /// by `daylight - a remembered daylight offset`, which since it stopped reading the
    /// file's is the one the user gave (from the second reading of `TZ` in a process on,
    /// which is what `date` shows). That is glibc's arithmetic, not the file's local
    /// times: `AAA3BBB` starts summer time at 06:00 AAA and ends it at 03:00 BBB. Past the
    /// table glibc uses the file's own footer rule, its names and offsets included
    /// (`AAA3BBB` is EST from 2038 with the usual fat New York file), and so does this.
    init?(posixRules file: TZifFile, standard: LocalTimeType, daylight: LocalTimeType) {
        guard file.types.count >= 2 else { return nil }
        let fileStandard = file.transitions.isEmpty ? file.types[0].utcOffset
            : file.typeIndices.last(where: { !file.types[$0].isDaylightSavingTime }).map { file.types[$0].utcOffset } ?? 0
        var transitions: [Int64] = []
        var indices: [Int] = []
        var wasDaylight = false
        for (instant, index) in zip(file.transitions, file.typeIndices) {
            let type = file.types[index]
            var moved = instant
            if !file.utIndicators[index] && !(wasDaylight && !file.standardIndicators[index]) {
                moved += Int64(standard.utcOffset - fileStandard)
            }
            transitions.append(moved)
            indices.append(type.isDaylightSavingTime ? 1 : 0)
            wasDaylight = type.isDaylightSavingTime
        }
        self.init(transitions: transitions, typeIndices: indices, types: [standard, daylight], footer: file.footer,
                  standardIndicators: [false, false], utIndicators: [false, false])
    }
}
