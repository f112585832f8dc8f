import SurveyCore

/// After every step of a walk: the engine's invariants (reference §6; a failure is a bug of ours) and the
/// survey's hazards (its own risks, simulated faithfully).
final class SurveyNativeStepChecker: StepChecker {
    private let survey: SurveyNativeSurvey
    private var lastActive = 0
    private var submitShown = false
    private var answered = 0

    init(survey: SurveyNativeSurvey) {
        self.survey = survey
    }

    func check(_ session: any SurveySession, after action: Action, result: StepResult) -> [Finding] {
        guard let session = session as? SurveyNativeSession else {
            return [Finding(.engineError, "session-type", "a SurveyNative survey made a session of another format")]
        }
        var findings: [Finding] = []
        // Read in place: a copy of the state would retain and release each of its lists at every step.
        let active = session.state.active, showSubmit = session.state.showSubmit, answeredCount = session.state.answeredCount
        if active < lastActive {
            findings.append(Finding(.engineError, "active-only-moves-forward", "the active question went back from index \(lastActive) to \(active)"))
        }
        if submitShown && !showSubmit {
            findings.append(Finding(.engineError, "submit-stays-shown", "Submit disappeared after it was shown"))
        }
        if answeredCount < answered {
            findings.append(Finding(.engineError, "answers-never-cleared", "\(answered - answeredCount) answer(s) vanished"))
        }
        if !showSubmit, !session.state.visible[session.activeSlot], !session.state.skipped[active] {
            findings.append(Finding(.engineError, "current-is-visible", "the current question '\(survey.questions[session.activeSlot].id)' is not visible"))
        }
        lastActive = active
        submitShown = showSubmit
        answered = answeredCount

        for event in result.events where event.name == "dead_end" {
            let question = event.detail?.objectValue?["question"]?.stringValue
            findings.append(
                Finding(
                    .hazard, "dead-end",
                    "the last question '\(question ?? "?")' became hidden while it was the active one: Submit never appears (reference §6)",
                    question: question))
        }
        for event in result.events where event.name == "stalled" {
            let question = event.detail?.objectValue?["question"]?.stringValue
            let toggled = event.detail?.objectValue?["toggled"]?.stringValue ?? "?"
            findings.append(
                Finding(
                    .hazard, "multi-select-stall",
                    "tapping an option of '\(toggled)' hid the active question '\(question ?? "?")', and a multi_select tap does not move the survey on (SQ:1292-1298): the respondent sees no current question and no Submit until Next on '\(toggled)' or another answer change",
                    question: question))
        }
        if case .submit = action, case .ok = result.outcome {
            for (slot, answer) in session.state.answers.enumerated() where answer != nil && !session.state.visible[slot] {
                let id = survey.questions[slot].id
                findings.append(
                    Finding(
                        .hazard, "hidden-answer-submitted",
                        "the payload holds an answer to '\(id)', which is hidden at submit: SurveyNative keeps and submits answers of hidden questions (reference §3)",
                        question: id))
            }
        }
        return findings
    }

    /// The session's invariant, once a walk is over (debug builds check it after every step).
    func finish(_ session: any SurveySession) -> [Finding] {
        guard let session = session as? SurveyNativeSession, let violation = session.invariantViolation() else { return [] }
        return [Finding(.engineError, "view-matches-answers", violation)]
    }
}
