import SurveyCore

/// After every step of a walk: the session's invariants (a failure is a bug of ours), the task's hazards as
/// the engine runs them (a target no navigator has, rules that cancel, `exit` dropping a section, a stale
/// answer read after Back, a Back after the result was saved), and what the same path does under the other
/// releases that render the file: each other profile's session replays every action (shared across a walker's
/// walks: `SageShadowTree`), and the first place where a respondent would see something else is reported.
final class SageStepChecker: StepChecker {
    private let survey: SageSurvey
    /// What the other releases show after each path, shared with the checkers of the walker's other walks.
    private let tree: SageShadowTree
    // A checker is one walk's, used by one thread at a time: Swift's dynamic exclusivity checks on its state,
    // paid at every step for each release compared, are not needed.
    /// The walk's actions so far.
    @exclusivity(unchecked) private var path: [Action] = []
    /// Where the walk's path is in the tree; nil once it left it (the tree was full).
    @exclusivity(unchecked) private var node: SageShadowTree.Node?
    /// By release: whether it is still compared (it showed what this session did at every step so far).
    @exclusivity(unchecked) private var compared: [Bool] = []
    /// By release: its session after the walk's path, once the walk left the tree.
    @exclusivity(unchecked) private var live: [SageSession?] = []
    @exclusivity(unchecked) private var reportedDifferences: Set<String> = []

    /// A checker of its own (one walk's; a walker's checkers share a tree: `SageSurvey.makeStepCheckerSource()`).
    convenience init(survey: SageSurvey) {
        self.init(survey: survey, tree: SageShadowTree(survey: survey, nodeLimit: 0))
    }

    init(survey: SageSurvey, tree: SageShadowTree) {
        self.survey = survey
        self.tree = tree
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
        // By position: a navigator copied out of the list would retain and release each of its parts.
        for depth in session.open.indices {
            if let stray = Self.strayMarker(session.open[depth].result) {
                findings.append(
                    Finding(.engineError, "path-within-history", "the path of '\(session.open[depth].result.identifier)' names '\(stray)', which has no result"))
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
    /// on screen, the end of the task or Done first differs. What a release shows after the walk's path comes
    /// from the tree the walker's checkers share (`SageShadowTree`): read from a node when a walk took the
    /// same actions before, else from the release's session, performing the action.
    private func versionDifferences(_ session: SageSession, after action: Action) -> [Finding] {
        if path.isEmpty {
            tree.prepare(for: session)
            node = tree.root
            // The releases start fresh: nothing before this first action is replayed (walks check every step).
            compared = Array(repeating: true, count: tree.engines.count)
            live = Array(repeating: nil, count: tree.engines.count)
        }
        path.append(action)
        let sights = sightsAfter(action)
        var findings: [Finding] = []
        let here = Sight(session)
        for release in tree.engines.indices where compared[release] {
            let there = sights[release]!
            guard here != there else { continue }
            // Past the first difference the two paths are no longer comparable: the release is not compared again.
            compared[release] = false
            live[release] = nil
            let engine = tree.engines[release]
            let key = "\(engine.name)|\(session.currentQuestion ?? "")"
            guard reportedDifferences.insert(key).inserted else { continue }
            findings.append(
                Finding(
                    .hazard, "version-difference",
                    "after this path \(session.engine.displayName) shows \(here.description), but \(engine.displayName) shows \(there.description)",
                    question: session.currentQuestion))
        }
        return findings
    }

    /// What each release still compared shows once the walk's path (ending with `action`) is performed.
    private func sightsAfter(_ action: Action) -> [Sight?] {
        var sights = [Sight?](repeating: nil, count: tree.engines.count)
        if let parent = node {
            if let child = tree.child(of: parent, for: action) {
                node = child
                for release in sights.indices where compared[release] {
                    if child.sights[release] == nil {
                        // No walk down this path compared the release here: its session is replayed.
                        let session = tree.replayed(release, path[...])
                        child.sessions[release] = session
                        child.sights[release] = Sight(session)
                    }
                    sights[release] = child.sights[release]
                }
                return sights
            }
            // A path no walk took: each release goes on from a copy of its session on the path so far.
            for release in sights.indices where compared[release] {
                if parent.sessions[release] == nil {
                    // The root's sessions are made when first needed (and a node where no walk compared the
                    // release gets its session replayed).
                    parent.sessions[release] = tree.replayed(release, path.dropLast())
                }
                let session = parent.sessions[release]!.copy()
                tree.perform(action, on: session)
                live[release] = session
            }
            node = tree.addChild(to: parent, for: action)
            if let child = node {
                for release in sights.indices where compared[release] {
                    child.sessions[release] = live[release]
                    child.sights[release] = Sight(live[release]!)
                    live[release] = nil
                }
                return child.sights
            }
        } else {
            for release in sights.indices where compared[release] { tree.perform(action, on: live[release]!) }
        }
        for release in sights.indices where compared[release] { sights[release] = Sight(live[release]!) }
        return sights
    }

    /// What a respondent sees: the step on screen (or the end, saved or not) and whether Done shows; put in
    /// words only for a finding.
    struct Sight: Equatable {
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
