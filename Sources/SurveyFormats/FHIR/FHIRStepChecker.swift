import SurveyCore

/// After every step of a walk: the session's invariants and the response rules of §A2 (a failure is a bug
/// of ours), and the survey's hazards (an enablement cycle that never settles).
final class FHIRStepChecker: StepChecker {
    private let survey: FHIRSurvey
    /// Whether a response's findings are kept by its key (`FHIRSurvey.responseChecks`); off to compare.
    private let memoizes: Bool

    init(survey: FHIRSurvey, memoizes: Bool = true) {
        self.survey = survey
        self.memoizes = memoizes
    }

    func check(_ session: any SurveySession, after action: Action, result: StepResult) -> [Finding] {
        if let session = session as? FHIRC3PROSession { return FHIRC3PROStepChecks.check(session, after: action, result: result) }
        guard let session = session as? FHIRSession else {
            return [Finding(.engineError, "session-type", "a FHIR Questionnaire made a session of another format")]
        }
        var findings: [Finding] = []
        for event in result.events where event.name == "enablement_unsettled" {
            let first = event.detail?.objectValue?["items"]?.arrayValue?.first?.stringValue
            findings.append(
                Finding(.hazard, "enablement-unsettled", "enableWhen conditions form a cycle with no fixpoint: the enablement of '\(first ?? "?")' keeps changing", question: first))
        }
        // The focus's position on the page is nil exactly when it is not shown: asked directly, not counted.
        if let current = session.currentQuestion, !session.isShown(session.state.focus) {
            findings.append(Finding(.engineError, "focus-is-visible", "the focus '\(current)' is not on screen"))
        }
        if action == .submit, result.outcome == .ok {
            findings += submittedResponseFindings(session)
        }
        return findings
    }

    func finish(_ session: any SurveySession) -> [Finding] {
        if let session = session as? FHIRC3PROSession { return FHIRC3PROStepChecks.finish(session) }
        guard let session = session as? FHIRSession, let violation = session.invariantViolation() else { return [] }
        return [Finding(.engineError, "enablement-matches-answers", violation)]
    }

    /// The findings of the submitted response, worked out once per response key (a session with the key of
    /// one checked before writes the same response and gets the same findings).
    private func submittedResponseFindings(_ session: FHIRSession) -> [Finding] {
        let check = { session.payload.map { self.responseFindings($0, session) } ?? [] }
        guard memoizes, let key = session.responseKey else { return check() }
        return survey.responseChecks.value(for: key, check)
    }

    /// The structure rules of a response (§A2): no item with both answer and item (qrs-1), no empty group,
    /// completed only when every enabled required item is answered; and read back as `import` reads it, every
    /// answer placed (one item per repeating question, qrs-2, no repeat of what does not repeat) on an item
    /// that is enabled.
    private func responseFindings(_ response: JSONValue, _ session: FHIRSession) -> [Finding] {
        var findings: [Finding] = []
        let input = session.submittedInput
        let completed = response.objectValue?["status"]?.stringValue == "completed"
        if completed, let missing = input.unansweredRequired.first {
            findings.append(Finding(.engineError, "completed-has-required", "the response is completed though the required '\(missing)' is unanswered", question: missing))
        }
        func visit(_ items: [JSONValue]) {
            for entry in items {
                let object = entry.objectValue ?? [:]
                let linkId = object["linkId"]?.stringValue ?? ""
                let (answers, nested) = (object["answer"], object["item"])
                if answers != nil, nested != nil {
                    findings.append(Finding(.engineError, "qrs-1", "the response item '\(linkId)' has both answer and item", question: linkId))
                }
                if survey.itemByLinkId[linkId].map({ survey.items[$0].type }) == .group, (nested?.arrayValue ?? []).isEmpty {
                    findings.append(Finding(.engineError, "no-empty-groups", "the response holds the group '\(linkId)' with no items", question: linkId))
                }
                visit(nested?.arrayValue ?? [])
                for answer in answers?.arrayValue ?? [] { visit(answer.objectValue?["item"]?.arrayValue ?? []) }
            }
        }
        visit(response.objectValue?["item"]?.arrayValue ?? [])
        guard let reading = survey.readBack(response, settings: session.settings) else {
            return findings + [Finding(.engineError, "response-readable", "the response cannot be read back as import reads it")]
        }
        for problem in reading.problems {
            findings.append(Finding(.engineError, "response-readable", "reading the response back: \(problem.message)"))
        }
        for answer in reading.answers {
            if let position = input.tree.indexByID[answer.question], !input.enablement[position] {
                findings.append(Finding(.engineError, "disabled-item-answered", "the response holds '\(answer.question)', which is disabled", question: answer.question))
            }
        }
        return findings
    }
}

extension FHIRSurvey {
    /// A response read as `import` reads it (nil: it cannot be), from the value itself rather than its text.
    func readBack(_ response: JSONValue, settings: SessionSettings) -> PayloadReading? {
        try? readPayload(JSONCursor(node: JSONDocument(response, path: "response").root), settings: settings)
    }
}
