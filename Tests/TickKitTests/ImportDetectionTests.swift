import Foundation
import Testing
@testable import TickKit

/// ``InterchangeFormat/detect(_:path:)`` and the one `--format` alias table (issue 35).
@Suite struct ImportDetectionTests {
    func detect(_ text: String) throws -> InterchangeFormat {
        try InterchangeFormat.detect(Array(text.utf8)[...], path: "in")
    }

    @Test func formatsAreToldFromTheContent() throws {
        #expect(try detect("(A) Call mom @phone\nx 2026-11-20 Pay rent\n") == .todotxt)
        #expect(try detect("\u{FEFF}Buy milk\n") == .todotxt)
        #expect(try detect("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n") == .ics)
        #expect(try detect("[\n{\"description\":\"a\",\"uuid\":\"x\"}\n]") == .taskwarrior)
        #expect(try detect("{\"description\":\"a\",\"status\":\"pending\"}\n{\"description\":\"b\"}\n") == .taskwarrior)
        #expect(try detect("{\n  \"format\": 1,\n  \"tasks\": [{\"title\": \"a\"}]\n}") == .json)
        #expect(try detect("id,list,title,state\n,Work,Report,open\n") == .csv)
        #expect(try detect("\"Title\",\"Due\"\nReport,2026-11-24\n") == .csv)
        #expect(try detect("Call Sam, Ann and Bo\n") == .todotxt, "a comma in a task is not a CSV header")
    }

    @Test func whatFitsNoFormatIsOneErrorNamingTheFormats() throws {
        #expect(throws: ImportError(path: "in", line: nil, message: "it is empty; there is nothing to import")) {
            try detect("  \n\n")
        }
        do {
            _ = try InterchangeFormat.detect([0x00, 0x01, 0xFF, 0x41][...], path: "blob")
            Issue.record("binary detected as a format")
        } catch {
            #expect(error.message.contains("tick JSON, Taskwarrior JSON, todo.txt, iCalendar or CSV"))
            #expect(error.message.contains("--format"))
        }
    }

    @Test func formatNamesComeFromOneTable() {
        #expect(InterchangeFormat(name: "todo.txt") == .todotxt)
        #expect(InterchangeFormat(name: "TodoTxt") == .todotxt)
        #expect(InterchangeFormat(name: "ical") == .ics)
        #expect(InterchangeFormat(name: "icalendar") == .ics)
        #expect(InterchangeFormat(name: "tw") == .taskwarrior)
        #expect(InterchangeFormat(name: "taskwarrior") == .taskwarrior)
        #expect(InterchangeFormat(name: "csv") == .csv)
        #expect(InterchangeFormat(name: "yaml") == nil)
        for format in InterchangeFormat.allCases {
            #expect(InterchangeFormat(name: format.rawValue) == format, "every raw name is in the table")
        }
    }

    /// JSON on one line, longer than the peek, with a character cut by its end
    /// (found by SearchTests' generated export): still tick JSON, not "not text".
    @Test func aLongLineCutInsideACharacterIsStillText() throws {
        for pad in 0..<4 {
            let text = "{\"tickExport\": 1, \"files\": [\"" + String(repeating: "x", count: 4000 + pad) + String(repeating: "é€😀", count: 40) + "\"]}"
            let head = Array(text.utf8).prefix(InterchangeFormat.detectBytes)
            #expect(try InterchangeFormat.detect(head, path: "in") == .json, "pad \(pad)")
        }
    }
}
