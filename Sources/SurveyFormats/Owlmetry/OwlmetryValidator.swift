import SurveyCore

/// The server's `validateAnswers(schema, answers, {allowPartial})` (owlmetry/owlmetry@e9b6cab6
/// `packages/shared/src/questionnaires.ts:292-379`): every key must name a question (checked first, over all
/// keys); then each question in schema order: an empty value (null, a blank string, an empty array) is
/// unanswered, an error only when the answers are not partial; a present value is type- and range-checked.
/// The result is pruned of empty values and text is kept as sent, untrimmed (`:332`).
struct OwlmetryValidator {
    let questions: [Owlmetry.Question]
    private let byID: [String: Owlmetry.Question]

    init(questions: [Owlmetry.Question]) {
        self.questions = questions
        self.byID = Dictionary(questions.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func question(_ id: String) -> Owlmetry.Question? { byID[id] }

    /// The normalised answers, or the first problem in the server's words.
    func validate(_ answers: [String: JSONValue], allowPartial: Bool) -> Result<[String: JSONValue], OwlmetryAnswerError> {
        // `Object.keys` order is the request body's; the SDK encodes a dictionary, so when several keys are
        // unknown which one is named is not fixed: the first in sorted order here.
        if let unknown = answers.keys.sorted().first(where: { byID[$0] == nil }) {
            return .failure(OwlmetryAnswerError("unknown question id \"\(unknown)\""))
        }
        var normalised: [String: JSONValue] = [:]
        for question in questions {
            let value = answers[question.id]
            if Self.isEmpty(value) {
                if question.isRequired, !allowPartial { return .failure(OwlmetryAnswerError("\"\(question.id)\" is required")) }
                continue
            }
            if let value, let problem = problem(with: value, for: question) { return .failure(problem) }
            normalised[question.id] = value
        }
        return .success(normalised)
    }

    /// Undefined, null, a blank string (JavaScript's `trim`) or an empty array (`questionnaires.ts:310-314`).
    static func isEmpty(_ value: JSONValue?) -> Bool {
        switch value {
        case nil, .null?: true
        case .string(let text)?: Owlmetry.isBlank(text)
        case .array(let elements)?: elements.isEmpty
        default: false
        }
    }

    /// One present answer checked against its question's type, with the server's message
    /// (`questionnaires.ts:323-375`).
    func problem(with value: JSONValue, for question: Owlmetry.Question) -> OwlmetryAnswerError? {
        let id = "\"\(question.id)\""
        func invalid(_ choice: String) -> OwlmetryAnswerError { OwlmetryAnswerError("\"\(choice)\" is not a valid option for \(id)") }
        switch question.type {
        case .text:
            guard let text = value.stringValue else { return OwlmetryAnswerError("\(id) must be a string") }
            if Owlmetry.length(text) > Owlmetry.maximumTextAnswer { return OwlmetryAnswerError("\(id) exceeds \(Owlmetry.maximumTextAnswer) chars") }
        case .singleChoice:
            guard let choice = value.stringValue else { return OwlmetryAnswerError("\(id) must be a string option id") }
            if !question.options.contains(where: { $0.id == choice }) { return invalid(choice) }
        case .multiChoice:
            guard let elements = value.arrayValue else { return OwlmetryAnswerError("\(id) must be an array") }
            var seen: Set<String> = []
            for element in elements {
                guard let choice = element.stringValue else { return OwlmetryAnswerError("\(id) entries must be strings") }
                if !question.options.contains(where: { $0.id == choice }) { return invalid(choice) }
                if !seen.insert(choice).inserted { return OwlmetryAnswerError("\(id) has duplicate selection \"\(choice)\"") }
            }
        case .rating, .nps:
            let range = question.type == .rating ? 1...5 : 0...10
            guard let number = value.numberValue, number == number.rounded(), let integer = Int(exactly: number), range.contains(integer) else {
                return OwlmetryAnswerError("\(id) must be an integer \(range.lowerBound)-\(range.upperBound)")
            }
        }
        return nil
    }
}

struct OwlmetryAnswerError: Error, Equatable {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
