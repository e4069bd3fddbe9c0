import Foundation
import Testing
@testable import TickKit

/// Parse and schema errors name the file, line and column, with a caret.
@Suite struct FormatErrorTests {
    func error(_ text: String) -> FormatError? {
        do {
            _ = try TaskFileDecoder(bytes: Array(text.utf8), path: "lists/work.json", kind: .list(slug: "work"), fallbackDate: Date()).decode()
            return nil
        } catch {
            return error
        }
    }

    @Test func missingCommaPointsAtTheNextKey() throws {
        let e = try #require(error("{\n  \"name\": \"Work\"\n  \"tasks\": []\n}\n"))
        #expect(e.location?.line == 3)
        #expect(e.location?.column == 3)
        #expect(e.message.contains("expected ',' or '}'"))
        #expect(e.errorDescription?.hasPrefix("lists/work.json:3:3: error:") == true)
        #expect(e.errorDescription?.hasSuffix("  \"tasks\": []\n      ^") == true)
    }

    @Test func badStateNamesAllowedValuesAndColumn() throws {
        let text = """
        {
          "name": "Work",
          "tasks": [
            {
              "title": "Report",
              "state": "finished"
            }
          ]
        }
        """
        let e = try #require(error(text))
        #expect(e.location?.line == 6)
        #expect(e.location?.column == 16)
        #expect(e.message == "\"state\" must be one of open, active, done (found \"finished\")")
    }

    @Test(arguments: [
        ("{\"tasks\": [{\"title\": \"a\",}]}", 1, 26, "trailing comma"),
        ("{\"tasks\": [{\"title\": 'a'}]}", 1, 22, "double quotes"),
        ("{\"tasks\": [{\"title\": \"a\"}]", 1, 27, "end of file"),
        ("{\"tasks\": [{\"due\": \"next tuesday\", \"title\": \"x\"}]}", 1, 20, "\"due\" must be a date"),
        ("{\"tasks\": [{\"state\": \"open\"}]}", 1, 12, "needs a \"title\""),
        ("{\"tasks\": [{\"title\": \"x\", \"tags\": [\"+home\"]}]}", 1, 36, "without the leading '+'"),
        ("{\"tasks\": [{\"title\": \"x\", \"title\": \"y\"}]}", 1, 27, "duplicate key"),
        ("{\"color\": \"blue\", \"tasks\": []}", 1, 11, "6 hex digits"),
        ("{\"version\": 7, \"tasks\": []}", 1, 13, "upgrade tick"),
        ("[1, 2]", 1, 1, "must be an object"),
        ("{\"tasks\": {}}", 1, 11, "must be an array"),
    ])
    func errorsHaveLocations(text: String, line: Int, column: Int, fragment: String) throws {
        let e = try #require(error(text))
        #expect(e.location?.line == line)
        #expect(e.location?.column == column)
        #expect(e.message.contains(fragment), "\(e.message)")
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let e = try #require(error("{\"name\": \"Café\", \"tasks\": [}"))
        #expect(e.location?.column == 28)
    }

    @Test func duplicateTaskIDsAreReportedWithBothLines() throws {
        let text = """
        {"tasks": [
          {"id": "aaaaaaaa-0000-4000-8000-000000000001", "title": "a"},
          {"id": "aaaaaaaa-0000-4000-8000-000000000001", "title": "b"}
        ]}
        """
        let e = try #require(error(text))
        #expect(e.location?.line == 3)
        #expect(e.message.contains("line 2"))
    }
}
