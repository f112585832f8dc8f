/// One item of a FHIRPath collection: a System value, a node of a FHIR tree (which may carry a primitive
/// value), or the type information `type()` returns.
public enum FHIRPathItem: Sendable {
    case boolean(Bool)
    case integer(Int)
    case decimal(FHIRPathDecimal)
    case string(String)
    /// A Date, DateTime or Time (its `kind` says which).
    case dateTime(FHIRPathDateTime)
    indirect case quantity(FHIRPathQuantity)
    case node(FHIRNode)
    indirect case typeInfo(FHIRType)

    /// The item's type: a System type, or the FHIR type of a node.
    public func type(in model: FHIRModel) -> FHIRType {
        switch self {
        case .boolean: model.systemType(.boolean)
        case .integer: model.systemType(.integer)
        case .decimal: model.systemType(.decimal)
        case .string: model.systemType(.string)
        case .dateTime(let value): model.systemType(value.kind == .date ? .date : value.kind == .time ? .time : .dateTime)
        case .quantity: model.systemType(.quantity)
        case .node(let node): node.type
        case .typeInfo: model.systemType(.string).base!
        }
    }

    /// The System value of the item: itself for System values, the primitive value of a FHIR primitive
    /// node (`FHIR.code` → `System.String`), the `System.Quantity` of a FHIR Quantity node; nil for other
    /// nodes (complex types, primitives without a value).
    public var systemValue: FHIRPathItem? {
        guard case .node(let node) = self else { return self }
        if let primitive = node.primitive {
            switch primitive {
            case .boolean(let value): return .boolean(value)
            case .integer(let value): return .integer(value)
            case .decimal(let value): return .decimal(value)
            case .string(let value): return .string(value)
            case .dateTime(let value): return .dateTime(value)
            }
        }
        return node.quantity.map(FHIRPathItem.quantity)
    }

    /// Whether the item is a node of a FHIR tree.
    var isNode: Bool {
        if case .node = self { return true }
        return false
    }
}

extension FHIRNode {
    /// A FHIR Quantity (or Age, Duration…) node as a System Quantity: its value with its UCUM code when the
    /// system is UCUM (or missing), else its unit text.
    var quantity: FHIRPathQuantity? {
        guard type.conforms(to: tree.model.fhirType(named: "Quantity")!) else { return nil }
        var value: FHIRPathDecimal?
        var code: String?
        var unit: String?
        var system: String?
        for child in children {
            switch (child.name, child.primitive) {
            case ("value", .decimal(let number)?): value = number
            case ("value", .integer(let number)?): value = FHIRPathDecimal(number)
            case ("code", .string(let text)?): code = text
            case ("unit", .string(let text)?): unit = text
            case ("system", .string(let text)?): system = text
            default: break
            }
        }
        guard let value else { return nil }
        if let code, system == nil || system == "http://unitsofmeasure.org" { return FHIRPathQuantity(value: value, unit: code) }
        if let unit, FHIRPathQuantity.calendarKeywords[unit] != nil || UCUMUnit.parse(unit) != nil { return FHIRPathQuantity(value: value, unit: unit) }
        return FHIRPathQuantity(value: value, unit: code ?? unit ?? "1")
    }
}

extension FHIRPathItem {
    /// Whether two items are the same value written the same way, or the same node of the same tree: what
    /// makes any expression reading one give what it gives reading the other. Stricter than FHIRPath's `=`
    /// and `~` (`1.10` and `1.1` differ here, in their precision; equal JSON in two trees differs too).
    public func isIdentical(to other: FHIRPathItem) -> Bool {
        switch (self, other) {
        case (.boolean(let a), .boolean(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.decimal(let a), .decimal(let b)): a.isIdentical(to: b)
        case (.string(let a), .string(let b)): a == b
        case (.dateTime(let a), .dateTime(let b)): a == b
        case (.quantity(let a), .quantity(let b)): a.value.isIdentical(to: b.value) && a.unit == b.unit
        case (.node(let a), .node(let b)): a.tree === b.tree && a.index == b.index
        case (.typeInfo(let a), .typeInfo(let b)): a === b
        default: false
        }
    }
}

extension Array where Element == FHIRPathItem {
    /// Whether two collections hold identical items in the same order (`FHIRPathItem.isIdentical(to:)`).
    public func isIdentical(to other: FHIRPathCollection) -> Bool {
        count == other.count && zip(self, other).allSatisfy { $0.isIdentical(to: $1) }
    }

    /// The collection of one Boolean: one of two shared collections, since evaluations make many and each
    /// made afresh would be an allocation.
    @inline(__always)
    static func truth(_ value: Bool) -> FHIRPathCollection {
        value ? SharedTruths.true : SharedTruths.false
    }
}

/// The two collections `truth(_:)` gives (a generic type's extension cannot hold them).
private enum SharedTruths {
    static let `true`: FHIRPathCollection = [.boolean(true)]
    static let `false`: FHIRPathCollection = [.boolean(false)]
}
