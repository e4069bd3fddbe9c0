import Foundation
import Testing
@testable import TickKit

/// Splitting a file with git conflict markers into its versions.
@Suite struct ConflictMarkersTests {
    func split(_ text: String) throws -> (ours: String, theirs: String, base: String?, conflicts: Int) {
        let s = try ConflictMarkers.split(Array(text.utf8))
        return (String(decoding: s.ours, as: UTF8.self), String(decoding: s.theirs, as: UTF8.self),
                s.base.map { String(decoding: $0, as: UTF8.self) }, s.conflicts)
    }

    @Test("two-way markers: common lines go to both sides, no base")
    func twoWay() throws {
        let text = """
        a
        <<<<<<< ours
        b1
        b2
        =======
        c1
        >>>>>>> theirs
        d
        <<<<<<< HEAD
        =======
        e
        >>>>>>> 1234567 (a commit)
        f

        """
        let r = try split(text)
        #expect(r.ours == "a\nb1\nb2\nd\nf\n")
        #expect(r.theirs == "a\nc1\nd\ne\nf\n")
        #expect(r.base == nil)
        #expect(r.conflicts == 2)
        #expect(ConflictMarkers.contains(Array(text.utf8)))
    }

    @Test("diff3 markers: the base section gives the base version")
    func diff3() throws {
        let text = "x\n<<<<<<< ours\no\n||||||| base\nb\n=======\nt\n>>>>>>> theirs\ny\n<<<<<<<\n|||||||\n=======\nt2\n>>>>>>>\n"
        let r = try split(text)
        #expect(r.ours == "x\no\ny\n")
        #expect(r.base == "x\nb\ny\n")
        #expect(r.theirs == "x\nt\ny\nt2\n")
        #expect(r.conflicts == 2)
    }

    @Test("line maps point back into the conflicted file")
    func lineMaps() throws {
        let s = try ConflictMarkers.split(Array("a\n<<<<<<< ours\nb\n=======\nc\nd\n>>>>>>> theirs\ne\n".utf8))
        #expect(s.oursLines == [1, 3, 8])
        #expect(s.theirsLines == [1, 5, 6, 8])
        #expect(ConflictMarkers.Sides.fileLine(3, in: s.theirsLines) == 6)
    }

    @Test("CRLF lines and a last line without a newline")
    func crlf() throws {
        let r = try split("a\r\n<<<<<<< ours\r\nb\r\n=======\r\nc\r\n>>>>>>> theirs\r\nd")
        #expect(r.ours == "a\r\nb\r\nd")
        #expect(r.theirs == "a\r\nc\r\nd")
    }

    @Test("text that only looks like markers is not a conflict")
    func notMarkers() throws {
        for text in [
            "{\n  \"title\": \"<<<<<<< not a marker\"\n}\n",
            "<<<<<<<< eight\n",
            "<<<<<<<x\n",
            " <<<<<<< indented\n",
            "<<<<<<",
        ] {
            #expect(!ConflictMarkers.contains(Array(text.utf8)), "\(text)")
        }
        // `========` (8) and `======= label` are not separators: they stay content.
        let r = try split("<<<<<<< a\n========\n=======\n======= x\n>>>>>>> b\n")
        #expect(r.ours == "========\n")
        #expect(r.theirs == "======= x\n")
    }

    @Test("unbalanced markers are errors with a line number", arguments: [
        ("a\n<<<<<<< ours\nb\n", 2),                       // not closed
        ("a\n=======\nb\n", 2),                             // separator outside
        ("<<<<<<< a\nx\n>>>>>>> b\n", 3),                    // end before the separator
        ("<<<<<<< a\n<<<<<<< b\n", 2),                      // nested
        (">>>>>>> b\n", 1),
        ("<<<<<<< a\n=======\n||||||| b\n>>>>>>> c\n", 3),   // base after the separator
    ])
    func unbalanced(_ text: String, _ line: Int) {
        #expect(throws: ConflictMarkerError.self) { try ConflictMarkers.split(Array(text.utf8)) }
        do {
            _ = try ConflictMarkers.split(Array(text.utf8))
        } catch {
            #expect(error.line == line, "\(text)")
        }
    }

    @Test("a file without markers splits into itself")
    func noMarkers() throws {
        let r = try split("{}\n")
        #expect(r.ours == "{}\n" && r.theirs == "{}\n" && r.conflicts == 0 && r.base == nil)
    }
}
