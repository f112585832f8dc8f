import SurveyCore

/// After every step of a walk: the engine's invariants (reference §6; a failure is a bug of ours) and the
/// survey's hazards (its own risks, simulated faithfully).
final class SurveyNativeStepChecker: StepChecker {
    private let survey: SurveyNativeSurvey
    private var lastActive = 0
    private var submitShown = false
    private var answered: [Bool]

    init(survey: SurveyNativeSurvey) {
        self.survey = survey
        self.answered = Array(repeating: false, count: survey.questions.count)
    }

    func check(_ session: any SurveySession, after action: Action, result: StepResult) -> [Finding] {
        guard let session = session as? SurveyNativeSession else {
            return [Finding(.engineError, "session-type", "a SurveyNative survey made a session of another format")]
        }
        var findings: [Finding] = []
        let state = session.state
        if state.active < lastActive {
            findings.append(Finding(.engineError, "active-only-moves-forward", "the active question went back from index \(lastActive) to \(state.active)"))
        }
        if submitShown && !state.showSubmit {
            findings.append(Finding(.engineError, "submit-stays-shown", "Submit disappeared after it was shown"))
        }
        for (slot, answer) in state.answers.enumerated() {
            if answered[slot] && answer == nil {
                findings.append(Finding(.engineError, "answers-never-cleared", "the answer to '\(survey.questions[slot].id)' vanished", question: survey.questions[slot].id))
            }
            answered[slot] = answer != nil
        }
        let visible = session.visibleQuestions
        let order = visible.compactMap { survey.slotByID[$0] }
        if order != order.sorted() || Set(order).count != order.count {
            findings.append(Finding(.engineError, "visible-in-document-order", "the visible list is not in document order without repeats: \(visible.joined(separator: " "))"))
        }
        if let current = session.currentQuestion, !visible.contains(current), !session.isDeadEnd {
            findings.append(Finding(.engineError, "current-is-visible", "the current question '\(current)' is not visible", question: current))
        }
        lastActive = state.active
        submitShown = state.showSubmit

        for event in result.events where event.name == "dead_end" {
            let question = event.detail?.objectValue?["question"]?.stringValue
            findings.append(
                Finding(
                    .hazard, "dead-end",
                    "the last question '\(question ?? "?")' became hidden while it was the active one: Submit never appears (reference §6)",
                    question: question))
        }
        if action == .submit, result.outcome == .ok, let answers = session.payload?.objectValue?["answers"]?.objectValue {
            let shown = Set(visible)
            for id in answers.keys.sorted() where !shown.contains(id) {
                findings.append(
                    Finding(
                        .hazard, "hidden-answer-submitted",
                        "the payload holds an answer to '\(id)', which is hidden at submit: SurveyNative keeps and submits answers of hidden questions (reference §3)",
                        question: id))
            }
        }
        return findings
    }
}
