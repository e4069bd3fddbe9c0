import Testing
@testable import TickKit

struct CellWrapTests {
    @Test func linesBreakAtSpacesWithinTheWidthAndKeepEveryWord() {
        let text = "Today is ordered by date: J/K move a task past one of the same list and date here; reorder freely in its list's tab."
        for width in [20, 40, 78] {
            let lines = CellWrap.lines(text, width: width)
            #expect(lines.allSatisfy { CellWidth.of($0) <= width }, "\(lines)")
            #expect(lines.joined(separator: " ") == text)
        }
        #expect(CellWrap.lines("short", width: 78) == ["short"])
        #expect(CellWrap.lines("", width: 10) == [""])
    }

    @Test func wideCharactersCountTwoCellsAndALongWordIsCut() {
        #expect(CellWrap.lines("日本語 テキスト", width: 7) == ["日本語", "テキス", "ト"])
        let long = String(repeating: "a", count: 25)
        let lines = CellWrap.lines("x " + long, width: 10)
        #expect(lines == ["x", "aaaaaaaaaa", "aaaaaaaaaa", "aaaaa"])
    }
}
