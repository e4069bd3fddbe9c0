import FoundationEssentials

/// Declared fields (``UserField``) in a VTODO: one `X-TICK-FIELD` property
/// each, the field's name in its `NAME` parameter (iCalendar property names
/// take no `_`, field names do): `X-TICK-FIELD;NAME=client:Acme`. The value
/// is as the task file stores it: the text, a number, a duration in minutes,
/// a day or a timestamp. A value of another type than declared (a hand edit)
/// goes as its JSON with `X-TICK-TYPE=json`, so it comes back as it was.
extension DavMapping {
    /// The property that holds a declared field.
    static let userFieldProperty = "X-TICK-FIELD"

    /// tick's fields and the declared ones, in the order a new item writes
    /// them (the declared before the alarm, which stays last).
    public static func fields(_ declared: UserFields) -> [DavField] {
        guard !declared.isEmpty else { return fields }
        let alarm = fields.firstIndex { $0.key == "remind" } ?? fields.endIndex
        return Array(fields[..<alarm]) + declared.all.map(field(for:)) + Array(fields[alarm...])
    }

    /// The VTODO entry of one declared field.
    static func field(for declared: UserField) -> DavField {
        let name = declared.name
        return DavField(
            key: name, properties: [userFieldProperty],
            equal: { declared.value(in: $0) == declared.value(in: $1) },
            copy: { task, other in
                let value = declared.value(in: other)
                if let i = task.extra.firstIndex(where: { $0.key == name }) {
                    if let value { task.extra[i].value = value } else { task.extra.remove(at: i) }
                } else if let value {
                    task.extra.append(JSONMember(name, value))
                }
            },
            lines: { task in declared.value(in: task).map { [propertyLine(name: name, value: $0, field: declared)] } ?? [] })
    }

    /// `X-TICK-FIELD;NAME=…:…` for a stored value.
    static func propertyLine(name: String, value: JSONNode, field: UserField) -> String {
        let head = userFieldProperty + ";NAME=" + name
        guard field.isWellTyped(value) else {
            var json: [UInt8] = []
            JSONWriter.write(value, indent: 0, into: &json)
            return head + ";X-TICK-TYPE=json:" + ICalendarCodec.escape(String(decoding: json, as: UTF8.self))
        }
        switch value.kind {
        case .string(let s): return head + ":" + ICalendarCodec.escape(s)
        case .number(let literal): return head + ":" + literal
        default: return head + ":"
        }
    }

    /// The declared fields' values an item's properties hold, in the order
    /// of the declarations; a property of an undeclared name is not read
    /// (it stays in the item's text).
    static func userFieldValues(_ props: [ICalendarCodec.ContentLine], fields: UserFields) -> [JSONMember] {
        var out: [JSONMember] = []
        for field in fields.all {
            guard let p = props.first(where: { $0.name == userFieldProperty && $0.params["NAME"] == field.name }) else { continue }
            let text = ICalendarCodec.unescape(p.value)
            if p.params["X-TICK-TYPE"]?.lowercased() == "json" {
                if let node = try? JSONParser.parse(Array(text.utf8)) { out.append(JSONMember(field.name, stripped(node))) }
                continue
            }
            let value: JSONNode? = switch field.kind {
            case .string, .values: .string(text)
            case .number: UserField.numberText(text).map { JSONNode(.number($0)) }
            case .duration: Int(text).flatMap { $0 > 0 ? JSONNode(.number(String($0))) : nil }
            case .date: TaskDate(fileString: text).map { .string($0.fileString) }
            }
            out.append(JSONMember(field.name, value ?? .string(text)))
        }
        return out
    }

    private static func stripped(_ node: JSONNode) -> JSONNode {
        switch node.kind {
        case .array(let items): return .array(items.map(stripped))
        case .object(let ms): return .object(ms.map { JSONMember($0.key, stripped($0.value)) })
        default: return JSONNode(node.kind)
        }
    }
}
