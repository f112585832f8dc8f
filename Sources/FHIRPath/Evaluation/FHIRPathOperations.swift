/// Equality, equivalence, ordering and arithmetic on items and collections (spec "Operations").
enum FHIRPathOperations {
    // MARK: Equality

    /// `=` on two items: nil when the result is unknown (dates of different precision, quantities whose units
    /// cannot be compared). Items of types that do not convert to each other are not equal.
    static func equals(_ lhs: FHIRPathItem, _ rhs: FHIRPathItem) -> Bool? {
        guard let left = lhs.systemValue, let right = rhs.systemValue, !left.isNode, !right.isNode else {
            if case .node(let a) = lhs, case .node(let b) = rhs { return nodesEqual(a, b, equivalence: false) }
            return false
        }
        switch (left, right) {
        case (.boolean(let a), .boolean(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.integer, .decimal), (.decimal, .integer), (.decimal, .decimal):
            return left.decimalValue! == right.decimalValue!
        case (.quantity, .quantity), (.quantity, .integer), (.quantity, .decimal), (.integer, .quantity), (.decimal, .quantity):
            return FHIRPathQuantity.equals(left.quantityValue!, right.quantityValue!)
        case (.dateTime(let a), .dateTime(let b)):
            guard (a.kind == .time) == (b.kind == .time) else { return false }
            return FHIRPathDateTime.compare(a, b).map { $0 == 0 }
        case (.string, .dateTime), (.dateTime, .string):
            guard let a = lhs.dateTimeValue, let b = rhs.dateTimeValue, (a.kind == .time) == (b.kind == .time) else { return false }
            return FHIRPathDateTime.compare(a, b).map { $0 == 0 }
        case (.typeInfo(let a), .typeInfo(let b)): return a === b
        default: return false
        }
    }

    /// `~` on two items.
    static func equivalent(_ lhs: FHIRPathItem, _ rhs: FHIRPathItem) -> Bool {
        guard let left = lhs.systemValue, let right = rhs.systemValue, !left.isNode, !right.isNode else {
            if case .node(let a) = lhs, case .node(let b) = rhs { return nodesEqual(a, b, equivalence: true) ?? false }
            return false
        }
        switch (left, right) {
        case (.boolean(let a), .boolean(let b)): return a == b
        case (.string(let a), .string(let b)): return normalized(a) == normalized(b)
        case (.integer(let a), .integer(let b)): return a == b
        case (.integer, .decimal), (.decimal, .integer), (.decimal, .decimal):
            return left.decimalValue!.trimmed().isEquivalent(to: right.decimalValue!.trimmed())
        case (.quantity, .quantity), (.quantity, .integer), (.quantity, .decimal), (.integer, .quantity), (.decimal, .quantity):
            return FHIRPathQuantity.isEquivalent(left.quantityValue!, right.quantityValue!)
        case (.dateTime(let a), .dateTime(let b)):
            return FHIRPathDateTime.compare(a, b) == 0
        case (.string, .dateTime), (.dateTime, .string):
            guard let a = lhs.dateTimeValue, let b = rhs.dateTimeValue else { return false }
            return FHIRPathDateTime.compare(a, b) == 0
        case (.typeInfo(let a), .typeInfo(let b)): return a === b
        default: return false
        }
    }

    /// Case folded, every white-space character a space (spec "String Equivalence").
    private static func normalized(_ text: String) -> String {
        String(String.UnicodeScalarView(text.lowercased().unicodeScalars.map { $0.properties.isWhitespace ? " " : $0 }))
    }

    /// Complex values: equal when their children are, in order, recursively.
    static func nodesEqual(_ lhs: FHIRNode, _ rhs: FHIRNode, equivalence: Bool) -> Bool? {
        if lhs.isSame(as: rhs) { return true }
        if lhs.hasValue || rhs.hasValue {
            guard let a = FHIRPathItem.node(lhs).systemValue, let b = FHIRPathItem.node(rhs).systemValue else { return false }
            if equivalence ? !equivalent(a, b) : equals(a, b) != true { return false }
        }
        let left = lhs.children
        let right = rhs.children
        guard left.count == right.count else { return false }
        for (a, b) in zip(left, right) {
            guard a.name == b.name else { return false }
            guard let same = nodesEqual(a, b, equivalence: equivalence), same else { return false }
        }
        return true
    }

    /// `=` on collections: empty if either is; false for different counts; else item by item in order.
    static func equals(_ lhs: FHIRPathCollection, _ rhs: FHIRPathCollection) -> Bool? {
        if lhs.isEmpty || rhs.isEmpty { return nil }
        guard lhs.count == rhs.count else { return false }
        var unknown = false
        for (a, b) in zip(lhs, rhs) {
            switch equals(a, b) {
            case false?: return false
            case nil: unknown = true
            case true?: break
            }
        }
        return unknown ? nil : true
    }

    /// `~` on collections: both empty is true; otherwise the same number of items, each equivalent to a
    /// different item of the other, in any order.
    static func equivalent(_ lhs: FHIRPathCollection, _ rhs: FHIRPathCollection) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var unmatched = Array(rhs.indices)
        for item in lhs {
            guard let position = unmatched.firstIndex(where: { equivalent(item, rhs[$0]) }) else { return false }
            unmatched.remove(at: position)
        }
        return true
    }

    /// Whether the collection has an item equal to `item` (for `in`, `contains`, `distinct`, `union`).
    static func contains(_ collection: FHIRPathCollection, _ item: FHIRPathItem) -> Bool {
        collection.contains { equals($0, item) == true }
    }

    /// The items without repeats (by `=`), in first-seen order.
    static func distinct(_ collection: FHIRPathCollection) -> FHIRPathCollection {
        var result: FHIRPathCollection = []
        result.reserveCapacity(collection.count)
        for item in collection where !contains(result, item) { result.append(item) }
        return result
    }

    // MARK: Ordering

    /// -1, 0 or 1 for two items of comparable types; nil when the order is unknown (different precisions,
    /// units that cannot be compared); an error for types that cannot be compared.
    static func compare(_ lhs: FHIRPathItem, _ rhs: FHIRPathItem, at range: Range<Int>) throws(FHIRPathError) -> Int? {
        let left = lhs.systemValue
        let right = rhs.systemValue
        switch (left, right) {
        case (.integer(let a)?, .integer(let b)?): return a < b ? -1 : a > b ? 1 : 0
        case (.integer?, .decimal?), (.decimal?, .integer?), (.decimal?, .decimal?):
            return FHIRPathDecimal.compare(left!.decimalValue!, right!.decimalValue!)
        case (.string(let a)?, .string(let b)?): return a < b ? -1 : a > b ? 1 : 0
        case (.quantity?, .quantity?), (.quantity?, .integer?), (.quantity?, .decimal?), (.integer?, .quantity?), (.decimal?, .quantity?):
            return FHIRPathQuantity.compare(left!.quantityValue!, right!.quantityValue!)
        default:
            if let a = lhs.dateTimeValue, let b = rhs.dateTimeValue {
                guard (a.kind == .time) == (b.kind == .time) else {
                    throw FHIRPathError(.execution, "cannot compare \(lhs.summary) with \(rhs.summary): a time with a date", at: range)
                }
                return FHIRPathDateTime.compare(a, b)
            }
            throw FHIRPathError(.execution, "cannot compare \(lhs.typeName) \(lhs.summary) with \(rhs.typeName) \(rhs.summary)", at: range)
        }
    }

    // MARK: Arithmetic

    /// `+`, `-`, `*`, `/`, `div`, `mod`, `&` on two items (empty operands are handled by the caller). Nil is
    /// an empty result (division by zero, an overflow, units that cannot be combined).
    static func arithmetic(_ op: FHIRPathSyntax.BinaryOperator, _ lhs: FHIRPathItem, _ rhs: FHIRPathItem, at range: Range<Int>) throws(FHIRPathError)
        -> FHIRPathItem?
    {
        let left = lhs.systemValue
        let right = rhs.systemValue
        func mismatch() -> FHIRPathError {
            FHIRPathError(.execution, "'\(op.rawValue)' cannot take \(lhs.typeName) \(lhs.summary) and \(rhs.typeName) \(rhs.summary)", at: range)
        }
        switch (left, right) {
        case (.integer(let a)?, .integer(let b)?):
            switch op {
            case .add: return checked(a.addingReportingOverflow(b))
            case .subtract: return checked(a.subtractingReportingOverflow(b))
            case .multiply: return checked(a.multipliedReportingOverflow(by: b))
            case .div: return b == 0 || (a == Int.min && b == -1) ? nil : .integer(a / b)
            case .mod: return b == 0 || (a == Int.min && b == -1) ? nil : .integer(a % b)
            case .divide: return (FHIRPathDecimal(a) / FHIRPathDecimal(b)).map(FHIRPathItem.decimal)
            default: throw mismatch()
            }
        case (.integer?, .decimal?), (.decimal?, .integer?), (.decimal?, .decimal?):
            let a = left!.decimalValue!
            let b = right!.decimalValue!
            switch op {
            case .add: return (a + b).map(FHIRPathItem.decimal)
            case .subtract: return (a - b).map(FHIRPathItem.decimal)
            case .multiply: return (a * b).map(FHIRPathItem.decimal)
            case .divide: return (a / b).map(FHIRPathItem.decimal)
            case .div: return a.integerQuotient(b).flatMap { Int(exactly: $0) }.map(FHIRPathItem.integer)
            case .mod: return a.remainder(b).map(FHIRPathItem.decimal)
            default: throw mismatch()
            }
        case (.string(let a)?, .string(let b)?):
            guard op == .add else { throw mismatch() }
            return .string(a + b)
        case (.quantity?, .quantity?), (.quantity?, .integer?), (.quantity?, .decimal?), (.integer?, .quantity?), (.decimal?, .quantity?):
            let a = left!.quantityValue!
            let b = right!.quantityValue!
            switch op {
            case .add, .subtract:
                guard case .quantity? = left, case .quantity? = right else { throw mismatch() }
                return FHIRPathQuantity.add(a, b, subtracting: op == .subtract).map(FHIRPathItem.quantity)
            case .multiply, .divide:
                return FHIRPathQuantity.multiply(a, b, dividing: op == .divide).map(FHIRPathItem.quantity)
            default: throw mismatch()
            }
        case (_, .quantity(let quantity)?) where op == .add || op == .subtract:
            guard let date = lhs.dateTimeValue else { throw mismatch() }
            guard let unit = FHIRPathDateTime.CalendarUnit(quantityUnit: quantity.unit) else {
                throw FHIRPathError(
                    .execution, "cannot add \(quantity) to a date or time: '\(quantity.unit)' is not a calendar duration (use year, month, week, day…)",
                    at: range)
            }
            guard let result = date.adding(op == .subtract ? -quantity.value : quantity.value, unit) else {
                throw FHIRPathError(.execution, "cannot add \(quantity) to \(lhs.summary)", at: range)
            }
            return .dateTime(result)
        default:
            throw mismatch()
        }
    }

    private static func checked(_ result: (partialValue: Int, overflow: Bool)) -> FHIRPathItem? {
        result.overflow ? nil : .integer(result.partialValue)
    }
}
