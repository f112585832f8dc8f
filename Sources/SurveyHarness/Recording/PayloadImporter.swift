import SurveyCore

/// Turns a submitted payload into the actions that reproduce it: it answers, in the survey's display order,
/// every visible question the payload has an answer for, taps Next where the engine waits for it, and
/// submits once Submit shows. Whatever it cannot reproduce is reported, never dropped silently.
public struct PayloadImporter {
    public let survey: any Survey
    public let settings: SessionSettings

    public init(survey: any Survey, settings: SessionSettings) {
        self.survey = survey
        self.settings = settings
    }

    public struct Result: Sendable {
        public var actions: [Action]
        /// Answers of the payload the replay does not reproduce, each with why.
        public var problems: [String]
    }

    public func importAnswers(_ answers: [(question: String, value: JSONValue)]) -> Result {
        let session = survey.makeSession(settings)
        var remaining = answers
        var actions: [Action] = []
        var problems: [String] = []
        for (question, _) in answers where !survey.hasQuestion(question) {
            problems.append("'\(question)': the survey has no such question")
        }
        remaining.removeAll { !survey.hasQuestion($0.question) }
        /// Skip, when the session offers it and takes it.
        func skipped() -> Bool {
            guard session.otherActions.contains(.skip(question: nil)), session.perform(.skip(question: nil)).outcome == .ok else { return false }
            actions.append(.skip(question: nil))
            return true
        }
        /// Whether the step on screen holds an answer the engine gave it (ResearchKit's slider preset, its date
        /// and time pickers) that the payload does not have: Skip leaves it unanswered, where Next or Done
        /// would submit it.
        func preansweredOnly() -> Bool {
            guard let id = session.currentQuestion, session.answer(for: id) != nil else { return false }
            return !answers.contains { $0.question == id }
        }

        var stalled = false
        // Engines whose Submit is always there (FHIR) still get every answer in, adding group instances for them.
        while !stalled && (!session.isSubmittable || !remaining.isEmpty) {
            let before = Trace.View(of: session)
            var answered = false
            for id in session.visibleQuestions {
                guard let index = remaining.firstIndex(where: { $0.question == id }) else { continue }
                let value = remaining.remove(at: index).value
                let result = session.perform(.answer(question: id, value: value))
                if result.outcome == .ok {
                    actions.append(.answer(question: id, value: value))
                    answered = true
                } else {
                    problems.append("'\(id)' = \(CanonicalJSON.compact(value)): the survey refuses it: \(result.outcome.message ?? "")")
                }
            }
            if session.isSubmittable {
                if !answered { stalled = !addInstance(for: remaining, session: session, actions: &actions) }
                continue
            }
            let afterAnswers = Trace.View(of: session)
            if afterAnswers.current == before.current || !answered {
                if !(!answered && preansweredOnly() && skipped()) {
                    if session.perform(.next(question: nil)).outcome == .ok {
                        actions.append(.next(question: nil))
                    } else if !answered {
                        // A step the payload has no answer for, which the engine passes only by Skip (ResearchKit's
                        // optional steps: Next needs an answer).
                        _ = skipped()
                    }
                }
            }
            stalled = Trace.View(of: session) == before && !answered
        }
        // Skip on the last step ends a ResearchKit task as Done does.
        if !(preansweredOnly() && skipped() && session.hasEnded) {
            if session.isSubmittable, session.perform(.submit).outcome == .ok {
                actions.append(.submit)
            } else if let current = session.currentQuestion {
                problems.append("the survey stops at '\(current)': the payload has no answer that lets it go on, so Submit never shows")
            }
        }
        for (question, value) in remaining {
            problems.append("'\(question)' = \(CanonicalJSON.compact(value)): the survey never shows this question on the path the other answers take")
        }
        let expected = Dictionary(answers, uniquingKeysWith: { first, _ in first })
        for id in survey.questionIDs {
            let reproduced = session.answer(for: id)
            if reproduced != nil, expected[id] == nil {
                problems.append("'\(id)': the replay stores \(CanonicalJSON.compact(reproduced!)), which the payload does not have")
            }
        }
        return Result(actions: actions, problems: problems)
    }

    /// Takes the first `add` the session offers that shows a question the payload still has an answer for
    /// (tried on a copy of the session first); whether there was one.
    private func addInstance(for remaining: [(question: String, value: JSONValue)], session: any SurveySession, actions: inout [Action]) -> Bool {
        let wanted = Set(remaining.map(\.question))
        for case .add(let group) in session.otherActions {
            let trial = survey.makeSession(settings)
            for action in actions { _ = trial.perform(action) }
            guard trial.perform(.add(group: group)).outcome == .ok, trial.visibleQuestions.contains(where: wanted.contains) else { continue }
            _ = session.perform(.add(group: group))
            actions.append(.add(group: group))
            return true
        }
        return false
    }
}
