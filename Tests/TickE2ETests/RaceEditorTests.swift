import Foundation
import Testing

/// An editor that saves a list (temp file + rename, as vim and VS Code do)
/// while tick writes the same list: no save of either may be lost
/// (Docs/FORMAT.md section 10). `scripts/race-editor.sh N` runs N rounds.
@Suite("race with an editor")
struct RaceEditorTests {
    /// The editor: each save adds a unique unknown key `x-editor-N` to the
    /// list (and every 8th save a marker task `editor-N`), written to a temp file, fsynced and swapped in.
    /// It never loses tick's writes itself: it swaps with RENAME_EXCHANGE and,
    /// when what it swapped out is not what it had read (tick wrote in
    /// between), takes that version, adds its own keys and marker tasks to it
    /// and saves again (it changes none of tick's tasks, so it keeps them as tick left them). A save counts
    /// (is logged) only once it is in place.
    static let editor = #"""
    import ctypes, json, os, random, sys, time, uuid
    path, rounds, interval, log_path, done_path = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5]
    libc = ctypes.CDLL(None, use_errno=True)

    def exchange(a, b):
        if libc.renameat2(-100, a.encode(), -100, b.encode(), 2) != 0:
            e = ctypes.get_errno()
            raise OSError(e, os.strerror(e))

    def read(p):
        with open(p, 'rb') as f:
            return f.read()

    def temp_with(data):
        tmp = os.path.join(os.path.dirname(path), '.%s.editor-%s.tmp' % (os.path.basename(path), uuid.uuid4().hex[:8]))
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
        os.close(fd)
        return tmp

    def union(mine, other):
        # The editor changes no task of tick's, so the version it swapped out (the
        # newer one) wins for every task in it; tasks only in its own version
        # (its markers, or tick's that the swapped-out version lacked) and its
        # keys are carried over. (A task tick moved away can come back this way:
        # tick joins it again on its next write, by the move's change time.)
        ids = {t['id'] for t in other['tasks']}
        merged = dict(other)
        merged['tasks'] = other['tasks'] + [t for t in mine['tasks'] if t['id'] not in ids]
        for k, v in mine.items():
            merged.setdefault(k, v)
        return merged

    resaved = 0
    try:
        with open(log_path, 'a') as log:
            for i in range(rounds):
                before = read(path)
                doc = json.loads(before)
                now = time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())
                marker = 'editor-%d' % i
                doc['x-editor-%d' % i] = i
                if i % 8 == 0:
                    doc['tasks'].append({'id': str(uuid.uuid4()), 'title': marker, 'state': 'open',
                                         'createdAt': now, 'modifiedAt': now})
                tries = 0
                while True:
                    data = (json.dumps(doc, indent=2, ensure_ascii=False) + '\n').encode()
                    tmp = temp_with(data)
                    exchange(tmp, path)
                    out = read(tmp)
                    os.unlink(tmp)
                    if out == before:
                        break
                    resaved += 1
                    tries += 1
                    time.sleep(random.uniform(0, 0.001 * (1 << min(tries, 6))))
                    before = data
                    doc = union(doc, json.loads(out))
                log.write(marker + '\n')
                log.flush()
                time.sleep(interval)
    finally:
        open(done_path, 'w').close()
    print('saves %d, saved again after a tick write %d' % (rounds, resaved))
    """#

    /// Saves per session: the list grows by every save, and a session keeps it
    /// small enough that one merge of tick stays well under the editor's 50 ms.
    static let sessionRounds = 320

    @Test("an editor saving every 50 ms while 4 `tick add` loops write the same list: no save of either is lost")
    func editorRacesAdds() throws {
        // TICK_RACE_ROUNDS (scripts/race-editor.sh) runs more saves, in sessions of 320 on fresh stores.
        var left = Int(ProcessInfo.processInfo.environment["TICK_RACE_ROUNDS"] ?? "") ?? Self.sessionRounds
        var session = 0
        while left > 0 {
            session += 1
            try runSession(rounds: min(left, Self.sessionRounds), session: session)
            left -= Self.sessionRounds
        }
    }

    func runSession(rounds: Int, session: Int) throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        let python = try #require(Self.python, "python3 is needed for the editor")
        let editorPath = s.root + "/editor.py"
        try Data(Self.editor.utf8).write(to: URL(fileURLWithPath: editorPath))
        let log = s.root + "/editor.log"
        let done = s.root + "/editor.done"
        let editor = try s.start(python, [editorPath, s.path("lists/work.json"), String(rounds), "0.05", log, done])
        var adders: [Sandbox.Running] = []
        for p in 1...4 {
            // Adds until the editor is done (at most 100000, a safety net); logs each add that exited 0.
            adders.append(try s.start("/bin/sh", ["-c", """
            i=0
            while [ ! -e '\(done)' ] && [ $i -lt 100000 ]; do
              i=$((i+1))
              "$TICK" add list:Work add-\(p)-$i >/dev/null || exit 1
              echo add-\(p)-$i >> '\(s.root)/adds-\(p).log'
            done
            """]))
        }
        let editorResult = try editor.wait()
        #expect(editorResult.status == 0, "editor: \(editorResult)")
        for (i, adder) in adders.enumerated() {
            let result = try adder.wait()
            #expect(result.status == 0, "adder \(i + 1): \(result)")
        }

        let file = try s.file("lists/work.json")
        let titles = Set(try s.tasks("lists/work.json").titles)
        let saves = lines(String(decoding: FileManager.default.contents(atPath: log) ?? Data(), as: UTF8.self))
        let adds = (1...4).flatMap { p in
            lines(String(decoding: FileManager.default.contents(atPath: "\(s.root)/adds-\(p).log") ?? Data(), as: UTF8.self))
        }
        #expect(saves.count == rounds)
        // A save is lost when its key is missing, or its marker task (every 8th save).
        let lostSaves = saves.filter { save in
            guard let n = Int(save.dropFirst("editor-".count)) else { return true }
            return file["x-editor-\(n)"] as? Int != n || (n % 8 == 0 && !titles.contains(save))
        }
        let lostAdds = adds.filter { !titles.contains($0) }
        #expect(lostSaves.isEmpty, "\(lostSaves.count) of \(saves.count) editor saves lost: \(lostSaves.prefix(10))")
        #expect(lostAdds.isEmpty, "\(lostAdds.count) of \(adds.count) adds lost: \(lostAdds.prefix(10))")
        #expect(titles.count == (rounds + 7) / 8 + adds.count, "no task twice, none extra")
        #expect(s.storeFiles() == ["lists/work.json"], "no temp files left")
        print("race with an editor, session \(session): \(saves.count) saves, \(adds.count) adds, lost \(lostSaves.count) saves, \(lostAdds.count) adds; \(editorResult.stdout)")
    }

    static let python: String? = (["/usr/bin/python3", "/usr/local/bin/python3"]
        + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/python3" })
        .first { FileManager.default.isExecutableFile(atPath: $0) }
}
