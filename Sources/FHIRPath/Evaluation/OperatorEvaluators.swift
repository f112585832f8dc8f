/// A binary operator (spec "Operations").
final class BinaryEvaluator: Evaluator, @unchecked Sendable {
    let op: FHIRPathSyntax.BinaryOperator
    let left: Evaluator
    let right: Evaluator

    init(_ op: FHIRPathSyntax.BinaryOperator, _ left: Evaluator, _ right: Evaluator, range: Range<Int>) {
        self.op = op
        self.left = left
        self.right = right
        super.init(range: range)
    }

    override func evaluate(_ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError) -> FHIRPathCollection {
        switch op {
        case .and, .or, .xor, .implies:
            return try logic(scope, &state)
        default:
            break
        }
        let a = try left.evaluate(scope, &state)
        let b = try right.evaluate(scope, &state)
        switch op {
        case .equal: return FHIRPathOperations.equals(a, b).map { .truth($0) } ?? []
        case .notEqual: return FHIRPathOperations.equals(a, b).map { .truth(!$0) } ?? []
        case .equivalent: return .truth(FHIRPathOperations.equivalent(a, b))
        case .notEquivalent: return .truth(!FHIRPathOperations.equivalent(a, b))
        case .union:
            return FHIRPathOperations.distinct(a + b)
        case .in, .contains:
            let (element, collection) = op == .in ? (a, b) : (b, a)
            guard let item = try element.singleton("the \(op == .in ? "left" : "right") operand of '\(op.rawValue)'", at: range) else { return [] }
            return .truth(FHIRPathOperations.contains(collection, item))
        case .less, .greater, .lessOrEqual, .greaterOrEqual:
            guard let x = try a.singleton("the left operand of '\(op.rawValue)'", at: left.range),
                let y = try b.singleton("the right operand of '\(op.rawValue)'", at: right.range),
                let order = try FHIRPathOperations.compare(x, y, at: range)
            else { return [] }
            switch op {
            case .less: return .truth(order < 0)
            case .greater: return .truth(order > 0)
            case .lessOrEqual: return .truth(order <= 0)
            default: return .truth(order >= 0)
            }
        case .concatenate:
            let x = try a.singleton("the left operand of '&'", at: left.range)
            let y = try b.singleton("the right operand of '&'", at: right.range)
            guard (x == nil || x?.stringValue != nil), (y == nil || y?.stringValue != nil) else {
                throw failure("'&' joins strings; found \(x?.typeName ?? "") \(y?.typeName ?? "")")
            }
            return [.string((x?.stringValue ?? "") + (y?.stringValue ?? ""))]
        default:
            guard let x = try a.singleton("the left operand of '\(op.rawValue)'", at: left.range),
                let y = try b.singleton("the right operand of '\(op.rawValue)'", at: right.range)
            else { return [] }
            return try FHIRPathOperations.arithmetic(op, x, y, at: range).map { [$0] } ?? []
        }
    }

    /// Three-valued `and`, `or`, `xor`, `implies` (spec "Boolean logic"); the right side is not evaluated
    /// when the left decides.
    private func logic(_ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError) -> FHIRPathCollection {
        let a = try left.evaluate(scope, &state).truthValue("the left operand of '\(op.rawValue)'", at: left.range)
        switch (op, a) {
        case (.and, false?): return .truth(false)
        case (.or, true?): return .truth(true)
        case (.implies, false?): return .truth(true)
        default: break
        }
        let b = try right.evaluate(scope, &state).truthValue("the right operand of '\(op.rawValue)'", at: right.range)
        let result: Bool?
        switch op {
        case .and: result = a == true && b == true ? true : b == false ? false : nil
        case .or: result = b == true ? true : a == false && b == false ? false : nil
        case .xor: result = a.flatMap { x in b.map { x != $0 } }
        default: result = a == true ? b : b == true ? true : nil
        }
        return result.map { .truth($0) } ?? []
    }
}

/// Unary `+` and `-`.
final class PolarityEvaluator: Evaluator, @unchecked Sendable {
    let negative: Bool
    let operand: Evaluator

    init(negative: Bool, _ operand: Evaluator, range: Range<Int>) {
        self.negative = negative
        self.operand = operand
        super.init(range: range)
    }

    override func evaluate(_ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError) -> FHIRPathCollection {
        guard let item = try operand.evaluate(scope, &state).singleton("the operand of unary '\(negative ? "-" : "+")'", at: operand.range) else {
            return []
        }
        switch item.systemValue {
        case .integer(let value)?: return negative ? (value == Int.min ? [] : [.integer(-value)]) : [.integer(value)]
        case .decimal(let value)?: return [.decimal(negative && !value.isZero ? -value : value)]
        case .quantity(var value)?:
            if negative { value.value = -value.value }
            return [.quantity(value)]
        default:
            throw failure("unary '\(negative ? "-" : "+")' takes a number or a quantity; found \(item.typeName) \(item.summary)")
        }
    }
}

/// `target[index]`.
final class IndexerEvaluator: Evaluator, @unchecked Sendable {
    let target: Evaluator
    let index: Evaluator

    init(_ target: Evaluator, _ index: Evaluator, range: Range<Int>) {
        self.target = target
        self.index = index
        super.init(range: range)
    }

    override func evaluate(_ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError) -> FHIRPathCollection {
        let collection = try target.evaluate(scope, &state)
        guard let item = try index.evaluate(scope, &state).singleton("the index", at: index.range) else { return [] }
        guard let position = item.integerValue else { throw failure("an index must be an integer; found \(item.typeName) \(item.summary)") }
        return position >= 0 && position < collection.count ? [collection[position]] : []
    }
}

/// `is Type`, `as Type`, and the functions `is()`, `as()`, `ofType()`.
final class TypeTestEvaluator: Evaluator, @unchecked Sendable {
    enum Test {
        case `is`, `as`, ofType
    }

    let test: Test
    let operand: Evaluator?
    /// The type named; nil for a System type name that does not exist (nothing is of it).
    let type: FHIRType?
    /// For an unqualified `Quantity`: System Quantity values are of it too.
    let alsoSystem: FHIRType?

    init(_ test: Test, operand: Evaluator?, type: FHIRType?, alsoSystem: FHIRType?, range: Range<Int>) {
        self.test = test
        self.operand = operand
        self.type = type
        self.alsoSystem = alsoSystem
        super.init(range: range)
    }

    /// Whether the item is of the type. `is` accepts subtypes; `as` and `ofType` take a FHIR primitive only
    /// of exactly its type, as the official suite expects (`Patient.gender.is(string)` is true but
    /// `Patient.gender.as(string)` is empty: a code is not taken as a string; testFHIRPathAsFunction11, 16).
    func matches(_ item: FHIRPathItem, _ model: FHIRModel) -> Bool {
        guard let type else { return false }
        let itemType = item.type(in: model)
        if alsoSystem.map({ itemType === $0 }) == true { return true }
        if test != .is, itemType.kind == .primitive { return itemType === type }
        return itemType.conforms(to: type)
    }

    override func evaluate(_ scope: FHIRPathCollection, _ state: inout EvaluationState) throws(FHIRPathError) -> FHIRPathCollection {
        let input = try operand?.evaluate(scope, &state) ?? scope
        switch test {
        case .ofType:
            return input.filter { matches($0, state.model) }
        case .is:
            guard let item = try input.singleton("the operand of 'is'", at: range) else { return [] }
            return .truth(matches(item, state.model))
        case .as:
            guard let item = try input.singleton("the operand of 'as'", at: range) else { return [] }
            return matches(item, state.model) ? [item] : []
        }
    }
}
