import FoundationEssentials
import TOMLKit

/// Reads one `[fields.NAME]` table of config.toml into a ``UserField``:
///
/// ```toml
/// [fields.client]
/// type = "string"
/// label = "Client"
///
/// [fields.size]
/// type = "values"
/// values = ["S", "M", "L"]
/// default = "M"
/// ```
///
/// Each refusal is one ``ConfigError/badValue(path:key:found:expected:)``
/// naming the file, the key and what is expected.
struct UserFieldDeclaration {
    let path: String

    /// The field declared as `[fields.NAME]` by `value`; keys it does not
    /// know go to `unknown` (`fields.NAME.key`, for the warning).
    func field(named name: String, _ value: (any TOMLValueConvertible)?, unknown: inout [String]) throws(ConfigError) -> UserField {
        let key = "fields.\(name)"
        if let problem = UserFields.nameProblem(name) {
            throw .badValue(path: path, key: key, found: "[\(key)]", expected: problem)
        }
        guard let table = value?.table else {
            throw .badValue(path: path, key: key, found: value?.debugDescription ?? "nothing",
                            expected: "a table: [\(key)] with type = \"string\" (or number, date, duration, values)")
        }
        guard let typeValue = table["type"] else {
            throw .badValue(path: path, key: "\(key).type", found: "nothing",
                            expected: "one of " + UserField.Kind.typeNames.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        let kind = try self.kind(typeValue, values: table["values"], key: key)
        var label: String?
        var defaultText: String?
        for member in table.keys {
            guard let v = table[member] else { continue }
            switch member {
            case "type", "values": continue
            case "label":
                guard let text = v.string, !text.trimmingWhitespace().isEmpty, TextRules.fieldTextProblem(text) == nil else {
                    throw .badValue(path: path, key: "\(key).label", found: v.debugDescription, expected: "a one-line string, like \"Client\"")
                }
                label = text
            case "default":
                defaultText = try self.defaultText(v, kind: kind, name: name)
            default:
                unknown.append("\(key).\(member)")
            }
        }
        return UserField(name: name, kind: kind, label: label, defaultText: defaultText)
    }

    private func kind(_ typeValue: any TOMLValueConvertible, values: (any TOMLValueConvertible)?, key: String) throws(ConfigError) -> UserField.Kind {
        let expected = "one of " + UserField.Kind.typeNames.map { "\"\($0)\"" }.joined(separator: ", ")
        guard let type = typeValue.string else { throw .badValue(path: path, key: "\(key).type", found: typeValue.debugDescription, expected: expected) }
        switch type {
        case "string": return .string
        case "number": return .number
        case "date": return .date
        case "duration": return .duration
        case "values":
            let expectedValues = "a non-empty array of distinct one-word strings, like [\"S\", \"M\", \"L\"]"
            guard let values else {
                throw .badValue(path: path, key: "\(key).values", found: "nothing", expected: expectedValues + " (type = \"values\" needs it)")
            }
            guard let array = values.array, !array.isEmpty else {
                throw .badValue(path: path, key: "\(key).values", found: values.debugDescription, expected: expectedValues)
            }
            var names: [String] = []
            for element in array {
                guard let text = element.string, !text.isEmpty, !text.contains(where: { $0.isWhitespace || $0 == ":" }),
                      TextRules.fieldTextProblem(text) == nil, !names.contains(where: { $0.lowercased() == text.lowercased() }) else {
                    throw .badValue(path: path, key: "\(key).values", found: values.debugDescription, expected: expectedValues)
                }
                names.append(text)
            }
            return .values(names)
        default:
            throw .badValue(path: path, key: "\(key).type", found: typeValue.debugDescription, expected: expected)
        }
    }

    /// The default's text, refused unless it parses as the field's type.
    private func defaultText(_ value: any TOMLValueConvertible, kind: UserField.Kind, name: String) throws(ConfigError) -> String {
        let key = "fields.\(name).default"
        let text: String
        if let s = value.string {
            text = s
        } else if let n = value.int {
            text = String(n)
        } else if let d = value.double, d.isFinite {
            text = String(d)
        } else {
            throw .badValue(path: path, key: key, found: value.debugDescription, expected: "a \(kind.typeName) value as text, like \"\(example(kind))\"")
        }
        let field = UserField(name: name, kind: kind)
        do {
            _ = try field.parse(text, with: FieldParser(now: UserField.referenceInstant, timeZone: .utc))
        } catch {
            throw .badValue(path: path, key: key, found: value.debugDescription,
                            expected: "a \(kind.typeName) value, like \"\(example(kind))\" (\(error.errorDescription ?? "not valid"))")
        }
        return text
    }

    private func example(_ kind: UserField.Kind) -> String {
        switch kind {
        case .string: return "text"
        case .number: return "3"
        case .date: return "tomorrow"
        case .duration: return "45m"
        case .values(let names): return names.first ?? "a"
        }
    }
}
