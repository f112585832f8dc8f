import SurveyCore

/// After every step of a walk: the lifecycle's invariants (submitted exactly once; a payload only after it;
/// the gate presents a questionnaire at most once a process unless `forceShow`) and the quirks of the server,
/// simulated and reported as hazards (docs/owlmetry.md): an answer cleared on the device survives the per-key
/// merge, and a client that sends no user id (not the Swift SDK) creates a new row with every save.
final class OwlmetryStepChecker: StepChecker {
    private let survey: OwlmetrySurvey

    init(survey: OwlmetrySurvey) {
        self.survey = survey
    }

    func check(_ session: any SurveySession, after action: Action, result: StepResult) -> [Finding] {
        guard let session = session as? OwlmetrySession else {
            return [Finding(.engineError, "session-type", "an Owlmetry questionnaire made a session of another format")]
        }
        var findings: [Finding] = []
        if session.submissions > 1 {
            findings.append(Finding(.engineError, "submitted-once", "was_submitted was true on \(session.submissions) calls; the server flips submitted_at once"))
        }
        if session.gatePresentationsThisProcess > 1, !session.host.forceShow {
            findings.append(Finding(.engineError, "presented-once-per-process", "the gate presented the questionnaire \(session.gatePresentationsThisProcess) times in one process; Owl.markQuestionnaireShown stops a second"))
        }
        if (session.payload != nil) != (session.submittedRow != nil) {
            findings.append(Finding(.engineError, "payload-after-submit", "the payload must exist exactly once the questionnaire is submitted"))
        }
        for event in result.events where event.name == "draft_saved" || event.name == "submitted" {
            guard let detail = event.detail?.objectValue, let stored = detail["stored_answers"]?.objectValue, let sent = detail["answers"]?.objectValue else { continue }
            for key in stored.keys.sorted() where sent[key] == nil {
                findings.append(
                    Finding(
                        .hazard, "cleared-answer-survives-merge",
                        "the server row holds '\(key)' = \(stored[key].map(CanonicalJSON.compact) ?? "a value") but the device did not send it (cleared on the device, or a draft the manually presented view was not given): the merge is per key and empty values are not sent, so the old value stays and is submitted (questionnaire-ingest.ts:395-397)",
                        question: key))
            }
            if session.host.identity == .none, session.server.rows.count > 1 {
                findings.append(
                    Finding(
                        .hazard, "anonymous-saves-create-rows",
                        "saves without a user id made \(session.server.rows.count) rows for one respondent: the server inserts a new row for each (questionnaire-ingest.ts:439-552); the Swift SDK always sends an id"))
            }
        }
        return findings
    }

    func finish(_ session: any SurveySession) -> [Finding] { [] }
}
