import Foundation
import Testing
@testable import TickKit

/// Issue 12 item 13: CSV and todo.txt are read in chunks; a record split
/// anywhere across chunks reads the same as the whole text.
@Suite struct StreamingImportTests {
    static let csv = "\u{FEFF}title,list,notes\r\n\"Buy \"\"oat\"\" milk\",Errands,\"two\nlines, comma\"\nPlain,,\r\n\"\",x,\n\"last\",Work,n"

    /// Feeds `text` to a parser in chunks of `size` bytes.
    static func records(_ text: String, chunk size: Int) throws -> [CSVRecordParser.Record] {
        var parser = CSVRecordParser(path: "t.csv")
        var out: [CSVRecordParser.Record] = []
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            try parser.feed(bytes[i..<min(i + size, bytes.count)]) { out.append($0) }
            i += size
        }
        try parser.finish { out.append($0) }
        return out
    }

    @Test("CSV split into chunks of any size gives the same records and lines", arguments: [1, 2, 3, 5, 7, 64, 4096])
    func csvChunks(size: Int) throws {
        let whole = try CSVCodec.records(Array(Self.csv.utf8), path: "t.csv")
        let chunked = try Self.records(Self.csv, chunk: size)
        #expect(chunked.map(\.fields) == whole.map(\.fields))
        #expect(chunked.map(\.line) == whole.map(\.line))
        #expect(whole.first?.fields == ["title", "list", "notes"], "the byte order mark is skipped")
        #expect(whole.map(\.line) == [1, 2, 4, 5, 6])
    }

    @Test("an unclosed quote is reported at its line whatever the chunking")
    func csvUnclosed() throws {
        for size in [1, 4, 4096] {
            #expect(throws: ImportError.self) { try Self.records("title\nok\n\"never closed\nmore\n", chunk: size) }
            do {
                _ = try Self.records("title\nok\n\"never closed\nmore\n", chunk: size)
            } catch let error as ImportError {
                #expect(error.line == 3)
            }
        }
    }

    @Test("ImportReader reads lines from a pipe in chunks, without a final newline, CRLF and BOM removed")
    func readerLines() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let text = "\u{FEFF}first\r\nsecond\n\nthird"
        let writeEnd = fds[1]
        let writer = Thread {
            let bytes = Array(text.utf8)
            for b in bytes { _ = [b].withUnsafeBytes { write(writeEnd, $0.baseAddress, 1) } }
            close(writeEnd)
        }
        writer.start()
        let reader = ImportReader(descriptor: fds[0], path: "<pipe>")
        var lines: [(String, Int)] = []
        try reader.forEachLine { bytes, n in lines.append((String(decoding: bytes, as: UTF8.self), n)) }
        close(fds[0])
        #expect(lines.map(\.0) == ["first", "second", "", "third"])
        #expect(lines.map(\.1) == [1, 2, 3, 4])
    }
}
