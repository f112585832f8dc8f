import SurveyCore

/// The values walks try for each question: every option (and pairs, and a duplicate on purpose), ratings
/// and scores at their bounds and just outside, a text, a blank text (unanswered) and one too long.
extension OwlmetrySurvey {
    public func candidateValues(for question: String, settings: SessionSettings) -> [JSONValue] {
        guard let index = indexByID[question] else { return [] }
        let item = questions[index]
        let ids = item.options.map { JSONValue.string($0.id) }
        switch item.type {
        case .text:
            return ["Nice!", "  ", .string(String(repeating: "a", count: Owlmetry.maximumTextAnswer + 1))]
        case .singleChoice:
            return ids + ["not_an_option"]
        case .multiChoice:
            return ids.map { .array([$0]) } + [.array(Array(ids.prefix(2))), .array([]), .array([ids[0], ids[0]])]
        case .rating:
            return [5, 1, 3, 0, 6]
        case .nps:
            return [10, 0, 7, 11]
        }
    }

    /// A condition for properties files on the device's answers: `{"question": ID, "equals": VALUE}` or
    /// `{"question": ID, "answered": true|false}` (Owlmetry itself has no conditions).
    public func compileCondition(_ cursor: JSONCursor) throws(InputError) -> any SessionPredicate {
        let object = try cursor.object(for: "a condition {\"question\": ID, \"equals\": VALUE} or {\"question\": ID, \"answered\": BOOL}")
        let member = try object.required("question", in: "the condition")
        let id = try member.string(for: "\"question\"")
        guard indexByID[id] != nil else { throw member.error("the questionnaire has no question '\(id)'\(Spelling.suggestion(for: id, in: questionIDs))") }
        if let equals = object["equals"] { return OwlmetryPredicate(question: id, test: .equals(equals.node.plain)) }
        if let answered = object["answered"] { return OwlmetryPredicate(question: id, test: .answered(try answered.bool(for: "\"answered\""))) }
        throw cursor.error("the condition has neither \"equals\" nor \"answered\"; expected one")
    }
}

struct OwlmetryPredicate: SessionPredicate {
    enum Test: Sendable {
        case equals(JSONValue)
        case answered(Bool)
    }

    let question: String
    let test: Test

    func holds(in session: any SurveySession) -> Bool {
        let value = session.answer(for: question)
        switch test {
        case .equals(let expected): return value == expected
        case .answered(let expected): return !OwlmetryValidator.isEmpty(value) == expected
        }
    }
}
