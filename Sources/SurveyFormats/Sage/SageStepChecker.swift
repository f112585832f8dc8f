import SurveyCore

/// After every step of a walk: the path model's invariants (a failure is a bug of ours) and the task's
/// hazards, simulated faithfully: an unknown rule target ends the task silently (reference §1.2, navigator),
/// and matching rules that cancel each other fall through to the next step (§1.2, steps 3-4).
final class SageStepChecker: StepChecker {
    private let survey: SageSurvey

    init(survey: SageSurvey) {
        self.survey = survey
    }

    func check(_ session: any SurveySession, after action: Action, result: StepResult) -> [Finding] {
        guard let session = session as? SageSession else {
            return [Finding(.engineError, "session-type", "a Sage task made a session of another format")]
        }
        var findings: [Finding] = []
        let visible = session.visibleQuestions
        if Set(visible).count != visible.count {
            findings.append(Finding(.engineError, "path-has-each-step-once", "the step path holds a step twice: \(visible.joined(separator: " "))"))
        }
        if (session.payload == nil) != (session.ending == nil) {
            findings.append(Finding(.engineError, "result-once-finished", "the task result must exist exactly when the task has finished"))
        }
        for event in result.events {
            switch event.name {
            case "task_finished" where event.detail?.objectValue?["reason"] == "unknown_target":
                let step = session.unknownTarget.map { survey.steps[$0.step].id }
                let target = event.detail?.objectValue?["target"]?.stringValue ?? "?"
                findings.append(
                    Finding(
                        .hazard, "unknown-target-ends-task",
                        "'\(step ?? "?")' jumps to '\(target)', which no step has: the real engine ends the task silently (reference §1.2)",
                        question: step))
            case "rules_conflict":
                let step = session.history.last.map { survey.steps[$0].id }
                findings.append(
                    Finding(
                        .hazard, "matching-rules-cancel",
                        "several rules of '\(step ?? "?")' matched (\(event.detail.map(CanonicalJSON.compact) ?? "")): \(survey.generation == .legacy ? "two or more distinct targets" : "two or more matching rules") cancel each other and the task goes on in order (reference §1.2)",
                        question: step))
            default: break
            }
        }
        return findings
    }

    func finish(_ session: any SurveySession) -> [Finding] { [] }
}
