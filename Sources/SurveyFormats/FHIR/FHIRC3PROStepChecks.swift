import SurveyCore

/// After every step of a walk under the c3pro profile: the session's invariants and the response C3-PRO
/// builds (a failure is a bug of ours), and C3-PRO's hazards, which a team moving off it needs to see: a step
/// shown because a requirement's question has no result yet (an R4 engine reads it as unanswered), a Back that
/// leaves passed-over steps on ResearchKit's path (their answers stay in the result), a response that submits
/// a step's first visit's answer rather than its last (ResearchKit 1.5), a response item with both
/// `answer` and `item`, which R4 forbids (qrs-1), and one with an empty answer list (a skipped multiple choice).
enum FHIRC3PROStepChecks {
    static func check(_ session: FHIRC3PROSession, after action: Action, result: StepResult) -> [Finding] {
        var findings: [Finding] = []
        for event in result.events {
            let detail = event.detail?.objectValue
            let step = detail?["step"]?.stringValue ?? "?"
            switch event.name {
            case "enabled_without_result":
                let questions = (detail?["questions"]?.arrayValue ?? []).compactMap(\.stringValue)
                findings.append(
                    Finding(
                        .hazard, "c3pro-enabled-without-result",
                        "C3-PRO shows '\(step)' because \(questions.map { "'\($0)'" }.joined(separator: ", ")) has no result yet; an R4 engine reads an unanswered question as not matching and hides it",
                        question: step))
            case "back_appended":
                let kept = (detail?["kept"]?.arrayValue ?? []).compactMap(\.stringValue)
                findings.append(
                    Finding(
                        .hazard, "c3pro-back-keeps-path",
                        "Back passed over \(kept.map { "'\($0)'" }.joined(separator: ", ")) to '\(step)': ResearchKit keeps \(kept.count == 1 ? "it" : "them") on the path, so \(kept.count == 1 ? "its result stays" : "their results stay") in the task result (requirements read \(kept.count == 1 ? "it" : "them"), the response submits \(kept.count == 1 ? "its answer" : "their answers")) and '\(step)' is on the path twice",
                        question: step))
            default:
                break
            }
        }
        // Read through the cheap views: the path is not built at every step.
        if let current = session.currentQuestion, session.visibleCount == 0 || session.visibleQuestion(at: session.visibleCount - 1) != current {
            findings.append(Finding(.engineError, "current-ends-path", "the step on screen '\(current)' is not the last of the path"))
        }
        // Done, or Skip on the last step, builds the response.
        let ends: Bool =
            switch action {
            case .submit, .skip: true
            default: false
            }
        if ends, result.outcome == .ok, let response = session.payload {
            findings += responseFindings(response, session)
        }
        return findings
    }

    static func finish(_ session: FHIRC3PROSession) -> [Finding] {
        session.invariantViolation().map { [Finding(.engineError, "c3pro-path", $0)] } ?? []
    }

    private static func responseFindings(_ response: JSONValue, _ session: FHIRC3PROSession) -> [Finding] {
        var findings: [Finding] = []
        let onPath = Set(session.visibleQuestions)
        func visit(_ items: [JSONValue]) {
            for entry in items {
                let object = entry.objectValue ?? [:]
                let linkId = object["linkId"]?.stringValue ?? ""
                if object["answer"] != nil, !onPath.contains(linkId) {
                    findings.append(Finding(.engineError, "c3pro-answer-off-path", "the response answers '\(linkId)', which is not on the path", question: linkId))
                }
                if object["answer"]?.arrayValue?.isEmpty == true {
                    findings.append(
                        Finding(
                            .hazard, "c3pro-empty-answer",
                            "C3-PRO submits '\(linkId)' with an empty answer list (a skipped multiple choice): FHIR JSON has no empty arrays, and an R4 engine leaves an unanswered question out",
                            question: linkId))
                }
                if object["answer"] != nil, object["item"] != nil {
                    findings.append(
                        Finding(
                            .hazard, "c3pro-answer-and-item",
                            "C3-PRO writes the items under the question '\(linkId)' beside its answer, under item.item: R4 puts them under answer.item (qrs-1)",
                            question: linkId))
                }
                visit(object["item"]?.arrayValue ?? [])
            }
        }
        visit(response.objectValue?["item"]?.arrayValue ?? [])
        // The response keeps a step's first entry that gives an item; with one result a visit, that may be an old one.
        var firstAnswers: [Int: [FHIR.Value]] = [:]
        for (step, answers) in session.taskResult where firstAnswers[step] == nil && FHIRC3PROResponse.givesItem(answers, format: session.task.steps[step].format) {
            firstAnswers[step] = answers
        }
        for (step, submitted) in firstAnswers.sorted(by: { $0.key < $1.key }) {
            let last = session.answers[step] ?? []
            guard submitted != last else { continue }
            let id = session.task.steps[step].id
            let format = session.task.steps[step].format
            findings.append(
                Finding(
                    .hazard, "c3pro-first-visit-wins",
                    "'\(id)' was answered on more than one visit: the response submits \(CanonicalJSON.compact(FHIRC3PROSession.json(submitted, format: format))), the answer of its first entry on the path, not the last one shown, \(last.isEmpty ? "none" : CanonicalJSON.compact(FHIRC3PROSession.json(last, format: format))) (ResearchKit 1.5 keeps a result a visit; deduplicateItemsByLinkId keeps the first item)",
                    question: id))
        }
        return findings
    }
}
