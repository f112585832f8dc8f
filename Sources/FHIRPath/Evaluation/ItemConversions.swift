/// How items read as the types operators and functions expect, with FHIRPath's implicit conversions
/// (spec "Conversion"): FHIR primitives to their System value, Integer to Decimal, Integer and Decimal to
/// Quantity (unit `'1'`), Date to DateTime.
/// A System value is read in place; only a node is read through `systemValue` (a copy of the item).
extension FHIRPathItem {
    var booleanValue: Bool? {
        switch self {
        case .boolean(let value): value
        case .node: systemValue?.booleanValue
        default: nil
        }
    }

    var stringValue: String? {
        switch self {
        case .string(let value): value
        case .node: systemValue?.stringValue
        default: nil
        }
    }

    var integerValue: Int? {
        switch self {
        case .integer(let value): value
        case .node: systemValue?.integerValue
        default: nil
        }
    }

    /// Decimal or Integer as a Decimal.
    var decimalValue: FHIRPathDecimal? {
        switch self {
        case .decimal(let value): value
        case .integer(let value): FHIRPathDecimal(value)
        case .node: systemValue?.decimalValue
        default: nil
        }
    }

    /// A Quantity, or a number as a Quantity of unit `'1'`.
    var quantityValue: FHIRPathQuantity? {
        switch systemValue {
        case .quantity(let value)?: value
        case .decimal(let value)?: FHIRPathQuantity(value: value, unit: "1")
        case .integer(let value)?: FHIRPathQuantity(value: FHIRPathDecimal(value), unit: "1")
        default: nil
        }
    }

    /// A Date, DateTime or Time; a string node of a FHIR element the model does not type is read as one too
    /// (JSON keeps dates as strings).
    var dateTimeValue: FHIRPathDateTime? {
        switch systemValue {
        case .dateTime(let value)?: return value
        case .string(let text)? where isNode:
            return FHIRPathDateTime.parse(Substring(text), kind: .dateTime) ?? FHIRPathDateTime.parse(Substring(text), kind: .time)
        default: return nil
        }
    }

    /// The item's value as text for messages: `'abc'`, `12`, `@2014-01-01`, `4 'mg'`, or the node's type.
    var summary: String {
        switch self {
        case .boolean(let value): return String(value)
        case .integer(let value): return String(value)
        case .decimal(let value): return value.description
        case .string(let value): return "'\(value)'"
        case .dateTime(let value): return (value.kind == .time ? "@T" : "@") + value.description
        case .quantity(let value): return value.description
        case .typeInfo(let type): return type.description
        case .node(let node):
            if let value = systemValue, !value.isNode { return "\(value.summary) (\(node.type.name))" }
            return "a \(node.type.name)"
        }
    }

    /// The name of the item's type for messages (`Integer`, `String`, `FHIR.HumanName`).
    var typeName: String {
        switch self {
        case .boolean: "Boolean"
        case .integer: "Integer"
        case .decimal: "Decimal"
        case .string: "String"
        case .dateTime(let value): value.kind == .date ? "Date" : value.kind == .time ? "Time" : "DateTime"
        case .quantity: "Quantity"
        case .typeInfo: "TypeInfo"
        case .node(let node): node.type.description
        }
    }
}

extension Array where Element == FHIRPathItem {
    /// The single item, nil when empty; an error for more than one ("singleton evaluation of collections").
    func singleton(_ what: @autoclosure () -> String, at range: Range<Int>) throws(FHIRPathError) -> FHIRPathItem? {
        switch count {
        case 0: return nil
        case 1: return self[0]
        default: throw FHIRPathError(.execution, "\(what()) is a collection of \(count) items; expected one item", at: range)
        }
    }

    /// The collection as a Boolean, as `and`, `where()` and `iif()` read it: empty is unknown (nil); one
    /// Boolean is itself; one item of another type is true; more items are an error.
    func truthValue(_ what: @autoclosure () -> String, at range: Range<Int>) throws(FHIRPathError) -> Bool? {
        guard let item = try singleton(what(), at: range) else { return nil }
        return item.booleanValue ?? true
    }
}
