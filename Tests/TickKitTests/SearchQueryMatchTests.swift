import Foundation
import Testing
@testable import TickKit

/// The byte-wise ASCII path of search matching must agree with the Unicode
/// definition (lowercase both, then look for the term) on every input.
@Suite struct SearchQueryMatchTests {
    /// The Unicode definition the fast path replaces.
    private func reference(_ query: SearchQuery, title: String, notes: String, tags: String) -> Int {
        var total = 0
        for term in query.terms {
            var found = false
            for (text, weight) in [(title.lowercased(), 10), (tags.lowercased(), 5), (notes.lowercased(), 1)] {
                let hit: Bool
                switch term {
                case .text(let t): hit = text.contains(t)
                case .prefix(let p):
                    // Every occurrence, overlapping ones too, as the old matcher looked.
                    var from = text.startIndex
                    var any = false
                    while !any, let r = text.range(of: p, range: from..<text.endIndex) {
                        any = r.lowerBound == text.startIndex
                            || !{ $0.isLetter || $0.isNumber }(text[text.unicodeScalars.index(before: r.lowerBound)])
                        from = text.unicodeScalars.index(after: r.lowerBound)
                        if from >= text.endIndex { break }
                    }
                    hit = any
                }
                if hit { total += weight; found = true }
            }
            if !found { return 0 }
        }
        return total
    }

    /// Random queries (a word or phrase and a prefix) and random title, notes
    /// and tags, mostly ASCII, with what could fool a byte matcher: combining
    /// marks, characters that lowercase or decompose to ASCII, ZWJ, a prepend
    /// mark. `check` returns the score it got; returns how many cases ran and
    /// how many scored above 0.
    /// The cases come from a fixed seed (`TICK_SEARCH_SEED` picks another),
    /// so a failure names a seed that replays it.
    private func randomCases(_ check: (SearchQuery, [String], String, String, String) -> Int) -> (compared: Int, positives: Int) {
        let seed = ProcessInfo.processInfo.environment["TICK_SEARCH_SEED"].flatMap(UInt64.init) ?? 20_261_128
        var rng = MergeRandom(seed: seed)
        let alphabet = Array("aAbBcC iI-1_kK.aAbBcC iI-1_kK.é")
            + ["e\u{301}", "\u{130}", "\u{212A}", "\u{37E}", "\u{1FEF}", ";", "\u{200D}", "ß", "\u{600}"].map { Character($0) }
        func word(_ n: Int) -> String { String((0..<n).map { _ in alphabet.randomElement(using: &rng) ?? "a" }) }
        var compared = 0
        var positives = 0
        for _ in 0..<3000 {
            let raw = [word(Int.random(in: 1...3, using: &rng)), word(Int.random(in: 1...2, using: &rng)) + "*"]
                .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            guard let query = try? SearchQuery(raw.joined(separator: " ")) else { continue }
            if check(query, raw, word(12), word(20), word(6)) > 0 { positives += 1 }
            compared += 1
        }
        return (compared, positives)
    }

    @Test func asciiPathAgreesWithTheUnicodeDefinition() throws {
        let (compared, positives) = randomCases { query, raw, title, notes, tags in
            let got = query.score(title: title, notes: notes, tags: tags)
            #expect(got == reference(query, title: title, notes: notes, tags: tags), "\(raw) in \(title)|\(notes)|\(tags) (TICK_SEARCH_SEED replays the run)")
            return got
        }
        #expect(compared > 2000)
        #expect(positives > 100, "the generator must produce matches too")
    }

    /// `tick_search` inside SQLite scores SQLite's bytes (``SearchScoreFunction``):
    /// it must give what the Unicode definition gives, ASCII or not.
    @Test func sqliteFunctionAgreesWithTheUnicodeDefinition() throws {
        func bytes(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Int) -> Int {
            Array(text.utf8).withUnsafeBufferPointer(body)
        }
        let (_, positives) = randomCases { query, raw, title, notes, tags in
            let function = SearchScoreFunction(query)
            let got = bytes(title) { t in bytes(notes) { n in bytes(tags) { g in function.score(title: t, notes: n, tags: g) } } }
            #expect(got == reference(query, title: title, notes: notes, tags: tags), "\(raw) in \(title)|\(notes)|\(tags)")
            return got
        }
        #expect(positives > 100, "the generator must produce matches too")
        // Empty columns (NULL notes) are no bytes at all.
        let empty = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        #expect(bytes("Buy milk") { SearchScoreFunction(try! SearchQuery("milk")).score(title: $0, notes: empty, tags: empty) } == 10)
    }

    @Test func nonASCIITextUsesUnicodeLowercasing() throws {
        // U+212A KELVIN SIGN lowercases to ASCII "k"; U+0130 to "i" + a combining dot.
        #expect(try SearchQuery("kg").score(title: "5 \u{212A}G of flour", notes: "", tags: "") == 10)
        #expect(try SearchQuery("café").score(title: "CAFÉ run", notes: "", tags: "") == 10)
        #expect(try SearchQuery("caf*").score(title: "Le CAFÉ", notes: "", tags: "") == 10)
        #expect(try SearchQuery("afé*").score(title: "CAFÉ", notes: "", tags: "") == 0)
    }

    @Test func weightsAndWordStarts() throws {
        let q = try SearchQuery("inv*")
        #expect(q.score(title: "Send INVOICE", notes: "re-invoice", tags: "x") == 11)
        #expect(q.score(title: "reinvoice", notes: "", tags: "") == 0)
        #expect(try SearchQuery("voice").score(title: "reINVOICE", notes: "", tags: "voice") == 15)
    }
}

/// SplitMix64 as a generator for `randomElement(using:)` and `Int.random(in:using:)`.
extension MergeRandom: RandomNumberGenerator {}
