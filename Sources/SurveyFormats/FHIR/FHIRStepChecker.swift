import SurveyCore

/// After every step of a walk: the session's invariants and the response rules of §A2 (a failure is a bug
/// of ours), and the survey's hazards (an enablement cycle that never settles).
final class FHIRStepChecker: StepChecker {
    private let survey: FHIRSurvey
    /// Whether a response's findings are kept by its key (`FHIRSurvey.submittedChecks`); off to compare.
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
        // The focus's position on the page is nil exactly when it is not shown: asked directly, not counted
        // (and its id, a string made from its blocks, made only for the finding).
        let focus = session.state.focus
        if !session.state.submitted, focus >= 0, !session.isShown(focus), let current = session.currentQuestion {
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
    /// one checked before writes the same response and gets the same findings), with the page the session's
    /// invariant works out afresh, which the session keeps for the end of the walk. A key checked for the
    /// first time is read back top-level item by top-level item, each kept by what it is written from: walks
    /// write the same items in many combinations (`piecewiseReadBack`).
    private func submittedResponseFindings(_ session: FHIRSession) -> [Finding] {
        guard memoizes, session.state.submitted, let key = session.responseKey, let writer = session.profile.response as? FHIRStandardResponse else {
            guard let response = session.payload else { return [] }
            let completed = response.objectValue?["status"]?.stringValue == "completed"
            return findings(survey.readBack(response: response, settings: session.settings), completed: completed, session)
        }
        let check = survey.submittedChecks.value(for: key) {
            let input = session.submittedInput
            let envelope = writer.envelope(of: input)
            var readBack = survey.readBack(response: .object(envelope), settings: session.settings)
            readBack.append(piecewiseReadBack(input, writer: writer, settings: session.settings))
            return FHIRSubmittedCheck(
                findings: findings(readBack, completed: envelope["status"]?.stringValue == "completed", session), freshPage: session.freshPage())
        }
        session.keptFreshPage = check.freshPage
        return check.findings
    }

    /// The read-back of the response's items, each top-level item's kept by its key (`FHIRResponsePieceKey`):
    /// reading them one by one, each after the count of those before it reading as the same item, gives what
    /// reading their list gives.
    private func piecewiseReadBack(_ input: FHIRResponseInput, writer: FHIRStandardResponse, settings: SessionSettings) -> FHIRReadBack {
        let places = survey.places
        var readBack = FHIRReadBack()
        // The written top-level items so far, by the first item their linkId may be (as the reader counts them).
        var counted: [Int: Int] = [:]
        var position = 0
        while position < input.tree.instances.count {
            let instance = input.tree.instances[position]
            let first = places.items(survey.items[instance.item].linkId, under: nil).first ?? -1
            let earlier = counted[first] ?? 0
            let key = FHIRResponsePieceKey(written: input.key(ofTopLevel: position, settings: settings), earlier: earlier)
            let piece = survey.responsePieceChecks.value(for: key) { [survey] in
                writer.item(at: position, input).map { survey.readBack(topLevel: $0, earlier: earlier) }
            }
            if let piece {
                readBack.append(piece)
                counted[first] = earlier + 1
            }
            position = instance.end
        }
        return readBack
    }

    /// The response rules of §A2 over what reading the response back found: completed only when every enabled
    /// required item is answered; the structure rules; every answer readable as `import` reads it and placed
    /// on an instance that is enabled.
    func findings(_ readBack: FHIRReadBack, completed: Bool, _ session: FHIRSession) -> [Finding] {
        var findings: [Finding] = []
        let input = session.submittedInput
        if completed, let missing = input.unansweredRequired.first {
            findings.append(Finding(.engineError, "completed-has-required", "the response is completed though the required '\(missing)' is unanswered", question: missing))
        }
        findings += readBack.structure
        guard !readBack.unreadable else {
            return findings + [Finding(.engineError, "response-readable", "the response cannot be read back as import reads it")]
        }
        var placed = readBack.problems
        let disabled = readBack.answered.filter { question in input.tree.indexByID[question].map { !input.enablement[$0] } ?? false }
        if !disabled.isEmpty {
            // Reading numbers the repeats of an item among the response items written: with a repeat left out
            // (nothing answered in it), an answer of a later one reads under an earlier one's id. It is judged
            // by the instance that wrote it.
            let written = (session.profile.response as? FHIRStandardResponse)?.positionsAsRead(input)
            for question in disabled where written?[question].map({ !input.enablement[$0] }) ?? true {
                placed.append(Finding(.engineError, "disabled-item-answered", "the response holds '\(question)', which is disabled", question: question))
            }
        }
        // Where siblings share a linkId, reading matches response items to them by order, as `import` does:
        // an item the engine rightly leaves out (nothing answered in it) moves those after it. What is
        // misplaced then is the form's doing, not the engine's.
        if !placed.isEmpty, let shared = survey.places.sharedLinkId {
            return findings + placed.map { Self.ambiguous($0, shared: shared) }
        }
        return findings + placed
    }

    private static func ambiguous(_ finding: Finding, shared: String) -> Finding {
        Finding(
            .hazard, "response-ambiguous",
            "\(finding.message): sibling items share the linkId '\(shared)' (que-2), so the response's items are matched to them by order, and one left out moves those after it onto the wrong item",
            question: finding.question)
    }
}

/// What the step checker works out once per submitted response key (`FHIRSurvey.submittedChecks`): the
/// response's findings, and the page the session's invariant works out afresh (`FHIRFreshPage`), both
/// functions of what the key holds.
struct FHIRSubmittedCheck: Sendable {
    let findings: [Finding]
    let freshPage: FHIRFreshPage
}
