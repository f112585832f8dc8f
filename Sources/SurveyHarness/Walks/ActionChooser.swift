import SurveyCore

/// Picks, from the choice stream, one of the actions a respondent could take now: answer the question on
/// screen (or one of its shown sub-questions) with one of its candidate values, go back and change an
/// earlier answer, tap Next, tap Submit when it shows, change what the host answers for a custom
/// condition, or take one of the other actions the format offers now (add a group instance, skip, launch). Lower choices mean plainer actions, so shrinking by lowering choices simplifies a walk.
public struct ActionChooser {
    public let survey: any Survey
    public let settings: SessionSettings
    private let hostConditionKeys: [String]
    /// Candidate values and their hashes, worked out once per chooser (its walker's Submit check reads them too).
    let candidates: CandidateCache

    public init(survey: any Survey, settings: SessionSettings) {
        self.survey = survey
        self.settings = settings
        self.hostConditionKeys = survey.hostConditionKeys
        self.candidates = CandidateCache(survey: survey, settings: settings)
    }

    public func choose(in session: any SurveySession, stream: inout ChoiceStream) -> Action {
        choice(in: session, stream: &stream).action
    }

    /// The action chosen with its stable hash (`StableHash.of(action)`), which walks count paths and cache
    /// their checks by: an answer's comes from its candidate value's hash, kept with the value.
    func choice(in session: any SurveySession, stream: inout ChoiceStream) -> (action: Action, hash: UInt64) {
        let visibleCount = session.visibleCount
        let position = session.currentVisiblePosition
        // Weights of the kinds available now, in a fixed order (lower choices are plainer actions).
        let answerCurrent = position != nil ? 60 : 0
        let next = 10
        let editEarlier = (position ?? visibleCount) > 0 ? 15 : 0
        let submit = session.isSubmittable ? 10 : 0
        let custom = hostConditionKeys.isEmpty ? 0 : 5
        let others = session.otherActionCount
        let other = others == 0 ? 0 : 10
        var pick = stream.draw(answerCurrent + next + editEarlier + submit + custom + other)
        if pick < answerCurrent { return answer(among: position!..<visibleCount, in: session, stream: &stream) }
        pick -= answerCurrent
        if pick < next { return hashed(.next(question: nil)) }
        pick -= next
        if pick < editEarlier { return answer(among: 0..<(position ?? visibleCount), in: session, stream: &stream) }
        pick -= editEarlier
        if pick < submit { return hashed(.submit) }
        pick -= submit
        if pick < custom { return hashed(hostCondition(stream: &stream)) }
        return hashed(session.otherAction(at: stream.draw(others)))
    }

    private func hashed(_ action: Action) -> (action: Action, hash: UInt64) {
        (action, StableHash.of(action))
    }

    /// A host condition set one way or the other.
    private func hostCondition(stream: inout ChoiceStream) -> Action {
        let choice = stream.draw(hostConditionKeys.count * 2)
        return .hostCondition(key: hostConditionKeys[choice / 2], outcome: choice % 2 == 0)
    }

    /// An answer to one of the visible questions at these positions.
    private func answer(among positions: Range<Int>, in session: any SurveySession, stream: inout ChoiceStream) -> (action: Action, hash: UInt64) {
        // The id as the session shows it (a repeat instance's own id), the values of the item it is one of.
        let (question, index) = session.visibleEntry(at: positions.lowerBound + stream.draw(positions.count))
        let candidates = candidates.entry(index)
        guard !candidates.values.isEmpty else { return hashed(.next(question: nil)) }
        let chosen = stream.draw(candidates.values.count)
        return (.answer(question: question, value: candidates.values[chosen]), StableHash.answer(question, valueHash: candidates.hashes[chosen]))
    }
}
