import Foundation
import Testing
@testable import TickKit

/// How a `tick ui` row fits its width: the title first, the fields giving way in order.
@Suite struct UIRowLayoutTests {
    /// `!  14 [ ] `: the overdue mark, a two-digit id and the box.
    let prefix = 10
    let longTitle = "Renew the passport before the trip to Lisbon in the spring"
    let cjkTitle = "買い物リストを作って週末にスーパーで食材を全部まとめて買う"

    /// The fields of a busy overdue task in Today: list, long dates, fields, tags, note.
    var busy: [UIRowField] {
        [UIRowField(kind: .list, text: "@Errands"),
         UIRowField(kind: .due, text: "due Thu 19 Nov, 2d overdue", short: "2d overdue"),
         UIRowField(kind: .scheduled, text: "sched Mon 23 Nov", short: "sched 23 Nov"),
         UIRowField(kind: .remind, text: "remind Wed 18 Nov 08:00", short: "remind 18 Nov"),
         UIRowField(kind: .priority, text: "pri:must"),
         UIRowField(kind: .tag, text: "+travel"),
         UIRowField(kind: .tag, text: "+admin", tight: true),
         UIRowField(kind: .tag, text: "+family", tight: true),
         UIRowField(kind: .note, text: "[note]")]
    }

    func cells(_ layout: UIRowLayout) -> Int { prefix + CellWidth.of(layout.text) }
    func kinds(_ layout: UIRowLayout) -> [UIRowField.Kind] { layout.fields.map(\.kind) }

    @Test("at 200 columns a long title and every field fit as they are")
    func wide() {
        let layout = UIRowLayout.fit(title: longTitle, fields: busy, prefixCells: prefix, width: 200)
        #expect(layout.title == longTitle)
        #expect(layout.fields == busy)
        #expect(layout.text == longTitle + "  @Errands  due Thu 19 Nov, 2d overdue  sched Mon 23 Nov  remind Wed 18 Nov 08:00  pri:must  +travel +admin +family  [note]")
    }

    @Test("at 80 columns the list and tags give way and the date shortens so a long title shows whole")
    func eighty() {
        let fields = [UIRowField(kind: .list, text: "@Errands"),
                      UIRowField(kind: .due, text: "due Fri 27 Nov", short: "due 27 Nov"),
                      UIRowField(kind: .tag, text: "+travel"),
                      UIRowField(kind: .tag, text: "+admin", tight: true)]
        let layout = UIRowLayout.fit(title: longTitle, fields: fields, prefixCells: prefix, width: 80)
        #expect(layout.title == longTitle)
        #expect(cells(layout) <= 80)
        #expect(layout.fields.map(\.text) == ["due 27 Nov"])
    }

    @Test("at 80 columns a busy task: every minor field goes, dates shorten, the title is cut but keeps at least 24 cells and the dates and priority stay")
    func eightyBusy() {
        let layout = UIRowLayout.fit(title: longTitle, fields: busy, prefixCells: prefix, width: 80)
        #expect(cells(layout) <= 80)
        #expect(CellWidth.of(layout.title) >= UIRowLayout.shortestTitle)
        #expect(layout.title.hasSuffix("…"))
        #expect(kinds(layout) == [.due, .scheduled, .priority])
        #expect(layout.fields.map(\.text) == ["2d overdue", "sched 23 Nov", "pri:must"])
        #expect(cells(layout) >= 79, "the title takes the room the fields left")
    }

    @Test("at 80 columns a short title keeps its fields; the note and then the last tags give way, last first")
    func eightyShortTitle() {
        let title = "Call the dentist"
        let fields = [UIRowField(kind: .list, text: "@Errands"),
                      UIRowField(kind: .due, text: "due Fri 27 Nov", short: "due 27 Nov"),
                      UIRowField(kind: .priority, text: "pri:must"),
                      UIRowField(kind: .tag, text: "+travel"),
                      UIRowField(kind: .tag, text: "+admin", tight: true),
                      UIRowField(kind: .tag, text: "+family", tight: true),
                      UIRowField(kind: .note, text: "[note]")]
        #expect(prefix + CellWidth.of(UIRowLayout(title: title, fields: fields).text) > 80, "the whole row would not fit")
        let layout = UIRowLayout.fit(title: title, fields: fields, prefixCells: prefix, width: 80)
        #expect(layout.title == title)
        #expect(cells(layout) <= 80)
        #expect(layout.text == "Call the dentist  @Errands  due Fri 27 Nov  pri:must  +travel +admin")
    }

    @Test("at 60 columns dates take their short form, then the title is cut with … but keeps at least 24 cells")
    func sixty() {
        let layout = UIRowLayout.fit(title: longTitle, fields: busy, prefixCells: prefix, width: 60)
        #expect(cells(layout) <= 60)
        #expect(layout.title.hasSuffix("…"))
        #expect(CellWidth.of(layout.title) >= UIRowLayout.shortestTitle)
        #expect(longTitle.hasPrefix(String(layout.title.dropLast())))
        let due = layout.fields.first { $0.kind == .due }
        #expect(due?.text == "2d overdue", "the overdue due date in its short form")
        #expect(!kinds(layout).contains(.list) && !kinds(layout).contains(.tag))
    }

    @Test("at 60 columns a title shorter than 24 cells is never cut; the fields give way")
    func sixtyShortTitle() {
        let title = "Return the parcel"
        let layout = UIRowLayout.fit(title: title, fields: busy, prefixCells: prefix, width: 60)
        #expect(layout.title == title)
        #expect(cells(layout) <= 60)
        #expect(kinds(layout).contains(.due))
    }

    @Test("CJK titles are measured in cells (two a character) at 60, 80 and 200 columns", arguments: [60, 80, 200])
    func cjk(width: Int) {
        let tags = [UIRowField(kind: .tag, text: "+買い物"), UIRowField(kind: .tag, text: "+週末", tight: true)]
        let fields = [UIRowField(kind: .due, text: "due Sat 28 Nov", short: "due 28 Nov")] + tags
        let layout = UIRowLayout.fit(title: cjkTitle, fields: fields, prefixCells: prefix, width: width)
        let used = cells(layout)
        #expect(used <= width)
        if CellWidth.of(cjkTitle) + prefix + UIRowLayout.tailCells(fields) <= width {
            #expect(layout.title == cjkTitle && layout.fields == fields)
        } else if layout.title != cjkTitle {
            // Cut: a two-cell character leaves at most one cell over.
            #expect(layout.title.hasSuffix("…"))
            #expect(width - used <= 1)
            #expect(CellWidth.of(layout.title) >= UIRowLayout.shortestTitle - 1)
        }
        #expect(kinds(layout).first == .due, "the due date outlasts the tags")
    }

    @Test("an emoji title counts two cells an emoji")
    func emoji() {
        let title = String(repeating: "🎉", count: 30)
        let layout = UIRowLayout.fit(title: title, fields: [UIRowField(kind: .tag, text: "+party")], prefixCells: prefix, width: 75)
        #expect(CellWidth.of(title) == 60)
        #expect(layout.title == title, "60 cells fit in 65 once the tag gives way")
        #expect(layout.fields.isEmpty)
    }

    @Test("on a row too narrow for anything the title is cut to what is left and nothing runs past the edge", arguments: [12, 20, 30])
    func tiny(width: Int) {
        let layout = UIRowLayout.fit(title: longTitle, fields: busy, prefixCells: prefix, width: width)
        #expect(cells(layout) <= max(width, prefix + 1))
        #expect(layout.title.hasSuffix("…"))
    }

    @Test("short date labels drop the weekday and the time, keep today's time and another year")
    func shortLabels() throws {
        let dates = RelativeDateFormatter(now: try #require(Timestamp.parse("2026-11-21T09:00:00Z")), timeZone: try #require(Zone(named: "UTC")))
        let day = { (iso: String) throws -> TaskDate in .day(try #require(LocalDate(iso: iso))) }
        #expect(dates.label(try day("2026-11-27")) == "Fri 27 Nov")
        #expect(dates.shortLabel(try day("2026-11-27")) == "27 Nov")
        #expect(dates.shortLabel(try day("2027-01-04")) == "4 Jan 2027")
        #expect(dates.shortLabel(try day("2026-11-22")) == "tomorrow")
        #expect(dates.shortLabel(.time(try #require(Timestamp.parse("2026-11-21T17:00:00Z")))) == "17:00")
        #expect(dates.shortLabel(.time(try #require(Timestamp.parse("2026-11-25T17:00:00Z")))) == "25 Nov")
    }
}
