import Foundation
import Testing
@testable import TickKit

@Suite struct JSONTests {
    @Test func writerEscapesOnlyWhatJSONRequires() {
        var out: [UInt8] = []
        JSONWriter.writeString("a/b \"q\" \\ é 🎉 \n\t\u{01}", into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "\"a/b \\\"q\\\" \\\\ é 🎉 \\n\\t\\u0001\"")
    }

    @Test func parserDecodesEscapesAndSurrogatePairs() throws {
        let node = try JSONParser.parse("\"\\u00e9\\ud83c\\udf89\\/\"")
        #expect(node == .string("é🎉/"))
    }

    @Test func parserRejectsLoneSurrogateAndBadUTF8() {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("\"\\ud83c\"") }
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
    }

    @Test func parserRejectsLeadingZerosAndTrailingGarbage() {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("012") }
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("{} x") }
    }

    @Test func objectsKeepMemberOrder() throws {
        let node = try JSONParser.parse("{\"z\": 1, \"a\": 2, \"m\": 3}")
        guard case .object(let members) = node.kind else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["z", "a", "m"])
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 10_000)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(deep) }
    }

    @Test func uuidV5MatchesTheRFCExample() {
        // RFC 9562 Appendix A.4: DNS namespace, "www.example.com".
        let dns = UUID(uuidString: "6ba7b810-9dad-11d1-80b4-00c04fd430c8")!
        #expect(UUID(name: "www.example.com", namespace: dns).lowercased == "2ed6657d-e927-568b-95e1-2665a8aea6a2")
    }

    @Test func lowercasedUUIDIsFoundationsFormLowercased() {
        var ids = [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
                   UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))]
        for _ in 0..<1000 { ids.append(UUID()) }
        for id in ids {
            #expect(id.lowercased == id.uuidString.lowercased())
            #expect(UUID(fastString: id.lowercased) == id)
        }
    }

    @Test func sha1KnownAnswer() {
        let hex = SHA1.digest(Array("abc".utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(hex == "a9993e364706816aba3e25717850c26c9cd0d89d")
    }

    @Test func inotifyToolsLinks() {
        #expect(InotifySupport.eventName(InotifySupport.modifyMask) == "MODIFY")
    }
}

@Suite struct FastUUIDTests {
    @Test(arguments: ["6b1c7e2a-940d-4f3b-8e51-2f60a7d319c4", "6B1C7E2A-940D-4F3B-8E51-2F60A7D319C4", "00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff"])
    func agreesWithFoundation(text: String) {
        #expect(UUID(fastString: text) == UUID(uuidString: text))
        #expect(UUID(fastString: text) != nil)
    }

    @Test(arguments: ["6b1c7e2a940d4f3b8e512f60a7d319c4", "6b1c7e2a-940d-4f3b-8e51-2f60a7d319c", "6b1c7e2a-940d-4f3b-8e51-2f60a7d319c4a", "6b1c7e2a-940d4-f3b-8e51-2f60a7d319c4", "6b1c7e2g-940d-4f3b-8e51-2f60a7d319c4", ""])
    func rejectsWhatFoundationRejects(text: String) {
        #expect(UUID(fastString: text) == nil)
        #expect(UUID(uuidString: text) == nil)
    }

    /// Every non-hex byte in every digit position, and a dash moved: rejected.
    @Test func rejectsAnyBadByteAnywhere() {
        let good = Array("6b1c7e2a-940d-4f3b-8e51-2f60a7d319c4".utf8)
        for i in good.indices where good[i] != 0x2D {
            for bad: UInt8 in [0x2D, 0x2F, 0x3A, 0x40, 0x47, 0x60, 0x67, 0x00, 0xFF, 0x20] {
                var text = good
                text[i] = bad
                #expect(text.withUnsafeBufferPointer { UUID(fastBytes: $0) } == nil)
            }
        }
    }

    /// ``UUID/orderKey`` sorts ids as their uuidStrings sort (missed reminders' tie order).
    @Test func orderKeySortsAsUUIDString() {
        var ids = [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
                   UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)),
                   UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0)),
                   UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0, 0, 0, 0))]
        for _ in 0..<500 { ids.append(UUID()) }
        let byString = ids.sorted { $0.uuidString < $1.uuidString }
        let byKey = ids.sorted { $0.orderKey < $1.orderKey }
        #expect(byKey == byString)
    }
}
