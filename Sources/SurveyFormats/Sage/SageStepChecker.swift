import SurveyCore

/// After every step of a walk: the session's invariants (a failure is a bug of ours), the task's hazards as
/// the engine runs them (a target no navigator has, rules that cancel, `exit` dropping a section, a stale
/// answer read after Back, a Back after the result was saved), and what the same path does under the other
/// releases that render the file: a shadow session per other profile replays every action, and the first
/// place where a respondent would see something else is reported.
final class SageStepChecker: StepChecker {
    private let survey: SageSurvey
    private var shadows: [SageSession]?
    private var reportedDifferences: Set<String> = []

    init(survey: SageSurvey) {
        self.survey = survey
    }

    func check(_ session: any SurveySession, after action: Action, result: StepResult) -> [Finding] {
        guard let session = session as? SageSession else {
            return [Finding(.engineError, "session-type", "a Sage task made a session of another format")]
        }
        var findings = invariants(session)
        findings += hazards(session, after: action, result: result)
        findings += versionDifferences(session, after: action)
        return findings
    }

    func finish(_ session: any SurveySession) -> [Finding] { [] }

    private func invariants(_ session: SageSession) -> [Finding] {
        var findings: [Finding] = []
        if let current = session.current, !session.visible.contains(current) {
            findings.append(Finding(.engineError, "current-is-visible", "the step on screen '\(survey.steps[current].id)' is not on the path"))
        }
        for navigator in session.open {
            if let stray = Self.strayMarker(navigator.result) {
                findings.append(Finding(.engineError, "path-within-history", "the path of '\(navigator.result.identifier)' names '\(stray)', which has no result"))
            }
        }
        if session.hasEnded, session.handedOver == nil, !session.engine.isKotlin {
            findings.append(Finding(.engineError, "result-once-finished", "the task finished without handing over its result"))
        }
        return findings
    }

    /// A path identifier no entry of the history has. Markers are added with the entries, mostly in the same
    /// order, so each is searched for from where the one before was found: one pass over both, usually.
    private static func strayMarker(_ result: SageBranchResult) -> String? {
        let history = result.stepHistory
        var cursor = 0
        for marker in result.path {
            let matches = { (entry: SageResultEntry) in entry.identifier == marker.identifier }
            guard let found = history[cursor...].firstIndex(where: matches) ?? history[..<cursor].firstIndex(where: matches) else {
                return marker.identifier
            }
            cursor = found
        }
        return nil
    }

    private func hazards(_ session: SageSession, after action: Action, result: StepResult) -> [Finding] {
        var findings: [Finding] = []
        if result.events.contains(where: { $0.name == "result_saved" }), session.engine.keepsHistory {
            findings += abandonedAnswers(session)
        }
        if action == .back, session.handedOver != nil, !session.hasEnded {
            findings.append(
                Finding(
                    .hazard, "back-after-result-saved",
                    "the result was handed to the app when the completion step showed; going back and changing answers changes nothing uploaded",
                    question: session.currentQuestion))
        }
        for event in result.events {
            let detail = event.detail?.objectValue
            switch event.name {
            case "task_finished" where detail?["unknown_target"] != nil:
                let step = session.unknownTarget.map { survey.steps[$0.step].id }
                findings.append(
                    Finding(
                        .hazard, "unknown-target-ends-task",
                        "'\(step ?? "?")' goes to '\(detail?["unknown_target"]?.stringValue ?? "?")', which no navigator has: the task finishes there as if completed",
                        question: step))
            case "task_finished" where detail?["saved"] == false:
                findings.append(Finding(.hazard, "exit-saves-nothing", "exit ends the whole run and saves no result (AssessmentModel Kotlin)"))
            case "target_not_found" where detail?["in"] != "task":
                findings.append(
                    Finding(
                        .hazard, "target-not-found-ends-section",
                        "a target '\(detail?["target"]?.stringValue ?? "?")' is not in \(detail?["in"]?.stringValue ?? "the section"): the section ends there",
                        question: session.currentQuestion))
            case "rules_conflict":
                findings.append(
                    Finding(
                        .hazard, "matching-rules-cancel",
                        "several rules matched (\(event.detail.map(CanonicalJSON.compact) ?? "")): \(survey.generation == .legacy ? "two or more distinct targets" : "two or more matching rules") cancel each other and the task goes on in order",
                        question: session.currentQuestion))
            case "skip_target_not_taken":
                findings.append(
                    Finding(
                        .hazard, "skip-target-not-taken",
                        "the skip button's target '\(detail?["target"]?.stringValue ?? "?")' was not taken: the rules read the answers the skip kept\(session.engine.keepsHistory ? ", and from SageResearch 3.4.92 a skip after Back is written on a result the navigator does not read" : "")",
                        question: session.currentQuestion))
            case "section_result_dropped":
                findings.append(
                    Finding(
                        .hazard, "exit-drops-section-result",
                        "exit inside section '\(event.detail?.stringValue ?? "?")' ends the task without adding the section's result: its answers are not uploaded"))
            case "stale_answer_read":
                let step = detail?["answer"]?.stringValue
                findings.append(
                    Finding(
                        .hazard, "stale-answer-read",
                        "the rules read the first answer of '\(step ?? "?")' \(detail.flatMap { $0["read"] }.map(CanonicalJSON.compact) ?? "?"), not the one on screen \(detail.flatMap { $0["on_screen"] }.map(CanonicalJSON.compact) ?? "?") (\(session.engine.release.summary) searches the history from its start)",
                        question: step))
            default: break
            }
        }
        return findings
    }

    /// From SageResearch 3.4.92 (and in AssessmentModel) the uploaded history keeps the answers of steps a
    /// Back left: they are not on the path, but they are uploaded (up to 3.3.91 they were not).
    private func abandonedAnswers(_ session: SageSession) -> [Finding] {
        let result = session.open[0].result
        let onPath = Set(result.pathIdentifiers)
        return result.stepHistory.compactMap { entry in
            guard let step = entry.step, !onPath.contains(entry.identifier),
                entry.value != nil || entry.inputs.contains(where: { $0.value != nil })
            else { return nil }
            return Finding(
                .hazard, "abandoned-answers-uploaded",
                "the result uploads the answer of '\(survey.steps[step].id)', which a Back took off the path (\(session.engine.displayName) keeps every visit; up to SageResearch 3.3.91 it was not uploaded)",
                question: survey.steps[step].id)
        }
    }

    /// Replays the action under every other profile of the file's generation and reports where the step
    /// on screen, the end of the task or Done first differs.
    private func versionDifferences(_ session: SageSession, after action: Action) -> [Finding] {
        if shadows == nil {
            // Releases that differ only in the result they write navigate alike: one shadow each way.
            var twins: Set<String> = [session.engine.navigationTwin.rawValue]
            shadows = SageEngine.profiles(for: survey.generation).compactMap { profile in
                var engines: [SageEngine] = [SageEngine(generation: survey.generation, settings: withProfile(session.settings, profile))]
                if survey.generation == .assessment {
                    var other = session.settings
                    other.options[SageEngine.implementationOption] = session.engine.isKotlin ? "swift" : "kotlin"
                    engines = [SageEngine(generation: survey.generation, settings: other)]
                } else if !twins.insert(engines[0].navigationTwin.rawValue).inserted {
                    return nil
                }
                return engines.first.flatMap { $0 == session.engine ? nil : SageSession(survey: survey, engine: $0, settings: session.settings, coverage: nil) }
            }
            // The shadows start fresh: replay nothing before this first action (walks check every step).
        }
        var findings: [Finding] = []
        var diverged: [SageSession] = []
        let here = Sight(session)
        for shadow in shadows ?? [] {
            _ = shadow.perform(action)
            let there = Sight(shadow)
            guard here != there else { continue }
            // Past the first difference the two paths are no longer comparable: the shadow stops.
            diverged.append(shadow)
            let key = "\(shadow.engine.name)|\(session.currentQuestion ?? "")"
            guard reportedDifferences.insert(key).inserted else { continue }
            findings.append(
                Finding(
                    .hazard, "version-difference",
                    "after this path \(session.engine.displayName) shows \(here.description), but \(shadow.engine.displayName) shows \(there.description)",
                    question: session.currentQuestion))
        }
        shadows?.removeAll { shadow in diverged.contains { $0 === shadow } }
        return findings
    }

    private func withProfile(_ settings: SessionSettings, _ profile: String) -> SessionSettings {
        var copy = settings
        copy.profile = profile
        return copy
    }

    /// What a respondent sees: the step on screen (or the end, saved or not) and whether Done shows; put in
    /// words only for a finding.
    private struct Sight: Equatable {
        var ended: Bool
        var saved: Bool
        var step: String?
        var done: Bool

        init(_ session: SageSession) {
            ended = session.hasEnded
            saved = ended && session.handedOver != nil
            step = ended ? nil : session.currentQuestion
            done = !ended && session.isSubmittable
        }

        var description: String {
            if ended { return saved ? "the end of the task" : "the end of the task with nothing saved" }
            return "'\(step ?? "?")'\(done ? " with Done" : "")"
        }
    }
}
