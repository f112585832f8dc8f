import Foundation
import SurveyCore

/// How the recorder shows a question and reads typed answers; how `import` reads a submitted row (the
/// payload, or the wire body of a save: both have `answers`).
extension OwlmetrySurvey {
    public func prompt(for question: String, settings: SessionSettings) -> QuestionPrompt? {
        guard let index = indexByID[question] else { return nil }
        let item = questions[index]
        let (choices, hint): ([String], String) =
            switch item.type {
            case .text: ([], item.isMultiline ? "the text (multiline)" : "the text")
            case .singleChoice: (item.options.map { "\($0.id): \($0.label)" }, "a number or an option id")
            case .multiChoice: (item.options.map { "\($0.id): \($0.label)" }, "numbers or option ids to pick or unpick, separated by commas")
            case .rating: (["1…5"], "a whole number 1-5")
            case .nps: (["0 Not at all likely … 10 Extremely likely"], "a whole number 0-10")
            }
        return QuestionPrompt(
            id: item.id, text: item.title, kind: item.type.rawValue + (item.isRequired ? " (required)" : ""), choices: choices,
            hint: hint + "; or any JSON value",
            multipleChoice: item.type == .multiChoice ? QuestionPrompt.MultipleChoice(values: item.options.map { .string($0.id) }) : nil)
    }

    public func interpretInput(_ text: String, for question: String) -> Result<JSONValue, InputProblem> {
        let typed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let json = InputProblem.typedJSON(typed) { return json }
        guard let index = indexByID[question] else { return .failure(InputProblem("no question '\(question)'")) }
        let item = questions[index]
        func option(_ part: String) -> JSONValue {
            if let number = Int(part), item.options.indices.contains(number - 1) { return .string(item.options[number - 1].id) }
            return .string(part)
        }
        switch item.type {
        // A multiple choice is toggled by the recorder from the prompt's choices; what reaches here is text.
        case .text, .multiChoice: return .success(.string(text))
        case .singleChoice: return .success(option(typed))
        case .rating, .nps:
            guard let number = Int(typed) else { return .failure(InputProblem("'\(typed)' is not a whole number")) }
            return .success(.number(Double(number)))
        }
    }

    public func answers(inPayload payload: JSONCursor) throws(InputError) -> [(question: String, value: JSONValue)] {
        let object = try payload.object(for: "an Owlmetry response")
        let answers = try object.required("answers", in: "the response").object(for: "\"answers\"")
        return answers.members.map { ($0.key, $0.value.plain) }
    }
}
