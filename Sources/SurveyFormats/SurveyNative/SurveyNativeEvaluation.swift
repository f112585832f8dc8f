import SurveyCore

/// What the real engine would do at a force-unwrap or force-cast that fails: crash. The session turns it
/// into a refusal of the action that reached it.
struct EngineCrash: Error {
    let reason: String
}

/// A `show_if` with ids resolved to answer slots, evaluated exactly as `conditionMet` does (SQ:469-531).
indirect enum CompiledCondition: Sendable {
    enum Test: Sendable {
        case equals, notEquals, greaterThan, greaterThanOrEqual, lessThan, lessThanOrEqual, contains, notContains
        /// Any other operation is false (logged by the engine).
        case unknown

        init(operation: String) {
            switch operation {
            case "equals": self = .equals
            case "not equals": self = .notEquals
            case "greater than": self = .greaterThan
            case "greater than or equal to": self = .greaterThanOrEqual
            case "less than": self = .lessThan
            case "less than or equal to": self = .lessThanOrEqual
            case "contains": self = .contains
            case "not contains": self = .notContains
            default: self = .unknown
            }
        }
    }

    /// A comparison of one answer, shared rather than copied part by part at each evaluation.
    final class Leaf: Sendable {
        let slot: Int
        let key: String?
        let test: Test
        /// nil means the file gives no `value`: the engine force-unwraps it and crashes.
        let operand: JSONValue?
        let question: String

        init(slot: Int, key: String?, test: Test, operand: JSONValue?, question: String) {
            self.slot = slot
            self.key = key
            self.test = test
            self.operand = operand
            self.question = question
        }
    }

    case leaf(Leaf)
    case all([CompiledCondition])
    case any([CompiledCondition])
    case host(key: String?)
    case constant(Bool)
    /// Evaluating it crashes the engine (a force-cast fails).
    case crash(String)

    /// A leaf whose question is at `slot`.
    init(leaf: ConditionLeaf, slot: Int) {
        let test = Test(operation: leaf.operation)
        self = .leaf(Leaf(slot: slot, key: leaf.key, test: test, operand: leaf.operand, question: leaf.question))
    }

    func evaluate(answers: [JSONValue?], host: [String: Bool]) throws(EngineCrash) -> Bool {
        switch self {
        case .leaf(let leaf):
            guard let operand = leaf.operand else {
                throw EngineCrash(reason: "a show_if condition on '\(leaf.question)' has no \"value\", which the engine force-unwraps (SQ:472)")
            }
            var answer = leaf.slot < answers.count ? answers[leaf.slot] : nil
            // `subid` picks a part of a dictionary answer; on any other answer it is ignored (SQ:474-476).
            if let key = leaf.key, case .object(let parts) = answer {
                answer = parts.scanning(key)
            }
            return SurveyNativeComparison.test(leaf.test, answer: answer, operand: operand)
        case .all(let children):
            for child in children where try !child.evaluate(answers: answers, host: host) { return false }
            return true
        case .any(let children):
            for child in children where try child.evaluate(answers: answers, host: host) { return true }
            return false
        case .host(let key):
            // Without a CustomConditionDelegate the engine answers false; a scenario may set the outcome.
            return key.flatMap { host[$0] } ?? false
        case .constant(let value):
            return value
        case .crash(let reason):
            throw EngineCrash(reason: reason)
        }
    }
}

extension CompiledCondition {
    /// `evaluate`, also recording how each leaf came out (in order; `.skipped` past a short-circuit), for
    /// coverage.
    func trace(answers: [JSONValue?], host: [String: Bool], into values: inout [CoverageRecorder.LeafValue]) throws(EngineCrash) -> Bool {
        switch self {
        case .leaf(let leaf):
            let outcome = try evaluate(answers: answers, host: host)
            var answer = leaf.slot < answers.count ? answers[leaf.slot] : nil
            if let key = leaf.key, case .object(let parts) = answer { answer = parts.scanning(key) }
            values.append(answer == nil ? (outcome ? .unansweredTrue : .unansweredFalse) : (outcome ? .true : .false))
            return outcome
        case .host:
            let outcome = try evaluate(answers: answers, host: host)
            values.append(outcome ? .true : .false)
            return outcome
        case .all(let children), .any(let children):
            let isAll = if case .all = self { true } else { false }
            var decided: Bool?
            for child in children {
                if decided != nil {
                    child.skip(into: &values)
                    continue
                }
                let outcome = try child.trace(answers: answers, host: host, into: &values)
                if outcome != isAll { decided = outcome }
            }
            return decided ?? isAll
        case .constant(let value):
            return value
        case .crash(let reason):
            throw EngineCrash(reason: reason)
        }
    }

    /// Marks every leaf of a subtree the evaluation did not reach.
    private func skip(into values: inout [CoverageRecorder.LeafValue]) {
        switch self {
        case .leaf, .host: values.append(.skipped)
        case .all(let children), .any(let children): for child in children { child.skip(into: &values) }
        case .constant, .crash: break
        }
    }
}

/// The comparisons of the engine: Cocoa equality without coercion, `numberComparison` through Double,
/// and `contains` on arrays only (reference §4).
enum SurveyNativeComparison {
    static func test(_ test: CompiledCondition.Test, answer: JSONValue?, operand: JSONValue) -> Bool {
        switch test {
        case .equals: return areEqual(answer, operand)
        case .notEquals: return !areEqual(answer, operand)
        case .greaterThan: return compare(answer, operand, by: >)
        case .greaterThanOrEqual: return compare(answer, operand, by: >=)
        case .lessThan: return compare(answer, operand, by: <)
        case .lessThanOrEqual: return compare(answer, operand, by: <=)
        case .contains: return contains(answer, operand)
        case .notContains: return !contains(answer, operand)
        case .unknown: return false
        }
    }

    /// `areEqual(value as? NSObject, answer as? NSObject)`: an unanswered question equals nothing, JSON null
    /// (NSNull) equals nothing an answer can be, and a number never equals a string.
    static func areEqual(_ answer: JSONValue?, _ operand: JSONValue) -> Bool {
        guard let answer, operand != .null else { return false }
        return answer == operand
    }

    /// Both sides as Double: numbers as they are, strings through `Double(_:)`; anything else is false.
    static func compare(_ answer: JSONValue?, _ operand: JSONValue?, by comparison: (Double, Double) -> Bool) -> Bool {
        guard let left = number(answer), let right = number(operand) else { return false }
        return comparison(left, right)
    }

    static func number(_ value: JSONValue?) -> Double? {
        switch value {
        case .number(let number): number
        case .bool(let flag): flag ? 1 : 0
        case .string(let text): DecimalNumber.parse(text)
        default: nil
        }
    }

    static func contains(_ answer: JSONValue?, _ operand: JSONValue) -> Bool {
        guard case .array(let elements) = answer else { return false }
        return elements.contains(operand)
    }

    /// `DefaultValidator`: validations run in order and the first failure's message is returned. Only the
    /// four numeric comparisons exist; any other operation (even `equals`) fails (reference §5).
    /// `text` gives the text a validation checks from its `for_label`, or nil to skip it (a label not on
    /// screen); `checked` hears where each validation that ran is and whether it passed.
    static func firstFailure(
        of validations: [SurveyNative.Validation],
        text: (_ forLabel: String?) throws(EngineCrash) -> String?,
        answerOf: (String) -> JSONValue?,
        checked: ((SourceLocation, Bool) -> Void)? = nil
    ) throws(EngineCrash) -> String? {
        // Each validation's fields are read in place: copying a whole validation retains all its parts.
        for index in validations.indices {
            guard let text = try text(validations[index].forLabel) else { continue }
            let bound: Double?
            switch validations[index].operand {
            case .value: bound = validations[index].operandNumber
            case .none: bound = nil
            case .answer(let other):
                guard let answer = answerOf(other) else {
                    throw EngineCrash(reason: "a validation compares with the answer to '\(other)', which is unanswered; the engine force-unwraps it (DefaultValidator.swift:57-59)")
                }
                bound = number(answer)
            }
            // Both sides go through Double; a side that is not a number fails the validation.
            let comparison = validations[index].comparison
            let passed = bound.map { bound in DecimalNumber.parse(text).map { comparison.holds($0, bound) } ?? false } ?? false
            checked?(validations[index].location, passed)
            if passed { continue }
            guard let message = validations[index].failMessage else {
                throw EngineCrash(reason: "a failing validation has no \"on_fail_message\", which the engine force-casts (DefaultValidator.swift:21-32)")
            }
            return message
        }
        return nil
    }
}
