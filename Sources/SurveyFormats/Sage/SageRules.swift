import Foundation
import SurveyCore

/// Whether a survey rule matches the answer a step's navigation found, as each engine compares: SageResearch's
/// `RSDComparable` (legacy fields and v3 question steps alike), AssessmentModel's Swift `JsonComparable` and its
/// Kotlin `JsonElement.compareTo`. Sources in docs/sage.md, "Rules".
extension Sage.Rule {
    func matches(_ found: SageFoundAnswer, field: Sage.Field?, answerIsObject: Bool, engine: SageEngine) -> Bool {
        let type = SageAnswerType(field: field, answerIsObject: answerIsObject)
        if engine.isAssessmentModel {
            let answer = found.value ?? .null
            let matching = matchingAnswer ?? .null
            let op = effectiveOperator(assessment: true)
            return engine.isKotlin
                ? SageKotlinComparison.matches(answer, matching, op, integerAnswer: type.base == .integer && !type.isArray)
                : SageSwiftComparison.matches(answer, matching, op, integerAnswer: type.base == .integer && !type.isArray)
        }
        return SageResearchComparison.matches(found.value, matchingAnswer, effectiveOperator(assessment: false), type: type)
    }
}

/// The answer type a comparison converts with: its base type and whether it is an array.
struct SageAnswerType {
    var base: Sage.BaseType
    var isArray: Bool

    init(field: Sage.Field?, answerIsObject: Bool) {
        if answerIsObject || field == nil {
            base = .codable
            isArray = false
        } else {
            base = field!.shape.base
            isArray = field!.shape.isArray
        }
    }
}

/// `RSDComparable.isMatching(to:op:)`: `always` matches anything; a missing answer (no result, a nil value,
/// JSON null) matches only `de`; otherwise both the answer and `matchingAnswer` are converted to the answer's
/// type (`convertValue`) and compared with an NSPredicate. A failed conversion is false.
enum SageResearchComparison {
    static func matches(_ answer: JSONValue?, _ matching: JSONValue?, _ op: Sage.RuleOperator, type: SageAnswerType) -> Bool {
        if op == .always { return true }
        guard let answer, answer != .null else { return op == .skip }
        if op == .skip { return false }
        guard let expected = convert(matching, type), let value = convert(answer, type) else { return false }
        switch op {
        case .equal:
            if type.isArray { return contains(value, anyOf: expected) }
            if type.base == .decimal, case .number(let target)? = expected.scalar, case .number(let number)? = value.scalar {
                return number >= target - 0.00001 && number <= target + 0.00001
            }
            return value == expected
        case .notEqual: return value != expected
        case .otherThan: return type.isArray ? !contains(value, anyOf: expected) : value != expected
        case .lessThan, .greaterThan, .lessThanOrEqual, .greaterThanOrEqual:
            // An order operator on a multiple choice compares arrays, which NSPredicate cannot order: false.
            guard let order = value.order(against: expected) else { return false }
            return op.accepts(order)
        case .skip, .always: return false
        }
    }

    /// `ANY %@ IN SELF`: some converted matching value is in the converted answer.
    private static func contains(_ value: Converted, anyOf expected: Converted) -> Bool {
        guard case .array(let answers) = value, case .array(let wanted) = expected else { return false }
        return wanted.contains { answers.contains($0) }
    }

    /// A value after `convertValue(for:with:)`.
    enum Converted: Equatable {
        case number(Double)
        case string(String)
        case date(String)
        indirect case array([Converted])

        var scalar: Converted? {
            if case .array = self { return nil }
            return self
        }

        /// NSPredicate ordering: numbers numerically, strings by code point, dates in time.
        func order(against other: Converted) -> Int? {
            switch (self, other) {
            case (.number(let a), .number(let b)): a < b ? -1 : a > b ? 1 : 0
            case (.string(let a), .string(let b)), (.date(let a), .date(let b)):
                a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) ? -1 : a == b ? 0 : 1
            default: nil
            }
        }
    }

    /// `convertValue`: an array type converts each element (a single value becomes `[x]`; one failure fails
    /// all); a string type takes any value's `description` (so `5` matches `"5"`); a date type parses a date
    /// string; every other type needs a number (a Bool bridges to 1 or 0, a string fails).
    static func convert(_ value: JSONValue?, _ type: SageAnswerType) -> Converted? {
        guard let value, value != .null else { return nil }
        if type.isArray {
            let elements = value.arrayValue ?? [value]
            let converted = elements.compactMap { convert($0, SageAnswerType(base: type.base, isArray: false)) }
            return converted.count == elements.count ? .array(converted) : nil
        }
        switch type.base {
        case .string: return .string(description(of: value))
        case .date:
            guard let text = value.stringValue, let date = SageDates.comparable(text) else { return nil }
            return .date(date)
        case .boolean, .integer, .decimal, .codable:
            switch value {
            case .number(let number): return .number(number)
            case .bool(let flag): return .number(flag ? 1 : 0)
            default: return nil
            }
        }
    }

    /// Swift's `description` of the value `JsonElement.jsonObject()` gives.
    static func description(of value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .number(let number): number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        default: CanonicalJSON.compact(value)
        }
    }
}

extension SageAnswerType {
    init(base: Sage.BaseType, isArray: Bool) {
        self.base = base
        self.isArray = isArray
    }
}

/// AssessmentModel's Swift `JsonComparable.isMatching(answer:answerType:)` (iOS): `eq` with a number is
/// `isEqualNumber` (rounded to 0 digits for an integer answer, 5 otherwise; a string answer is read with
/// `NumberFormatter`), `eq` with anything else and `ne` are `match == answer` with JsonElement's `==` (an array
/// equals only an equal array; a number equals a string that reads as that number, so `ne 5` is false for the
/// answer "5"); the order operators use `JsonElement.<`, which is false whenever one side is not comparable,
/// and Swift's defaults `a >= b == !(a < b)`, `a <= b == !(b < a)`: so `ge` and `le` hold against a skipped
/// answer.
enum SageSwiftComparison {
    static func matches(_ answer: JSONValue, _ matching: JSONValue, _ op: Sage.RuleOperator, integerAnswer: Bool) -> Bool {
        switch op {
        case .equal:
            if case .number = matching { return equalNumber(matching, answer, integerAnswer: integerAnswer) }
            return equal(matching, answer)
        case .notEqual: return !equal(matching, answer)
        case .greaterThan: return less(matching, answer)
        case .greaterThanOrEqual: return !less(answer, matching)
        case .lessThan: return less(answer, matching)
        case .lessThanOrEqual: return !less(matching, answer)
        case .skip, .otherThan, .always: return false
        }
    }

    /// `JsonElement ==` with the matching value on the left (AssessmentModelKMM@08288272 `SurveyRule.swift:80, 83`): a string, a boolean, null,
    /// an array or an object equals only the same kind; a number equals anything `jsonNumber()` reads as the
    /// same number, a numeric string included (JsonModel@7b81f56 `JsonElement.swift:120-135, 212-219`).
    private static func equal(_ left: JSONValue, _ right: JSONValue) -> Bool {
        guard case .number(let value) = left else { return left == right }
        return number(right) == value
    }

    private static func equalNumber(_ matching: JSONValue, _ answer: JSONValue, integerAnswer: Bool) -> Bool {
        if equal(matching, answer) { return true }
        guard let left = number(matching), let right = number(answer) else { return false }
        let scale = integerAnswer ? 1.0 : 100_000.0
        return (left * scale).rounded() == (right * scale).rounded()
    }

    /// `JsonElement.<`: two strings in Swift's order; a string with anything else false; otherwise both as
    /// numbers (`jsonNumber()`, a string parsed by `NumberFormatter`), false if either is not one.
    private static func less(_ left: JSONValue, _ right: JSONValue) -> Bool {
        if case .string(let a) = left {
            if case .string(let b) = right { return a < b }
            return false
        }
        guard let a = number(left), let b = number(right) else { return false }
        return a < b
    }

    /// `JsonElement.jsonNumber()`: numbers, and strings `NumberFormatter` reads (plain decimals).
    private static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .number(let number): number
        case .string(let text): Double(text.trimmingCharacters(in: .whitespaces))
        default: nil
        }
    }
}

/// AssessmentModel's Kotlin `JsonElement.compareTo` (Android): two primitives compare by their JSON content
/// text (`10 gt 9` is false: "10" < "9"), equal when their content is, or when both read as numbers and are
/// equal rounded (0 digits for an integer answer, 5 otherwise); against null only `eq`/`ne` can hold; an array
/// on either side is compared whole by `eq`/`ne`, and the order operators are false.
enum SageKotlinComparison {
    static func matches(_ answer: JSONValue, _ matching: JSONValue, _ op: Sage.RuleOperator, integerAnswer: Bool) -> Bool {
        guard let left = content(answer), let right = content(matching) else {
            switch op {
            case .equal: return answer == matching
            case .notEqual: return answer != matching
            default: return false
            }
        }
        var isEqual = left == right
        if answer == .null || matching == .null {
            switch op {
            case .equal: return isEqual
            case .notEqual: return !isEqual
            default: return false
            }
        }
        if let a = Double(left), let b = Double(right) {
            let scale = integerAnswer ? 1.0 : 100_000.0
            isEqual = (a * scale).rounded() == (b * scale).rounded()
        }
        let order = left.utf16.lexicographicallyPrecedes(right.utf16) ? -1 : left == right ? 0 : 1
        switch op {
        case .equal: return isEqual
        case .notEqual: return !isEqual
        case .greaterThan: return !isEqual && order > 0
        case .greaterThanOrEqual: return isEqual || order >= 0
        case .lessThan: return !isEqual && order < 0
        case .lessThanOrEqual: return isEqual || order <= 0
        case .skip, .otherThan, .always: return false
        }
    }

    /// A primitive's `content`: a string's text, a number's or a boolean's JSON text, "null"; nil for an
    /// array or object.
    private static func content(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .number, .bool, .null: CanonicalJSON.compact(value)
        default: nil
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

/// Date strings as SageResearch's factory reads them (`decodeDate(from:)`: a timestamp, a date, a time),
/// brought to one sortable text.
enum SageDates {
    static func comparable(_ text: String) -> String? {
        if let date = CalendarDate(iso: String(text.prefix(10))) { return date.description + text.dropFirst(10) }
        let parts = text.split(separator: ":")
        if (2...3).contains(parts.count), parts.allSatisfy({ Int($0) != nil }) { return "T" + text }
        return nil
    }
}
