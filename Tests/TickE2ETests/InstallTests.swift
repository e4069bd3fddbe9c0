import Foundation
import Testing

/// `make install`, `make uninstall`, `make deb` and the man pages, run for
/// real: the Makefile, generate-manual, groff, man, dpkg-deb and dpkg.
///
/// They install the binary under test (`BIN=`: the debug build, or the
/// static release build `make install` ships when `make test` runs the
/// end-to-end suite again with `TICK_BIN=.build/release/tick`).
@Suite(.serialized)
struct InstallTests {
    /// The package root (where the Makefile is).
    static let root: String = {
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while dir.path != "/", !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Makefile").path) {
            dir = dir.deletingLastPathComponent()
        }
        return dir.path
    }()

    /// swift-argument-parser's generate-manual (`swift build --product
    /// generate-manual`; `make test` does it): a debug build next to the test
    /// runner, also when the binary under test is the release build
    /// (`TICK_BIN`); else next to the binary under test.
    static let generateManual: String = {
        var candidates: [String] = []
        if let argv0 = CommandLine.arguments.first, !argv0.isEmpty {
            candidates.append(URL(fileURLWithPath: argv0).resolvingSymlinksInPath().deletingLastPathComponent()
                .appendingPathComponent("generate-manual").path)
        }
        candidates.append(URL(fileURLWithPath: root).appendingPathComponent(".build/debug/generate-manual").path)
        let next = URL(fileURLWithPath: TickBinary.path).deletingLastPathComponent().appendingPathComponent("generate-manual").path
        candidates.append(next)
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? next
    }()

    static var hasGenerateManual: Bool { FileManager.default.isExecutableFile(atPath: generateManual) }

    static func tool(_ name: String) -> Bool {
        ["/usr/bin/", "/bin/", "/usr/local/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + name) }
    }

    /// The hand-written pages in Docs/man.
    static var handPages: [String] {
        let dir = root + "/Docs/man"
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted().map { dir + "/" + $0 }
    }

    /// Runs make in the package root with the test's binary and directories.
    func make(_ s: Sandbox, _ targets: [String], _ variables: [String: String] = [:]) throws -> RunResult {
        var vars = ["BIN": TickBinary.path, "GEN": s.root + "/gen", "GENERATE_MANUAL": Self.generateManual]
        for (k, v) in variables { vars[k] = v }
        let args = ["make", "--no-print-directory", "-C", Self.root] + targets + vars.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return try s.run("/usr/bin/env", args)
    }

    /// groff's and man's complaints about a page (gzip-compressed or not); empty when it is clean.
    func renderProblems(_ s: Sandbox, _ page: String) throws -> [String] {
        var problems: [String] = []
        let cat = page.hasSuffix(".gz") ? "zcat" : "cat"
        // -ww: every warning; -k: UTF-8 input; -z: no output.
        let g = try s.run("/bin/sh", ["-c", "\(cat) \"$0\" | groff -k -ww -z -mandoc", page], env: ["LC_ALL": "C.UTF-8"])
        if g.status != 0 || !g.stderr.isEmpty { problems.append("groff -ww: exit \(g.status): \(g.stderr)") }
        let m = try s.run("/usr/bin/env", ["man", "--warnings", "-l", page], env: ["LC_ALL": "C.UTF-8", "MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat"])
        if m.status != 0 || !m.stderr.isEmpty { problems.append("man -l: exit \(m.status): \(m.stderr)") }
        if !m.stdout.contains("NAME") { problems.append("man -l printed no NAME section:\n\(m.stdout.prefix(500))") }
        return problems
    }

    @Test("every hand-written page has EXAMPLES, FILES, ENVIRONMENT and EXIT STATUS and renders without a warning")
    func handWrittenPages() throws {
        guard Self.tool("groff"), Self.tool("man") else {
            Issue.record("groff or man is missing: run scripts/ensure-deps.sh --test")
            return
        }
        let s = try Sandbox()
        let pages = Self.handPages
        #expect(Set(pages.map { ($0 as NSString).lastPathComponent }) == ["tick-format.5", "tick-config.5", "tick-hooks.5", "tick-sync.7"])
        for page in pages {
            let text = try String(contentsOfFile: page, encoding: .utf8)
            for section in ["NAME", "DESCRIPTION", "EXAMPLES", "FILES", "ENVIRONMENT", "EXIT STATUS", "SEE ALSO"] {
                #expect(text.contains(".Sh \(section)\n"), "\(page) has no \(section) section")
            }
            let problems = try renderProblems(s, page)
            #expect(problems.isEmpty, "\(page):\n\(problems.joined(separator: "\n"))")
        }
    }

    @Test("make man generates tick(1) and a page per subcommand that render without a warning")
    func generatedPages() throws {
        guard Self.hasGenerateManual else {
            Issue.record("\(Self.generateManual) is missing: run `swift build --product generate-manual` (make test does) before these tests")
            return
        }
        let s = try Sandbox()
        let r = try make(s, ["man"])
        try #require(r.status == 0, "make man failed: \(r)")
        let dir = s.root + "/gen/man"
        let pages = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        // One page per command, subcommands included, named as generate-manual names them.
        for expected in ["tick.1", "tick.add.1", "tick.list.1", "tick.lists.rm.1", "tick.watch.1", "tick.git.setup.1"] {
            #expect(pages.contains(expected), "no \(expected) in \(pages)")
        }
        // Every command and subcommand the binary knows (as generate-manual reads them) has its page.
        let dump = try s.run(TickBinary.path, ["--experimental-dump-help"])
        let tool = try #require(try JSONSerialization.jsonObject(with: dump.stdoutData) as? [String: Any])
        func names(_ command: [String: Any], _ prefix: String) -> [String] {
            let name = prefix + (command["commandName"] as? String ?? "?")
            let subs = command["subcommands"] as? [[String: Any]] ?? []
            return [name] + subs.flatMap { names($0, name + ".") }
        }
        let expected = names(try #require(tool["command"] as? [String: Any]), "")
        #expect(expected.count > 40)
        #expect(Set(pages) == Set(expected.map { $0 + ".1" }))
        for page in pages {
            let problems = try renderProblems(s, dir + "/" + page)
            #expect(problems.isEmpty, "\(page):\n\(problems.joined(separator: "\n"))")
        }
        let root = try String(contentsOfFile: dir + "/tick.1", encoding: .utf8)
        #expect(root.contains(".Sh \"ENVIRONMENT\""))
        #expect(root.contains(".Sh \"EXIT STATUS\""))
        #expect(root.contains(".Xr tick-format 5"))
        // Non-ASCII help text survives generate-manual (scripts/dump-help-ascii.sh).
        #expect(root.contains("\\[u2026]/tick/<store-key>/"))
        let add = try String(contentsOfFile: dir + "/tick.add.1", encoding: .utf8)
        #expect(add.contains(".Sh \"EXAMPLES\"\n.Bd -literal -offset indent\ntick add Buy milk due:tomorrow +errand\n"))
        #expect(!add.contains(".Ex -std"), "the generic exit status is replaced by tick's")
        // The pinned date: the same sources give the same pages.
        #expect(add.contains(".Dd November 23, 2026"))
    }

    @Test("make install puts every file in place under DESTDIR; make uninstall removes them all")
    func installAndUninstall() throws {
        guard Self.hasGenerateManual else {
            Issue.record("\(Self.generateManual) is missing: run `swift build --product generate-manual` (make test does) before these tests")
            return
        }
        let s = try Sandbox()
        let dest = s.root + "/dest"
        let r = try make(s, ["install"], ["DESTDIR": dest, "PREFIX": "/opt/tick"])
        try #require(r.status == 0, "make install failed: \(r)")
        let fm = FileManager.default
        for file in ["bin/tick", "share/man/man1/tick.1.gz", "share/man/man1/tick.lists.rm.1.gz",
                     "share/man/man5/tick-format.5.gz", "share/man/man5/tick-config.5.gz", "share/man/man5/tick-hooks.5.gz",
                     "share/man/man7/tick-sync.7.gz",
                     "share/bash-completion/completions/tick", "share/zsh/site-functions/_tick",
                     "share/fish/vendor_completions.d/tick.fish", "lib/systemd/user/tick-watch.service",
                     "share/applications/tick-capture.desktop", "share/doc/tick/FORMAT.md", "share/tick/installed-files"] {
            #expect(fm.fileExists(atPath: dest + "/opt/tick/" + file), "not installed: \(file)")
        }
        let bin = dest + "/opt/tick/bin/tick"
        let version = try s.run(bin, ["--version"])
        let expected = try s.run(TickBinary.path, ["--version"]).stdout
        #expect(version.status == 0 && !expected.isEmpty && version.stdout == expected)
        // Stripped: no symbol table left.
        let nm = try s.run("/usr/bin/env", ["nm", bin])
        #expect(nm.stderr.contains("no symbols"), "the installed binary is not stripped: \(nm.stderr.prefix(200))")
        let unit = try String(contentsOfFile: dest + "/opt/tick/lib/systemd/user/tick-watch.service", encoding: .utf8)
        #expect(unit.contains("\nExecStart=/opt/tick/bin/tick watch\n"))
        #expect(!unit.contains("%h/.local/bin"))
        let desktop = try String(contentsOfFile: dest + "/opt/tick/share/applications/tick-capture.desktop", encoding: .utf8)
        #expect(desktop.contains("\nExec=/opt/tick/bin/tick capture\n"))
        let bash = try String(contentsOfFile: dest + "/opt/tick/share/bash-completion/completions/tick", encoding: .utf8)
        #expect(bash.contains("complete -o filenames -F _tick tick"))
        for page in ["man1/tick.1.gz", "man5/tick-format.5.gz", "man7/tick-sync.7.gz"] {
            let problems = try renderProblems(s, dest + "/opt/tick/share/man/" + page)
            #expect(problems.isEmpty, "\(page):\n\(problems.joined(separator: "\n"))")
        }
        // The manifest names every installed file and nothing else.
        let manifest = try String(contentsOfFile: dest + "/opt/tick/share/tick/installed-files", encoding: .utf8)
            .split(separator: "\n").map { dest + $0 }
        #expect(Set(manifest) == Set(regularFiles(under: dest)))

        // Installing again replaces the earlier install, down to a page whose command is gone.
        let stale = "/opt/tick/share/man/man1/tick.gone.1.gz"
        try Data("old".utf8).write(to: URL(fileURLWithPath: dest + stale))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: dest + "/opt/tick/share/tick/installed-files"))
        handle.seekToEndOfFile()
        handle.write(Data((stale + "\n").utf8))
        try handle.close()
        let again = try make(s, ["install"], ["DESTDIR": dest, "PREFIX": "/opt/tick"])
        try #require(again.status == 0, "make install over an install failed: \(again)")
        #expect(!fm.fileExists(atPath: dest + stale))
        #expect(fm.fileExists(atPath: dest + "/opt/tick/bin/tick"))

        let u = try make(s, ["uninstall"], ["DESTDIR": dest, "PREFIX": "/opt/tick"])
        try #require(u.status == 0, "make uninstall failed: \(u)")
        #expect(regularFiles(under: dest).isEmpty, "left behind: \(regularFiles(under: dest))")
        // A second uninstall has nothing to go by and says so.
        let second = try make(s, ["uninstall"], ["DESTDIR": dest, "PREFIX": "/opt/tick"])
        #expect(second.status != 0)
        #expect(second.stderr.contains("tick is not installed under \(dest)/opt/tick"))
    }

    @Test("make deb builds a package with its real dependencies that unpacks, runs and shows its man pages")
    func debianPackage() throws {
        guard Self.hasGenerateManual else {
            Issue.record("\(Self.generateManual) is missing: run `swift build --product generate-manual` (make test does) before these tests")
            return
        }
        let s = try Sandbox()
        let deb = s.root + "/tick.deb"
        let r = try make(s, ["deb"], ["DEB": deb, "DEB_ROOT": s.root + "/debroot", "DEB_COMPRESS": "gzip"])
        try #require(r.status == 0, "make deb failed: \(r)")
        let control = try s.run("/usr/bin/dpkg-deb", ["--field", deb])
        #expect(control.status == 0)
        let fields = control.stdout
        #expect(fields.contains("Package: tick\n"))
        let depends = fields.components(separatedBy: "\n").first { $0.hasPrefix("Depends: ") }.map {
            Set($0.dropFirst("Depends: ".count).components(separatedBy: ", "))
        } ?? []
        // The static release build (what `make deb` packs by default) loads no
        // shared library: it needs only the terminfo database (tick ui) and
        // the zone files (local time is read from /usr/share/zoneinfo).
        let readelf = try s.run("/usr/bin/env", ["readelf", "-l", TickBinary.path])
        let isStatic = readelf.status == 0 && !readelf.stdout.contains("INTERP")
        if isStatic {
            #expect(depends == ["ncurses-base", "tzdata"], "a static binary depends on the terminfo database and the zone files only: \(depends)")
        } else {
            for package in ["libinotifytools0", "libsqlite3-0", "libncursesw6", "libc6", "tzdata"] {
                #expect(depends.contains(package), "Depends lacks \(package): \(depends)")
            }
        }
        // Every library the binary loads that a Debian package ships is declared.
        let ldd = try s.run("/usr/bin/env", ["ldd", TickBinary.path])
        for line in ldd.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count >= 3, parts[1] == "=>", parts[2].hasPrefix("/") else { continue }
            let owner = try s.run("/usr/bin/env", ["dpkg", "-S", String(parts[2])])
            guard owner.status == 0, let package = owner.stdout.split(separator: ":").first else { continue }
            #expect(depends.contains(String(package)), "\(parts[2]) comes from \(package), which Depends lacks")
        }
        // Unpack into a clean tree, as dpkg would install it, and use it.
        let tree = s.root + "/unpacked"
        let x = try s.run("/usr/bin/dpkg", ["-x", deb, tree])
        try #require(x.status == 0, "dpkg -x failed: \(x)")
        let version = try s.run(tree + "/usr/bin/tick", ["--version"])
        #expect(version.status == 0)
        let expected = try s.run(TickBinary.path, ["--version"]).stdout
        #expect(!expected.isEmpty && version.stdout == expected)
        #expect(fields.contains("Version: \(expected.trimmingCharacters(in: .whitespacesAndNewlines))\n"))
        for page in ["man1/tick.1.gz", "man1/tick.add.1.gz", "man5/tick-format.5.gz", "man5/tick-config.5.gz", "man7/tick-sync.7.gz"] {
            let problems = try renderProblems(s, tree + "/usr/share/man/" + page)
            #expect(problems.isEmpty, "\(page):\n\(problems.joined(separator: "\n"))")
        }
        let unit = try String(contentsOfFile: tree + "/usr/lib/systemd/user/tick-watch.service", encoding: .utf8)
        #expect(unit.contains("\nExecStart=/usr/bin/tick watch\n"))
        // No make-install manifest in a package: dpkg owns the file list.
        #expect(!FileManager.default.fileExists(atPath: tree + "/usr/share/tick/installed-files"))
        let contents = try s.run("/usr/bin/dpkg-deb", ["--contents", deb])
        #expect(contents.stdout.contains("root/root"), "files are owned by root (--root-owner-group)")
        #expect(!contents.stdout.contains(" \(getuid())/"))
    }

    @Test("without DESTDIR, the installed unit names the installed binary and systemd-analyze verifies it",
          .enabled(if: InstallTests.tool("systemd-analyze"), "SKIPPED: systemd-analyze is not installed"))
    func systemdUnit() throws {
        guard Self.hasGenerateManual else {
            Issue.record("\(Self.generateManual) is missing: run `swift build --product generate-manual` (make test does) before these tests")
            return
        }
        let s = try Sandbox()
        let prefix = s.root + "/prefix"
        let r = try make(s, ["install"], ["PREFIX": prefix])
        try #require(r.status == 0, "make install failed: \(r)")
        let unit = prefix + "/lib/systemd/user/tick-watch.service"
        #expect(try String(contentsOfFile: unit, encoding: .utf8).contains("\nExecStart=\(prefix)/bin/tick watch\n"))
        // verify checks the syntax and that ExecStart is an executable (man pages: not installed system-wide).
        let verify = try s.run("/usr/bin/env", ["systemd-analyze", "verify", "--man=no", unit])
        #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify)")
        let u = try make(s, ["uninstall"], ["PREFIX": prefix])
        #expect(u.status == 0)
        #expect(regularFiles(under: prefix).isEmpty)
    }

    /// Regular files and symlinks under `dir`, absolute.
    func regularFiles(under dir: String) -> [String] {
        guard let e = FileManager.default.enumerator(atPath: dir) else { return [] }
        var files: [String] = []
        while let rel = e.nextObject() as? String {
            let path = dir + "/" + rel
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue { files.append(path) }
        }
        return files.sorted()
    }
}
