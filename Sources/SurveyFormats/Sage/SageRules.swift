import SurveyCore

/// Whether a survey rule matches an answer, per generation (reference §1.2).
extension Sage.Rule {
    /// `RSDComparable.isMatching` (legacy and v3): `always` matches anything, a missing answer matches only
    /// `de`; an array answer matches `eq` when ANY matching value is in it (a single value is wrapped as
    /// `[x]`), `ot` when none is, and `ne` compared as a whole; a failed type conversion is false.
    func matchesLegacy(_ answer: JSONValue?, base: Sage.BaseType) -> Bool {
        if ruleOperator == .always { return true }
        guard let answer, answer != .null else { return ruleOperator == .skip }
        guard ruleOperator != .skip, let matching = matchingAnswer else { return false }
        if let values = answer.arrayValue {
            let wanted = matching.arrayValue ?? [matching]
            let contained = wanted.filter { value in values.contains { SageComparison.equal($0, value, base: base, legacy: true) } }
            switch ruleOperator {
            case .equal: return !contained.isEmpty
            case .otherThan: return contained.isEmpty
            case .notEqual: return values != wanted
            default: return false
            }
        }
        switch ruleOperator {
        case .equal: return SageComparison.equal(answer, matching, base: base, legacy: true)
        case .notEqual, .otherThan:
            return SageComparison.sameKind(answer, matching) && !SageComparison.equal(answer, matching, base: base, legacy: true)
        case .lessThan, .greaterThan, .lessThanOrEqual, .greaterThanOrEqual:
            return SageComparison.order(answer, matching).map(ruleOperator.accepts) ?? false
        case .skip, .always: return false
        }
    }

    /// The successor's `SurveyRule`: a missing `matchingAnswer` is JSON null, a skipped answer too, so the
    /// default `eq` rule without one matches a skipped question; numbers are compared rounded (0 digits for
    /// integers, 5 otherwise). An array answer equals a single value it contains (our reading: the reference
    /// is silent on arrays); order operators are false against null.
    func matchesSuccessor(_ answer: JSONValue?, base: Sage.BaseType) -> Bool {
        let value = answer ?? .null
        let matching = matchingAnswer ?? .null
        let equal: Bool
        if let values = value.arrayValue, matching.arrayValue == nil, matching != .null {
            equal = values.contains { SageComparison.equal($0, matching, base: base, legacy: false) }
        } else {
            equal = SageComparison.equal(value, matching, base: base, legacy: false)
        }
        switch ruleOperator {
        case .equal: return equal
        case .notEqual: return !equal
        case .lessThan, .greaterThan, .lessThanOrEqual, .greaterThanOrEqual:
            return SageComparison.order(value, matching).map(ruleOperator.accepts) ?? false
        case .skip, .otherThan, .always: return false
        }
    }
}

extension Sage.RuleOperator {
    /// Whether an ordering (-1, 0, 1 for answer vs matching value) satisfies the comparison.
    func accepts(_ order: Int) -> Bool {
        switch self {
        case .lessThan: order < 0
        case .greaterThan: order > 0
        case .lessThanOrEqual: order <= 0
        case .greaterThanOrEqual: order >= 0
        default: false
        }
    }
}

/// Comparisons of answers with rule values.
enum SageComparison {
    /// Equality: decimals within ± 0.00001 (legacy `RSDComparable` accuracy); the successor rounds integers
    /// to 0 digits and other numbers to 5.
    static func equal(_ lhs: JSONValue, _ rhs: JSONValue, base: Sage.BaseType, legacy: Bool) -> Bool {
        if let a = lhs.numberValue, let b = rhs.numberValue {
            if legacy { return base == .decimal ? abs(a - b) <= 0.00001 : a == b }
            let scale = base == .integer ? 1.0 : 100_000.0
            return (a * scale).rounded() == (b * scale).rounded()
        }
        return lhs == rhs
    }

    /// Whether two values are of one kind, so that comparing them is not a failed conversion.
    static func sameKind(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.number, .number), (.string, .string), (.bool, .bool): true
        default: false
        }
    }

    /// -1, 0 or 1 for two numbers or two strings (dates as ISO strings order as text); nil otherwise.
    static func order(_ lhs: JSONValue, _ rhs: JSONValue) -> Int? {
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)): a < b ? -1 : a > b ? 1 : 0
        case (.string(let a), .string(let b)): a < b ? -1 : a > b ? 1 : 0
        default: nil
        }
    }
}
