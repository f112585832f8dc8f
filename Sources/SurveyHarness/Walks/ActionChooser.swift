import SurveyCore

/// Picks, from the choice stream, one of the actions a respondent could take now: answer the question on
/// screen (or one of its shown sub-questions) with one of its candidate values, go back and change an
/// earlier answer, tap Next, tap Submit when it shows, or change what the host answers for a custom
/// condition. Lower choices mean plainer actions, so shrinking by lowering choices simplifies a walk.
public struct ActionChooser {
    public let survey: any Survey
    public let settings: SessionSettings
    private var candidates: [String: [JSONValue]] = [:]

    public init(survey: any Survey, settings: SessionSettings) {
        self.survey = survey
        self.settings = settings
    }

    private enum Kind {
        case answerCurrent, next, editEarlier, submit, custom
    }

    public mutating func choose(in session: any SurveySession, stream: inout ChoiceStream) -> Action {
        let visible = session.visibleQuestions
        let current = session.currentQuestion
        let position = current.flatMap(visible.firstIndex(of:))
        var kinds: [(Kind, Int)] = []
        if position != nil { kinds.append((.answerCurrent, 60)) }
        kinds.append((.next, 10))
        if (position ?? visible.count) > 0 { kinds.append((.editEarlier, 15)) }
        if session.isSubmittable { kinds.append((.submit, 10)) }
        if !survey.hostConditionKeys.isEmpty { kinds.append((.custom, 5)) }
        var pick = stream.draw(kinds.reduce(0) { $0 + $1.1 })
        var kind = kinds[0].0
        for (candidate, weight) in kinds {
            if pick < weight {
                kind = candidate
                break
            }
            pick -= weight
        }
        switch kind {
        case .answerCurrent:
            return answer(among: Array(visible[position!...]), stream: &stream)
        case .editEarlier:
            return answer(among: Array(visible[..<(position ?? visible.count)]), stream: &stream)
        case .next:
            return .next(question: nil)
        case .submit:
            return .submit
        case .custom:
            let keys = survey.hostConditionKeys
            let choice = stream.draw(keys.count * 2)
            return .hostCondition(key: keys[choice / 2], outcome: choice % 2 == 0)
        }
    }

    private mutating func answer(among targets: [String], stream: inout ChoiceStream) -> Action {
        let question = targets[stream.draw(targets.count)]
        let values = candidateValues(for: question)
        guard !values.isEmpty else { return .next(question: nil) }
        return .answer(question: question, value: values[stream.draw(values.count)])
    }

    /// The candidate values of a question, computed once per walk run.
    public mutating func candidateValues(for question: String) -> [JSONValue] {
        if let known = candidates[question] { return known }
        let values = survey.candidateValues(for: question, settings: settings)
        candidates[question] = values
        return values
    }
}
