import Foundation
import Testing
@testable import TickKit

/// tick's own path strings (issue 36: no full Foundation) give what
/// swift-corelibs-foundation's `NSString` path methods gave, compared here
/// with the real thing (the test binary may link Foundation).
@Suite struct PathStringTests {
    static let paths = ["", "/", "ab", "ab/", "/a/b", "/a/b/", "//a//b//", "~/x", "./a", "a/./b/../c", "/..", "/a/..", "..",
                        "a.b.c", "/x/.hidden", "/x/y.", "a/b.tar.gz", "/tmp/x/../y/./z/", "/a", "/ab//", "a/b", "/tmp/x/../y",
                        "/a//b", "/a/./b/", "/a/b/..", "//", "/a/.b.c", "lists/work.json", "/store/lists/", "../up/one"]
    static let components = ["", "b", "/b", "b/", "//b//", "b//c", "lists/home.json", ".tick-x.tmp"]

    @Test func appendingMatchesNSString() {
        for base in Self.paths + ["a", "a/", "a//", "~"] {
            for component in Self.components {
                #expect(PathString.appending(base, component) == (base as NSString).appendingPathComponent(component), "\(base) + \(component)")
            }
        }
    }

    @Test func lastComponentExtensionAndAbsolutenessMatchNSString() {
        for path in Self.paths + ["a", "a/", "a//", "~"] {
            let ns = path as NSString
            #expect(PathString.lastComponent(path) == ns.lastPathComponent, "last of \(path)")
            #expect(PathString.pathExtension(path) == ns.pathExtension, "extension of \(path)")
            #expect(PathString.isAbsolute(path) == ns.isAbsolutePath, "absolute \(path)")
        }
    }

    /// (corelibs crashes on a one-character relative path such as `a`; tick
    /// never asked it that, and gets the empty string, as for `ab`.)
    @Test func deletingLastComponentMatchesNSString() {
        for path in Self.paths {
            #expect(PathString.deletingLastComponent(path) == (path as NSString).deletingLastPathComponent, "parent of \(path)")
        }
        #expect(PathString.deletingLastComponent("a") == "")
        #expect(PathString.deletingLastComponent("a/") == "")
    }

    /// Links to absolute targets, `.`, `..` and repeated slashes as NSString
    /// resolved them. (corelibs resolved a link to a relative target only when
    /// the target also existed relative to the working directory, a bug;
    /// tick resolves it against the link's directory, as the kernel does.)
    @Test func standardizingAndResolvingMatchNSStringThroughLinks() throws {
        let dir = NSTemporaryDirectory() + "tick-paths-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/real/sub", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createSymbolicLink(atPath: dir + "/abs", withDestinationPath: dir + "/real/sub")
        try FileManager.default.createSymbolicLink(atPath: dir + "/absdir", withDestinationPath: dir + "/real")
        try FileManager.default.createSymbolicLink(atPath: dir + "/dangling", withDestinationPath: dir + "/nowhere")
        let home = NSHomeDirectory()
        let cases = ["/abs", "/abs/", "/abs/..", "/absdir/sub/../x", "/absdir/missing/file.json", "/./absdir//sub/.", "/nope/../abs",
                     "/real/../absdir/sub/../..", "/real/sub", "/dangling", "/dangling/x"].map { dir + $0 }
            + ["link", "link/sub", "a/../..", "../a/./b", "/a/../../b", "~", "~/x/../y", "/tmp/x/../y/./z/", "//a//b//"]
        for path in cases {
            #expect(PathString.standardizing(path, home: home) == (path as NSString).standardizingPath, "standardizing \(path)")
            if !path.hasPrefix("~") {
                #expect(PathString.resolvingSymlinks(path) == (path as NSString).resolvingSymlinksInPath, "resolving \(path)")
            }
        }
        try FileManager.default.createSymbolicLink(atPath: dir + "/rel", withDestinationPath: "real")
        try FileManager.default.createSymbolicLink(atPath: dir + "/real/up", withDestinationPath: "../abs")
        let real = PathString.resolvingSymlinks(dir)
        #expect(PathString.resolvingSymlinks(dir + "/rel/sub") == real + "/real/sub")
        #expect(PathString.resolvingSymlinks(dir + "/real/up/x.json") == dir + "/real/sub/x.json")
        try FileManager.default.createSymbolicLink(atPath: dir + "/reldangling", withDestinationPath: "nowhere")
        #expect(PathString.resolvingSymlinks(dir + "/reldangling") == dir + "/reldangling")
    }

    @Test func pathStatSaysDirectoryFileOrNothingFollowingLinks() throws {
        let dir = NSTemporaryDirectory() + "tick-stat-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/d", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        FileManager.default.createFile(atPath: dir + "/f", contents: Data())
        try FileManager.default.createSymbolicLink(atPath: dir + "/ld", withDestinationPath: "d")
        try FileManager.default.createSymbolicLink(atPath: dir + "/dangling", withDestinationPath: "none")
        #expect(PathStat.isDirectory(dir + "/d") == true)
        #expect(PathStat.isDirectory(dir + "/ld") == true)
        #expect(PathStat.isDirectory(dir + "/f") == false)
        #expect(PathStat.isDirectory(dir + "/none") == nil)
        #expect(PathStat.isDirectory(dir + "/dangling") == nil)
    }
}
