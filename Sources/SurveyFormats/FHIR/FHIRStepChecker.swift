import SurveyCore

/// After every step of a walk: the session's invariants and the response rules of §A2 (a failure is a bug
/// of ours), and the survey's hazards (an enablement cycle that never settles).
final class FHIRStepChecker: StepChecker {
    private let survey: FHIRSurvey

    init(survey: FHIRSurvey) {
        self.survey = survey
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
        if let current = session.currentQuestion, !session.visibleQuestions.contains(current) {
            findings.append(Finding(.engineError, "focus-is-visible", "the focus '\(current)' is not on screen"))
        }
        if action == .submit, result.outcome == .ok, let response = session.payload {
            findings += responseFindings(response, session)
        }
        return findings
    }

    func finish(_ session: any SurveySession) -> [Finding] {
        if let session = session as? FHIRC3PROSession { return FHIRC3PROStepChecks.finish(session) }
        guard let session = session as? FHIRSession, let violation = session.invariantViolation() else { return [] }
        return [Finding(.engineError, "enablement-matches-answers", violation)]
    }

    /// The structure rules of a response (§A2): no item with both answer and item (qrs-1), one item per
    /// repeating question (qrs-2), no answer to a disabled item, no empty group, completed only when every
    /// enabled required item is answered.
    private func responseFindings(_ response: JSONValue, _ session: FHIRSession) -> [Finding] {
        var findings: [Finding] = []
        let input = session.responseInput
        let completed = response.objectValue?["status"]?.stringValue == "completed"
        if completed, let missing = input.unansweredRequired.first {
            findings.append(Finding(.engineError, "completed-has-required", "the response is completed though the required '\(missing)' is unanswered", question: missing))
        }
        func visit(_ items: [JSONValue], prefix: String) {
            var linkIds: [String: Int] = [:]
            for entry in items {
                let object = entry.objectValue ?? [:]
                let linkId = object["linkId"]?.stringValue ?? ""
                linkIds[linkId, default: 0] += 1
                let item = survey.item(linkId)
                if object["answer"] != nil, object["item"] != nil {
                    findings.append(Finding(.engineError, "qrs-1", "the response item '\(linkId)' has both answer and item", question: linkId))
                }
                if item?.type == .group, (object["item"]?.arrayValue ?? []).isEmpty {
                    findings.append(Finding(.engineError, "no-empty-groups", "the response holds the group '\(linkId)' with no items", question: linkId))
                }
                let number = linkIds[linkId] ?? 1
                let id = item?.isRepeatingGroup == true ? "\(prefix)\(linkId)#\(number)" : prefix + linkId
                if let position = input.tree.indexByID[id], input.enablement[position] != .true {
                    findings.append(Finding(.engineError, "disabled-item-answered", "the response holds '\(id)', which is disabled", question: id))
                }
                let childPrefix = item?.isRepeatingGroup == true ? id + "/" : prefix
                visit(object["item"]?.arrayValue ?? [], prefix: childPrefix)
                for (index, answer) in (object["answer"]?.arrayValue ?? []).enumerated() {
                    visit(answer.objectValue?["item"]?.arrayValue ?? [], prefix: item?.repeats == true ? "\(id)#\(index + 1)/" : prefix)
                }
            }
            for (linkId, count) in linkIds where count > 1 && survey.item(linkId)?.isRepeatingGroup != true {
                findings.append(Finding(.engineError, "qrs-2", "the response repeats the item '\(linkId)' \(count) times; a repeating question's answers go in one item", question: linkId))
            }
        }
        visit(response.objectValue?["item"]?.arrayValue ?? [], prefix: "")
        return findings
    }
}
