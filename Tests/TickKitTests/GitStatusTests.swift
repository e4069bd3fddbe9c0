import Foundation
import Testing
@testable import TickKit

/// Reading `git status --porcelain=v2 --branch -z`.
@Suite struct GitStatusTests {
    static func parse(_ records: [String], prefix: String = "") -> GitStatus {
        GitStatus.parse(Array(records.map { $0 + "\0" }.joined().utf8), prefix: prefix)
    }

    @Test func branchUpstreamAndChangedFiles() {
        let s = Self.parse([
            "# branch.oid 0a76ddafc527a09520f19e70a5e8f78723b141af",
            "# branch.head main",
            "# branch.upstream origin/main",
            "# branch.ab +2 -1",
            "1 .M N... 100644 100644 100644 aaaa bbbb tasks/lists/my work.json",
            "u UU N... 100644 100644 100644 100644 aaaa bbbb cccc tasks/inbox.json",
            "2 R. N... 100644 100644 100644 aaaa bbbb R100 tasks/lists/new.json",
            "tasks/lists/old.json",
            "? tasks/.gitattributes",
            "? notes.txt",
        ], prefix: "tasks/")
        #expect(s.head == "0a76ddafc527a09520f19e70a5e8f78723b141af")
        #expect(s.branch == "main")
        #expect(s.upstream == "origin/main")
        #expect(s.ahead == 2 && s.behind == 1)
        #expect(s.dirtyPaths == ["lists/my work.json", "inbox.json", "lists/new.json", ".gitattributes", "notes.txt"])
    }

    @Test func unbornDetachedAndNotFetched() {
        let unborn = Self.parse(["# branch.oid (initial)", "# branch.head main", "# branch.upstream origin/main"])
        #expect(unborn.head == nil && unborn.branch == "main" && unborn.upstream == "origin/main")
        #expect(unborn.ahead == nil && unborn.behind == nil, "an upstream never fetched has no counts")
        let detached = Self.parse(["# branch.oid 0a76dd", "# branch.head (detached)"])
        #expect(detached.head == "0a76dd" && detached.branch == nil && detached.upstream == nil)
        #expect(detached.dirtyPaths.isEmpty)
    }

    @Test func configKeysAreMatchedLiterally() {
        #expect(GitRepository.regexEscaped("branch.feat+x.rebase") == "branch\\.feat\\+x\\.rebase")
    }
}
