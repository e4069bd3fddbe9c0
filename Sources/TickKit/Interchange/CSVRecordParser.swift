import FoundationEssentials

/// Splits RFC 4180 CSV into records, fed in chunks of any size (a quoted
/// field may span lines and chunks), counting physical lines.
struct CSVRecordParser {
    /// One parsed record and the physical line it starts on.
    struct Record {
        var fields: [String]
        var line: Int
    }

    private enum State {
        /// At the start of a field (a `"` opens a quoted field).
        case fieldStart
        /// Inside an unquoted field.
        case unquoted
        /// Inside a quoted field.
        case quoted
        /// Just after a `"` inside a quoted field: `""` or the closing quote.
        case quotedQuote
        /// Just after a closing quote: a comma or a line end must follow.
        case closed
        /// Just after a CR that ended a record (a following LF belongs to it).
        case afterCR
    }

    let path: String
    private var state = State.fieldStart
    private var fields: [String] = []
    private var field: [UInt8] = []
    private var recordBytes = 0
    private var inRecord = false
    private var line = 1
    private var recordLine = 1
    private var quoteLine = 1
    private var started = false
    private var bom: [UInt8] = []

    init(path: String) {
        self.path = path
    }

    private static let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), lf: UInt8 = 0x0A, cr: UInt8 = 0x0D

    /// Consumes `chunk`, calling `emit` with each complete record.
    mutating func feed(_ chunk: ArraySlice<UInt8>, emit: (Record) throws(ImportError) -> Void) throws(ImportError) {
        var chunk = chunk
        if !started {
            // A UTF-8 byte order mark, possibly split across chunks.
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            while self.bom.count < 3, let b = chunk.first, b == bom[self.bom.count] {
                self.bom.append(b)
                chunk = chunk.dropFirst()
            }
            if chunk.isEmpty && self.bom.count < 3 { return }
            started = true
            if self.bom.count < 3 {
                // Not a full mark: those bytes were data.
                let kept = self.bom
                self.bom = []
                for b in kept { try step(b, emit: emit) }
            }
        }
        for b in chunk { try step(b, emit: emit) }
    }

    /// Ends the input: the last record (without a line end) is emitted.
    mutating func finish(emit: (Record) throws(ImportError) -> Void) throws(ImportError) {
        if !started {
            started = true
            let kept = bom.count == 3 ? [] : bom
            for b in kept { try step(b, emit: emit) }
        }
        switch state {
        case .quoted:
            throw ImportError(path: path, line: quoteLine, message: "a quoted field is never closed (missing '\"')")
        default:
            break
        }
        if inRecord || !field.isEmpty {
            endField()
            try emit(Record(fields: fields, line: recordLine))
        }
        fields = []
    }

    private mutating func endField() {
        fields.append(String(decoding: field, as: UTF8.self))
        field.removeAll(keepingCapacity: true)
    }

    private mutating func endRecord(emit: (Record) throws(ImportError) -> Void) throws(ImportError) {
        if inRecord || !field.isEmpty {
            endField()
            try emit(Record(fields: fields, line: recordLine))
        }
        fields = []
        recordBytes = 0
        line += 1
        recordLine = line
        inRecord = false
    }

    private mutating func append(_ b: UInt8) throws(ImportError) {
        field.append(b)
        recordBytes += 1
        if recordBytes > ImportReader.maxRecordBytes {
            throw ImportError(path: path, line: recordLine, message: "the record is longer than \(ImportReader.maxRecordBytes >> 20) MiB; no task is that long")
        }
    }

    private mutating func step(_ c: UInt8, emit: (Record) throws(ImportError) -> Void) throws(ImportError) {
        switch state {
        case .afterCR:
            state = .fieldStart
            if c == Self.lf { return }
            try step(c, emit: emit)
        case .quoted:
            if c == Self.quote {
                state = .quotedQuote
            } else {
                if c == Self.lf { line += 1 }
                try append(c)
            }
        case .quotedQuote:
            if c == Self.quote {
                try append(Self.quote)
                state = .quoted
            } else {
                state = .closed
                try step(c, emit: emit)
            }
        case .closed:
            guard c == Self.comma || c == Self.lf || c == Self.cr else {
                throw ImportError(path: path, line: line, message: "unexpected character after a closing quote (a '\"' inside a field must be doubled)")
            }
            state = .unquoted
            try step(c, emit: emit)
        case .fieldStart, .unquoted:
            if c == Self.quote {
                guard state == .fieldStart else {
                    throw ImportError(path: path, line: line, message: "a '\"' inside an unquoted field (quote the field and double the '\"')")
                }
                inRecord = true
                quoteLine = line
                state = .quoted
            } else if c == Self.comma {
                inRecord = true
                endField()
                state = .fieldStart
            } else if c == Self.lf || c == Self.cr {
                try endRecord(emit: emit)
                state = c == Self.cr ? .afterCR : .fieldStart
            } else {
                inRecord = true
                state = .unquoted
                try append(c)
            }
        }
    }
}
