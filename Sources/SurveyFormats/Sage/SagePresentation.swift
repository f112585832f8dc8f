import Foundation
import SurveyCore

/// How the recorder shows a step and reads typed answers, and how `import` reads a task result.
extension SageSurvey {
    public func prompt(for question: String, settings: SessionSettings) -> QuestionPrompt? {
        guard let index = indexByID[question] else { return nil }
        let step = steps[index]
        guard step.kind == .question else {
            return QuestionPrompt(id: step.id, text: step.title, kind: step.type, choices: [], hint: "nothing to answer: :next")
        }
        if step.fields.count == 1, !step.answerIsObject, let field = step.fields.first {
            let choices = (field.choices ?? []).map { choice in
                [choice.value?.description, choice.text].compactMap { $0 }.joined(separator: " ") + (choice.isExclusive ? " (exclusive)" : "")
            }
            // A list of choices: each tap toggles one, and an exclusive one deselects the others.
            let values = (field.choices ?? []).map(\.value)
            let toggles = field.shape.isArray && !values.isEmpty && !values.contains(nil)
            let multipleChoice = toggles
                ? QuestionPrompt.MultipleChoice(values: values, exclusive: Set((field.choices ?? []).indices.filter { field.choices![$0].isExclusive }))
                : nil
            let hint =
                toggles ? "numbers to pick or unpick, separated by commas"
                : field.shape.isArray ? "numbers or values separated by commas" : field.choices != nil ? "a number or the value" : SageDataType.describe(field.shape.base)
            return QuestionPrompt(
                id: step.id, text: step.title, kind: "\(step.type) \(field.typeName)", choices: choices, hint: hint + "; or any JSON value",
                multipleChoice: multipleChoice)
        }
        let fields = step.fields.map { "\($0.id): \($0.typeName)\($0.isOptional ? " (optional)" : "")" }
        return QuestionPrompt(id: step.id, text: step.title, kind: step.type, choices: fields, hint: "a JSON object of the inputs' values")
    }

    public func interpretInput(_ text: String, for question: String) -> Result<JSONValue, InputProblem> {
        let typed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let json = InputProblem.typedJSON(typed) { return json }
        guard let index = indexByID[question], let field = steps[index].fields.first, steps[index].fields.count == 1 else {
            return .failure(InputProblem("type the answer as JSON"))
        }
        let parts = field.shape.isArray ? typed.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } : [typed]
        var values: [JSONValue] = []
        for part in parts {
            if let choices = field.choices, let number = Int(part), choices.indices.contains(number - 1), let value = choices[number - 1].value {
                values.append(value)
                continue
            }
            switch field.shape.base {
            case .integer, .decimal:
                guard let number = Double(part) else { return .failure(InputProblem("'\(part)' is not a number")) }
                values.append(.number(number))
            case .boolean:
                switch part.lowercased() {
                case "true", "yes", "y": values.append(true)
                case "false", "no", "n": values.append(false)
                default: return .failure(InputProblem("type yes or no"))
                }
            case .string, .date, .codable:
                values.append(.string(part))
            }
        }
        return .success(field.shape.isArray ? .array(values) : values.first ?? .null)
    }

    /// The answers of a task result: the latest answer result of each step in the step history (sections
    /// included), in the order the steps first appear. From SageResearch 3.4.92 and in AssessmentModel the
    /// history holds every visit, so a later visit's answer replaces an earlier one.
    public func answers(inPayload payload: JSONCursor) throws(InputError) -> [(question: String, value: JSONValue)] {
        let task = try payload.object(for: "a SageResearch task result")
        var order: [String] = []
        var latest: [String: JSONValue] = [:]
        func record(_ id: String, _ value: JSONValue?) {
            if latest[id] == nil, !order.contains(id) { order.append(id) }
            latest[id] = value
        }
        var pending: [(results: [JSONCursor], prefix: String)] = [(try task.required("stepHistory", in: "the task result").array(for: "\"stepHistory\""), "")]
        while !pending.isEmpty {
            let (results, prefix) = pending.removeFirst()
            for cursor in results {
                let result = try cursor.object(for: "a step result")
                let name = try result.required("identifier", in: "a step result").string(for: "\"identifier\"")
                if let children = result["stepHistory"] {
                    pending.append((try children.array(for: "\"stepHistory\""), prefix + name + "/"))
                } else if let inputs = result["inputResults"] {
                    var values: [String: JSONValue] = [:]
                    for input in try inputs.array(for: "\"inputResults\"") {
                        let answer = try input.object(for: "an answer result")
                        let field = try answer.required("identifier", in: "an answer result").string(for: "\"identifier\"")
                        if let value = answer["value"] { values[field] = value.node.plain }
                    }
                    let step = indexByID[prefix + name].map { steps[$0] }
                    if generation != .legacy || step?.fields.count == 1 {
                        record(prefix + name, values[name] ?? values.first?.value)
                    } else {
                        record(prefix + name, values.isEmpty ? nil : .object(values))
                    }
                } else if result["answerType"] != nil {
                    record(prefix + name, result["value"].flatMap { $0.isNull ? nil : $0.node.plain })
                }
            }
        }
        return order.compactMap { id in latest[id].map { (id, $0) } }
    }
}
