import Foundation
import Testing

/// True when `python3 -c "import icalendar"` works (PyPI package `icalendar`).
let pythonICalendarAvailable: Bool = {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["python3", "-c", "import icalendar"]
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    do { try p.run() } catch { return false }
    p.waitUntilExit()
    return p.terminationStatus == 0
}()

/// `tick export --format ics` / `tick import --format ics`, checked with Python's `icalendar`.
@Suite("iCalendar interchange")
struct ICalendarInterchangeTests {
    static func fixture() throws -> Sandbox {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.add("Report", "list:Work", "due:2026-11-24", "pri:must", "+office", "remind:2026-11-23@9:00")
        try s.add("Call", "mom", "due:tomorrow@17:00", "+family")
        try s.ok("add", "Notes", "task", "--note", "line one; two, three\nline \\ four")
        try s.add("Old", "thing")
        try s.ok("done", "4")
        try s.ok("start", "2")
        return s
    }

    static let checker = #"""
    import sys, json, icalendar
    cal = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
    assert str(cal.get('VERSION')) == '2.0', cal.get('VERSION')
    out = {}
    for t in cal.walk('VTODO'):
        d = {'uid': str(t['UID']), 'status': str(t.get('STATUS'))}
        if 'DUE' in t:
            d['due'] = t['DUE'].dt.isoformat()
            d['dueIsDate'] = t['DUE'].params.get('VALUE') == 'DATE'
        if 'CATEGORIES' in t:
            c = t['CATEGORIES']
            c = c if isinstance(c, list) else [c]
            d['categories'] = [str(x) for v in c for x in v.cats]
        if 'DESCRIPTION' in t: d['description'] = str(t['DESCRIPTION'])
        if 'PRIORITY' in t: d['priority'] = int(t['PRIORITY'])
        if 'X-TICK-LIST' in t: d['list'] = str(t['X-TICK-LIST'])
        alarms = [a for a in t.walk('VALARM')]
        if alarms: d['alarm'] = alarms[0]['TRIGGER'].dt.isoformat()
        out[str(t['SUMMARY'])] = d
    print(json.dumps(out))
    """#

    @Test("the export parses with Python icalendar with the expected VTODO fields",
          .enabled(if: pythonICalendarAvailable, "Python package icalendar is not installed (pip install icalendar)"))
    func pythonReadsExport() throws {
        let s = try Self.fixture()
        let file = s.root + "/io/tasks.ics"
        let r = try s.tick("export", "--format", "ics", "-o", file)
        #expect(r.status == 0, "\(r)")
        let raw = try Data(contentsOf: URL(fileURLWithPath: file))
        let text = String(decoding: raw, as: UTF8.self)
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\n"))
        #expect(text.hasSuffix("END:VCALENDAR\r\n"))
        let py = try s.run("/usr/bin/env", ["python3", "-c", Self.checker, file])
        #expect(py.status == 0, "\(py)")
        let doc = try #require(try JSONSerialization.jsonObject(with: py.stdoutData) as? [String: [String: Any]])
        let report = try #require(doc["Report"])
        #expect(report["due"] as? String == "2026-11-24")
        #expect(report["dueIsDate"] as? Bool == true)
        #expect(report["status"] as? String == "NEEDS-ACTION")
        #expect(report["priority"] as? Int == 1)
        #expect(report["categories"] as? [String] == ["office"])
        #expect(report["list"] as? String == "Work")
        #expect(report["alarm"] as? String == "2026-11-23T08:00:00+00:00")
        #expect(isLowercaseUUID(report["uid"] as? String ?? ""))
        let call = try #require(doc["Call mom"])
        #expect(call["due"] as? String == "2026-11-22T16:00:00+00:00")
        #expect(call["dueIsDate"] as? Bool == false)
        #expect(call["status"] as? String == "IN-PROCESS")
        #expect(doc["Notes task"]?["description"] as? String == "line one; two, three\nline \\ four")
        #expect(doc["Old thing"]?["status"] as? String == "COMPLETED")
    }

    @Test("re-importing the export gives the same tasks and changes nothing")
    func roundTrip() throws {
        let s = try Self.fixture()
        let before = try ExportImportTests.portableListing(s)
        let file = s.root + "/io/tasks.ics"
        try s.ok("export", "--format", "ics", "-o", file)
        let same = try s.tick("import", file)
        #expect(same.status == 0, "\(same)")
        #expect(same.stdout.contains("Imported: 0 added, 0 updated, 4 unchanged"), "\(same)")
        // Into an empty store: the same tasks, lists and fields.
        let other = s.root + "/other"
        try s.ok("init", other)
        let fresh = try s.tick("--store", other, "import", file, "--format", "ics")
        #expect(fresh.status == 0, "\(fresh)")
        #expect(fresh.stdout.contains("Imported: 4 added"), "\(fresh)")
        #expect(try ExportImportTests.portableListing(s, store: other) == before)
    }

    @Test("a file written by Python icalendar imports, with TZID times and a relative alarm",
          .enabled(if: pythonICalendarAvailable, "Python package icalendar is not installed (pip install icalendar)"))
    func importFromPython() throws {
        let s = try Sandbox()
        let file = s.root + "/io/py.ics"
        let script = #"""
        import sys, datetime, icalendar
        from zoneinfo import ZoneInfo
        cal = icalendar.Calendar(); cal.add('prodid', '-//py//EN'); cal.add('version', '2.0')
        t = icalendar.Todo(); t.add('uid', 'py-1@example.com'); t.add('summary', 'Übergabe, ' + 'ä' * 50)
        t.add('due', datetime.datetime(2026, 11, 24, 17, 0, tzinfo=ZoneInfo('Europe/Berlin')))
        t.add('status', 'NEEDS-ACTION'); t.add('priority', 7); t.add('categories', ['home', 'admin'])
        a = icalendar.Alarm(); a.add('action', 'DISPLAY'); a.add('trigger', datetime.timedelta(hours=-1)); a['TRIGGER'].params['RELATED'] = 'END'
        t.add_component(a); cal.add_component(t)
        open(sys.argv[1], 'wb').write(cal.to_ical())
        """#
        let py = try s.run("/usr/bin/env", ["python3", "-c", script, file])
        #expect(py.status == 0, "\(py)")
        let r = try s.tick("import", file)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("Imported: 1 added"), "\(r)")
        let task = try #require(try s.json("list", "--all").first)
        #expect(task.string("title") == "Übergabe, " + String(repeating: "ä", count: 50))
        #expect(task.string("due") == "2026-11-24T16:00:00Z")
        #expect(task.string("remind") == "2026-11-24T15:00:00Z")
        #expect(task.string("priority") == "flexible")
        #expect(task["tags"] as? [String] == ["home", "admin"])
        // Export gives the original UID back.
        let out = try s.tick("export", "--format", "ics")
        #expect(out.stdout.contains("UID:py-1@example.com\r\n"), "\(out)")
        #expect(out.stdout.contains("PRIORITY:7\r\n"), "\(out)")
    }

    @Test("a malformed VTODO names its line and imports nothing (exit 4)")
    func badFile() throws {
        let s = try Sandbox()
        try s.write("../io/bad.ics", "BEGIN:VCALENDAR\nVERSION:2.0\nBEGIN:VTODO\nUID:1\nSUMMARY:x\nDUE:tomorrow\nEND:VTODO\nEND:VCALENDAR\n")
        let r = try s.tick("import", s.root + "/io/bad.ics")
        #expect(r.status == 4, "\(r)")
        #expect(r.stderr.contains("bad.ics:6: error: invalid DUE value \"tomorrow\""), "\(r)")
        #expect(try s.json("list", "--all").isEmpty)
    }
}
