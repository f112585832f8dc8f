/// What the compiler knows of a piece's value before running: the types its items may have (nil: any),
/// whether it has at most one item, whether its order is defined, and its value when it is a constant.
struct StaticType {
    var types: [FHIRType]?
    var isSingleton: Bool
    var isUnordered = false
    var constant: FHIRPathCollection?

    static let unknown = StaticType(types: nil, isSingleton: false)

    static func system(_ type: FHIRType.SystemType, _ model: FHIRModel, singleton: Bool = true) -> StaticType {
        StaticType(types: [model.systemType(type)], isSingleton: singleton)
    }

    /// The kind of value the items are, when all possible types agree on one.
    var valueKind: ValueKind? {
        guard let types, let first = types.first else { return nil }
        let kind = ValueKind(first)
        for type in types.dropFirst() where ValueKind(type) != kind { return nil }
        return kind
    }

    /// The kinds of values operators and functions care about.
    enum ValueKind: Hashable {
        case boolean, integer, decimal, string, date, dateTime, time, quantity, complex

        init(_ type: FHIRType) {
            if type.kind == .complex || type.kind == .resource {
                var base: FHIRType? = type
                while let current = base {
                    if current.name == "Quantity" {
                        self = .quantity
                        return
                    }
                    base = current.base
                }
                self = .complex
                return
            }
            switch type.systemType {
            case .boolean: self = .boolean
            case .integer: self = .integer
            case .decimal: self = .decimal
            case .string: self = .string
            case .date: self = .date
            case .dateTime: self = .dateTime
            case .time: self = .time
            case .quantity: self = .quantity
            case nil: self = .complex
            }
        }

        var isNumber: Bool { self == .integer || self == .decimal }
        var isTemporal: Bool { self == .date || self == .dateTime || self == .time }

        var name: String {
            switch self {
            case .boolean: "Boolean"
            case .integer: "Integer"
            case .decimal: "Decimal"
            case .string: "String"
            case .date: "Date"
            case .dateTime: "DateTime"
            case .time: "Time"
            case .quantity: "Quantity"
            case .complex: "a complex type"
            }
        }
    }

    /// A readable list of the possible types, for messages.
    var typeDescription: String {
        guard let types else { return "any type" }
        return types.map(\.name).joined(separator: " or ")
    }
}
