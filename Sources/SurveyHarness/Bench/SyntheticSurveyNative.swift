import SurveyCore
import SurveyFormats

/// SurveyNative surveys of `size` top-level questions: most with a `show_if` on one to three earlier questions
/// (usually near ones, sometimes any), some as `and`/`or` trees up to three deep, some sub-questions and
/// validations.
public struct SyntheticSurveyNative: SyntheticSurvey {
    public init() {}

    public var format: String { SurveyNativeFormat.name }
    public var settings: SessionSettings { SessionSettings() }

    public func text(size count: Int, seed: UInt64) -> String {
        var random = SplitMix64(seed: seed)
        var kinds: [String] = []
        var questions: [JSONValue] = []
        for index in 0..<count {
            let id = "q\(index)"
            var question: [String: JSONValue] = ["id": .string(id), "question": .string("Question \(index)?")]
            let roll = random.next(below: 100)
            let kind: String
            switch roll {
            case 0..<50:
                kind = "single_select"
                question["options"] = ["Yes", "No", "Maybe"]
                if random.next(below: 10) == 0 {
                    question["sub_questions"] = [[
                        "id": .string("\(id)_more"), "question": "Tell us more", "question_type": "single_text_area",
                        "show_if": ["id": .string(id), "operation": "equals", "value": "Yes"],
                    ]]
                }
            case 50..<65:
                kind = "single_text_field"
                question["validations"] = [
                    ["operation": "greater than", "value": 0, "on_fail_message": "Enter more than 0"],
                    ["operation": "less than", "value": 100, "on_fail_message": "Enter less than 100"],
                ]
            case 65..<75:
                kind = "multi_select"
                question["options"] = ["A", "B", "C"]
            case 75..<90:
                kind = "segment_select"
                question["values"] = ["1", "2", "3", "4", "5"]
            default:
                kind = "single_text_area"
            }
            question["question_type"] = .string(kind)
            if index > 0, random.next(below: 10) < 7 {
                question["show_if"] = condition(depth: random.next(below: 4) == 0 ? 3 : 1, before: index, kinds: kinds, random: &random)
            }
            kinds.append(kind)
            questions.append(.object(question))
        }
        let survey: JSONValue = ["questions": .array(questions), "submit": ["button_title": "Send", "url": "https://example.org/synthetic"]]
        return CanonicalJSON.pretty(survey) + "\n"
    }

    /// A condition on one to three earlier questions: a leaf, or a tree of up to `depth` levels.
    private func condition(depth: Int, before index: Int, kinds: [String], random: inout SplitMix64) -> JSONValue {
        if depth <= 1 {
            // Mostly the previous thirty questions, sometimes any earlier one.
            let window = min(index, 30)
            let dependency = random.next(below: 5) == 0 ? random.next(below: index) : index - 1 - random.next(below: window)
            return leaf(on: dependency, kind: kinds[dependency], random: &random)
        }
        let children = (0..<(1 + random.next(below: 2))).map { _ in
            condition(depth: random.next(below: 2) == 0 ? depth - 1 : 1, before: index, kinds: kinds, random: &random)
        }
        return ["operation": random.next(below: 2) == 0 ? "and" : "or", "subconditions": .array(children)]
    }

    private func leaf(on dependency: Int, kind: String, random: inout SplitMix64) -> JSONValue {
        let id = JSONValue.string("q\(dependency)")
        switch kind {
        case "single_select":
            return random.next(below: 2) == 0 ? ["id": id, "operation": "equals", "value": "Yes"] : ["id": id, "operation": "not equals", "value": "No"]
        case "single_text_field": return ["id": id, "operation": "greater than", "value": "50"]
        case "multi_select": return ["id": id, "operation": "contains", "value": "A"]
        case "segment_select": return ["id": id, "operation": "less than", "value": "3"]
        default: return ["id": id, "operation": "not equals", "value": ""]
        }
    }
}
