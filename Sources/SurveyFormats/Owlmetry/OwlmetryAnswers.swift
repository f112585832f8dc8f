import SurveyCore

/// `validateAnswers(schema, answers, {allowPartial})` (reference §3.2): empty values (null, a blank string,
/// an empty array) count as unanswered and are dropped; a present key is always type- and range-checked;
/// unanswered required questions are an error only when the answers are not partial. The result is pruned
/// and text is trimmed.
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
        var normalised: [String: JSONValue] = [:]
        for (key, value) in answers.sorted(by: { $0.key < $1.key }) {
            guard let question = byID[key] else { return .failure(OwlmetryAnswerError("unknown question id \"\(key)\"")) }
            if Self.isEmpty(value) { continue }
            switch check(value, for: question) {
            case .failure(let problem): return .failure(problem)
            case .success(let clean): normalised[key] = clean
            }
        }
        if !allowPartial, let missing = questions.first(where: { $0.isRequired && normalised[$0.id] == nil }) {
            return .failure(OwlmetryAnswerError("\"\(missing.id)\" is required"))
        }
        return .success(normalised)
    }

    /// Undefined, null, a blank string or an empty array.
    static func isEmpty(_ value: JSONValue?) -> Bool {
        switch value {
        case nil, .null?: true
        case .string(let text)?: Owlmetry.isBlank(text)
        case .array(let elements)?: elements.isEmpty
        default: false
        }
    }

    /// One answer checked against its question's type.
    func check(_ value: JSONValue, for question: Owlmetry.Question) -> Result<JSONValue, OwlmetryAnswerError> {
        let id = "\"\(question.id)\""
        switch question.type {
        case .text:
            guard let text = value.stringValue else { return .failure(OwlmetryAnswerError("\(id) must be a string")) }
            let clean = Owlmetry.trimmed(text)
            if clean.count > Owlmetry.maximumTextAnswer { return .failure(OwlmetryAnswerError("\(id) exceeds \(Owlmetry.maximumTextAnswer) chars")) }
            return .success(.string(clean))
        case .singleChoice:
            guard let choice = value.stringValue else { return .failure(OwlmetryAnswerError("\(id) must be a string")) }
            guard question.options.contains(where: { $0.id == choice }) else {
                return .failure(OwlmetryAnswerError("\"\(choice)\" is not a valid option for \(id)"))
            }
            return .success(value)
        case .multiChoice:
            guard let elements = value.arrayValue else { return .failure(OwlmetryAnswerError("\(id) must be an array of option ids")) }
            var seen: Set<String> = []
            for element in elements {
                guard let choice = element.stringValue else { return .failure(OwlmetryAnswerError("\(id) must be an array of option ids")) }
                guard question.options.contains(where: { $0.id == choice }) else {
                    return .failure(OwlmetryAnswerError("\"\(choice)\" is not a valid option for \(id)"))
                }
                guard seen.insert(choice).inserted else { return .failure(OwlmetryAnswerError("\(id) has duplicate selection")) }
            }
            return .success(value)
        case .rating, .nps:
            let range = question.type == .rating ? 1...5 : 0...10
            guard let number = value.numberValue, number == number.rounded(), range.contains(Int(exactly: number) ?? -1) else {
                return .failure(OwlmetryAnswerError("\(id) must be an integer \(range.lowerBound)-\(range.upperBound)"))
            }
            return .success(value)
        }
    }
}

struct OwlmetryAnswerError: Error, Equatable {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
