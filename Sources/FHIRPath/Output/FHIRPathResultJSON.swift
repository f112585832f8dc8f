import SurveyCore

/// Result items as `survey-replay fhirpath` prints them: each with its type name (the FHIR type of a node,
/// `boolean`/`integer`/`decimal`/`string`/`date`/`dateTime`/`time`/`Quantity` for System values) and its
/// value (a decimal as a string that keeps its precision, a date or time without `@` or `T`, a Quantity as
/// `{"value", "unit"}`, a complex node as its JSON).
public enum FHIRPathResultJSON {
    /// `{"type": T, "value": V}`.
    public static func json(_ item: FHIRPathItem) -> JSONValue {
        ["type": .string(typeName(item)), "value": value(item)]
    }

    public static func typeName(_ item: FHIRPathItem) -> String {
        switch item {
        case .boolean: "boolean"
        case .integer: "integer"
        case .decimal: "decimal"
        case .string: "string"
        case .dateTime(let value): value.kind == .date ? "date" : value.kind == .time ? "time" : "dateTime"
        case .quantity: "Quantity"
        case .node(let node): node.type.name
        case .typeInfo: "TypeInfo"
        }
    }

    public static func value(_ item: FHIRPathItem) -> JSONValue {
        switch item {
        case .boolean(let value): return .bool(value)
        case .integer(let value): return .number(Double(value))
        case .decimal(let value): return .string(value.description)
        case .string(let value): return .string(value)
        case .dateTime(let value): return .string(value.description)
        case .quantity(let value): return ["value": .string(value.value.description), "unit": .string(value.unit)]
        case .typeInfo(let type): return ["namespace": .string(type.namespace.rawValue), "name": .string(type.name)]
        case .node(let node):
            // A primitive, or a FHIR Quantity, as its System value.
            if node.hasValue || node.type.name == "Quantity", let system = item.systemValue, !system.isNode {
                return value(system)
            }
            return node.jsonValue
        }
    }

    /// The item as one line of text: `'Peter' (string)`, `1.50 (decimal)`, `@2014-01 (date)`, `4 'mg' (Quantity)`.
    public static func text(_ item: FHIRPathItem) -> String {
        "\(literal(item)) (\(typeName(item)))"
    }

    /// The value as a FHIRPath literal would write it (complex nodes as compact JSON).
    public static func literal(_ item: FHIRPathItem) -> String {
        let value = item.isNode ? (item.systemValue.flatMap { $0.isNode ? nil : $0 } ?? item) : item
        switch value {
        case .boolean(let flag): return String(flag)
        case .integer(let number): return String(number)
        case .decimal(let number): return number.description
        case .string(let text): return "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
        case .dateTime(let date): return (date.kind == .time ? "@T" : "@") + date.description
        case .quantity(let quantity): return quantity.description
        case .typeInfo(let type): return type.description
        case .node(let node): return CanonicalJSON.compact(node.jsonValue)
        }
    }
}

extension FHIRNode {
    /// The node as FHIR JSON: choice elements under their typed names (`valueQuantity`), a primitive's
    /// extensions under `_name`, a resource with its `resourceType`.
    public var jsonValue: JSONValue {
        if hasValue, children.isEmpty, let value = FHIRPathItem.node(self).systemValue, !value.isNode {
            return Self.primitiveJSON(value)
        }
        var object: [String: JSONValue] = [:]
        if type.kind == .resource { object["resourceType"] = .string(type.name) }
        var groups: [(key: String, nodes: [FHIRNode])] = []
        for child in children {
            let key = child.jsonKey
            if let index = groups.firstIndex(where: { $0.key == key }) { groups[index].nodes.append(child) } else { groups.append((key, [child])) }
        }
        for (key, nodes) in groups {
            let isList = type.element(named: nodes[0].name ?? "")?.isList ?? (nodes.count > 1)
            let values: [JSONValue] = nodes.map { $0.hasValue ? Self.primitiveJSON(FHIRPathItem.node($0).systemValue ?? .string("")) : .null }
            let extras = nodes.map { node -> JSONValue? in
                guard node.type.kind == .primitive, !node.children.isEmpty else { return nil }
                var extra: [String: JSONValue] = [:]
                if let id = node.children(named: "id").first { extra["id"] = id.jsonValue }
                let extensions = node.children(named: "extension")
                if !extensions.isEmpty { extra["extension"] = .array(extensions.map(\.jsonValue)) }
                return .object(extra)
            }
            let isPrimitive = nodes[0].type.kind == .primitive || nodes.allSatisfy { $0.hasValue && $0.children.isEmpty }
            if isPrimitive {
                if values.contains(where: { $0 != .null }) {
                    object[key] = isList ? .array(values) : values[0]
                }
                if extras.contains(where: { $0 != nil }) {
                    object["_" + key] = isList ? .array(extras.map { $0 ?? .null }) : (extras[0] ?? .null)
                }
            } else {
                object[key] = isList ? .array(nodes.map(\.jsonValue)) : nodes[0].jsonValue
            }
        }
        return .object(object)
    }

    /// The JSON key of the node: its name, with its type for a choice element.
    private var jsonKey: String {
        let name = name ?? ""
        guard let parent, parent.type.element(named: name)?.isChoice == true else { return name }
        return name + type.name.prefix(1).uppercased() + type.name.dropFirst()
    }

    private static func primitiveJSON(_ value: FHIRPathItem) -> JSONValue {
        switch value {
        case .boolean(let flag): .bool(flag)
        case .integer(let number): .number(Double(number))
        case .decimal(let number): .number(number.doubleValue)
        case .string(let text): .string(text)
        case .dateTime(let date): .string(date.description)
        default: .null
        }
    }
}
