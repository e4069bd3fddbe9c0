import FoundationEssentials

/// A value as one CSV cell (Docs/INTERCHANGE.md): written as text, read
/// back from a cell's text or refused with a message that names the column.
/// A field of the table whose value type conforms has a CSV column under
/// its name (``FieldCellCoding``).
protocol CellValue {
    /// The cell's text.
    var cellText: String { get }
    /// Its word after `key:` on a todo.txt line (the cell's text unless said).
    var todoTxtWord: String { get }
    /// The value a cell's text names (a non-empty cell, as the row has it),
    /// or why it names none.
    static func fromCell(_ text: String, column: String) -> Result<Self, CellProblem>
}

extension CellValue {
    var todoTxtWord: String { cellText }
}

/// Why a cell's text is not a value of its column: the message of the row's error.
struct CellProblem: Error {
    let message: String
}

/// An empty cell is unset: the reader never hands one over.
extension Optional: CellValue where Wrapped: CellValue {
    var cellText: String { self?.cellText ?? "" }
    var todoTxtWord: String { self?.todoTxtWord ?? "" }

    static func fromCell(_ text: String, column: String) -> Result<Wrapped?, CellProblem> {
        Wrapped.fromCell(text, column: column).map { $0 }
    }
}

/// Text is taken as it is, edge spaces and all.
extension String: CellValue {
    var cellText: String { self }

    static func fromCell(_ text: String, column: String) -> Result<String, CellProblem> { .success(text) }
}

/// Minutes, written as a number; read as one (`45`) or as a duration (`1h30m`).
extension Int: CellValue {
    var cellText: String { String(self) }
    /// `45m`, as todo.txt lines of tick 0.1 have it.
    var todoTxtWord: String { String(self) + "m" }

    static func fromCell(_ text: String, column: String) -> Result<Int, CellProblem> {
        let trimmed = text.trimmingWhitespace()
        guard let minutes = Int(trimmed) ?? DurationText.parse(trimmed), (1...TaskEstimate.maxMinutes).contains(minutes) else {
            return .failure(CellProblem(message: "\(column) must be minutes (45) or a duration (45m, 1h30m), found \"\(text)\""))
        }
        return .success(minutes)
    }
}

extension Date: CellValue {
    var cellText: String { Timestamp.format(self) }

    static func fromCell(_ text: String, column: String) -> Result<Date, CellProblem> {
        CellProblem.parsing(text, Timestamp.parse, or: "\(column) is not a timestamp (YYYY-MM-DDTHH:MM:SSZ)")
    }
}

extension TaskDate: CellValue {
    var cellText: String { fileString }

    static func fromCell(_ text: String, column: String) -> Result<TaskDate, CellProblem> {
        CellProblem.parsing(text, TaskDate.init(fileString:), or: "\(column) is not a date (YYYY-MM-DD) or timestamp")
    }
}

extension LocalDate: CellValue {
    var cellText: String { iso }

    static func fromCell(_ text: String, column: String) -> Result<LocalDate, CellProblem> {
        CellProblem.parsing(text, LocalDate.init(iso:), or: "\(column) is not a date (YYYY-MM-DD)")
    }
}

extension CellProblem {
    /// `parse` of the trimmed text, or `what` with the text as it came.
    static func parsing<T>(_ text: String, _ parse: (String) -> T?, or what: String) -> Result<T, CellProblem> {
        guard let value = parse(text.trimmingWhitespace()) else { return .failure(CellProblem(message: "\(what): \"\(text)\"")) }
        return .success(value)
    }
}

/// A word of a closed set, in any case.
extension CellValue where Self: RawRepresentable & CaseIterable, RawValue == String {
    var cellText: String { rawValue }

    static func fromCell(_ text: String, column: String) -> Result<Self, CellProblem> {
        if let value = Self(rawValue: text.trimmingWhitespace().lowercased()) { return .success(value) }
        let words = allCases.map(\.rawValue)
        let alternatives = words.count > 1 ? words.dropLast().joined(separator: ", ") + " or " + (words.last ?? "") : words.joined()
        return .failure(CellProblem(message: "\(column) must be \(alternatives), found \"\(text)\""))
    }
}

extension TaskState: CellValue {}
extension Priority: CellValue {}
extension Energy: CellValue {}
