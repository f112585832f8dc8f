import SurveyCore

/// Turns a submitted payload into the actions that reproduce it: it answers, in the survey's display order,
/// every visible question the payload has an answer for, taps Next where the engine waits for it, and
/// submits once Submit shows. Whatever it cannot reproduce is reported with why, at its place in the payload
/// when the reading knows it, never dropped silently.
public struct PayloadImporter {
    public let survey: any Survey
    public let settings: SessionSettings

    public init(survey: any Survey, settings: SessionSettings) {
        self.survey = survey
        self.settings = settings
    }

    public struct Result: Sendable {
        public var actions: [Action]
        /// What of the payload the replay does not reproduce, each with why (a warning, located in the
        /// payload when the reading knows where).
        public var problems: [Diagnostic]
    }

    public func importAnswers(_ answers: [(question: String, value: JSONValue)]) -> Result {
        importPayload(PayloadReading(file: "payload", answers: answers.map { PayloadReading.Answer(question: $0.question, value: $0.value, location: nil) }))
    }

    public func importPayload(_ reading: PayloadReading) -> Result {
        let session = survey.makeSession(settings)
        var remaining = reading.answers
        var actions: [Action] = []
        var problems = reading.problems
        func problem(_ message: String, at answer: PayloadReading.Answer? = nil) {
            if let location = answer?.location {
                problems.append(Diagnostic(.warning, file: reading.file, location: location, message: message))
            } else {
                problems.append(Diagnostic(.warning, file: reading.file, position: nil, message: message))
            }
        }
        for answer in reading.answers where !survey.hasQuestion(answer.question) {
            problem("'\(answer.question)': the survey has no such question", at: answer)
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
            return !reading.answers.contains { $0.question == id }
        }

        // Answers the session refuses: listed at the end unless the session computed the same value itself (an
        // SDC calculated item, read-only, that the replay fills in as the engine did).
        var refused: [(answer: PayloadReading.Answer, message: String)] = []
        var stalled = false
        // Engines whose Submit is always there (FHIR) still get every answer in, adding group instances for them.
        while !stalled && (!session.isSubmittable || !remaining.isEmpty) {
            let before = Trace.View(of: session)
            var answered = false
            for id in session.visibleQuestions {
                guard let index = remaining.firstIndex(where: { $0.question == id }) else { continue }
                let answer = remaining.remove(at: index)
                let result = session.perform(.answer(question: id, value: answer.value))
                if result.outcome == .ok {
                    actions.append(.answer(question: id, value: answer.value))
                    answered = true
                } else {
                    refused.append((answer, "'\(id)' = \(CanonicalJSON.compact(answer.value)): the survey refuses it: \(result.outcome.message ?? "")"))
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
        // Why each answer left over is not shown, in the session's own words (a refused action changes nothing).
        for answer in remaining {
            let outcome = session.perform(.answer(question: answer.question, value: answer.value)).outcome
            if outcome == .ok {
                actions.append(.answer(question: answer.question, value: answer.value))
            } else {
                let why = outcome.message.map { ": \($0)" } ?? ""
                problem("'\(answer.question)' = \(CanonicalJSON.compact(answer.value)): the survey never shows this question on the path the other answers take\(why)", at: answer)
            }
        }
        // Skip on the last step ends a ResearchKit task as Done does.
        if !(preansweredOnly() && skipped() && session.hasEnded) {
            if session.isSubmittable, session.perform(.submit).outcome == .ok {
                actions.append(.submit)
            } else if let current = session.currentQuestion {
                problem("the survey stops at '\(current)': the payload has no answer that lets it go on, so Submit never shows")
            } else if !session.isSubmittable, !session.hasEnded {
                problem("the survey stalls: no question waits and Submit is not shown, and the payload has no answer that moves it on")
            }
        }
        for (answer, message) in refused where session.answer(for: answer.question) != answer.value { problem(message, at: answer) }
        let expected = Dictionary(reading.answers.map { ($0.question, $0.value) }, uniquingKeysWith: { first, _ in first })
        for id in survey.questionIDs {
            let reproduced = session.answer(for: id)
            if let reproduced, expected[id] == nil {
                problem("'\(id)': the replay stores \(CanonicalJSON.compact(reproduced)), which the payload does not have")
            }
        }
        return Result(actions: actions, problems: problems)
    }

    /// Takes the first `add` the session offers that shows a question the payload still has an answer for
    /// (tried on a copy of the session first); whether there was one.
    private func addInstance(for remaining: [PayloadReading.Answer], session: any SurveySession, actions: inout [Action]) -> Bool {
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
